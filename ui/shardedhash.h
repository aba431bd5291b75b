// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QHash>
#include <QString>

#include <algorithm>
#include <array>
#include <climits>

namespace converge {

/// A hash of strings to `T *` kept in 64 QHashes chosen by the key's hash, each key hashed once.
/// A QHash doubles its buckets as it grows past each power of two and places every entry anew in
/// one go: for the explorer's index of discovered rows that held the GUI thread 7.8, 9.8 and
/// 12.8 ms at 16,384, 32,768 and 65,536 rows while an account of 100,000 containers streamed in.
/// Here each growth moves a 64th of the entries, and their hashes are not computed again.
template<typename T>
class ShardedHash final
{
public:
    T *value(const QString &key) const
    {
        const Key k(key);
        return shardOf(k).value(k, nullptr);
    }
    bool contains(const QString &key) const
    {
        const Key k(key);
        return shardOf(k).contains(k);
    }
    void insert(const QString &key, T *value)
    {
        const Key k(key);
        auto &shard = shardOf(k);
        const qsizetype before = shard.size();
        shard.insert(k, value);
        m_size += shard.size() - before;
    }
    void remove(const QString &key)
    {
        const Key k(key);
        m_size -= shardOf(k).remove(k) ? 1 : 0;
    }
    qsizetype size() const { return m_size; }
    bool isEmpty() const { return m_size == 0; }
    /// The size of the fullest shard (a check of the spread).
    qsizetype largestShard() const
    {
        qsizetype most = 0;
        for (const auto &shard : m_shards)
            most = std::max(most, shard.size());
        return most;
    }
    /// Calls `f(T *)` for every value, in no particular order.
    template<typename F>
    void forEach(F &&f) const
    {
        for (const auto &shard : m_shards) {
            for (T *value : shard)
                f(value);
        }
    }

private:
    static constexpr int shardBits = 6;

    struct Key
    {
        explicit Key(const QString &k)
            : text(k)
            , hash(qHash(k))
        {}
        QString text;
        size_t hash = 0;
        friend bool operator==(const Key &a, const Key &b)
        {
            return a.hash == b.hash && a.text == b.text;
        }
        // The low bits place an entry in its shard's buckets; the high ones chose the shard.
        friend size_t qHash(const Key &k, size_t seed) { return k.hash ^ seed; }
    };

    QHash<Key, T *> &shardOf(const Key &k)
    {
        return m_shards[k.hash >> (sizeof(size_t) * CHAR_BIT - shardBits)];
    }
    const QHash<Key, T *> &shardOf(const Key &k) const
    {
        return m_shards[k.hash >> (sizeof(size_t) * CHAR_BIT - shardBits)];
    }

    std::array<QHash<Key, T *>, 1 << shardBits> m_shards;
    qsizetype m_size = 0;
};

} // namespace converge

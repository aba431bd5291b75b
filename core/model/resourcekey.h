// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QHashFunctions>
#include <QString>

#include <compare>
#include <optional>

namespace converge {

/// A resource's identity within a workspace: kind/name, e.g. "BlobContainer/invoices".
struct ResourceKey
{
    QString kind;
    QString name;

    QString toString() const { return kind + QLatin1Char('/') + name; }
    /// Parses "Kind/name"; nullopt when either side is empty or there is no '/'.
    static std::optional<ResourceKey> fromString(const QString &text);

    bool isValid() const { return !kind.isEmpty() && !name.isEmpty(); }

    friend bool operator==(const ResourceKey &, const ResourceKey &) = default;
    friend std::strong_ordering operator<=>(const ResourceKey &a, const ResourceKey &b)
    {
        if (const int c = a.kind.compare(b.kind); c != 0)
            return c < 0 ? std::strong_ordering::less : std::strong_ordering::greater;
        const int c = a.name.compare(b.name);
        return c < 0 ? std::strong_ordering::less
                     : (c > 0 ? std::strong_ordering::greater : std::strong_ordering::equal);
    }
};

inline size_t qHash(const ResourceKey &key, size_t seed = 0) noexcept
{
    return qHashMulti(seed, key.kind, key.name);
}

inline std::optional<ResourceKey> ResourceKey::fromString(const QString &text)
{
    const qsizetype slash = text.indexOf(QLatin1Char('/'));
    if (slash <= 0 || slash == text.size() - 1)
        return std::nullopt;
    return ResourceKey{text.left(slash), text.mid(slash + 1)};
}

} // namespace converge

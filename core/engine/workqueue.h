// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcekey.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

#include <limits>
#include <map>
#include <optional>
#include <utility>

namespace converge {

/// The controller's queue of resource keys, with Kubernetes' work-queue guarantees:
/// - a key is queued once however often it is added (the most urgent lane and the earliest due
///   time win);
/// - a key handed out by take() is not handed out again until done() is called for it;
/// - a key added while in flight is queued again when done() is called.
///
/// Lanes order the ready keys: a person's action before a spec change before a retry before a
/// resync; within a lane, first come first served. Keys can be grouped (e.g. by account) and each
/// group can be limited to a number of keys in flight at once, so that one slow account does not
/// hold every worker.
///
/// Not thread-safe: the controller guards it with its own mutex. Time is passed in, never read.
class WorkQueue final
{
public:
    enum class Lane { UserAction = 0, SpecChange = 1, Retry = 2, Resync = 3 };

    /// Queues `key` now (invalid `due`) or at `due`. A key already queued stays queued once: the
    /// more urgent lane and the earlier due time win; it keeps its place in its lane unless it
    /// moves to a more urgent lane, where it goes to the back. A key in flight is remembered
    /// (merged the same way) and queued again by done().
    void add(const ResourceKey &key, Lane lane, const QDateTime &due = {});
    /// Sets the group of a key (e.g. its account); keys without a group (empty) are never limited
    /// or held. A key in flight keeps the slot of the group it was taken in until done().
    void setGroup(const ResourceKey &key, const QString &group);
    /// At most `limit` keys of `group` in flight at once; 0 or less: no limit.
    void setGroupLimit(const QString &group, int limit);
    /// Holds back the whole group while now < `until` (a rate budget or an unreachable account);
    /// an invalid `until` releases it. A later call replaces the earlier hold.
    void holdGroup(const QString &group, const QDateTime &until);

    /// The most urgent key that is due at `now` (due <= now), first come first served within a
    /// lane, whose group has room and is not held; marks it in flight. nullopt when none is ready.
    /// Costs O(G + log n), G being the number of groups in use (limited, held or with keys).
    std::optional<ResourceKey> take(const QDateTime &now);
    /// The lane the key was taken from (valid between take() and done()); for a key that is only
    /// queued, its queued lane; otherwise Resync.
    Lane laneOf(const ResourceKey &key) const;
    /// Ends processing of `key`; if it was added meanwhile, it is queued again, in the lane and
    /// place of that add. No-op for a key not in flight.
    void done(const ResourceKey &key);
    /// Removes `key` from the queue and forgets an add() made while it is in flight (flight itself
    /// goes on): a person cancelled its queued work. True if anything was removed.
    bool cancel(const ResourceKey &key);
    /// cancel() for every key.
    void cancelAll();

    /// When to wake up for take() (for sleeping): the earliest over queued keys of
    /// max(due, end of the group's hold); a time in the past when a key is ready. Keys waiting
    /// only for a free slot of a full group are left out, since done() frees it: invalid when no
    /// key is queued or every queued key waits for a slot. Costs O(G).
    QDateTime nextDue() const;
    /// Queued, i.e. waiting for take(); false for a key in flight even if added again meanwhile.
    bool isQueued(const ResourceKey &key) const;
    bool isInFlight(const ResourceKey &key) const;
    /// Invalid when not queued; a key queued for "now" is due since the epoch (1970-01-01 UTC).
    QDateTime dueTime(const ResourceKey &key) const;
    int queuedCount() const; ///< keys waiting for take(), as isQueued()
    /// Of those, the keys due only after `now` (retries and polls waiting for their time),
    /// whatever their group. Costs O(G + that count).
    int waitingCount(const QDateTime &now) const;
    int inFlightCount() const;
    int groupInFlight(const QString &group) const;

private:
    struct Entry
    {
        ResourceKey key;
        Lane lane = Lane::Resync;
        qint64 due = 0;
    };
    /// Keys in (lane, sequence) order: the order take() hands them out in.
    using ReadyIndex = std::map<std::pair<int, quint64>, Entry>;
    /// Keys in (due ms since the epoch, sequence) order.
    using DueIndex = std::map<std::pair<qint64, quint64>, Entry>;

    struct Item
    {
        Lane lane = Lane::Resync;
        qint64 due = 0;       ///< ms since the epoch; 0 for "now"
        quint64 sequence = 0; ///< arrival order within a lane
    };

    /// Everything about one key, in one hash: one lookup per call.
    struct KeyState
    {
        QString group;                     ///< setGroup(); the group it is queued in
        std::optional<Item> queued;        ///< waiting for take()
        std::optional<Lane> flightLane;    ///< in flight, taken from this lane
        QString flightGroup;               ///< the group whose slot it holds while in flight
        std::optional<Item> addedInFlight; ///< queued by done()

        bool isEmpty() const { return group.isEmpty() && !queued && !flightLane && !addedInFlight; }
    };

    /// A group's settings, slots and queued keys. Partitioning the queued keys by group keeps
    /// take() from scanning the keys of a group that is full or held.
    /// Invariant: a queued key is in `ready` iff its due <= readyUpTo.
    struct Group
    {
        int limit = 0;
        int inFlight = 0;
        std::optional<qint64> heldUntil; ///< ms since the epoch
        DueIndex byDue;
        ReadyIndex ready;
        qint64 readyUpTo = std::numeric_limits<qint64>::min();

        bool isFull() const { return limit > 0 && inFlight >= limit; }
        bool isUnused() const { return limit <= 0 && inFlight <= 0 && !heldUntil && byDue.empty(); }
    };
    using Groups = std::map<QString, Group>;

    /// Merges a further add() into `item`; a promoted key gets a new sequence.
    void merge(Item &item, Lane lane, qint64 due);
    void index(const ResourceKey &key, const QString &group, const Item &item);
    void unindex(const QString &group, const Item &item);
    void dropIfUnused(Groups::iterator group);

    QHash<ResourceKey, KeyState> m_keys; ///< keys queued, in flight or with a group
    /// Groups with settings, keys in flight or queued keys; "" = no group, never limited or held.
    /// A std::map: it is walked by take() and nextDue(), and walking a QHash costs its capacity.
    Groups m_groups;
    int m_queuedCount = 0;
    int m_inFlightCount = 0;
    quint64 m_sequence = 0;
};

} // namespace converge

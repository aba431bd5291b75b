// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "workqueue.h"

#include <algorithm>
#include <utility>

namespace converge {

namespace {

// "Now" is the epoch: earlier than any time take() is asked at, so such keys are always ready.
qint64 toMsecs(const QDateTime &time)
{
    return time.isValid() ? time.toMSecsSinceEpoch() : 0;
}

QDateTime fromMsecs(qint64 msecs)
{
    return QDateTime::fromMSecsSinceEpoch(msecs, Qt::UTC);
}

} // namespace

void WorkQueue::add(const ResourceKey &key, Lane lane, const QDateTime &due)
{
    const qint64 dueMsecs = toMsecs(due);
    KeyState &state = m_keys[key];
    if (state.flightLane) {
        if (state.addedInFlight)
            merge(*state.addedInFlight, lane, dueMsecs);
        else
            state.addedInFlight = Item{lane, dueMsecs, ++m_sequence};
        return;
    }
    if (!state.queued) {
        state.queued = Item{lane, dueMsecs, ++m_sequence};
        ++m_queuedCount;
        index(key, state.group, *state.queued);
        return;
    }
    if (lane >= state.queued->lane && dueMsecs >= state.queued->due)
        return; // nothing more urgent: it keeps its place
    unindex(state.group, *state.queued);
    merge(*state.queued, lane, dueMsecs);
    index(key, state.group, *state.queued);
}

void WorkQueue::setGroup(const ResourceKey &key, const QString &group)
{
    auto state = m_keys.find(key);
    if (state == m_keys.end()) {
        if (group.isEmpty())
            return;
        state = m_keys.insert(key, {});
    }
    if (state->group == group)
        return;
    if (state->queued)
        unindex(state->group, *state->queued);
    state->group = group;
    if (state->queued)
        index(key, group, *state->queued);
    if (state->isEmpty())
        m_keys.remove(key);
}

void WorkQueue::setGroupLimit(const QString &group, int limit)
{
    if (group.isEmpty())
        return;
    const auto it = m_groups.try_emplace(group).first;
    it->second.limit = std::max(limit, 0);
    dropIfUnused(it);
}

void WorkQueue::holdGroup(const QString &group, const QDateTime &until)
{
    if (group.isEmpty())
        return;
    const auto it = m_groups.try_emplace(group).first;
    if (until.isValid())
        it->second.heldUntil = until.toMSecsSinceEpoch();
    else
        it->second.heldUntil.reset();
    dropIfUnused(it);
}

std::optional<ResourceKey> WorkQueue::take(const QDateTime &now)
{
    const qint64 nowMsecs = toMsecs(now);
    auto bestGroup = m_groups.end();
    ReadyIndex::iterator best;
    for (auto it = m_groups.begin(); it != m_groups.end(); ++it) {
        Group &group = it->second;
        if (group.byDue.empty() || group.isFull() ||
            (group.heldUntil && *group.heldUntil > nowMsecs))
            continue;
        if (nowMsecs > group.readyUpTo) {
            const auto from =
                group.byDue.upper_bound({group.readyUpTo, std::numeric_limits<quint64>::max()});
            for (auto due = from; due != group.byDue.end() && due->first.first <= nowMsecs; ++due)
                group.ready.emplace(std::pair{int(due->second.lane), due->first.second},
                                    due->second);
            group.readyUpTo = nowMsecs;
        }
        // Only when `now` went back in time can a ready key not be due yet; then look further.
        for (auto ready = group.ready.begin(); ready != group.ready.end(); ++ready) {
            if (ready->second.due > nowMsecs)
                continue;
            if (bestGroup == m_groups.end() || ready->first < best->first) {
                bestGroup = it;
                best = ready;
            }
            break;
        }
    }
    if (bestGroup == m_groups.end())
        return std::nullopt;

    const Entry entry = best->second;
    Group &group = bestGroup->second;
    group.byDue.erase(std::pair{entry.due, best->first.second});
    group.ready.erase(best);
    ++group.inFlight;

    const auto state = m_keys.find(entry.key);
    Q_ASSERT(state != m_keys.end() && state->queued && !state->flightLane);
    state->queued.reset();
    --m_queuedCount;
    state->flightLane = entry.lane;
    state->flightGroup = bestGroup->first;
    ++m_inFlightCount;
    return entry.key;
}

WorkQueue::Lane WorkQueue::laneOf(const ResourceKey &key) const
{
    const auto state = m_keys.constFind(key);
    if (state == m_keys.constEnd())
        return Lane::Resync;
    if (state->flightLane)
        return *state->flightLane;
    return state->queued ? state->queued->lane : Lane::Resync;
}

void WorkQueue::done(const ResourceKey &key)
{
    const auto state = m_keys.find(key);
    if (state == m_keys.end() || !state->flightLane)
        return;
    if (const auto group = m_groups.find(state->flightGroup); group != m_groups.end()) {
        --group->second.inFlight;
        dropIfUnused(group);
    }
    state->flightLane.reset();
    state->flightGroup.clear();
    --m_inFlightCount;

    if (state->addedInFlight) {
        state->queued = std::exchange(state->addedInFlight, std::nullopt);
        ++m_queuedCount;
        index(key, state->group, *state->queued);
    } else if (state->isEmpty()) {
        // remove(), not erase(): QHash::erase() seeks the next element, costly in a sparse hash.
        m_keys.remove(key);
    }
}

bool WorkQueue::cancel(const ResourceKey &key)
{
    const auto state = m_keys.find(key);
    if (state == m_keys.end())
        return false;
    bool removed = std::exchange(state->addedInFlight, std::nullopt).has_value();
    if (state->queued) {
        unindex(state->group, *state->queued);
        state->queued.reset();
        --m_queuedCount;
        removed = true;
    }
    if (state->isEmpty())
        m_keys.remove(key);
    return removed;
}

void WorkQueue::cancelAll()
{
    const QList<ResourceKey> keys = m_keys.keys();
    for (const ResourceKey &key : keys)
        cancel(key);
}

QDateTime WorkQueue::nextDue() const
{
    std::optional<qint64> earliest;
    for (const auto &[name, group] : m_groups) {
        if (group.byDue.empty() || group.isFull())
            continue;
        qint64 wake = group.byDue.begin()->first.first;
        if (group.heldUntil)
            wake = std::max(wake, *group.heldUntil);
        earliest = std::min(wake, earliest.value_or(wake));
    }
    return earliest ? fromMsecs(*earliest) : QDateTime();
}

bool WorkQueue::isQueued(const ResourceKey &key) const
{
    const auto state = m_keys.constFind(key);
    return state != m_keys.constEnd() && state->queued;
}

bool WorkQueue::isInFlight(const ResourceKey &key) const
{
    const auto state = m_keys.constFind(key);
    return state != m_keys.constEnd() && state->flightLane;
}

QDateTime WorkQueue::dueTime(const ResourceKey &key) const
{
    const auto state = m_keys.constFind(key);
    if (state == m_keys.constEnd() || !state->queued)
        return {};
    return fromMsecs(state->queued->due);
}

int WorkQueue::queuedCount() const
{
    return m_queuedCount;
}

int WorkQueue::waitingCount(const QDateTime &now) const
{
    const qint64 at = now.toMSecsSinceEpoch();
    int waiting = 0;
    for (const auto &[name, group] : m_groups) {
        // Later keys are at the end of the due index: walk back while they are later.
        for (auto it = group.byDue.crbegin(); it != group.byDue.crend() && it->first.first > at;
             ++it)
            ++waiting;
    }
    return waiting;
}

int WorkQueue::inFlightCount() const
{
    return m_inFlightCount;
}

int WorkQueue::groupInFlight(const QString &group) const
{
    const auto it = m_groups.find(group);
    return it == m_groups.end() ? 0 : it->second.inFlight;
}

void WorkQueue::merge(Item &item, Lane lane, qint64 due)
{
    if (lane < item.lane) {
        item.lane = lane;
        item.sequence = ++m_sequence;
    }
    item.due = std::min(item.due, due);
}

void WorkQueue::index(const ResourceKey &key, const QString &group, const Item &item)
{
    Group &queue = m_groups[group];
    const Entry entry{key, item.lane, item.due};
    queue.byDue.emplace(std::pair{item.due, item.sequence}, entry);
    if (item.due <= queue.readyUpTo)
        queue.ready.emplace(std::pair{int(item.lane), item.sequence}, entry);
}

void WorkQueue::unindex(const QString &group, const Item &item)
{
    const auto it = m_groups.find(group);
    Q_ASSERT(it != m_groups.end());
    it->second.byDue.erase(std::pair{item.due, item.sequence});
    it->second.ready.erase(std::pair{int(item.lane), item.sequence});
    dropIfUnused(it);
}

void WorkQueue::dropIfUnused(Groups::iterator group)
{
    if (group->second.isUnused())
        m_groups.erase(group);
}

} // namespace converge

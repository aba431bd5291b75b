// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "scheduler.h"

#include "clock.h"

using namespace std::chrono_literals;

namespace converge {

Scheduler::Scheduler(Clock &clock, Backoff::Settings backoff)
    : m_clock(clock)
    , m_backoff(std::move(backoff))
{}

void Scheduler::assertLocked(const Lock &lock) const
{
    Q_ASSERT(lock.owns_lock() && lock.mutex() == &m_mutex);
    Q_UNUSED(lock);
}

void Scheduler::reset()
{
    m_stopping = false;
    m_recovered = false;
}

void Scheduler::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wakeWorkers.notify_all();
    m_wakeScheduler.notify_all();
}

void Scheduler::setRecovered(const Lock &lock)
{
    assertLocked(lock);
    m_recovered = true;
}

bool Scheduler::isRecovered(const Lock &lock) const
{
    assertLocked(lock);
    return m_recovered;
}

void Scheduler::waitForWork(Lock &lock, const QDateTime &due)
{
    assertLocked(lock);
    m_clock.waitUntil(m_wakeWorkers, lock, due);
}

void Scheduler::waitForWork(Lock &lock, std::chrono::milliseconds timeout)
{
    assertLocked(lock);
    m_wakeWorkers.wait_for(lock, timeout);
}

void Scheduler::requestScan()
{
    {
        std::lock_guard lock(m_mutex);
        m_scanRequested = true;
    }
    m_wakeScheduler.notify_all();
}

void Scheduler::requestResync()
{
    {
        std::lock_guard lock(m_mutex);
        m_resyncRequested = true;
    }
    m_wakeScheduler.notify_all();
}

std::optional<Scheduler::Requests> Scheduler::waitForRequests(std::chrono::milliseconds timeout)
{
    std::unique_lock lock(m_mutex);
    if (!m_scanRequested && !m_resyncRequested && !m_stopping)
        m_wakeScheduler.wait_for(lock, timeout);
    if (m_stopping)
        return std::nullopt;
    return Requests{std::exchange(m_scanRequested, false), std::exchange(m_resyncRequested, false)};
}

// --- The queue --------------------------------------------------------------------------------

void Scheduler::add(const Lock &lock, const ResourceKey &key, WorkQueue::Lane lane,
                    const QDateTime &due)
{
    assertLocked(lock);
    m_queue.add(key, lane, due);
}

void Scheduler::setGroup(const Lock &lock, const ResourceKey &key, const QString &group)
{
    assertLocked(lock);
    m_queue.setGroup(key, group);
}

void Scheduler::setGroupLimit(const Lock &lock, const QString &group, int limit)
{
    assertLocked(lock);
    m_queue.setGroupLimit(group, limit);
}

bool Scheduler::cancel(const Lock &lock, const ResourceKey &key)
{
    assertLocked(lock);
    return m_queue.cancel(key);
}

void Scheduler::cancelAll(const Lock &lock)
{
    assertLocked(lock);
    m_queue.cancelAll();
}

int Scheduler::queuedCount(const Lock &lock) const
{
    assertLocked(lock);
    return m_queue.queuedCount();
}

int Scheduler::waitingCount(const Lock &lock) const
{
    assertLocked(lock);
    return m_queue.waitingCount(m_clock.now());
}

int Scheduler::inFlightCount(const Lock &lock) const
{
    assertLocked(lock);
    return m_queue.inFlightCount();
}

QDateTime Scheduler::nextDue(const Lock &lock) const
{
    assertLocked(lock);
    return m_queue.nextDue();
}

std::optional<Scheduler::Taken> Scheduler::take(const Lock &lock, const QDateTime &now)
{
    assertLocked(lock);
    const std::optional<ResourceKey> key = m_queue.take(now);
    if (!key)
        return std::nullopt;
    KeyState &st = m_keys[*key];
    Taken taken{*key, std::exchange(st.observeOnly, false), st.polls, m_queue.laneOf(*key)};
    // Cleared with the verdict (endRun()), or by done() when there was none.
    st.running = true;
    return taken;
}

void Scheduler::done(const Lock &lock, const ResourceKey &key)
{
    assertLocked(lock);
    if (const auto it = m_keys.find(key); it != m_keys.end())
        it->running = false;
    m_queue.done(key);
}

// --- Each key's bookkeeping -------------------------------------------------------------------

void Scheduler::requestObserveOnly(const Lock &lock, const ResourceKey &key)
{
    assertLocked(lock);
    m_keys[key].observeOnly = true;
}

bool Scheduler::isObserveOnly(const Lock &lock, const ResourceKey &key) const
{
    assertLocked(lock);
    return m_keys.value(key).observeOnly;
}

void Scheduler::freshStart(const Lock &lock, const ResourceKey &key)
{
    assertLocked(lock);
    KeyState &st = m_keys[key];
    st.failures = 0;
    st.polls = 0;
}

QList<ResourceKey> Scheduler::forget(const Lock &lock, const ResourceKey &key)
{
    assertLocked(lock);
    const QString owner = m_keys.take(key).waitingOnOwner;
    if (!owner.isEmpty() && m_waiters.contains(owner))
        m_waiters[owner].remove(key);
    m_prefetched.remove(key);
    const QList<ResourceKey> held = heldFor(lock, key);
    release(lock, key, held);
    return held;
}

std::optional<Prefetch> Scheduler::beginRun(const Lock &lock, const ResourceKey &key,
                                            bool observeOnly)
{
    assertLocked(lock);
    m_keys[key].releasedFrom.clear();
    std::optional<Prefetch> prefetch;
    if (const auto it = m_prefetched.find(key); it != m_prefetched.end()) {
        prefetch = std::move(*it);
        m_prefetched.erase(it);
    }
    // A stale page is no get.
    if (prefetch && (observeOnly || !prefetch->usable(m_keys.value(key).lastWrite, m_clock.now())))
        prefetch.reset();
    return prefetch;
}

void Scheduler::abandonRun(const Lock &lock, const ResourceKey &key)
{
    assertLocked(lock);
    m_keys[key].running = false;
}

ReconcileState Scheduler::verdict(const Lock &lock, const ResourceKey &key, const RunEnd &end,
                                  const QDateTime &now, bool *stateChanged)
{
    assertLocked(lock);
    const PhaseResult &result = end.result;
    KeyState &st = m_keys[key];
    if (end.backendWrites > 0)
        st.lastWrite = now;
    ReconcileState newState = st.stored;
    newState.lastAttempt = now;
    newState.lastReconcileId = end.reconcileId;
    newState.waitingFor = result.waitingFor;
    if (!st.waitingOnOwner.isEmpty()) {
        auto w = m_waiters.find(st.waitingOnOwner);
        if (w != m_waiters.end() && (w->remove(key), w->isEmpty()))
            m_waiters.erase(w);
        st.waitingOnOwner.clear();
    }
    if (end.waitingOnOwner) {
        st.waitingOnOwner = end.waitingOnOwner->toString();
        m_waiters[st.waitingOnOwner].insert(key);
    }
    switch (result.kind) {
    case PhaseResult::Kind::Done:
        st.failures = 0;
        st.polls = 0;
        newState.attempts = 0;
        newState.lastError.clear();
        newState.nextAttempt = {};
        // Nothing scheduled for it alone: the periodic resync looks at it next.
        if (newState.waitingFor.isEmpty())
            newState.waitingFor = QStringLiteral("resync");
        break;
    case PhaseResult::Kind::RequeueAfter:
        st.polls = end.pollCount + 1;
        newState.nextAttempt = now.addMSecs(result.after.count());
        m_queue.add(key, WorkQueue::Lane::Retry, newState.nextAttempt);
        break;
    case PhaseResult::Kind::Retry: {
        ++st.failures;
        const auto delay =
            m_backoff.delay(result.retryClass, st.failures,
                            result.after > 0ms ? std::optional(result.after) : std::nullopt);
        newState.attempts = st.failures;
        newState.lastError = result.error;
        newState.nextAttempt = now.addMSecs(delay.value_or(0ms).count());
        m_queue.add(key, WorkQueue::Lane::Retry, newState.nextAttempt);
        break;
    }
    case PhaseResult::Kind::Fatal:
        ++st.failures;
        newState.attempts = st.failures;
        newState.lastError = result.error;
        newState.nextAttempt = {};
        break;
    case PhaseResult::Kind::Removed:
        m_keys.remove(key); // not waiting for an owner: it was just cleared above
        *stateChanged = false;
        return newState;
    }
    // lastAttempt alone changing is not worth a write per resync.
    ReconcileState compare = newState;
    compare.lastAttempt = st.stored.lastAttempt;
    compare.lastReconcileId = st.stored.lastReconcileId;
    *stateChanged = compare != st.stored || !st.stored.lastAttempt.isValid();
    st.stored = newState;
    return newState;
}

bool Scheduler::endRun(const Lock &lock, const ResourceKey &key, std::optional<QuietRun> quiet)
{
    assertLocked(lock);
    const auto it = m_keys.find(key);
    if (it == m_keys.end())
        return false;
    it->running = false;
    const bool changed =
        it->quiet.has_value() != quiet.has_value() || (quiet && !quiet->sameAs(*it->quiet));
    it->quiet = std::move(quiet);
    return changed;
}

const QuietRun *Scheduler::quietRun(const Lock &lock, const ResourceKey &key) const
{
    assertLocked(lock);
    const auto it = m_keys.constFind(key);
    return it != m_keys.cend() && it->quiet ? &*it->quiet : nullptr;
}

void Scheduler::restoreQuiet(const Lock &lock, const ResourceKey &key, QuietRun quiet)
{
    assertLocked(lock);
    m_keys[key].quiet = std::move(quiet);
}

void Scheduler::prefetch(const Lock &lock, const ResourceKey &key, Prefetch page)
{
    assertLocked(lock);
    m_prefetched.insert(key, std::move(page));
}

std::optional<std::pair<QuietRun, QString>> Scheduler::unchanged(const Lock &lock,
                                                                 const ResourceKey &key) const
{
    assertLocked(lock);
    const auto st = m_keys.constFind(key);
    const auto page = m_prefetched.constFind(key);
    if (st == m_keys.cend() || !st->quiet || page == m_prefetched.cend() ||
        !st->waitingOnOwner.isEmpty() || m_waiters.contains(key.toString()) ||
        !page->usable(st->lastWrite, m_clock.now()) ||
        !QuietRun::sameObservation(page->observation, st->quiet->observed))
        return std::nullopt;
    return std::pair{*st->quiet, page->observation.requestId};
}

void Scheduler::skipped(const Lock &lock, const ResourceKey &key, const QDateTime &now,
                        const QString &reconcileId)
{
    assertLocked(lock);
    m_prefetched.remove(key);
    KeyState &st = m_keys[key];
    st.failures = 0;
    st.polls = 0;
    st.stored.lastAttempt = now;
    st.stored.lastReconcileId = reconcileId;
}

// --- Owner holds ------------------------------------------------------------------------------

bool Scheduler::holdForOwner(const Lock &lock, const ResourceKey &key, const ResourceKey &ownerKey)
{
    assertLocked(lock);
    const QDateTime due = m_queue.dueTime(ownerKey);
    const bool verdictComing =
        m_keys.value(ownerKey).running ||
        (m_queue.isQueued(ownerKey) && (!due.isValid() || due <= m_clock.now().addSecs(1)));
    // Released by this one's verdict already, it runs (an owner retrying every few hundred
    // milliseconds would hold it for ever); released by another's (its owner, then the topic it
    // names), it may wait again.
    if (!verdictComing || m_keys.value(key).releasedFrom == ownerKey.toString())
        return false;
    KeyState &st = m_keys[key];
    if (!st.waitingOnOwner.isEmpty() && st.waitingOnOwner != ownerKey.toString())
        m_waiters[st.waitingOnOwner].remove(key);
    st.waitingOnOwner = ownerKey.toString();
    st.heldForOwner = true;
    m_waiters[st.waitingOnOwner].insert(key);
    m_prefetched.remove(key);
    return true;
}

bool Scheduler::isHeld(const Lock &lock, const ResourceKey &key) const
{
    assertLocked(lock);
    return m_keys.value(key).heldForOwner;
}

QList<ResourceKey> Scheduler::heldFor(const Lock &lock, const ResourceKey &owner) const
{
    assertLocked(lock);
    QList<ResourceKey> held;
    for (const ResourceKey &child : m_waiters.value(owner.toString())) {
        if (m_keys.value(child).heldForOwner)
            held.append(child);
    }
    return held;
}

QList<ResourceKey> Scheduler::waitingFor(const Lock &lock, const ResourceKey &owner) const
{
    assertLocked(lock);
    if (const auto w = m_waiters.constFind(owner.toString()); w != m_waiters.cend())
        return w->values();
    return {};
}

void Scheduler::release(const Lock &lock, const ResourceKey &owner,
                        const QList<ResourceKey> &children)
{
    assertLocked(lock);
    for (const ResourceKey &child : children) {
        if (child == owner)
            continue;
        if (const auto it = m_keys.find(child); it != m_keys.end()) {
            it->releasedFrom = it->heldForOwner ? owner.toString() : QString();
            it->heldForOwner = false;
        }
        m_queue.add(child, WorkQueue::Lane::SpecChange);
    }
}

} // namespace converge

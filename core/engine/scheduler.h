// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "backoff.h"
#include "prefetch.h"
#include "quietrun.h"
#include "reconciler.h"
#include "resourcekey.h"
#include "workqueue.h"
#include "workspacetypes.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>

namespace converge {

class Clock;

/// Decides what the controller's workers run next, and when: the work queue and its lanes (a
/// person's action, then spec changes, retries, resyncs), each key's bookkeeping (failures and
/// their backoff, polls, whether a worker has it), the holds that keep a child waiting for its
/// owner's verdict instead of running only to find the owner not Ready, and the list page
/// observations waiting for their key's next run.
///
/// Shared by every thread of one controller under one mutex. A method that takes a `Lock` must
/// be called with lock() held: the caller decides what goes into one critical section, so that
/// what was one section before a unit moved out stays one.
class Scheduler final
{
public:
    using Lock = std::unique_lock<std::mutex>;

    /// A key a worker took: it has it until done().
    struct Taken
    {
        ResourceKey key;
        bool observeOnly = false; ///< a refresh: updateStatus, whatever the policy
        int polls = 0;            ///< RequeueAfter runs in a row
        /// The lane it was taken from: a person's action lists an owner's children again.
        WorkQueue::Lane lane = WorkQueue::Lane::Resync;
    };

    /// `clock` is not owned and must outlive the scheduler.
    Scheduler(Clock &clock, Backoff::Settings backoff);
    Q_DISABLE_COPY_MOVE(Scheduler)

    Lock lock() const { return Lock(m_mutex); }

    // --- The threads' life ---------------------------------------------------------------------

    /// Before the threads start: not stopping, not recovered.
    void reset();
    /// Asks every thread to end and wakes them all.
    void stop();
    /// Read without the lock by loops and cancellable requests.
    const std::atomic<bool> &stopping() const { return m_stopping; }
    /// The start-up work is done (or failed): workers may take keys.
    void setRecovered(const Lock &lock);
    bool isRecovered(const Lock &lock) const;
    /// Wakes the workers waiting in waitForWork(), e.g. after keys were added.
    void wakeWorkers() { m_wakeWorkers.notify_all(); }
    /// Waits until woken or until `due` (the clock's time; invalid: until woken).
    void waitForWork(Lock &lock, const QDateTime &due);
    /// Waits until woken, at most `timeout`, without the clock (before recovery).
    void waitForWork(Lock &lock, std::chrono::milliseconds timeout);

    /// A look at the workspace (wake()) or a resync (resyncNow()) asked for, for the scheduler
    /// thread.
    void requestScan();
    void requestResync();
    struct Requests
    {
        bool scan = false;
        bool resync = false;
    };
    /// Waits for a request, at most `timeout`, and takes the requests; nullopt when stopping.
    std::optional<Requests> waitForRequests(std::chrono::milliseconds timeout);

    // --- The queue ----------------------------------------------------------------------------

    void add(const Lock &lock, const ResourceKey &key, WorkQueue::Lane lane,
             const QDateTime &due = {});
    void setGroup(const Lock &lock, const ResourceKey &key, const QString &group);
    void setGroupLimit(const Lock &lock, const QString &group, int limit);
    bool cancel(const Lock &lock, const ResourceKey &key);
    void cancelAll(const Lock &lock);
    int queuedCount(const Lock &lock) const;
    /// WorkQueue::waitingCount() at the clock's time.
    int waitingCount(const Lock &lock) const;
    int inFlightCount(const Lock &lock) const;
    /// WorkQueue::nextDue().
    QDateTime nextDue(const Lock &lock) const;

    /// The most urgent key due at `now`, marked running (from the take on, so that no child
    /// slips between the queue and the run); nullopt when none is ready.
    std::optional<Taken> take(const Lock &lock, const QDateTime &now);
    /// The worker is done with `key`: it is no longer running, and queued again if it was added
    /// meanwhile.
    void done(const Lock &lock, const ResourceKey &key);

    // --- Each key's bookkeeping ---------------------------------------------------------------

    /// The next run of `key` only observes (a person's refresh).
    void requestObserveOnly(const Lock &lock, const ResourceKey &key);
    bool isObserveOnly(const Lock &lock, const ResourceKey &key) const;
    /// A changed spec gets a fresh start: no backoff from earlier failures, no polls.
    void freshStart(const Lock &lock, const ResourceKey &key);

    /// `key` left the workspace: its bookkeeping goes, and the children held for its verdict
    /// get none: they are released (and returned), to run and find it gone.
    QList<ResourceKey> forget(const Lock &lock, const ResourceKey &key);
    /// A run of `key` goes ahead: it is no longer released from a hold, and it gets the list
    /// page observation kept for it when that is as good as a get (not for `observeOnly`: a
    /// person's refresh looks for itself).
    std::optional<Prefetch> beginRun(const Lock &lock, const ResourceKey &key, bool observeOnly);
    /// A run cut short by stop(): no verdict, the key is no longer running.
    void abandonRun(const Lock &lock, const ResourceKey &key);

    /// How a run ended, for verdict().
    struct RunEnd
    {
        PhaseResult result;
        QString reconcileId;
        int pollCount = 0;
        int backendWrites = 0;
        /// The owner the key waits for, when the result waits for its owner.
        std::optional<ResourceKey> waitingOnOwner;
    };
    /// The verdict of a run of `key` at `now`: its next look (a retry with backoff, a poll, or
    /// none), which owner it waits for, and the reconcile state to store; `stateChanged` says
    /// whether that differs from what was stored in more than when it ran.
    ReconcileState verdict(const Lock &lock, const ResourceKey &key, const RunEnd &end,
                           const QDateTime &now, bool *stateChanged);
    /// The run's verdict is stored: `key` is no longer running, and remembers `quiet` (a run
    /// that changed nothing) for skipUnchanged(), or forgets the last one. True when that
    /// changed what it remembers (the workspace's memo is then out of date).
    bool endRun(const Lock &lock, const ResourceKey &key, std::optional<QuietRun> quiet);
    /// The quiet run `key` remembers, or null.
    const QuietRun *quietRun(const Lock &lock, const ResourceKey &key) const;
    /// Before the threads take keys: `key`'s last quiet run, from the memo a run before this
    /// start left in the workspace.
    void restoreQuiet(const Lock &lock, const ResourceKey &key, QuietRun quiet);

    /// The list page observation of `key` for its next run.
    void prefetch(const Lock &lock, const ResourceKey &key, Prefetch page);
    /// A resync's list page shows `key` exactly as the last quiet run saw it, with nothing
    /// waiting on either side: that run, and the page's request ID; nullopt when it must run.
    std::optional<std::pair<QuietRun, QString>> unchanged(const Lock &lock,
                                                          const ResourceKey &key) const;
    /// `key`'s resync ended without a run (unchanged()): the page is used up, and it ran at
    /// `now` as `reconcileId`.
    void skipped(const Lock &lock, const ResourceKey &key, const QDateTime &now,
                 const QString &reconcileId);

    // --- Owner holds --------------------------------------------------------------------------

    /// `key`, whose owner is not Ready, waits for the owner's verdict when one is coming (the
    /// owner runs, or is due within a second); false when it should run.
    bool holdForOwner(const Lock &lock, const ResourceKey &key, const ResourceKey &ownerKey);
    /// Held for an owner's verdict (holdForOwner()).
    bool isHeld(const Lock &lock, const ResourceKey &key) const;
    /// The children waiting for `owner`'s verdict without a run (holdForOwner()).
    QList<ResourceKey> heldFor(const Lock &lock, const ResourceKey &owner) const;
    /// Every key waiting for `owner`: held, or whose last run waited for it.
    QList<ResourceKey> waitingFor(const Lock &lock, const ResourceKey &owner) const;
    /// `children` of `owner` run now; one that was held goes ahead even if the owner is due
    /// again (an owner retrying every few hundred milliseconds would otherwise hold it for ever).
    void release(const Lock &lock, const ResourceKey &owner, const QList<ResourceKey> &children);

private:
    /// The bookkeeping for one key.
    struct KeyState
    {
        int failures = 0;
        int polls = 0;
        QDateTime lastWrite; ///< the end of the last run that wrote to the backend
        bool observeOnly = false;
        QString waitingOnOwner; ///< kind/name of the owner this key waits for, if any
        /// Taken while its owner, not Ready, was running or due: it waits, without a run of its
        /// own, for the owner's verdict, whatever it is.
        bool heldForOwner = false;
        /// Woken from a hold by this key's verdict (kind/name): its next run goes ahead even if
        /// that one is due again; it may still wait for another (a reference after its owner).
        QString releasedFrom;
        bool running = false;          ///< a worker took it; cleared with its verdict
        ReconcileState stored;         ///< what was last written to the workspace
        std::optional<QuietRun> quiet; ///< the last run, when it was Ready and changed nothing
    };

    void assertLocked(const Lock &lock) const;

    Clock &m_clock;
    Backoff m_backoff;
    mutable std::mutex m_mutex;
    std::condition_variable m_wakeWorkers;
    std::condition_variable m_wakeScheduler;
    std::atomic<bool> m_stopping{false};
    bool m_recovered = false;
    bool m_scanRequested = false;
    bool m_resyncRequested = false;
    WorkQueue m_queue;
    QHash<ResourceKey, KeyState> m_keys;
    QHash<QString, QSet<ResourceKey>> m_waiters; ///< owner kind/name → keys waiting for it
    QHash<ResourceKey, Prefetch> m_prefetched;
};

} // namespace converge

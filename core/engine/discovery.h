// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "discoveredresource.h"
#include "resourcekey.h"
#include "scheduler.h"
#include "snapshot.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

namespace converge {

class Clock;
struct Observation;
class KindRegistry;
class NotificationBuffer;
class ThreadContext;
struct ControllerCounters;

/// Lists what the backend holds under each owner, page by page, as list jobs on the workers:
/// at every resync (one job per owner and child kind; the managed resources a page shows get
/// that observation for their next run, which then needs no get), and for discovery only when
/// an account first becomes Ready, when its spec changed (connected or applied again), and
/// after a person's Reconcile or Refresh of an owner (an account, or a container: its blobs).
/// What nothing manages is stored as discovered, for the window; what is gone leaves.
///
/// Its jobs are guarded by the scheduler's lock, like the queue they wait in.
class Discovery final
{
public:
    /// None of the references is owned; all must outlive this object.
    Discovery(const KindRegistry &kinds, const Clock &clock, Scheduler &scheduler,
              NotificationBuffer &notifications, ControllerCounters &counters);
    Q_DISABLE_COPY_MOVE(Discovery)

    /// What a list item that nothing manages is, as the store and the window keep it.
    static DiscoveredResource unmanaged(const Observation &item, const QString &kind,
                                        const ResourceKey &owner, const QDateTime &seenAt);
    /// Whether a work queue key is a list job's (their kind no provider can register).
    static bool isListJob(const ResourceKey &key);

    /// Queues the resync of every resource in `snapshots` (the scheduler thread's): children by
    /// list pages, one job per owner and child kind; what no list covers (accounts, resources
    /// whose owner is missing or not Ready) one by one, except children held for their owner's
    /// verdict, which run with it. Takes the scheduler's lock.
    void queueResync(const QHash<ResourceKey, Snapshot> &snapshots);
    /// Under the scheduler's lock: a run of `key`, taken from `lane`, left it Ready. Its children
    /// are listed again, ahead of their own work, when it is an owner that a person reconciled
    /// or refreshed, an account whose spec changed, or an account not listed since the start.
    /// `group` is its account group in the queue.
    void ownerReady(const Scheduler::Lock &lock, const ResourceKey &key, const QString &group,
                    WorkQueue::Lane lane);
    /// Under the scheduler's lock: whether a list of what `owner` holds is queued or running.
    bool isListing(const Scheduler::Lock &lock, const ResourceKey &owner) const;
    /// Runs the list job `jobKey` on a worker's context.
    void run(ThreadContext &tc, const ResourceKey &jobKey);

private:
    /// A resync of one kind under one owner by list pages: the managed resources it can
    /// observe, by the backend ID they recorded, and those it cannot (no ID recorded yet).
    struct ListJob
    {
        QString kind;
        ResourceKey owner;
        QString account;
        QHash<QString, ResourceKey> managed;
        QHash<QString, ResourceKey> managedByName; ///< by backend name, for items without an ID
        QList<ResourceKey> unidentified;
        /// Queued when the owner first became Ready: only for discovery, the managed resources
        /// are read from the workspace when it runs and are not queued.
        bool discoveryOnly = false;
    };

    /// The work queue key of the list job for `kind` under `owner`.
    static ResourceKey jobKey(const QString &kind, const ResourceKey &owner);

    const KindRegistry &m_kinds;
    const Clock &m_clock;
    Scheduler &m_scheduler;
    NotificationBuffer &m_notifications;
    ControllerCounters &m_counters;
    QHash<QString, QStringList> m_childKinds; ///< owner kind → kinds it owns
    QHash<ResourceKey, ListJob> m_jobs;       ///< queued list jobs by their work queue key
    QSet<ResourceKey> m_listedOwners;         ///< owners whose children were listed since start
    QHash<ResourceKey, int> m_running;        ///< owners with list jobs on a worker, and how many
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "discovery.h"

#include "clock.h"
#include "controllercounters.h"
#include "controllerlog.h"
#include "kindregistry.h"
#include "managedelsewhere.h"
#include "notificationbuffer.h"
#include "threadcontext.h"
#include "workspace.h"

#include <QScopeGuard>

namespace converge {

namespace {

/// Work queue keys of list jobs live in their own kind, which no provider can register (kinds
/// are PascalCase names without dots).
const QString listJobKind = QStringLiteral("converge.dev/List");
/// Items on the first page of a listing for the window (Azurite answers 500 in about a tenth
/// of the time it takes over 5,000).
constexpr int firstPageSize = 500;

} // namespace

Discovery::Discovery(const KindRegistry &kinds, const Clock &clock, Scheduler &scheduler,
                     NotificationBuffer &notifications, ControllerCounters &counters)
    : m_kinds(kinds)
    , m_clock(clock)
    , m_scheduler(scheduler)
    , m_notifications(notifications)
    , m_counters(counters)
{
    for (const QString &name : kinds.names()) {
        const Kind *kind = kinds.find(name);
        if (kind && !kind->ownerKind.isEmpty())
            m_childKinds[kind->ownerKind].append(name);
    }
}

DiscoveredResource Discovery::unmanaged(const Observation &item, const QString &kind,
                                        const ResourceKey &owner, const QDateTime &seenAt)
{
    DiscoveredResource found;
    found.kind = kind;
    found.name = item.name;
    found.owner = owner;
    found.resourceId = item.resourceId;
    found.spec = item.spec;
    found.details = item.details;
    found.seenAt = seenAt;
    return found;
}

bool Discovery::isListJob(const ResourceKey &key)
{
    return key.kind == listJobKind;
}

ResourceKey Discovery::jobKey(const QString &kind, const ResourceKey &owner)
{
    return ResourceKey{listJobKind, kind + QLatin1Char('|') + owner.toString()};
}

void Discovery::queueResync(const QHash<ResourceKey, Snapshot> &snapshots)
{
    // Children are observed by list pages, one job per owner and child kind; what no list
    // covers (accounts, resources whose owner is missing or not Ready) is observed one by one.
    // Accounts are listed for every child kind, so that the window shows what nothing manages
    // yet; deeper owners (a container's blobs) only for the kinds they hold managed children
    // of: listing every container for blobs nobody declared cost a request per container.
    QHash<ResourceKey, ListJob> jobs;
    QList<ResourceKey> individually;
    const auto listable = [](const Snapshot &s) { return !s.deleting && s.ready; };
    const auto addJob = [&jobs](const QString &kind, const ResourceKey &owner,
                                const QString &account) {
        ListJob &job = jobs[jobKey(kind, owner)];
        job.kind = kind;
        job.owner = owner;
        job.account = account;
    };
    for (auto it = snapshots.cbegin(); it != snapshots.cend(); ++it) {
        if (it->owner.isEmpty() && listable(*it)) {
            for (const QString &child : m_childKinds.value(it.key().kind))
                addJob(child, it.key(), it->account);
        }
        if (const auto owner = ResourceKey::fromString(it->owner)) {
            const auto o = snapshots.constFind(*owner);
            if (o != snapshots.cend() && !o->owner.isEmpty() && listable(*o))
                addJob(it.key().kind, *owner, o->account);
        }
    }
    for (auto it = snapshots.cbegin(); it != snapshots.cend(); ++it) {
        const auto owner = ResourceKey::fromString(it->owner);
        const auto job = owner ? jobs.find(jobKey(it.key().kind, *owner)) : jobs.end();
        if (it->deleting || job == jobs.end()) {
            individually.append(it.key());
        } else {
            if (it->resourceId.isEmpty())
                job->unidentified.append(it.key());
            else
                job->managed.insert(it->resourceId, it.key());
            job->managedByName.insert(it->backendName, it.key());
        }
    }
    ++m_counters.resyncs;
    m_counters.listsQueued += jobs.size();
    const Scheduler::Lock lock = m_scheduler.lock();
    for (auto it = jobs.begin(); it != jobs.end(); ++it) {
        m_scheduler.setGroup(lock, it.key(), it->account);
        m_jobs.insert(it.key(), std::move(*it));
        m_scheduler.add(lock, it.key(), WorkQueue::Lane::Resync);
    }
    for (const ResourceKey &key : std::as_const(individually)) {
        // A child held for its owner's verdict runs with it: a run now would only find that.
        if (!m_scheduler.isHeld(lock, key))
            m_scheduler.add(lock, key, WorkQueue::Lane::Resync);
    }
    m_scheduler.wakeWorkers();
}

void Discovery::ownerReady(const Scheduler::Lock &lock, const ResourceKey &key,
                           const QString &group, WorkQueue::Lane lane)
{
    const Kind *kind = m_kinds.find(key.kind);
    const auto children = m_childKinds.constFind(key.kind);
    if (!kind || children == m_childKinds.cend())
        return;
    const bool isAccount = kind->ownerKind.isEmpty();
    // A person's Reconcile or Refresh of an owner is how they ask what it holds now; an
    // account's changed spec (Connect, apply) may point at another endpoint or credentials.
    const bool asked =
        lane == WorkQueue::Lane::UserAction || (isAccount && lane == WorkQueue::Lane::SpecChange);
    if (!asked && (!isAccount || m_listedOwners.contains(key)))
        return;
    // Ahead of its children's work (the lane of a person's action): a list is a request or two,
    // what the owner holds is what the window shows next, and behind a thousand queued creates
    // it ran last, keeping `apply --wait` waiting for lists nobody asked it to wait for.
    for (const QString &child : *children) {
        const ResourceKey job = jobKey(child, key);
        // A job still queued (a resync's, or one asked for before) lists it as well; it only
        // moves ahead. One a worker already took is queued again, for a list from now.
        if (!m_jobs.contains(job)) {
            ListJob listJob;
            listJob.kind = child;
            listJob.owner = key;
            listJob.discoveryOnly = true;
            listJob.account = group;
            m_scheduler.setGroup(lock, job, listJob.account);
            m_jobs.insert(job, listJob);
        }
        m_scheduler.add(lock, job, WorkQueue::Lane::UserAction);
    }
}

bool Discovery::isListing(const Scheduler::Lock &lock, const ResourceKey &owner) const
{
    Q_UNUSED(lock);
    if (m_running.contains(owner))
        return true;
    for (auto it = m_jobs.cbegin(); it != m_jobs.cend(); ++it) {
        if (it->owner == owner)
            return true;
    }
    return false;
}

void Discovery::run(ThreadContext &tc, const ResourceKey &jobKey)
{
    ListJob job;
    {
        const Scheduler::Lock lock = m_scheduler.lock();
        job = m_jobs.take(jobKey);
        if (!job.kind.isEmpty())
            ++m_running[job.owner];
    }
    // However it ends, the owner's list is no longer running.
    const auto running = qScopeGuard([this, owner = job.owner, counted = !job.kind.isEmpty()] {
        if (!counted)
            return;
        const Scheduler::Lock lock = m_scheduler.lock();
        if (--m_running[owner] <= 0)
            m_running.remove(owner);
    });
    QList<ResourceKey> toObserve = job.unidentified; // one by one, with a get
    QSet<ResourceKey> seen;
    QHash<ResourceKey, Prefetch> seenOnPage;
    // What a page observed is reconciled while the next page is on its way.
    const auto queueSeen = [&] {
        if (seenOnPage.isEmpty())
            return;
        {
            const Scheduler::Lock lock = m_scheduler.lock();
            for (auto it = seenOnPage.begin(); it != seenOnPage.end(); ++it) {
                m_scheduler.prefetch(lock, it.key(), std::move(*it));
                m_scheduler.add(lock, it.key(), WorkQueue::Lane::Resync);
            }
        }
        seenOnPage.clear();
        m_scheduler.wakeWorkers();
    };
    const auto finish = [&] {
        queueSeen();
        const Scheduler::Lock lock = m_scheduler.lock();
        for (auto it = job.managed.cbegin(); it != job.managed.cend() && !job.discoveryOnly; ++it) {
            if (!seen.contains(it.value()))
                toObserve.append(it.value());
        }
        for (const ResourceKey &key : std::as_const(toObserve))
            m_scheduler.add(lock, key, WorkQueue::Lane::Resync);
        m_scheduler.wakeWorkers();
    };
    if (job.kind.isEmpty())
        return; // a job queued twice ran already

    Workspace &ws = tc.workspace();
    const std::optional<Resource> owner = ws.get(job.owner);
    if (!owner || owner->metadata.isBeingDeleted() || !owner->status.ready().isReady()) {
        ++m_counters.listsSkipped;
        return finish();
    }
    ListScope scope;
    scope.owners = tc.ownersOf(*owner);
    scope.owners.append(*owner);
    Resource probe;
    probe.kind = job.kind;
    std::optional<BackendError> managerError;
    const std::shared_ptr<Manager> manager =
        tc.managerFor(probe, scope.owners.first(), &managerError);
    if (!manager) {
        ++m_counters.listsSkipped;
        return finish();
    }
    const bool complete = manager->listIsComplete();
    if (job.discoveryOnly) {
        // Children applied meanwhile (perhaps still being created) are managed, not found.
        const Kind *kind = m_kinds.find(job.kind);
        for (const Resource &r : ws.listOwnedBy(job.kind, job.owner.name)) {
            const QString id = r.metadata.annotations.value(Annotations::resourceId());
            if (!id.isEmpty())
                job.managed.insert(id, r.key());
            job.managedByName.insert(Snapshot::backendNameOf(kind, r), r.key());
        }
    }

    ManagedElsewhere elsewhere(ws, m_kinds, job.kind, scope.owners);
    const std::atomic<bool> &stopping = m_scheduler.stopping();
    // Stored page by page, so that the window shows the first rows of a large account while
    // the rest is on its way; the rows a complete listing did not show go at its end.
    QSet<QString> listedNames;
    StoreError error;
    for (int page = 0; page < 100'000 && !stopping; ++page) {
        ++m_counters.listCalls;
        // A small first page comes back at once (the service takes its time over a full one),
        // so that the first rows of a large account a person looks at show while the rest is
        // listed in full pages. Resyncs, which nobody watches, keep to the fewest requests.
        scope.pageSize = page == 0 && job.discoveryOnly ? firstPageSize : 0;
        const QDateTime pageAt = m_clock.now();
        const Outcome<ListPage> listed = manager->list(scope);
        if (!listed) {
            // The rest then say for themselves what is wrong (unreachable, unauthorized).
            qCDebug(lcController) << "list" << jobKey.name << "failed:" << listed.error().message;
            return finish();
        }
        QList<DiscoveredResource> notManaged;
        for (const Observation &item : listed.value().items) {
            // By the backend ID; by name where the item has none (ListTables names tables,
            // nothing more) or the resource has not recorded its ID yet.
            const ResourceKey *managed = nullptr;
            if (const auto it = job.managed.constFind(item.resourceId);
                !item.resourceId.isEmpty() && it != job.managed.cend())
                managed = &*it;
            else if (const auto byName = job.managedByName.constFind(item.name);
                     byName != job.managedByName.cend())
                managed = &*byName;
            if (managed) {
                if (complete && !job.discoveryOnly) {
                    seen.insert(*managed);
                    seenOnPage.insert(*managed, Prefetch{item, pageAt});
                }
                continue;
            }
            listedNames.insert(item.name);
            notManaged.append(unmanaged(item, job.kind, job.owner, pageAt));
        }
        queueSeen();
        // What another account's resource manages is shown as that one's, never as unmanaged.
        if (!notManaged.isEmpty())
            m_counters.listCalls += elsewhere.mark(notManaged, *manager);
        if (!notManaged.isEmpty()) {
            if (ws.mergeDiscovered(job.owner, job.kind, notManaged, &error))
                m_notifications.discoveryChanged(job.owner);
            else
                qCWarning(lcController) << "store:" << error.message;
        }
        scope.continuation = listed.value().continuation;
        if (scope.continuation.isEmpty())
            break;
    }
    if (stopping)
        return;
    if (!ws.pruneDiscovered(job.owner, job.kind, listedNames, &error))
        qCWarning(lcController) << "store:" << error.message;
    {
        const Scheduler::Lock lock = m_scheduler.lock();
        m_listedOwners.insert(job.owner);
    }
    m_notifications.discoveryChanged(job.owner);
    finish();
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "controller.h"

#include "clock.h"
#include "controllercounters.h"
#include "controllerlog.h"
#include "discoveredclaim.h"
#include "eventrecorder.h"
#include "factoryregistry.h"
#include "httpclient.h"
#include "kindregistry.h"
#include "notificationbuffer.h"
#include "reconciler.h"
#include "threadcontext.h"
#include "workspace.h"

#include <QElapsedTimer>
#include <QHash>
#include <QLoggingCategory>
#include <QPointer>
#include <QRandomGenerator>
#include <QSet>
#include <QThread>
#include <QTimer>
#include <QUuid>

#include <atomic>
#include <condition_variable>
#include <mutex>

Q_LOGGING_CATEGORY(lcController, "converge.engine.controller", QtInfoMsg)

using namespace std::chrono_literals;

namespace converge {

namespace {

/// What the scheduler remembers of a stored resource, to notice changes.
struct Snapshot
{
    qint64 generation = 0;
    bool deleting = false;
    QString policy;
    QString reconcileRequest; ///< converge.dev/reconcile-requested-at
    QString refreshRequest;   ///< converge.dev/refresh-requested-at
    QString owner;            ///< kind/name of the direct owner, empty for roots
    QString account;
    QString resourceId;  ///< converge.dev/resource-id, empty until the first reconcile
    QString backendName; ///< the kind's backend name field, else metadata.name
    bool hasFinalizer = false;
    bool ready = false;      ///< Ready at the current generation: its children can be listed
    bool readyAtAll = false; ///< Ready, at whatever generation: its children can run
};

/// A resync of one kind under one owner by list pages: the managed resources it can observe,
/// by the backend ID they recorded, and those it cannot (no ID recorded yet).
struct ListJob
{
    QString kind;
    ResourceKey owner;
    QString account;
    QHash<QString, ResourceKey> managed;
    QHash<QString, ResourceKey> managedByName; ///< by backend name, for items without an ID
    QList<ResourceKey> unidentified;
    /// Queued when the owner first became Ready: only for discovery, the managed resources are
    /// read from the workspace when it runs and are not queued.
    bool discoveryOnly = false;
};

/// The name the backend knows a resource by: the kind's backend name field, else metadata.name.
QString backendNameOf(const Kind *kind, const Resource &resource)
{
    if (kind && !kind->backendNameField.isEmpty()) {
        const QString name = resource.spec.value(kind->backendNameField).toString();
        if (!name.isEmpty())
            return name;
    }
    return resource.metadata.name;
}

/// A list page's observation of a managed resource, for its next reconcile.
struct Prefetch
{
    Observation observation;
    QDateTime listedAt; ///< when the list began: older than a write of the key means stale

    /// As good as a get at `now`: from the last minute, and not older than our last write of
    /// the key (`lastWrite`, invalid when none), which may have landed after the list looked.
    bool usable(const QDateTime &lastWrite, const QDateTime &now) const
    {
        return (!lastWrite.isValid() || listedAt > lastWrite) && listedAt.msecsTo(now) < 60'000;
    }
};

/// Work queue keys of list jobs live in their own kind, which no provider can register (kinds
/// are PascalCase names without dots).
const QString listJobKind = QStringLiteral("converge.dev/List");

/// The work queue key of the list job for `kind` under `owner`.
ResourceKey listJobKey(const QString &kind, const ResourceKey &owner)
{
    return ResourceKey{listJobKind, kind + QLatin1Char('|') + owner.toString()};
}
const QString claimJobKind = QStringLiteral("converge.dev/Claim");

/// What the last run of a key that found nothing to do saw: a resync whose list page shows the
/// same, of the same stored resource, would reach the same verdict.
struct QuietRun
{
    qint64 resourceVersion = 0; ///< the stored resource that run read
    Observation observed;       ///< the list page's observation it judged
    QString phase;
    QString reason; ///< the Ready condition's, for the Timeline
    QString message;
};

/// Whether two observations of a resource say the same (request IDs and hints aside).
bool sameObservation(const Observation &a, const Observation &b)
{
    return a.spec == b.spec && a.details == b.details && a.resourceId == b.resourceId &&
           a.name == b.name && a.inProgress == b.inProgress && a.progress == b.progress;
}

/// The controller's bookkeeping for one key, guarded by the controller's mutex.
struct KeyState
{
    int failures = 0;
    int polls = 0;
    QDateTime lastWrite; ///< the end of the last run that wrote to the backend
    bool observeOnly = false;
    QString waitingOnOwner; ///< kind/name of the owner this key waits for, if any
    /// Taken while its owner, not Ready, was running or due: it waits, without a run of its own,
    /// for the owner's verdict, whatever it is.
    bool heldForOwner = false;
    /// Woken from a hold: its next run goes ahead even if the owner is due again (an owner
    /// retrying every few hundred milliseconds would otherwise hold it for ever).
    bool releasedFromHold = false;
    bool running = false;          ///< a worker took it; cleared with its verdict
    ReconcileState stored;         ///< what was last written to the workspace
    std::optional<QuietRun> quiet; ///< the last run, when it was Ready and changed nothing
};

QString newReconcileId()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces).left(8);
}

} // namespace

class Controller::Private
{
public:
    Private(Controller *q, const QString &path, const KindRegistry &kinds,
            const FactoryRegistry &factories, Reconciler &reconciler, Clock &clock,
            CredentialStore *credentials, Options options)
        : q(q)
        , path(path)
        , kinds(kinds)
        , factories(factories)
        , reconciler(reconciler)
        , clock(clock)
        , credentials(credentials)
        , options(std::move(options))
        , backoff(this->options.backoff)
    {
        sources.kinds = &kinds;
        sources.factories = &factories;
        sources.credentials = credentials;
        sources.clock = &clock;
        sources.stopping = &stopping;
        sources.writers = std::make_shared<std::mutex>();
        sources.http = this->options.http;
    }

    void workerLoop(int index);
    void schedulerLoop();
    /// Opens the calling thread's connection; a failure is reported to observers.
    bool openThreadContext(ThreadContext &tc);
    void process(ThreadContext &tc, const ResourceKey &key, bool observeOnly, int polls);
    bool skipUnchanged(ThreadContext &tc, const ResourceKey &key);
    /// Under `mutex`: `key`, whose owner is not Ready, waits for the owner's verdict when one
    /// is coming (the owner runs, or is due within a second); false when it should run.
    bool holdForOwner(const ResourceKey &key, const ResourceKey &ownerKey);
    /// Under `mutex`: the children waiting for `owner`'s verdict without a run (holdForOwner).
    QList<ResourceKey> heldFor(const ResourceKey &owner) const;
    /// Under `mutex`: `children` of `owner` run now; one that was held goes ahead even if the
    /// owner is due again (releasedFromHold).
    void release(const ResourceKey &owner, const QList<ResourceKey> &children);
    void processList(ThreadContext &tc, const ResourceKey &jobKey);
    void processClaim(ThreadContext &tc, const ResourceKey &jobKey);
    void recover(ThreadContext &tc);
    void scan(Workspace &ws, bool initial);
    void resync();
    void flush();
    QDateTime nextResyncTime(const QDateTime &from) const;

    Controller *q;
    QString path;
    const KindRegistry &kinds;
    const FactoryRegistry &factories;
    Reconciler &reconciler;
    Clock &clock;
    CredentialStore *credentials;
    Options options;
    Backoff backoff;

    mutable std::mutex mutex;
    std::condition_variable wakeWorkers;
    std::condition_variable wakeScheduler;
    WorkQueue queue;
    QHash<ResourceKey, KeyState> keyState;
    QHash<QString, QSet<ResourceKey>> waiters; // owner kind/name → keys waiting for it
    QHash<ResourceKey, Snapshot> snapshots;    // scheduler thread only
    qint64 scanVersion = 0;                    // the workspace's resourceVersion at the last scan
    QHash<ResourceKey, ListJob> listJobs;      // queued list jobs by their work queue key
    QHash<ResourceKey, Prefetch> prefetched;
    QHash<ResourceKey, DiscoveredResource> claims; // queued claim jobs by their key
    QSet<ResourceKey> listedOwners;                // owners whose children were listed since start
    QHash<QString, QStringList> childKinds;        // owner kind → kinds it owns
    bool recovered = false;
    bool scanRequested = false;
    bool resyncRequested = false;
    int groupLimit = -1; // keys of one account in flight at once, as last set; scheduler only
    std::atomic<bool> stopping{false};
    ControllerCounters counters;

    std::vector<QThread *> threads; // owned; joined in stop()
    /// Opened, and so checked, by start(); the threads' connections are opened from it.
    std::unique_ptr<Workspace> origin;
    ThreadContext::Sources sources; ///< what every thread's context is made from
    QTimer *flushTimer = nullptr;   // child of q
    NotificationBuffer notifications;
};

Controller::Controller(const QString &workspacePath, const KindRegistry &kinds,
                       const FactoryRegistry &factories, Reconciler &reconciler, Clock &clock,
                       CredentialStore *credentials, Options options, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>(this, workspacePath, kinds, factories, reconciler, clock,
                                  credentials, std::move(options)))
{
    d->options.workers = std::clamp(d->options.workers, 1, 64);
    for (const QString &name : kinds.names()) {
        const Kind *kind = kinds.find(name);
        if (kind && !kind->ownerKind.isEmpty())
            d->childKinds[kind->ownerKind].append(name);
    }
    d->flushTimer = new QTimer(this);
    d->flushTimer->setInterval(d->options.batchInterval);
    connect(d->flushTimer, &QTimer::timeout, this, [this] { d->flush(); });
}

Controller::~Controller()
{
    stop();
}

bool Controller::start(StoreError *error)
{
    if (isRunning())
        return true;
    StoreError openError;
    d->origin = Workspace::open(d->path, &openError);
    if (!d->origin) {
        if (error)
            *error = openError;
        return false;
    }
    d->sources.origin = d->origin.get();
    d->stopping = false;
    d->recovered = false;
    d->threads.push_back(QThread::create([this] { d->schedulerLoop(); }));
    d->threads.back()->setObjectName(QStringLiteral("converge-scheduler"));
    for (int i = 0; i < d->options.workers; ++i) {
        d->threads.push_back(QThread::create([this, i] { d->workerLoop(i); }));
        d->threads.back()->setObjectName(QStringLiteral("converge-worker-%1").arg(i));
    }
    for (QThread *t : d->threads)
        t->start();
    d->flushTimer->start();
    return true;
}

void Controller::stop()
{
    if (d->threads.empty())
        return;
    {
        std::lock_guard lock(d->mutex);
        d->stopping = true;
    }
    d->wakeWorkers.notify_all();
    d->wakeScheduler.notify_all();
    const qint64 budget = d->options.shutdownTimeout.count();
    QDeadlineTimer deadline(budget);
    for (QThread *t : d->threads) {
        if (!t->wait(deadline))
            qCWarning(lcController) << "a worker did not finish within" << budget << "ms";
    }
    bool leaked = false;
    for (QThread *t : d->threads) {
        if (t->isRunning()) {
            // Leaking a stuck thread is better than destroying a running one.
            leaked = true;
            continue;
        }
        delete t;
    }
    d->threads.clear();
    if (leaked)
        (void)d->origin.release(); // a stuck thread may still open its connection from it
    else
        d->origin.reset();
    d->flushTimer->stop();
    d->flush();
}

bool Controller::isRunning() const
{
    return !d->threads.empty();
}

void Controller::reconcile(const QList<ResourceKey> &keys)
{
    {
        std::lock_guard lock(d->mutex);
        for (const ResourceKey &key : keys)
            d->queue.add(key, WorkQueue::Lane::UserAction);
    }
    d->wakeWorkers.notify_all();
}

void Controller::refresh(const QList<ResourceKey> &keys)
{
    {
        std::lock_guard lock(d->mutex);
        for (const ResourceKey &key : keys) {
            d->keyState[key].observeOnly = true;
            d->queue.add(key, WorkQueue::Lane::UserAction);
        }
    }
    d->wakeWorkers.notify_all();
}

void Controller::claim(const DiscoveredResource &item)
{
    const ResourceKey jobKey{claimJobKind, item.kind + QLatin1Char('|') + item.owner.toString() +
                                               QLatin1Char('|') + item.name};
    {
        std::lock_guard lock(d->mutex);
        d->claims.insert(jobKey, item);
        d->queue.add(jobKey, WorkQueue::Lane::UserAction);
    }
    d->wakeWorkers.notify_all();
}

bool Controller::cancel(const ResourceKey &key)
{
    std::lock_guard lock(d->mutex);
    return d->queue.cancel(key);
}

void Controller::cancelAll()
{
    std::lock_guard lock(d->mutex);
    d->queue.cancelAll();
}

void Controller::wake()
{
    {
        std::lock_guard lock(d->mutex);
        d->scanRequested = true;
    }
    d->wakeScheduler.notify_all();
}

void Controller::resyncNow()
{
    {
        std::lock_guard lock(d->mutex);
        d->resyncRequested = true;
    }
    d->wakeScheduler.notify_all();
}

Controller::Stats Controller::stats() const
{
    std::lock_guard lock(d->mutex);
    Stats s;
    s.queued = d->queue.queuedCount();
    s.inFlight = d->queue.inFlightCount();
    s.busyWorkers = d->counters.busyWorkers;
    s.reconciles = d->counters.reconciles;
    s.skippedUnchanged = d->counters.skippedUnchanged;
    s.backendWrites = d->counters.backendWrites;
    s.failures = d->counters.failures;
    s.listCalls = d->counters.listCalls;
    return s;
}

bool Controller::isIdle() const
{
    std::lock_guard lock(d->mutex);
    return d->recovered && d->queue.queuedCount() == 0 && d->queue.inFlightCount() == 0;
}

// --- Scheduler --------------------------------------------------------------------------------

QDateTime Controller::Private::nextResyncTime(const QDateTime &from) const
{
    const double jitter =
        options.resyncJitter * (2.0 * QRandomGenerator::global()->generateDouble() - 1.0);
    const auto period = static_cast<qint64>(options.resyncPeriod.count() * (1.0 + jitter));
    return from.addMSecs(std::max<qint64>(period, 1000));
}

bool Controller::Private::openThreadContext(ThreadContext &tc)
{
    StoreError error;
    if (!tc.open(&error)) {
        notifications.storeFailed(error.message);
        return false;
    }
    return true;
}

void Controller::Private::schedulerLoop()
{
    ThreadContext tc(sources);
    if (!openThreadContext(tc)) {
        std::lock_guard lock(mutex);
        recovered = true; // let the workers report the same failure rather than wait forever
        return;
    }
    Workspace *ws = &tc.workspace();
    recover(tc);
    scan(*ws, true);
    {
        std::lock_guard lock(mutex);
        recovered = true;
    }
    wakeWorkers.notify_all();

    qint64 dataVersion = ws->dataVersion();
    QDateTime nextResync = nextResyncTime(clock.now());
    while (!stopping) {
        bool doScan = false;
        bool doResync = false;
        {
            std::unique_lock lock(mutex);
            if (!scanRequested && !resyncRequested && !stopping)
                wakeScheduler.wait_for(lock, options.pollInterval);
            if (stopping)
                break;
            doScan = std::exchange(scanRequested, false);
            doResync = std::exchange(resyncRequested, false);
        }
        const qint64 version = ws->dataVersion();
        if (version != dataVersion || doScan) {
            dataVersion = version;
            scan(*ws, false);
        }
        if (doResync || clock.now() >= nextResync) {
            resync();
            nextResync = nextResyncTime(clock.now());
        }
    }
}

void Controller::Private::recover(ThreadContext &tc)
{
    Workspace &ws = tc.workspace();
    // Unfinished intents are resolved by observing the backend before anything else is written.
    for (const JournalEntry &entry : ws.unfinishedIntents()) {
        if (stopping)
            return;
        const std::optional<Resource> res = ws.get(entry.key);
        QString outcome = QStringLiteral("resolved: the resource left the workspace");
        if (res) {
            const QList<Resource> owners = tc.ownersOf(*res);
            const Resource &account = owners.isEmpty() ? *res : owners.first();
            std::optional<BackendError> managerError;
            std::shared_ptr<Manager> manager = tc.managerFor(*res, account, &managerError);
            if (manager) {
                const Outcome<Observation> seen = manager->get(Target{*res, owners});
                if (seen)
                    outcome = QStringLiteral("resolved: present in the backend");
                else if (seen.error().category == BackendError::Category::NotFound)
                    outcome = QStringLiteral("resolved: absent from the backend");
                else
                    outcome = QStringLiteral("resolved: unknown (%1); the next reconcile observes "
                                             "again")
                                  .arg(seen.error().message);
            } else {
                outcome = QStringLiteral("resolved: unknown (no Manager); the next reconcile "
                                         "observes again");
            }
            EventRecorder recorder(entry.key, newReconcileId(), clock);
            recorder.setPhase(QStringLiteral("recovery"));
            recorder.normal(
                QStringLiteral("IntentResolved"),
                QStringLiteral("%1 interrupted at %2: %3")
                    .arg(entry.operation, entry.startedAt.toString(Qt::ISODateWithMs), outcome));
            ws.recordEvents(recorder.events(), nullptr);
            notifications.resourceChanged(entry.key, recorder.events());
        }
        ws.finishIntent(entry.id, outcome, nullptr);
    }
}

void Controller::Private::scan(Workspace &ws, bool initial)
{
    // Only what changed since the last look is read; a removal (the count falls short of what
    // is known) means one full read.
    qint64 current = 0;
    QList<Resource> resources = ws.listChangedSince(initial ? 0 : scanVersion, &current);
    if (!initial) {
        qsizetype known = snapshots.size();
        for (const Resource &r : std::as_const(resources))
            known += snapshots.contains(r.key()) ? 0 : 1;
        if (known != ws.count())
            resources = ws.listChangedSince(0, &current);
    }
    const bool full = initial || resources.size() == ws.count();
    scanVersion = current;
    QHash<ResourceKey, Snapshot> next;
    if (!full)
        next = snapshots;
    next.reserve(std::max(next.size(), resources.size()));

    QList<QPair<ResourceKey, WorkQueue::Lane>> toQueue;
    QList<ResourceKey> refreshes;
    for (const Resource &r : std::as_const(resources)) {
        Snapshot s;
        s.generation = r.metadata.generation;
        s.deleting = r.metadata.isBeingDeleted();
        s.policy = r.metadata.annotations.value(Annotations::reconcilePolicy());
        s.reconcileRequest = r.metadata.annotations.value(Annotations::reconcileRequestedAt());
        s.refreshRequest = r.metadata.annotations.value(Annotations::refreshRequestedAt());
        s.hasFinalizer = r.hasFinalizer();
        s.resourceId = r.metadata.annotations.value(Annotations::resourceId());
        s.readyAtAll = r.status.ready().isReady();
        s.ready = s.readyAtAll && r.status.ready().observedGeneration == r.metadata.generation;
        const Kind *kind = kinds.find(r.kind);
        if (kind && !kind->ownerKind.isEmpty())
            s.owner = ResourceKey{kind->ownerKind, r.ownerName()}.toString();
        s.backendName = backendNameOf(kind, r);

        const auto old = snapshots.constFind(r.key());
        if (initial) {
            const Condition ready = r.status.ready();
            const bool upToDate =
                ready.isReady() && ready.observedGeneration == s.generation && !s.deleting;
            // Up-to-date resources are observed by the first resync, by list pages.
            if (!upToDate)
                toQueue.append({r.key(), WorkQueue::Lane::SpecChange});
        } else if (old == snapshots.cend() || old->generation != s.generation ||
                   old->deleting != s.deleting || old->policy != s.policy) {
            toQueue.append({r.key(), WorkQueue::Lane::SpecChange});
        } else if (old->reconcileRequest != s.reconcileRequest) {
            // Another process (the CLI) asked for a reconcile: a person's action.
            toQueue.append({r.key(), WorkQueue::Lane::UserAction});
        } else if (old->refreshRequest != s.refreshRequest) {
            refreshes.append(r.key());
            toQueue.append({r.key(), WorkQueue::Lane::UserAction});
        }
        next.insert(r.key(), s);
    }
    // The account is the root of the ownership chain.
    QList<QPair<ResourceKey, QString>> groups;
    groups.reserve(resources.size());
    for (const Resource &r : std::as_const(resources)) {
        Snapshot &s = next[r.key()];
        QString root = r.key().toString();
        QString up = s.owner;
        for (int depth = 0; depth < 8 && !up.isEmpty(); ++depth) {
            const auto key = ResourceKey::fromString(up);
            const auto it = key ? next.constFind(*key) : next.cend();
            if (it == next.cend())
                break;
            root = up;
            up = it->owner;
        }
        s.account = root;
        groups.append({r.key(), root});
    }
    snapshots = std::move(next);

    // One account must not hold every worker while another waits (an endpoint that stopped
    // answering keeps each request until its timeout): with more than one account, each gets
    // at most half the workers.
    QSet<QString> accounts;
    for (auto it = snapshots.cbegin(); it != snapshots.cend(); ++it) {
        if (it->owner.isEmpty() && factories.isAccountKind(it.key().kind))
            accounts.insert(it->account);
    }
    int limit = options.accountConcurrency;
    if (accounts.size() > 1) {
        const int half = std::max(1, options.workers / 2);
        limit = limit > 0 ? std::min(limit, half) : half;
    }
    const bool limitChanged = limit != groupLimit;
    groupLimit = limit;

    if (toQueue.isEmpty() && !initial && !limitChanged)
        return;
    {
        std::lock_guard lock(mutex);
        if (limitChanged) {
            for (const QString &account : std::as_const(accounts))
                queue.setGroupLimit(account, limit);
        }
        for (const auto &[key, group] : groups) {
            queue.setGroup(key, group);
            if (limit > 0)
                queue.setGroupLimit(group, limit);
        }
        for (const ResourceKey &key : std::as_const(refreshes))
            keyState[key].observeOnly = true;
        // Owners first: a child whose owner is not Ready and is queued here waits for the
        // owner's verdict (holdForOwner) without a run, and so without reading itself and its
        // owners only to find that out, as process() would.
        QList<QPair<ResourceKey, WorkQueue::Lane>> children;
        for (const auto &[key, lane] : toQueue) {
            if (lane == WorkQueue::Lane::SpecChange) {
                // A changed spec gets a fresh start: no backoff from earlier failures.
                KeyState &st = keyState[key];
                st.failures = 0;
                st.polls = 0;
            }
            if (!snapshots.constFind(key)->owner.isEmpty())
                children.append({key, lane});
            else
                queue.add(key, lane);
        }
        for (const auto &[key, lane] : std::as_const(children)) {
            const Snapshot &s = *snapshots.constFind(key);
            const auto ownerKey = ResourceKey::fromString(s.owner);
            const auto owner = ownerKey ? snapshots.constFind(*ownerKey) : snapshots.cend();
            if (owner == snapshots.cend() || owner->readyAtAll || s.deleting ||
                keyState.value(key).observeOnly || !holdForOwner(key, *ownerKey))
                queue.add(key, lane);
        }
    }
    if (initial)
        resync(); // after the holds: a held child is observed with its owner's verdict
    wakeWorkers.notify_all();
}

void Controller::Private::resync()
{
    // Children are observed by list pages, one job per owner and child kind; what no list
    // covers (accounts, resources whose owner is missing or not Ready) is observed one by one.
    // Accounts are listed for every child kind, so that the window shows what nothing manages
    // yet; deeper owners (a container's blobs) only for the kinds they hold managed children
    // of: listing every container for blobs nobody declared cost a request per container.
    QHash<ResourceKey, ListJob> jobs;
    QList<ResourceKey> individually;
    const auto listable = [this](const Snapshot &s) { return !s.deleting && s.ready; };
    const auto addJob = [&jobs](const QString &kind, const ResourceKey &owner,
                                const QString &account) {
        ListJob &job = jobs[listJobKey(kind, owner)];
        job.kind = kind;
        job.owner = owner;
        job.account = account;
    };
    for (auto it = snapshots.cbegin(); it != snapshots.cend(); ++it) {
        if (it->owner.isEmpty() && listable(*it)) {
            for (const QString &child : childKinds.value(it.key().kind))
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
        const auto job = owner ? jobs.find(listJobKey(it.key().kind, *owner)) : jobs.end();
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
    std::lock_guard lock(mutex);
    for (auto it = jobs.begin(); it != jobs.end(); ++it) {
        queue.setGroup(it.key(), it->account);
        listJobs.insert(it.key(), std::move(*it));
        queue.add(it.key(), WorkQueue::Lane::Resync);
    }
    for (const ResourceKey &key : std::as_const(individually)) {
        // A child held for its owner's verdict runs with it: a run now would only find that.
        if (!keyState.value(key).heldForOwner)
            queue.add(key, WorkQueue::Lane::Resync);
    }
    wakeWorkers.notify_all();
}

// --- Workers ----------------------------------------------------------------------------------

void Controller::Private::workerLoop(int index)
{
    Q_UNUSED(index);
    ThreadContext tc(sources);
    if (!openThreadContext(tc))
        return;
    std::unique_lock lock(mutex);
    while (!stopping) {
        if (!recovered) {
            wakeWorkers.wait_for(lock, 100ms);
            continue;
        }
        const QDateTime now = clock.now();
        const std::optional<ResourceKey> key = queue.take(now);
        if (!key && tc.hasUnrecordedRuns()) {
            lock.unlock();
            tc.recordRuns(true);
            lock.lock();
            continue;
        }
        if (!key) {
            QDateTime due = queue.nextDue();
            // Wake at least once a second so that a held group or stop is noticed.
            const QDateTime cap = now.addMSecs(1000);
            if (!due.isValid() || due > cap)
                due = cap;
            clock.waitUntil(wakeWorkers, lock, due);
            continue;
        }
        KeyState &st = keyState[*key];
        const bool observeOnly = std::exchange(st.observeOnly, false);
        const int polls = st.polls;
        // From the take on, so that no child slips between the queue and the run; cleared with
        // the verdict (process()), or here when there was none.
        st.running = true;
        ++counters.busyWorkers;
        lock.unlock();
        process(tc, *key, observeOnly, polls);
        tc.recordRuns(false);
        lock.lock();
        --counters.busyWorkers;
        if (const auto it = keyState.find(*key); it != keyState.end())
            it->running = false;
        queue.done(*key);
        wakeWorkers.notify_all();
    }
    lock.unlock();
    tc.recordRuns(true);
}

bool Controller::Private::holdForOwner(const ResourceKey &key, const ResourceKey &ownerKey)
{
    const QDateTime due = queue.dueTime(ownerKey);
    const bool verdictComing =
        keyState.value(ownerKey).running ||
        (queue.isQueued(ownerKey) && (!due.isValid() || due <= clock.now().addSecs(1)));
    if (!verdictComing || keyState.value(key).releasedFromHold)
        return false;
    KeyState &st = keyState[key];
    if (!st.waitingOnOwner.isEmpty() && st.waitingOnOwner != ownerKey.toString())
        waiters[st.waitingOnOwner].remove(key);
    st.waitingOnOwner = ownerKey.toString();
    st.heldForOwner = true;
    waiters[st.waitingOnOwner].insert(key);
    prefetched.remove(key);
    return true;
}

QList<ResourceKey> Controller::Private::heldFor(const ResourceKey &owner) const
{
    QList<ResourceKey> held;
    for (const ResourceKey &child : waiters.value(owner.toString())) {
        if (keyState.value(child).heldForOwner)
            held.append(child);
    }
    return held;
}

void Controller::Private::release(const ResourceKey &owner, const QList<ResourceKey> &children)
{
    for (const ResourceKey &child : children) {
        if (child == owner)
            continue;
        if (const auto it = keyState.find(child); it != keyState.end()) {
            it->releasedFromHold = it->heldForOwner;
            it->heldForOwner = false;
        }
        queue.add(child, WorkQueue::Lane::SpecChange);
    }
}

void Controller::Private::process(ThreadContext &tc, const ResourceKey &key, bool observeOnly,
                                  int polls)
{
    if (key.kind == listJobKind) {
        processList(tc, key);
        return;
    }
    if (key.kind == claimJobKind) {
        processClaim(tc, key);
        return;
    }
    if (!observeOnly && skipUnchanged(tc, key))
        return;
    Workspace &ws = tc.workspace();
    const std::optional<Resource> stored = ws.get(key);
    const QList<Resource> owners = stored ? tc.ownersOf(*stored) : QList<Resource>();
    std::optional<Prefetch> prefetch;
    {
        std::lock_guard lock(mutex);
        if (!stored) {
            const QString owner = keyState.take(key).waitingOnOwner;
            if (!owner.isEmpty() && waiters.contains(owner))
                waiters[owner].remove(key);
            prefetched.remove(key);
            // Children held for its verdict get none: they run, and find it gone.
            const QList<ResourceKey> held = heldFor(key);
            release(key, held);
            if (!held.isEmpty())
                wakeWorkers.notify_all();
            return;
        }
        // A child whose owner is not Ready and has its verdict coming (running, or due within a
        // second) waits for it instead of running only to record WaitingForOwner: a fresh apply
        // of an account and 1,000 containers spent its first half second on exactly that.
        if (const Resource *owner = owners.isEmpty() ? nullptr : &owners.last();
            owner && !observeOnly && !stored->metadata.isBeingDeleted() &&
            !owner->status.ready().isReady() && holdForOwner(key, owner->key()))
            return;
        keyState[key].releasedFromHold = false;
        if (const auto it = prefetched.find(key); it != prefetched.end()) {
            prefetch = std::move(*it);
            prefetched.erase(it);
        }
        if (prefetch &&
            (observeOnly || !prefetch->usable(keyState.value(key).lastWrite, clock.now())))
            prefetch.reset(); // a person's refresh looks for itself; a stale page is no get
    }

    const QDateTime startedAt = clock.now();
    QElapsedTimer elapsed;
    elapsed.start();
    ReconcileContext ctx;
    ctx.reconcileId = newReconcileId();
    ctx.target.resource = *stored;
    ctx.target.owners = owners;
    ctx.workspace = &ws;
    ctx.clock = &clock;
    ctx.isCancelled = [this] { return stopping.load(); };
    ctx.pollCount = polls;
    if (prefetch)
        ctx.prefetched = prefetch->observation; // the reconciler consumes it; `prefetch` stays
    EventRecorder recorder(key, ctx.reconcileId, clock);
    ctx.events = &recorder;
    const Resource &account = ctx.target.owners.isEmpty() ? *stored : ctx.target.owners.first();

    PhaseResult result;
    Resource &res = ctx.target.resource;
    const auto policy = res.policy();
    if (res.metadata.isBeingDeleted()) {
        // Accounts are connections, never deleted in the backend: they leave without a call
        // (a misconfigured account must stay removable).
        const bool isAccount = factories.isAccountKind(res.kind);
        if (!res.hasFinalizer() || policy != Annotations::ReconcilePolicy::Manage || isAccount) {
            recorder.setPhase(QStringLiteral("delete"));
            if (isAccount && res.hasFinalizer() && policy == Annotations::ReconcilePolicy::Manage)
                recorder.normal(QStringLiteral("Removed"),
                                QStringLiteral("removed from the workspace; accounts are never "
                                               "deleted in the backend"));
            else if (res.hasFinalizer())
                recorder.normal(QStringLiteral("Detached"),
                                QStringLiteral("removed from the workspace; the backend "
                                               "resource is left as it is (policy %1)")
                                    .arg(Annotations::policyName(policy)));
            result.kind = PhaseResult::Kind::Removed;
        } else {
            ctx.manager = tc.managerFor(res, account, &ctx.managerError);
            result = reconciler.deleteResource(ctx);
            if (result.kind == PhaseResult::Kind::Removed)
                recorder.normal(QStringLiteral("Deleted"),
                                QStringLiteral("%1 is gone from the backend").arg(key.toString()));
        }
    } else if (observeOnly || policy == Annotations::ReconcilePolicy::Skip) {
        ctx.manager = tc.managerFor(res, account, &ctx.managerError);
        result = reconciler.updateStatus(ctx);
    } else {
        ctx.manager = tc.managerFor(res, account, &ctx.managerError);
        result = reconciler.claim(ctx);
        if (result.kind == PhaseResult::Kind::Done && !ctx.isCancelled())
            result = reconciler.createOrUpdate(ctx);
    }

    if (stopping) {
        // A phase cut short by stop() observed nothing worth keeping ("Cancelled" is ours, not
        // the backend's); an unfinished intent is resolved by observing at the next start.
        std::lock_guard lock(mutex);
        keyState[key].running = false;
        return;
    }
    ++counters.reconciles;
    counters.backendWrites += ctx.backendWrites;

    PhaseRun run;
    run.key = key;
    run.reconcileId = ctx.reconcileId;
    run.phase = recorder.phase().isEmpty() ? QStringLiteral("delete") : recorder.phase();
    run.startedAt = startedAt;
    run.durationMs = elapsed.elapsed();
    static const char *const outcomeNames[] = {"Done", "RequeueAfter", "Retry", "Fatal", "Removed"};
    run.outcome = QString::fromLatin1(outcomeNames[static_cast<int>(result.kind)]);
    const Condition ready = res.status.ready();
    run.reason = ready.reason;
    run.message = result.error.isEmpty() ? ready.message : result.error;
    run.backendWrites = ctx.backendWrites;
    const bool failed =
        result.kind == PhaseResult::Kind::Retry || result.kind == PhaseResult::Kind::Fatal;
    if (failed && result.waitingFor != QLatin1String("owner"))
        run.backendCode = ready.reason;
    run.requestId = ctx.requestId;
    for (const Event &event : std::as_const(recorder.events())) {
        if (!event.requestId.isEmpty())
            run.requestId = event.requestId;
    }
    tc.addRun(run);

    // Schedule the next look. The key stays `running` until its status is stored, so that a
    // child never reads its owner's status from before this verdict.
    const QDateTime now = clock.now();
    bool stateChanged = false;
    ReconcileState newState;
    {
        std::lock_guard lock(mutex);
        KeyState &st = keyState[key];
        if (ctx.backendWrites > 0)
            st.lastWrite = now;
        newState = st.stored;
        newState.lastAttempt = now;
        newState.lastReconcileId = ctx.reconcileId;
        newState.waitingFor = result.waitingFor;
        if (!st.waitingOnOwner.isEmpty()) {
            auto w = waiters.find(st.waitingOnOwner);
            if (w != waiters.end() && (w->remove(key), w->isEmpty()))
                waiters.erase(w);
            st.waitingOnOwner.clear();
        }
        if (result.waitingFor == QLatin1String("owner")) {
            if (const Kind *kind = kinds.find(key.kind)) {
                st.waitingOnOwner = ResourceKey{kind->ownerKind, res.ownerName()}.toString();
                waiters[st.waitingOnOwner].insert(key);
            }
        }
        switch (result.kind) {
        case PhaseResult::Kind::Done:
            st.failures = 0;
            st.polls = 0;
            newState.attempts = 0;
            newState.lastError.clear();
            newState.nextAttempt = {};
            break;
        case PhaseResult::Kind::RequeueAfter:
            st.polls = ctx.pollCount + 1;
            newState.nextAttempt = now.addMSecs(result.after.count());
            queue.add(key, WorkQueue::Lane::Retry, newState.nextAttempt);
            break;
        case PhaseResult::Kind::Retry: {
            ++st.failures;
            ++counters.failures;
            const auto delay =
                backoff.delay(result.retryClass, st.failures,
                              result.after > 0ms ? std::optional(result.after) : std::nullopt);
            newState.attempts = st.failures;
            newState.lastError = result.error;
            newState.nextAttempt = now.addMSecs(delay.value_or(0ms).count());
            queue.add(key, WorkQueue::Lane::Retry, newState.nextAttempt);
            break;
        }
        case PhaseResult::Kind::Fatal:
            ++st.failures;
            ++counters.failures;
            newState.attempts = st.failures;
            newState.lastError = result.error;
            newState.nextAttempt = {};
            break;
        case PhaseResult::Kind::Removed:
            keyState.remove(key); // not waiting for an owner: it was just cleared above
            break;
        }
        if (result.kind != PhaseResult::Kind::Removed) {
            // lastAttempt alone changing is not worth a write per resync.
            ReconcileState compare = newState;
            compare.lastAttempt = st.stored.lastAttempt;
            compare.lastReconcileId = st.stored.lastReconcileId;
            stateChanged = compare != st.stored || !st.stored.lastAttempt.isValid();
            st.stored = newState;
        }
    }

    // Intent outcomes, status, events and the reconcile state in one transaction; a run that
    // changed none of them (a resync that found no drift) takes no write lock.
    const QString id = res.metadata.annotations.value(Annotations::resourceId());
    const bool newId = id != stored->metadata.annotations.value(Annotations::resourceId());
    const bool statusChanged = res.status != stored->status || newId;
    // Nothing to record but, perhaps, when it last ran (the reconcile state).
    const bool quiet = !statusChanged && !ctx.finalizerPending && ctx.finishedIntents.isEmpty() &&
                       recorder.events().isEmpty();
    const bool anythingToWrite =
        !quiet || result.kind == PhaseResult::Kind::Removed || stateChanged;
    StoreError error;
    StoreError batchError;
    if (anythingToWrite)
        ws.writeTogether(
            [&] {
                for (const auto &[intent, outcome] : std::as_const(ctx.finishedIntents))
                    ws.finishIntent(intent, outcome, &error);
                if (result.kind == PhaseResult::Kind::Removed) {
                    ws.recordEvents(recorder.events(), &error);
                    ws.remove(key, &error);
                    return;
                }
                if (ctx.finalizerPending) {
                    // Claimed by a run that wrote nothing to the backend.
                    ws.setFinalizers(res, &error);
                }
                // The backend ID goes with the status (the reconciler sets it in memory).
                if (statusChanged)
                    ws.updateStatus(key, res.status, newId ? id : QString(), &error);
                if (!recorder.events().isEmpty())
                    ws.recordEvents(recorder.events(), &error);
                if (stateChanged)
                    ws.setReconcileState(key, newState, &error);
            },
            &batchError);
    if (batchError.isError())
        error = batchError;
    if (error.isError())
        qCWarning(lcController) << "store:" << error.message;

    QList<ResourceKey> wokenChildren;
    {
        std::lock_guard lock(mutex);
        if (const auto it = keyState.find(key); it != keyState.end()) {
            it->running = false;
            // A quiet run that judged a list page's observation and left the resource Ready
            // lets the next resync that sees the same skip the work (skipUnchanged).
            const Condition ready = res.status.ready();
            if (quiet && ctx.backendWrites == 0 && prefetch &&
                result.kind == PhaseResult::Kind::Done && ready.isReady() &&
                !res.metadata.isBeingDeleted())
                it->quiet = QuietRun{stored->metadata.resourceVersion, prefetch->observation,
                                     run.phase, ready.reason, ready.message};
            else
                it->quiet.reset();
        }
        const Kind *done = kinds.find(key.kind);
        if (result.kind == PhaseResult::Kind::Done && res.status.ready().isReady()) {
            // Children that waited for this owner go now rather than after their backoff.
            if (const auto w = waiters.constFind(key.toString()); w != waiters.cend())
                wokenChildren = w->values();
            if (done && done->ownerKind.isEmpty() && childKinds.contains(key.kind) &&
                !listedOwners.contains(key)) {
                // A newly Ready account: list what it holds, so that the window can show what
                // nothing manages yet. Ahead of its children's work (the lane of a person's
                // action): a list is a request or two, what the account holds is what the window
                // shows next, and behind a thousand queued creates it ran last, keeping
                // `apply --wait` waiting for lists nobody asked it to wait for.
                for (const QString &child : childKinds.value(key.kind)) {
                    const ResourceKey jobKey = listJobKey(child, key);
                    if (listJobs.contains(jobKey))
                        continue;
                    ListJob job;
                    job.kind = child;
                    job.owner = key;
                    job.discoveryOnly = true;
                    job.account = account.key().toString();
                    queue.setGroup(jobKey, job.account);
                    listJobs.insert(jobKey, job);
                    queue.add(jobKey, WorkQueue::Lane::UserAction);
                }
            }
        }
        if (result.kind != PhaseResult::Kind::RequeueAfter && wokenChildren.isEmpty()) {
            // Not Ready (or gone): the children held back for this verdict run now and say why
            // they wait.
            wokenChildren = heldFor(key);
        }
        release(key, wokenChildren);
    }
    if (!wokenChildren.isEmpty())
        wakeWorkers.notify_all();
    notifications.resourceChanged(key, recorder.events());
}

bool Controller::Private::skipUnchanged(ThreadContext &tc, const ResourceKey &key)
{
    // A resync whose list page shows the resource exactly as the last run that changed nothing
    // saw it, with the stored resource unchanged since (same resourceVersion: every write
    // raises it), ends here: the reconciler would reach the same verdict from the same inputs.
    // Only complete lists prefetch (Manager::listIsComplete), so a kind whose verdict needs
    // more than the listing (a blob's local content) never comes this way. Reading and parsing
    // the resource and its owners was most of the CPU of a no-change pass.
    QuietRun quiet;
    QString requestId;
    {
        std::lock_guard lock(mutex);
        const auto st = keyState.constFind(key);
        const auto page = prefetched.constFind(key);
        if (st == keyState.cend() || !st->quiet || page == prefetched.cend() ||
            !st->waitingOnOwner.isEmpty() || waiters.contains(key.toString()) ||
            !page->usable(st->lastWrite, clock.now()) ||
            !sameObservation(page->observation, st->quiet->observed))
            return false;
        quiet = *st->quiet;
        requestId = page->observation.requestId;
    }
    if (tc.workspace().resourceVersion(key) != quiet.resourceVersion)
        return false;

    const QDateTime now = clock.now();
    PhaseRun run;
    run.key = key;
    run.reconcileId = newReconcileId();
    run.phase = quiet.phase;
    run.startedAt = now;
    run.outcome = QStringLiteral("Done");
    run.reason = quiet.reason;
    run.message = quiet.message;
    run.requestId = requestId;
    {
        std::lock_guard lock(mutex);
        prefetched.remove(key);
        KeyState &st = keyState[key];
        st.failures = 0;
        st.polls = 0;
        st.stored.lastAttempt = now;
        st.stored.lastReconcileId = run.reconcileId;
    }
    ++counters.reconciles;
    ++counters.skippedUnchanged;
    tc.addRun(run);
    notifications.resourceChanged(key, {});
    return true;
}

void Controller::Private::processList(ThreadContext &tc, const ResourceKey &jobKey)
{
    ListJob job;
    {
        std::lock_guard lock(mutex);
        job = listJobs.take(jobKey);
    }
    QList<ResourceKey> toObserve = job.unidentified; // one by one, with a get
    QSet<ResourceKey> seen;
    QHash<ResourceKey, Prefetch> seenOnPage;
    // What a page observed is reconciled while the next page is on its way.
    const auto queueSeen = [&] {
        if (seenOnPage.isEmpty())
            return;
        {
            std::lock_guard lock(mutex);
            for (auto it = seenOnPage.begin(); it != seenOnPage.end(); ++it) {
                prefetched.insert(it.key(), std::move(*it));
                queue.add(it.key(), WorkQueue::Lane::Resync);
            }
        }
        seenOnPage.clear();
        wakeWorkers.notify_all();
    };
    const auto finish = [&] {
        queueSeen();
        std::lock_guard lock(mutex);
        for (auto it = job.managed.cbegin(); it != job.managed.cend() && !job.discoveryOnly; ++it) {
            if (!seen.contains(it.value()))
                toObserve.append(it.value());
        }
        for (const ResourceKey &key : std::as_const(toObserve))
            queue.add(key, WorkQueue::Lane::Resync);
        wakeWorkers.notify_all();
    };
    if (job.kind.isEmpty())
        return; // a job queued twice ran already

    Workspace &ws = tc.workspace();
    const std::optional<Resource> owner = ws.get(job.owner);
    if (!owner || owner->metadata.isBeingDeleted() || !owner->status.ready().isReady())
        return finish();
    ListScope scope;
    scope.owners = tc.ownersOf(*owner);
    scope.owners.append(*owner);
    Resource probe;
    probe.kind = job.kind;
    std::optional<BackendError> managerError;
    const std::shared_ptr<Manager> manager =
        tc.managerFor(probe, scope.owners.first(), &managerError);
    if (!manager)
        return finish();
    const bool complete = manager->listIsComplete();
    if (job.discoveryOnly) {
        // Children applied meanwhile (perhaps still being created) are managed, not found.
        const Kind *kind = kinds.find(job.kind);
        for (const Resource &r : ws.listOwnedBy(job.kind, job.owner.name)) {
            const QString id = r.metadata.annotations.value(Annotations::resourceId());
            if (!id.isEmpty())
                job.managed.insert(id, r.key());
            job.managedByName.insert(backendNameOf(kind, r), r.key());
        }
    }

    const QDateTime listedAt = clock.now();
    QList<DiscoveredResource> unmanaged;
    for (int page = 0; page < 100'000 && !stopping; ++page) {
        ++counters.listCalls;
        const QDateTime pageAt = clock.now();
        const Outcome<ListPage> listed = manager->list(scope);
        if (!listed) {
            // The rest then say for themselves what is wrong (unreachable, unauthorized).
            qCDebug(lcController) << "list" << jobKey.name << "failed:" << listed.error().message;
            return finish();
        }
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
            DiscoveredResource found;
            found.kind = job.kind;
            found.name = item.name;
            found.owner = job.owner;
            found.resourceId = item.resourceId;
            found.spec = item.spec;
            found.details = item.details;
            found.seenAt = listedAt;
            unmanaged.append(found);
        }
        queueSeen();
        scope.continuation = listed.value().continuation;
        if (scope.continuation.isEmpty())
            break;
    }
    if (stopping)
        return;
    StoreError error;
    if (!ws.replaceDiscovered(job.owner, job.kind, unmanaged, &error))
        qCWarning(lcController) << "store:" << error.message;
    {
        std::lock_guard lock(mutex);
        listedOwners.insert(job.owner);
    }
    notifications.discoveryChanged(job.owner);
    finish();
}

void Controller::Private::processClaim(ThreadContext &tc, const ResourceKey &jobKey)
{
    DiscoveredResource item;
    {
        std::lock_guard lock(mutex);
        if (!claims.contains(jobKey))
            return;
        item = claims.take(jobKey);
    }
    ResourceKey claimed;
    QString error;
    const auto done = [&] {
        QMetaObject::invokeMethod(
            q, [q = q, item, claimed, error] { Q_EMIT q->claimFinished(item, claimed, error); },
            Qt::QueuedConnection);
    };
    Workspace &ws = tc.workspace();
    const std::optional<Resource> owner = ws.get(item.owner);
    if (!owner) {
        error = QStringLiteral("%1 is no longer in the workspace").arg(item.owner.toString());
        return done();
    }
    QList<Resource> owners = tc.ownersOf(*owner);
    owners.append(*owner);
    Resource probe;
    probe.kind = item.kind;
    probe.metadata.name = item.name;
    probe.spec = item.spec;
    probe.spec.insert(QStringLiteral("owner"),
                      QJsonObject{{QStringLiteral("name"), owner->metadata.name}});
    std::optional<BackendError> managerError;
    const std::shared_ptr<Manager> manager = tc.managerFor(probe, owners.first(), &managerError);
    if (!manager) {
        error = managerError ? managerError->message : QStringLiteral("no Manager");
        return done();
    }
    QJsonObject observed = item.spec;
    if (!manager->listIsComplete()) {
        // A list page named it; only a get sees all of it (key schema, indexes, …).
        const Outcome<Observation> seen = manager->get(Target{probe, owners});
        if (!seen) {
            error = seen.error().message;
            return done();
        }
        observed = seen.value().spec;
        if (!seen.value().resourceId.isEmpty())
            item.resourceId = seen.value().resourceId;
    }
    QSet<QString> taken;
    for (const Resource &r : ws.list(item.kind))
        taken.insert(r.metadata.name);
    std::optional<Resource> resource = DiscoveredClaim::build(item, observed, kinds, taken, &error);
    if (!resource)
        return done();
    StoreError storeError;
    if (!ws.apply({*resource}, nullptr, &storeError)) {
        error = storeError.message;
        return done();
    }
    claimed = resource->key();
    {
        std::lock_guard lock(mutex);
        queue.setGroup(claimed, owners.first().key().toString());
        queue.add(claimed, WorkQueue::Lane::UserAction);
    }
    wakeWorkers.notify_all();
    notifications.discoveryChanged(item.owner);
    done();
}

// --- Notifications ----------------------------------------------------------------------------

void Controller::Private::flush()
{
    const NotificationBuffer::Batch batch = notifications.take();
    if (!batch.storeError.isEmpty())
        Q_EMIT q->storeFailed(batch.storeError);
    if (!batch.keys.isEmpty())
        Q_EMIT q->resourcesChanged(batch.keys);
    if (!batch.events.isEmpty())
        Q_EMIT q->eventsRecorded(batch.events);
    if (!batch.discoveries.isEmpty())
        Q_EMIT q->discoveryChanged(batch.discoveries);
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "controller.h"

#include "changescanner.h"
#include "clock.h"
#include "controllercounters.h"
#include "controllerlog.h"
#include "discoveredclaim.h"
#include "discovery.h"
#include "eventrecorder.h"
#include "factoryregistry.h"
#include "httpclient.h"
#include "kindregistry.h"
#include "notificationbuffer.h"
#include "reconciler.h"
#include "scheduler.h"
#include "startupresync.h"
#include "threadcontext.h"
#include "userrequests.h"
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

Controller::Options clamped(Controller::Options options)
{
    options.workers = std::clamp(options.workers, 1, 64);
    return options;
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
        , options(clamped(std::move(options)))
        , scheduler(clock, this->options.backoff)
        , discovery(kinds, clock, scheduler, notifications, counters)
        , requests(
              kinds, scheduler, notifications,
              [q](const DiscoveredResource &item, const ResourceKey &key, const QString &error) {
                  QMetaObject::invokeMethod(
                      q, [q, item, key, error] { Q_EMIT q->claimFinished(item, key, error); },
                      Qt::QueuedConnection);
              })
        , scanner(kinds, factories, scheduler, discovery, this->options.workers,
                  this->options.accountConcurrency)
        , startup(clock, scheduler.stopping(), notifications)
    {
        sources.kinds = &kinds;
        sources.factories = &factories;
        sources.credentials = credentials;
        sources.clock = &clock;
        sources.stopping = &scheduler.stopping();
        sources.writers = std::make_shared<std::mutex>();
        sources.http = this->options.http;
    }

    void workerLoop(int index);
    void schedulerLoop();
    /// Opens the calling thread's connection; a failure is reported to observers.
    bool openThreadContext(ThreadContext &tc);
    void process(ThreadContext &tc, const ResourceKey &key, bool observeOnly, int polls);
    bool skipUnchanged(ThreadContext &tc, const ResourceKey &key);
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
    Scheduler scheduler;
    NotificationBuffer notifications;
    ControllerCounters counters;
    Discovery discovery;
    UserRequests requests;
    ChangeScanner scanner; // scheduler thread only
    StartupResync startup;

    std::vector<QThread *> threads; // owned; joined in stop()
    /// Opened, and so checked, by start(); the threads' connections are opened from it.
    std::unique_ptr<Workspace> origin;
    ThreadContext::Sources sources; ///< what every thread's context is made from
    QTimer *flushTimer = nullptr;   // child of q
};

Controller::Controller(const QString &workspacePath, const KindRegistry &kinds,
                       const FactoryRegistry &factories, Reconciler &reconciler, Clock &clock,
                       CredentialStore *credentials, Options options, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>(this, workspacePath, kinds, factories, reconciler, clock,
                                  credentials, std::move(options)))
{
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
    d->scheduler.reset();
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
    d->scheduler.stop();
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
    d->requests.reconcile(keys);
}

void Controller::refresh(const QList<ResourceKey> &keys)
{
    d->requests.refresh(keys);
}

void Controller::claim(const DiscoveredResource &item)
{
    d->requests.claim(item);
}

bool Controller::cancel(const ResourceKey &key)
{
    return d->scheduler.cancel(d->scheduler.lock(), key);
}

void Controller::cancelAll()
{
    d->scheduler.cancelAll(d->scheduler.lock());
}

void Controller::wake()
{
    d->scheduler.requestScan();
}

void Controller::resyncNow()
{
    d->scheduler.requestResync();
}

Controller::Stats Controller::stats() const
{
    const Scheduler::Lock lock = d->scheduler.lock();
    Stats s;
    s.queued = d->scheduler.queuedCount(lock);
    s.inFlight = d->scheduler.inFlightCount(lock);
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
    const Scheduler::Lock lock = d->scheduler.lock();
    return d->scheduler.isRecovered(lock) && d->scheduler.queuedCount(lock) == 0 &&
           d->scheduler.inFlightCount(lock) == 0;
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
        // Let the workers report the same failure rather than wait forever.
        scheduler.setRecovered(scheduler.lock());
        return;
    }
    Workspace *ws = &tc.workspace();
    startup.run(tc, scanner);
    scheduler.setRecovered(scheduler.lock());
    scheduler.wakeWorkers();

    qint64 dataVersion = ws->dataVersion();
    QDateTime nextResync = nextResyncTime(clock.now());
    while (!scheduler.stopping()) {
        const std::optional<Scheduler::Requests> requests =
            scheduler.waitForRequests(options.pollInterval);
        if (!requests)
            break;
        const qint64 version = ws->dataVersion();
        if (version != dataVersion || requests->scan) {
            dataVersion = version;
            scanner.scan(*ws, false);
        }
        if (requests->resync || clock.now() >= nextResync) {
            discovery.queueResync(scanner.snapshots());
            nextResync = nextResyncTime(clock.now());
        }
    }
}

// --- Workers ----------------------------------------------------------------------------------

void Controller::Private::workerLoop(int index)
{
    Q_UNUSED(index);
    ThreadContext tc(sources);
    if (!openThreadContext(tc))
        return;
    const std::atomic<bool> &stopping = scheduler.stopping();
    Scheduler::Lock lock = scheduler.lock();
    while (!stopping) {
        if (!scheduler.isRecovered(lock)) {
            scheduler.waitForWork(lock, 100ms);
            continue;
        }
        const QDateTime now = clock.now();
        const std::optional<Scheduler::Taken> taken = scheduler.take(lock, now);
        if (!taken && tc.hasUnrecordedRuns()) {
            lock.unlock();
            tc.recordRuns(true);
            lock.lock();
            continue;
        }
        if (!taken) {
            QDateTime due = scheduler.nextDue(lock);
            // Wake at least once a second so that a held group or stop is noticed.
            const QDateTime cap = now.addMSecs(1000);
            if (!due.isValid() || due > cap)
                due = cap;
            scheduler.waitForWork(lock, due);
            continue;
        }
        ++counters.busyWorkers;
        lock.unlock();
        process(tc, taken->key, taken->observeOnly, taken->polls);
        tc.recordRuns(false);
        lock.lock();
        --counters.busyWorkers;
        scheduler.done(lock, taken->key);
        scheduler.wakeWorkers();
    }
    lock.unlock();
    tc.recordRuns(true);
}

void Controller::Private::process(ThreadContext &tc, const ResourceKey &key, bool observeOnly,
                                  int polls)
{
    if (Discovery::isListJob(key)) {
        discovery.run(tc, key);
        return;
    }
    if (UserRequests::isClaimJob(key)) {
        requests.runClaim(tc, key);
        return;
    }
    if (!observeOnly && skipUnchanged(tc, key))
        return;
    Workspace &ws = tc.workspace();
    const std::atomic<bool> &stopping = scheduler.stopping();
    const std::optional<Resource> stored = ws.get(key);
    const QList<Resource> owners = stored ? tc.ownersOf(*stored) : QList<Resource>();
    std::optional<Prefetch> prefetch;
    {
        const Scheduler::Lock lock = scheduler.lock();
        if (!stored) {
            // Children held for its verdict get none: they run, and find it gone.
            if (!scheduler.forget(lock, key).isEmpty())
                scheduler.wakeWorkers();
            return;
        }
        // A child whose owner is not Ready and has its verdict coming (running, or due within a
        // second) waits for it instead of running only to record WaitingForOwner: a fresh apply
        // of an account and 1,000 containers spent its first half second on exactly that.
        if (const Resource *owner = owners.isEmpty() ? nullptr : &owners.last();
            owner && !observeOnly && !stored->metadata.isBeingDeleted() &&
            !owner->status.ready().isReady() && scheduler.holdForOwner(lock, key, owner->key()))
            return;
        prefetch = scheduler.beginRun(lock, key, observeOnly);
    }

    const QDateTime startedAt = clock.now();
    QElapsedTimer elapsed;
    elapsed.start();
    ReconcileContext ctx;
    ctx.reconcileId = EventRecorder::newReconcileId();
    ctx.target.resource = *stored;
    ctx.target.owners = owners;
    ctx.workspace = &ws;
    ctx.clock = &clock;
    ctx.isCancelled = [&stopping] { return stopping.load(); };
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
        scheduler.abandonRun(scheduler.lock(), key);
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
        Scheduler::RunEnd end;
        end.result = result;
        end.reconcileId = ctx.reconcileId;
        end.pollCount = ctx.pollCount;
        end.backendWrites = ctx.backendWrites;
        if (result.waitingFor == QLatin1String("owner")) {
            if (const Kind *kind = kinds.find(key.kind))
                end.waitingOnOwner = ResourceKey{kind->ownerKind, res.ownerName()};
        }
        if (failed)
            ++counters.failures;
        newState = scheduler.verdict(scheduler.lock(), key, end, now, &stateChanged);
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
        const Scheduler::Lock lock = scheduler.lock();
        // A quiet run that judged a list page's observation and left the resource Ready lets
        // the next resync that sees the same skip the work (skipUnchanged).
        const Condition ready = res.status.ready();
        std::optional<QuietRun> quietRun;
        if (quiet && ctx.backendWrites == 0 && prefetch && result.kind == PhaseResult::Kind::Done &&
            ready.isReady() && !res.metadata.isBeingDeleted())
            quietRun = QuietRun{stored->metadata.resourceVersion, prefetch->observation, run.phase,
                                ready.reason, ready.message};
        scheduler.endRun(lock, key, std::move(quietRun));
        if (result.kind == PhaseResult::Kind::Done && ready.isReady()) {
            // Children that waited for this owner go now rather than after their backoff.
            wokenChildren = scheduler.waitingFor(lock, key);
            discovery.listNewAccount(lock, key, account.key().toString());
        }
        if (result.kind != PhaseResult::Kind::RequeueAfter && wokenChildren.isEmpty()) {
            // Not Ready (or gone): the children held back for this verdict run now and say why
            // they wait.
            wokenChildren = scheduler.heldFor(lock, key);
        }
        scheduler.release(lock, key, wokenChildren);
    }
    if (!wokenChildren.isEmpty())
        scheduler.wakeWorkers();
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
        const std::optional<std::pair<QuietRun, QString>> unchanged =
            scheduler.unchanged(scheduler.lock(), key);
        if (!unchanged)
            return false;
        std::tie(quiet, requestId) = *unchanged;
    }
    if (tc.workspace().resourceVersion(key) != quiet.resourceVersion)
        return false;

    const QDateTime now = clock.now();
    PhaseRun run;
    run.key = key;
    run.reconcileId = EventRecorder::newReconcileId();
    run.phase = quiet.phase;
    run.startedAt = now;
    run.outcome = QStringLiteral("Done");
    run.reason = quiet.reason;
    run.message = quiet.message;
    run.requestId = requestId;
    scheduler.skipped(scheduler.lock(), key, now, run.reconcileId);
    ++counters.reconciles;
    ++counters.skippedUnchanged;
    tc.addRun(run);
    notifications.resourceChanged(key, {});
    return true;
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

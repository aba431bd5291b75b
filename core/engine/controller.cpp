// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "controller.h"

#include "clock.h"
#include "eventrecorder.h"
#include "factoryregistry.h"
#include "httpclient.h"
#include "kindregistry.h"
#include "reconciler.h"
#include "workspace.h"

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
    bool hasFinalizer = false;
};

/// The controller's bookkeeping for one key, guarded by the controller's mutex.
struct KeyState
{
    int failures = 0;
    int polls = 0;
    bool observeOnly = false;
    QString waitingOnOwner; ///< kind/name of the owner this key waits for, if any
    ReconcileState stored;  ///< what was last written to the workspace
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
    {}

    void workerLoop(int index);
    void schedulerLoop();
    /// What one thread (a worker, the scheduler) owns: its workspace connection, its HTTP
    /// client and the Managers made for it.
    struct ThreadContext
    {
        std::unique_ptr<Workspace> ws;
        std::unique_ptr<HttpClient> http;
        QHash<QString, std::shared_ptr<Manager>> managers;
    };

    bool openThreadContext(ThreadContext &tc);
    void process(ThreadContext &tc, const ResourceKey &key, bool observeOnly, int polls);
    void recover(ThreadContext &tc);
    void scan(Workspace &ws, bool initial);
    void resync();
    QList<Resource> ownersOf(Workspace &ws, const Resource &resource) const;
    std::shared_ptr<Manager> managerFor(ThreadContext &tc, const Resource &resource,
                                        const Resource &account,
                                        std::optional<BackendError> *error);
    void notify(const ResourceKey &key, const QList<Event> &events);
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
    QHash<ResourceKey, Snapshot> snapshots; // scheduler thread only
    bool recovered = false;
    bool scanRequested = false;
    bool resyncRequested = false;
    std::atomic<bool> stopping{false};
    std::atomic<int> busyWorkers{0};
    std::atomic<qint64> reconciles{0};
    std::atomic<qint64> backendWrites{0};
    std::atomic<qint64> failures{0};

    std::vector<QThread *> threads; // owned; joined in stop()
    QTimer *flushTimer = nullptr;   // child of q

    std::mutex pendingMutex;
    QList<ResourceKey> pendingKeys;
    QSet<ResourceKey> pendingKeySet;
    QList<Event> pendingEvents;
    QString pendingStoreError;
};

Controller::Controller(const QString &workspacePath, const KindRegistry &kinds,
                       const FactoryRegistry &factories, Reconciler &reconciler, Clock &clock,
                       CredentialStore *credentials, Options options, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>(this, workspacePath, kinds, factories, reconciler, clock,
                                  credentials, std::move(options)))
{
    d->options.workers = std::clamp(d->options.workers, 1, 64);
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
    if (!Workspace::open(d->path, &openError)) {
        if (error)
            *error = openError;
        return false;
    }
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
    for (QThread *t : d->threads) {
        if (t->isRunning()) {
            // Leaking a stuck thread is better than destroying a running one.
            continue;
        }
        delete t;
    }
    d->threads.clear();
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

bool Controller::cancel(const ResourceKey &key)
{
    std::lock_guard lock(d->mutex);
    return d->queue.cancel(key);
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
    s.busyWorkers = d->busyWorkers;
    s.reconciles = d->reconciles;
    s.backendWrites = d->backendWrites;
    s.failures = d->failures;
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
    tc.ws = Workspace::open(path, &error);
    if (!tc.ws) {
        std::lock_guard lock(pendingMutex);
        pendingStoreError = error.message;
        return false;
    }
    tc.ws->setRelaxedDurability(true);
    tc.http = std::make_unique<HttpClient>();
    return true;
}

void Controller::Private::schedulerLoop()
{
    ThreadContext tc;
    if (!openThreadContext(tc)) {
        std::lock_guard lock(mutex);
        recovered = true; // let the workers report the same failure rather than wait forever
        return;
    }
    Workspace *ws = tc.ws.get();
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
    Workspace &ws = *tc.ws;
    // Unfinished intents are resolved by observing the backend before anything else is written.
    for (const JournalEntry &entry : ws.unfinishedIntents()) {
        if (stopping)
            return;
        const std::optional<Resource> res = ws.get(entry.key);
        QString outcome = QStringLiteral("resolved: the resource left the workspace");
        if (res) {
            const QList<Resource> owners = ownersOf(ws, *res);
            const Resource &account = owners.isEmpty() ? *res : owners.first();
            std::optional<BackendError> managerError;
            std::shared_ptr<Manager> manager = managerFor(tc, *res, account, &managerError);
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
            notify(entry.key, recorder.events());
        }
        ws.finishIntent(entry.id, outcome, nullptr);
    }
}

void Controller::Private::scan(Workspace &ws, bool initial)
{
    const QList<Resource> resources = ws.list();
    QHash<ResourceKey, Snapshot> next;
    next.reserve(resources.size());
    QHash<ResourceKey, const Resource *> byKey;
    for (const Resource &r : resources)
        byKey.insert(r.key(), &r);

    QList<QPair<ResourceKey, WorkQueue::Lane>> toQueue;
    QList<ResourceKey> refreshes;
    QList<QPair<ResourceKey, QString>> groups;
    for (const Resource &r : resources) {
        Snapshot s;
        s.generation = r.metadata.generation;
        s.deleting = r.metadata.isBeingDeleted();
        s.policy = r.metadata.annotations.value(Annotations::reconcilePolicy());
        s.reconcileRequest = r.metadata.annotations.value(Annotations::reconcileRequestedAt());
        s.refreshRequest = r.metadata.annotations.value(Annotations::refreshRequestedAt());
        s.hasFinalizer = r.hasFinalizer();
        const Kind *kind = kinds.find(r.kind);
        if (kind && !kind->ownerKind.isEmpty())
            s.owner = ResourceKey{kind->ownerKind, r.ownerName()}.toString();
        // The account is the root of the ownership chain.
        const Resource *root = &r;
        for (int depth = 0; depth < 8; ++depth) {
            const Kind *k = kinds.find(root->kind);
            if (!k || k->ownerKind.isEmpty())
                break;
            const Resource *up = byKey.value(ResourceKey{k->ownerKind, root->ownerName()});
            if (!up)
                break;
            root = up;
        }
        s.account = root->key().toString();

        const auto old = snapshots.constFind(r.key());
        if (initial) {
            const Condition ready = r.status.ready();
            const bool upToDate =
                ready.isReady() && ready.observedGeneration == s.generation && !s.deleting;
            toQueue.append(
                {r.key(), upToDate ? WorkQueue::Lane::Resync : WorkQueue::Lane::SpecChange});
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
        groups.append({r.key(), s.account});
        next.insert(r.key(), s);
    }
    snapshots = std::move(next);

    if (toQueue.isEmpty() && !initial)
        return;
    {
        std::lock_guard lock(mutex);
        for (const auto &[key, group] : groups) {
            queue.setGroup(key, group);
            if (options.accountConcurrency > 0)
                queue.setGroupLimit(group, options.accountConcurrency);
        }
        for (const ResourceKey &key : std::as_const(refreshes))
            keyState[key].observeOnly = true;
        for (const auto &[key, lane] : toQueue) {
            if (lane == WorkQueue::Lane::SpecChange) {
                // A changed spec gets a fresh start: no backoff from earlier failures.
                KeyState &st = keyState[key];
                st.failures = 0;
                st.polls = 0;
            }
            queue.add(key, lane);
        }
    }
    wakeWorkers.notify_all();
}

void Controller::Private::resync()
{
    std::lock_guard lock(mutex);
    for (auto it = snapshots.cbegin(); it != snapshots.cend(); ++it)
        queue.add(it.key(), WorkQueue::Lane::Resync);
    wakeWorkers.notify_all();
}

// --- Workers ----------------------------------------------------------------------------------

void Controller::Private::workerLoop(int index)
{
    Q_UNUSED(index);
    ThreadContext tc;
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
        ++busyWorkers;
        lock.unlock();
        process(tc, *key, observeOnly, polls);
        lock.lock();
        --busyWorkers;
        queue.done(*key);
        wakeWorkers.notify_all();
    }
}

QList<Resource> Controller::Private::ownersOf(Workspace &ws, const Resource &resource) const
{
    QList<Resource> owners;
    const Resource *current = &resource;
    Resource holder;
    for (int depth = 0; depth < 8; ++depth) {
        const Kind *kind = kinds.find(current->kind);
        if (!kind || kind->ownerKind.isEmpty())
            break;
        const std::optional<Resource> owner =
            ws.get(ResourceKey{kind->ownerKind, current->ownerName()});
        if (!owner)
            break;
        owners.prepend(*owner);
        holder = *owner;
        current = &holder;
    }
    return owners;
}

std::shared_ptr<Manager> Controller::Private::managerFor(ThreadContext &tc,
                                                         const Resource &resource,
                                                         const Resource &account,
                                                         std::optional<BackendError> *error)
{
    QHash<QString, std::shared_ptr<Manager>> &cache = tc.managers;
    Factory *factory = factories.factoryFor(resource.kind);
    if (!factory) {
        *error = BackendError{BackendError::Category::Terminal,
                              QString(),
                              0,
                              QStringLiteral("no provider handles the kind %1").arg(resource.kind),
                              QString(),
                              {}};
        return nullptr;
    }
    // A new account spec (endpoints, credential reference) means a new Manager.
    const QString cacheKey = resource.kind + QLatin1Char('|') + account.key().toString() +
                             QLatin1Char('|') + QString::number(account.metadata.generation);
    if (const auto it = cache.constFind(cacheKey); it != cache.cend())
        return *it;
    ManagerEnvironment env;
    env.http = tc.http.get();
    env.credentials = credentials;
    env.isCancelled = [this] { return stopping.load(); };
    Outcome<std::shared_ptr<Manager>> made = factory->manager(resource.kind, account, env);
    if (!made) {
        *error = made.error();
        return nullptr;
    }
    cache.insert(cacheKey, made.value());
    return made.value();
}

void Controller::Private::process(ThreadContext &tc, const ResourceKey &key, bool observeOnly,
                                  int polls)
{
    Workspace &ws = *tc.ws;
    const std::optional<Resource> stored = ws.get(key);
    if (!stored) {
        std::lock_guard lock(mutex);
        keyState.remove(key);
        return;
    }

    ReconcileContext ctx;
    ctx.reconcileId = newReconcileId();
    ctx.target.resource = *stored;
    ctx.target.owners = ownersOf(ws, *stored);
    ctx.workspace = &ws;
    ctx.clock = &clock;
    ctx.isCancelled = [this] { return stopping.load(); };
    ctx.pollCount = polls;
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
            ctx.manager = managerFor(tc, res, account, &ctx.managerError);
            result = reconciler.deleteResource(ctx);
            if (result.kind == PhaseResult::Kind::Removed)
                recorder.normal(QStringLiteral("Deleted"),
                                QStringLiteral("%1 is gone from the backend").arg(key.toString()));
        }
    } else if (observeOnly || policy == Annotations::ReconcilePolicy::Skip) {
        ctx.manager = managerFor(tc, res, account, &ctx.managerError);
        result = reconciler.updateStatus(ctx);
    } else {
        ctx.manager = managerFor(tc, res, account, &ctx.managerError);
        result = reconciler.claim(ctx);
        if (result.kind == PhaseResult::Kind::Done && !ctx.isCancelled())
            result = reconciler.createOrUpdate(ctx);
    }

    if (stopping) {
        // A phase cut short by stop() observed nothing worth keeping ("Cancelled" is ours, not
        // the backend's); an unfinished intent is resolved by observing at the next start.
        return;
    }
    StoreError error;
    if (result.kind == PhaseResult::Kind::Removed) {
        ws.recordEvents(recorder.events(), &error);
        ws.remove(key, &error);
    } else {
        if (res.status != stored->status)
            ws.updateStatus(key, res.status, &error);
        if (!recorder.events().isEmpty())
            ws.recordEvents(recorder.events(), &error);
    }
    if (error.isError())
        qCWarning(lcController) << "store:" << error.message;

    ++reconciles;
    backendWrites += ctx.backendWrites;

    // Schedule the next look.
    const QDateTime now = clock.now();
    QList<ResourceKey> wokenChildren;
    bool stateChanged = false;
    ReconcileState newState;
    {
        std::lock_guard lock(mutex);
        KeyState &st = keyState[key];
        newState = st.stored;
        newState.lastAttempt = now;
        newState.lastReconcileId = ctx.reconcileId;
        newState.waitingFor = result.waitingFor;
        st.waitingOnOwner.clear();
        if (result.waitingFor == QLatin1String("owner")) {
            if (const Kind *kind = kinds.find(key.kind))
                st.waitingOnOwner = ResourceKey{kind->ownerKind, res.ownerName()}.toString();
        }
        switch (result.kind) {
        case PhaseResult::Kind::Done:
            st.failures = 0;
            st.polls = 0;
            newState.attempts = 0;
            newState.lastError.clear();
            newState.nextAttempt = {};
            if (res.status.ready().isReady()) {
                // Children that waited for this owner go now rather than after their backoff.
                const QString self = key.toString();
                for (auto it = keyState.cbegin(); it != keyState.cend(); ++it) {
                    if (it->waitingOnOwner == self)
                        wokenChildren.append(it.key());
                }
            }
            break;
        case PhaseResult::Kind::RequeueAfter:
            st.polls = ctx.pollCount + 1;
            newState.nextAttempt = now.addMSecs(result.after.count());
            queue.add(key, WorkQueue::Lane::Retry, newState.nextAttempt);
            break;
        case PhaseResult::Kind::Retry: {
            ++st.failures;
            ++failures;
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
            ++failures;
            newState.attempts = st.failures;
            newState.lastError = result.error;
            newState.nextAttempt = {};
            break;
        case PhaseResult::Kind::Removed:
            keyState.remove(key);
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
        for (const ResourceKey &child : std::as_const(wokenChildren)) {
            if (child != key)
                queue.add(child, WorkQueue::Lane::SpecChange);
        }
    }
    if (stateChanged)
        ws.setReconcileState(key, newState, nullptr);
    if (!wokenChildren.isEmpty())
        wakeWorkers.notify_all();
    notify(key, recorder.events());
}

// --- Notifications ----------------------------------------------------------------------------

void Controller::Private::notify(const ResourceKey &key, const QList<Event> &events)
{
    std::lock_guard lock(pendingMutex);
    if (!pendingKeySet.contains(key)) {
        pendingKeySet.insert(key);
        pendingKeys.append(key);
    }
    pendingEvents.append(events);
}

void Controller::Private::flush()
{
    QList<ResourceKey> keys;
    QList<Event> events;
    QString storeError;
    {
        std::lock_guard lock(pendingMutex);
        keys.swap(pendingKeys);
        pendingKeySet.clear();
        events.swap(pendingEvents);
        storeError.swap(pendingStoreError);
    }
    if (!storeError.isEmpty())
        Q_EMIT q->storeFailed(storeError);
    if (!keys.isEmpty())
        Q_EMIT q->resourcesChanged(keys);
    if (!events.isEmpty())
        Q_EMIT q->eventsRecorded(events);
}

} // namespace converge

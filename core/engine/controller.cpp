// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "controller.h"

#include "browser.h"
#include "changescanner.h"
#include "clock.h"
#include "controllercounters.h"
#include "controllerlog.h"
#include "discovery.h"
#include "notificationbuffer.h"
#include "reconcileworker.h"
#include "scheduler.h"
#include "startupresync.h"
#include "threadcontext.h"
#include "threadpriority.h"
#include "userrequests.h"
#include "workspace.h"

#include <QDeadlineTimer>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <mutex>
#include <vector>

Q_LOGGING_CATEGORY(lcController, "converge.engine.controller", QtInfoMsg)

namespace converge {

namespace {

Controller::Options clamped(Controller::Options options)
{
    options.workers = std::clamp(options.workers, 1, 64);
    return options;
}

} // namespace

// What ties the units together: the Scheduler decides what runs next (queue, holds, backoff)
// under the one lock every thread shares; N ReconcileWorkers take from it and run reconciles,
// Discovery's list jobs, UserRequests' claims and Browser's pages; the scheduler thread runs
// StartupResync once, then the ChangeScanner at every poll and Discovery's resync on its timer;
// everything reaches observers through the NotificationBuffer, flushed here on the controller's own
// thread.
class Controller::Private
{
public:
    Private(Controller *q, const QString &path, const KindRegistry &kinds,
            const FactoryRegistry &factories, Reconciler &reconciler, Clock &clock,
            CredentialStore *credentials, Options options)
        : q(q)
        , path(path)
        , clock(clock)
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
        , browser(kinds, scheduler, clock, notifications,
                  [q](const BrowsePage &page) {
                      QMetaObject::invokeMethod(
                          q, [q, page] { Q_EMIT q->browsed(page); }, Qt::QueuedConnection);
                  })
        , scanner(kinds, factories, scheduler, discovery, this->options.workers,
                  this->options.accountConcurrency)
        , startup(clock, scheduler, notifications)
    {
        sources.kinds = &kinds;
        sources.factories = &factories;
        sources.credentials = credentials;
        sources.clock = &clock;
        sources.stopping = &scheduler.stopping();
        sources.writers = std::make_shared<std::mutex>();
        sources.http = this->options.http;
        for (int i = 0; i < this->options.workers; ++i)
            workers.push_back(std::make_unique<ReconcileWorker>(sources, reconciler, scheduler,
                                                                discovery, requests, browser,
                                                                notifications, counters));
    }

    void schedulerLoop();
    /// Opens the calling thread's connection; a failure is reported to observers.
    bool openThreadContext(ThreadContext &tc);
    void flush();
    QDateTime nextResyncTime(const QDateTime &from) const;

    Controller *q;
    QString path;
    Clock &clock;
    Options options;
    ThreadContext::Sources sources; ///< what every thread's context is made from
    Scheduler scheduler;
    NotificationBuffer notifications;
    ControllerCounters counters;
    Discovery discovery;
    UserRequests requests;
    Browser browser;
    ChangeScanner scanner; ///< the scheduler thread's only
    StartupResync startup;
    /// One per worker thread; made once, since a thread stop() could not join may still run.
    std::vector<std::unique_ptr<ReconcileWorker>> workers;

    std::vector<QThread *> threads; // owned; joined in stop()
    /// Opened, and so checked, by start(); the threads' connections are opened from it.
    std::unique_ptr<Workspace> origin;
    QTimer *flushTimer = nullptr; // child of q
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
    // The window's threads yield to its GUI thread (Options::background).
    const auto spawn = [this](auto body, const QString &name) {
        d->threads.push_back(
            QThread::create([body = std::move(body), background = d->options.background] {
                if (background)
                    ThreadPriority::lowerCurrent();
                body();
            }));
        d->threads.back()->setObjectName(name);
    };
    spawn([this] { d->schedulerLoop(); }, QStringLiteral("converge-scheduler"));
    for (int i = 0; i < d->options.workers; ++i)
        spawn([w = d->workers[i].get()] { w->run(); }, QStringLiteral("converge-worker-%1").arg(i));
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

void Controller::browse(const BrowseRequest &request)
{
    d->browser.browse(request);
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
    s.waiting = d->scheduler.waitingCount(lock);
    s.inFlight = d->scheduler.inFlightCount(lock);
    s.busyWorkers = d->counters.busyWorkers;
    s.reconciles = d->counters.reconciles;
    s.skippedUnchanged = d->counters.skippedUnchanged;
    s.backendWrites = d->counters.backendWrites;
    s.failures = d->counters.failures;
    s.listCalls = d->counters.listCalls;
    s.listsSkipped = d->counters.listsSkipped;
    s.resyncs = d->counters.resyncs;
    s.listsQueued = d->counters.listsQueued;
    return s;
}

bool Controller::isListing(const QList<ResourceKey> &owners) const
{
    const Scheduler::Lock lock = d->scheduler.lock();
    return std::any_of(owners.cbegin(), owners.cend(), [this, &lock](const ResourceKey &owner) {
        return d->discovery.isListing(lock, owner);
    });
}

bool Controller::isIdle() const
{
    const Scheduler::Lock lock = d->scheduler.lock();
    return d->scheduler.isRecovered(lock) && d->scheduler.queuedCount(lock) == 0 &&
           d->scheduler.inFlightCount(lock) == 0;
}

// --- The scheduler thread ---------------------------------------------------------------------

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
    // What the start-up scan saw, taken before any worker may write: a commit between waking
    // them and this read would not make the loop scan again, and the snapshots would keep an
    // owner as not Ready (its children never listed by a resync) until some other write.
    qint64 dataVersion = ws->dataVersion();
    scheduler.setRecovered(scheduler.lock());
    scheduler.wakeWorkers();

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

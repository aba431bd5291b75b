// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "reconcileworker.h"

#include "browser.h"
#include "clock.h"
#include "controllercounters.h"
#include "controllerlog.h"
#include "discovery.h"
#include "eventrecorder.h"
#include "factoryregistry.h"
#include "kindregistry.h"
#include "notificationbuffer.h"
#include "reconciler.h"
#include "scheduler.h"
#include "userrequests.h"
#include "workspace.h"

#include <QElapsedTimer>

#include <tuple>

using namespace std::chrono_literals;

namespace converge {

ReconcileWorker::ReconcileWorker(const ThreadContext::Sources &sources, Reconciler &reconciler,
                                 Scheduler &scheduler, Discovery &discovery, UserRequests &requests,
                                 Browser &browser, NotificationBuffer &notifications,
                                 ControllerCounters &counters)
    : m_sources(sources)
    , m_reconciler(reconciler)
    , m_scheduler(scheduler)
    , m_discovery(discovery)
    , m_requests(requests)
    , m_browser(browser)
    , m_notifications(notifications)
    , m_counters(counters)
{}

void ReconcileWorker::run()
{
    ThreadContext tc(m_sources);
    StoreError error;
    if (!tc.open(&error)) {
        m_notifications.storeFailed(error.message);
        return;
    }
    const Clock &clock = *m_sources.clock;
    const std::atomic<bool> &stopping = m_scheduler.stopping();
    Scheduler::Lock lock = m_scheduler.lock();
    while (!stopping) {
        if (!m_scheduler.isRecovered(lock)) {
            m_scheduler.waitForWork(lock, 100ms);
            continue;
        }
        const QDateTime now = clock.now();
        const std::optional<Scheduler::Taken> taken = m_scheduler.take(lock, now);
        if (!taken && tc.hasUnrecordedRuns()) {
            lock.unlock();
            tc.recordRuns(true);
            lock.lock();
            continue;
        }
        if (!taken) {
            QDateTime due = m_scheduler.nextDue(lock);
            // Wake at least once a second so that a held group or stop is noticed.
            const QDateTime cap = now.addMSecs(1000);
            if (!due.isValid() || due > cap)
                due = cap;
            m_scheduler.waitForWork(lock, due);
            continue;
        }
        ++m_counters.busyWorkers;
        lock.unlock();
        process(tc, *taken);
        tc.recordRuns(false);
        lock.lock();
        --m_counters.busyWorkers;
        m_scheduler.done(lock, taken->key);
        m_scheduler.wakeWorkers();
    }
    lock.unlock();
    tc.recordRuns(true);
}

void ReconcileWorker::process(ThreadContext &tc, const Scheduler::Taken &taken)
{
    const ResourceKey &key = taken.key;
    const bool observeOnly = taken.observeOnly;
    if (Discovery::isListJob(key)) {
        m_discovery.run(tc, key);
        return;
    }
    if (Browser::isBrowseJob(key)) {
        m_browser.run(tc, key);
        return;
    }
    if (UserRequests::isClaimJob(key)) {
        m_requests.runClaim(tc, key);
        return;
    }
    if (!observeOnly && skipUnchanged(tc, key))
        return;
    Workspace &ws = tc.workspace();
    const Clock &clock = *m_sources.clock;
    const std::atomic<bool> &stopping = m_scheduler.stopping();
    const std::optional<Resource> stored = ws.get(key);
    const QList<Resource> owners = stored ? tc.ownersOf(*stored) : QList<Resource>();
    const QList<Resource> references = stored ? tc.referencesOf(*stored) : QList<Resource>();
    std::optional<Prefetch> prefetch;
    {
        const Scheduler::Lock lock = m_scheduler.lock();
        if (!stored) {
            // Children held for its verdict get none: they run, and find it gone.
            if (!m_scheduler.forget(lock, key).isEmpty())
                m_scheduler.wakeWorkers();
            return;
        }
        // A child whose owner is not Ready and has its verdict coming (running, or due within a
        // second) waits for it instead of running only to record WaitingForOwner: a fresh apply
        // of an account and 1,000 containers spent its first half second on exactly that.
        if (const Resource *owner = owners.isEmpty() ? nullptr : &owners.last();
            owner && !observeOnly && !stored->metadata.isBeingDeleted() &&
            !owner->status.ready().isReady() && m_scheduler.holdForOwner(lock, key, owner->key()))
            return;
        // So does one whose reference (a subscription's topic) is not Ready with its verdict
        // coming: a fresh apply of 500 topics and their 500 subscriptions ran a quarter of the
        // subscriptions early only to record WaitingForReference.
        for (const Resource &referenced : references) {
            if (!observeOnly && !stored->metadata.isBeingDeleted() &&
                !referenced.status.ready().isReady() &&
                m_scheduler.holdForOwner(lock, key, referenced.key()))
                return;
        }
        prefetch = m_scheduler.beginRun(lock, key, observeOnly);
    }

    const QDateTime startedAt = clock.now();
    QElapsedTimer elapsed;
    elapsed.start();
    ReconcileContext ctx;
    ctx.reconcileId = EventRecorder::newReconcileId();
    ctx.target.resource = *stored;
    ctx.target.owners = owners;
    ctx.target.references = references;
    ctx.workspace = &ws;
    ctx.clock = &clock;
    ctx.isCancelled = [&stopping] { return stopping.load(); };
    ctx.pollCount = taken.polls;
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
        const bool isAccount = m_sources.factories->isAccountKind(res.kind);
        if (!res.hasFinalizer() || policy != Annotations::ReconcilePolicy::Manage || isAccount) {
            recorder.setPhase(QStringLiteral("delete"));
            if (isAccount && res.hasFinalizer() && policy == Annotations::ReconcilePolicy::Manage)
                recorder.normal(QStringLiteral("Removed"),
                                QStringLiteral("removed from the workspace; accounts are never "
                                               "deleted in the backend"));
            else if (res.hasFinalizer() && policy == Annotations::ReconcilePolicy::DetachOnDelete)
                // A person's Detach (window, CLI) sets this policy as it deletes: the policy is
                // no reason of its own to name.
                recorder.normal(QStringLiteral("Detached"),
                                QStringLiteral("detached: removed from the workspace, the "
                                               "backend resource is left as it is"));
            else if (res.hasFinalizer())
                recorder.normal(QStringLiteral("Detached"),
                                QStringLiteral("removed from the workspace; the backend "
                                               "resource is left as it is (policy %1)")
                                    .arg(Annotations::policyName(policy)));
            result.kind = PhaseResult::Kind::Removed;
        } else {
            ctx.manager = tc.managerFor(res, account, &ctx.managerError);
            result = m_reconciler.deleteResource(ctx);
            if (result.kind == PhaseResult::Kind::Removed)
                recorder.normal(QStringLiteral("Deleted"),
                                QStringLiteral("%1 is gone from the backend").arg(key.toString()));
        }
    } else if (observeOnly || policy == Annotations::ReconcilePolicy::Skip) {
        ctx.manager = tc.managerFor(res, account, &ctx.managerError);
        result = m_reconciler.updateStatus(ctx);
    } else {
        ctx.manager = tc.managerFor(res, account, &ctx.managerError);
        result = m_reconciler.claim(ctx);
        if (result.kind == PhaseResult::Kind::Done && !ctx.isCancelled())
            result = m_reconciler.createOrUpdate(ctx);
    }

    if (stopping) {
        // A phase cut short by stop() observed nothing worth keeping ("Cancelled" is ours, not
        // the backend's); an unfinished intent is resolved by observing at the next start.
        m_scheduler.abandonRun(m_scheduler.lock(), key);
        return;
    }
    ++m_counters.reconciles;
    m_counters.backendWrites += ctx.backendWrites;

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
    if (failed && !result.waitingOn)
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
        if (result.waitingOn)
            end.waitingOnOwner = *result.waitingOn;
        if (failed)
            ++m_counters.failures;
        newState = m_scheduler.verdict(m_scheduler.lock(), key, end, now, &stateChanged);
    }

    // Intent outcomes, status, events and the reconcile state in one transaction; a run that
    // changed none of them (a resync that found no drift) takes no write lock.
    const QString id = res.metadata.annotations.value(Annotations::resourceId());
    const bool newId = id != stored->metadata.annotations.value(Annotations::resourceId());
    const bool statusChanged = res.status != stored->status || newId;
    // Nothing to record but, perhaps, when it last ran (the reconcile state).
    const bool quiet = !statusChanged && !ctx.finalizerPending && ctx.finishedIntents.isEmpty() &&
                       recorder.events().isEmpty();
    // When it ran is what a person reads to know whether anything happened: stored with any
    // other write of the run, and after their own action; a quiet resync leaves it to the
    // phase runs' batch (PhaseRunStore), not a write of its own per resource.
    const bool writeState =
        stateChanged || !quiet || observeOnly || taken.lane == WorkQueue::Lane::UserAction;
    const bool anythingToWrite = !quiet || result.kind == PhaseResult::Kind::Removed || writeState;
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
                if (writeState)
                    ws.setReconcileState(key, newState, &error);
            },
            &batchError);
    if (batchError.isError())
        error = batchError;
    if (error.isError())
        qCWarning(lcController) << "store:" << error.message;

    QList<ResourceKey> wokenChildren;
    {
        const Scheduler::Lock lock = m_scheduler.lock();
        // A quiet run that judged a list page's observation and left the resource Ready lets
        // the next resync that sees the same skip the work (skipUnchanged).
        const Condition ready = res.status.ready();
        std::optional<QuietRun> quietRun;
        // Not for a verdict that also read a local file (a blob's contentFile): the file may
        // change while the listing stays the same.
        if (quiet && ctx.backendWrites == 0 && prefetch && result.kind == PhaseResult::Kind::Done &&
            ready.isReady() && !res.metadata.isBeingDeleted() &&
            !(ctx.manager && ctx.manager->dependsOnLocalFiles(res))) {
            quietRun = QuietRun{stored->metadata.resourceVersion,
                                prefetch->observation,
                                run.phase,
                                ready.reason,
                                ready.message,
                                {}};
            for (const Resource &owner : owners)
                quietRun->owners.append({owner.key(), owner.metadata.resourceVersion});
        }
        // Kept in the workspace for the next start, with the phase runs' batch: no commit of
        // its own, and made only when it changed (a pass that skips writes none).
        if (m_scheduler.endRun(lock, key, std::move(quietRun))) {
            const QuietRun *kept = m_scheduler.quietRun(lock, key);
            tc.addMemo(kept ? RunMemo{key, kept->resourceVersion, kept->toMemo()}
                            : RunMemo{key, stored->metadata.resourceVersion, {}});
        }
        if (result.kind == PhaseResult::Kind::Done && ready.isReady()) {
            // Children that waited for this owner go now rather than after their backoff.
            wokenChildren = m_scheduler.waitingFor(lock, key);
            m_discovery.ownerReady(lock, key, account.key().toString(), taken.lane);
        }
        if (result.kind != PhaseResult::Kind::RequeueAfter && wokenChildren.isEmpty()) {
            // Not Ready (or gone): the children held back for this verdict run now and say why
            // they wait.
            wokenChildren = m_scheduler.heldFor(lock, key);
        }
        m_scheduler.release(lock, key, wokenChildren);
    }
    if (!wokenChildren.isEmpty())
        m_scheduler.wakeWorkers();
    m_notifications.resourceChanged(key, recorder.events());
}

bool ReconcileWorker::skipUnchanged(ThreadContext &tc, const ResourceKey &key)
{
    // A resync whose list page shows the resource exactly as the last run that changed nothing
    // saw it, with the stored resource unchanged since (same resourceVersion: every write
    // raises it), ends here: the reconciler would reach the same verdict from the same inputs.
    // Only complete lists prefetch (Manager::listIsComplete), and a verdict that read a local
    // file (a blob's contentFile) leaves no quiet run, so one that needs more than the listing
    // never comes this way. Reading and parsing the resource and its owners was most of the CPU
    // of a no-change pass.
    QuietRun quiet;
    QString requestId;
    {
        const std::optional<std::pair<QuietRun, QString>> unchanged =
            m_scheduler.unchanged(m_scheduler.lock(), key);
        if (!unchanged)
            return false;
        std::tie(quiet, requestId) = *unchanged;
    }
    if (tc.workspace().resourceVersion(key) != quiet.resourceVersion)
        return false;

    const QDateTime now = m_sources.clock->now();
    PhaseRun run;
    run.key = key;
    run.reconcileId = EventRecorder::newReconcileId();
    run.phase = quiet.phase;
    run.startedAt = now;
    run.outcome = QStringLiteral("Done");
    run.reason = quiet.reason;
    run.message = quiet.message;
    run.requestId = requestId;
    m_scheduler.skipped(m_scheduler.lock(), key, now, run.reconcileId);
    ++m_counters.reconciles;
    ++m_counters.skippedUnchanged;
    tc.addRun(run);
    m_notifications.resourceChanged(key, {});
    return true;
}

} // namespace converge

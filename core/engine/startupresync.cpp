// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "startupresync.h"

#include "changescanner.h"
#include "controllerlog.h"
#include "eventrecorder.h"
#include "manager.h"
#include "notificationbuffer.h"
#include "quietrun.h"
#include "scheduler.h"
#include "threadcontext.h"
#include "workspace.h"

namespace converge {

StartupResync::StartupResync(const Clock &clock, Scheduler &scheduler,
                             NotificationBuffer &notifications)
    : m_clock(clock)
    , m_scheduler(scheduler)
    , m_stopping(scheduler.stopping())
    , m_notifications(notifications)
{}

void StartupResync::run(ThreadContext &tc, ChangeScanner &scanner)
{
    // A journal that cannot be read may hide a write under way: then no memo is used.
    if (const std::optional<QSet<ResourceKey>> interrupted = resolveIntents(tc))
        restoreMemos(tc, *interrupted);
    scanner.scan(tc.workspace(), true);
}

void StartupResync::restoreMemos(ThreadContext &tc, const QSet<ResourceKey> &interrupted)
{
    // Only memos of the stored resource as it is (the store checks its resourceVersion), of
    // this build, with the owners that run read unchanged (an account's other credentials or
    // endpoints, a container's policy), and of no resource whose write was interrupted: a stale
    // memo would hide drift, a missing one only costs a judgement.
    Workspace &ws = tc.workspace();
    StoreError error;
    const QList<RunMemo> memos = ws.runMemos(&error);
    if (error.isError()) {
        qCWarning(lcController) << "store: the memos of quiet runs cannot be read:"
                                << error.message;
        return;
    }
    QHash<ResourceKey, std::optional<qint64>> ownerVersions;
    QList<RunMemo> voided;
    QList<std::pair<ResourceKey, QuietRun>> restored;
    restored.reserve(memos.size());
    for (const RunMemo &memo : memos) {
        std::optional<QuietRun> quiet = QuietRun::fromMemo(memo.memo, memo.resourceVersion);
        bool valid = quiet.has_value() && !interrupted.contains(memo.key);
        for (qsizetype i = 0; valid && i < quiet->owners.size(); ++i) {
            const auto &[owner, version] = quiet->owners.at(i);
            auto it = ownerVersions.find(owner);
            if (it == ownerVersions.end())
                it = ownerVersions.insert(owner, ws.resourceVersion(owner));
            valid = *it == version;
        }
        if (valid)
            restored.append({memo.key, std::move(*quiet)});
        else
            voided.append(RunMemo{memo.key, memo.resourceVersion, {}});
    }
    if (!ws.storeRunMemos(voided, &error))
        qCWarning(lcController) << "store:" << error.message;
    const Scheduler::Lock lock = m_scheduler.lock();
    for (auto &[key, quiet] : restored)
        m_scheduler.restoreQuiet(lock, key, std::move(quiet));
}

std::optional<QSet<ResourceKey>> StartupResync::resolveIntents(ThreadContext &tc)
{
    QSet<ResourceKey> interrupted;
    Workspace &ws = tc.workspace();
    // Unfinished intents are resolved by observing the backend before anything else is written.
    // A read that fails is not "nothing there": the intent stays for the next start.
    StoreError readError;
    const QList<JournalEntry> intents = ws.unfinishedIntents(&readError);
    if (readError.isError()) {
        qCWarning(lcController) << "store: the journal cannot be read:" << readError.message;
        return std::nullopt;
    }
    for (const JournalEntry &entry : intents)
        interrupted.insert(entry.key);
    for (const JournalEntry &entry : intents) {
        if (m_stopping)
            return interrupted;
        const std::optional<Resource> res = ws.get(entry.key, &readError);
        if (readError.isError()) {
            qCWarning(lcController) << "store:" << entry.key.toString()
                                    << "cannot be read; its intent stays:" << readError.message;
            continue;
        }
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
            EventRecorder recorder(entry.key, EventRecorder::newReconcileId(), m_clock);
            recorder.setPhase(QStringLiteral("recovery"));
            recorder.normal(
                QStringLiteral("IntentResolved"),
                QStringLiteral("%1 interrupted at %2: %3")
                    .arg(entry.operation, entry.startedAt.toString(Qt::ISODateWithMs), outcome));
            ws.recordEvents(recorder.events(), nullptr);
            m_notifications.resourceChanged(entry.key, recorder.events());
        }
        ws.finishIntent(entry.id, outcome, nullptr);
    }
    return interrupted;
}

} // namespace converge

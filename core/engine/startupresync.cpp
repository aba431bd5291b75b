// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "startupresync.h"

#include "changescanner.h"
#include "controllerlog.h"
#include "eventrecorder.h"
#include "manager.h"
#include "notificationbuffer.h"
#include "threadcontext.h"
#include "workspace.h"

namespace converge {

StartupResync::StartupResync(const Clock &clock, const std::atomic<bool> &stopping,
                             NotificationBuffer &notifications)
    : m_clock(clock)
    , m_stopping(stopping)
    , m_notifications(notifications)
{}

void StartupResync::run(ThreadContext &tc, ChangeScanner &scanner)
{
    resolveIntents(tc);
    scanner.scan(tc.workspace(), true);
}

void StartupResync::resolveIntents(ThreadContext &tc)
{
    Workspace &ws = tc.workspace();
    // Unfinished intents are resolved by observing the backend before anything else is written.
    // A read that fails is not "nothing there": the intent stays for the next start.
    StoreError readError;
    const QList<JournalEntry> intents = ws.unfinishedIntents(&readError);
    if (readError.isError())
        qCWarning(lcController) << "store: the journal cannot be read:" << readError.message;
    for (const JournalEntry &entry : intents) {
        if (m_stopping)
            return;
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
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "eventrecorder.h"

#include "clock.h"

#include <QUuid>

namespace converge {

EventRecorder::EventRecorder(const ResourceKey &involved, const QString &reconcileId,
                             const Clock &clock)
    : m_involved(involved)
    , m_reconcileId(reconcileId)
    , m_clock(clock)
{}

QString EventRecorder::newReconcileId()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces).left(8);
}

void EventRecorder::normal(const QString &reason, const QString &message, const QString &requestId)
{
    record(Event::Type::Normal, reason, message, requestId);
}

void EventRecorder::warning(const QString &reason, const QString &message, const QString &requestId)
{
    record(Event::Type::Warning, reason, message, requestId);
}

void EventRecorder::record(Event::Type type, const QString &reason, const QString &message,
                           const QString &requestId)
{
    const QDateTime now = m_clock.now();
    // Repeats within one run aggregate here already, as the store does across runs.
    for (Event &e : m_events) {
        if (e.type == type && e.reason == reason && e.message == message) {
            ++e.count;
            e.lastTime = now;
            if (!requestId.isEmpty())
                e.requestId = requestId;
            return;
        }
    }
    Event e;
    e.involved = m_involved;
    e.type = type;
    e.reason = reason;
    e.message = message;
    e.phase = m_phase;
    e.reconcileId = m_reconcileId;
    e.requestId = requestId;
    e.firstTime = now;
    e.lastTime = now;
    m_events.append(e);
}

} // namespace converge

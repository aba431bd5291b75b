// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "event.h"

#include <QList>

namespace converge {

class Clock;

/// Collects the events of one reconcile run, in the manner of Kubernetes' event recorder: each
/// names the resource, the phase, the reconcile ID and the backend request ID. The controller
/// stores them (where repeats aggregate) and hands them to observers in batches.
class EventRecorder final
{
public:
    EventRecorder(const ResourceKey &involved, const QString &reconcileId, const Clock &clock);

    /// A new reconcile ID: short, for people to find one run's events and phase runs.
    static QString newReconcileId();

    /// The phase that later events belong to (claim, createOrUpdate, delete, updateStatus).
    void setPhase(const QString &phase) { m_phase = phase; }
    QString phase() const { return m_phase; }

    void normal(const QString &reason, const QString &message, const QString &requestId = {});
    void warning(const QString &reason, const QString &message, const QString &requestId = {});

    QList<Event> &events() { return m_events; }
    QString reconcileId() const { return m_reconcileId; }

private:
    void record(Event::Type type, const QString &reason, const QString &message,
                const QString &requestId);

    ResourceKey m_involved;
    QString m_reconcileId;
    QString m_phase;
    const Clock &m_clock;
    QList<Event> m_events;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "condition.h"
#include "discoveredresource.h"
#include "event.h"
#include "reconcilestate.h"
#include "resourcekey.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace converge {

/// What apply did with one object.
struct ApplyOutcome
{
    enum class Action { Created, Updated, Unchanged };
    ResourceKey key;
    Action action = Action::Unchanged;
    qint64 generation = 0;
    qint64 resourceVersion = 0;
};

/// One stored change of a resource's Ready condition.
struct ConditionTransition
{
    qint64 id = 0;
    ResourceKey key;
    Condition condition;
};

/// A filter over stored events. Empty fields do not filter.
struct EventQuery
{
    std::optional<ResourceKey> involved;
    std::optional<Event::Type> type;
    QString reason;
    QDateTime since;    ///< lastTime >= since
    QDateTime until;    ///< lastTime < until
    qint64 afterId = 0; ///< only events with id > afterId (for following and paging)
    int limit = 1000;   ///< at most this many; <= 0 for no limit
    bool newestFirst = false;
};

/// How many events the workspace keeps.
struct EventRetention
{
    qint64 maxCount = 1'000'000; ///< <= 0: no limit
    qint64 maxAgeDays = 90;      ///< <= 0: no limit
};

/// An intent written before a mutating backend call, and its outcome after.
struct JournalEntry
{
    qint64 id = 0;
    ResourceKey key;
    QString operation;   ///< create | update | delete | …
    QJsonObject details; ///< what is needed to check the outcome by observing; never a secret
    QDateTime startedAt;
    QDateTime finishedAt; ///< invalid while unfinished
    QString outcome;      ///< succeeded | failed: … | resolved: …
};

/// One run of a reconcile phase, for the window's Timeline.
struct PhaseRun
{
    qint64 id = 0;
    ResourceKey key;
    QString reconcileId;
    QString phase;       ///< claim | createOrUpdate | deleteResource | updateStatus | recover
    QDateTime startedAt; ///< UTC
    qint64 durationMs = 0;
    QString outcome;       ///< Done | RequeueAfter | Retry | Fatal | Removed | Cancelled
    QString reason;        ///< the Ready reason after the run
    QString message;       ///< the Ready message (or the error) after the run
    int backendWrites = 0; ///< create, update and delete calls made by the run
    QString backendCode;   ///< the backend's error code of a failed run, else empty
    QString requestId;     ///< the last backend request ID the run saw, or empty
    /// How many runs this row stands for. A run that changed nothing and says what the
    /// resource's newest run said (a quiet resync) is stored as a repeat of that run: its
    /// count, its start, its duration, its IDs. The Timeline keeps what happened, not every
    /// resync that found nothing to do.
    int repeats = 1;
    QDateTime firstStartedAt; ///< UTC; the first of the repeats (startedAt is the last)

    /// Whether the run wrote nothing to the backend and ended Done: one that may repeat another.
    bool isQuiet() const { return backendWrites == 0 && outcome == QLatin1String("Done"); }
    /// Whether `next`, run after this one, is stored as a repeat of it.
    bool repeatedBy(const PhaseRun &next) const
    {
        return isQuiet() && next.isQuiet() && next.phase == phase && next.reason == reason &&
               next.message == message && next.backendCode == backendCode;
    }
};

/// What the controller's last run of a resource that changed nothing concluded, kept across
/// starts: the engine's own JSON (what it observed, and what makes that valid), tied to the
/// stored resource that run read. An empty `memo` stands for none (dropped when stored).
struct RunMemo
{
    ResourceKey key;
    qint64 resourceVersion = 0;
    QJsonObject memo;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "backoff.h"
#include "manager.h"

#include <QDateTime>
#include <QString>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace converge {

class Clock;
class EventRecorder;
class Workspace;

/// What a phase needs: the resource with its owners, a Manager for its kind and account, the
/// worker's workspace connection, the event recorder, the clock, and cancellation.
struct ReconcileContext
{
    QString reconcileId;
    Target target;                    ///< value copies; target.resource is updated by phases
    std::shared_ptr<Manager> manager; ///< null when none could be made (see managerError)
    std::optional<BackendError> managerError;
    Workspace *workspace = nullptr;  ///< this worker's connection; not owned
    EventRecorder *events = nullptr; ///< not owned
    const Clock *clock = nullptr;    ///< not owned
    std::function<bool()> isCancelled = [] { return false; };
    /// An observation a list page made moments ago (a resync): createOrUpdate and updateStatus
    /// use it instead of a get, so a pass over up-to-date resources costs one request per page.
    std::optional<Observation> prefetched;
    int pollCount = 0;     ///< consecutive in-progress polls, for the bounded backoff
    int backendWrites = 0; ///< create, update and delete calls made by this run
    QString requestId;     ///< the last backend request ID this run saw
    /// claim() added the finalizer in memory: it is stored with the first intent, before any
    /// backend write, or else with the run's status.
    bool finalizerPending = false;
    /// Outcomes of the intents this run journalled (id, outcome): stored with its status. A
    /// crash before that leaves them unfinished, and the next start resolves them by observing.
    QList<QPair<qint64, QString>> finishedIntents;
};

/// How a phase ended, and when the resource should be looked at again.
struct PhaseResult
{
    enum class Kind {
        Done,         ///< converged; next look at the periodic resync
        RequeueAfter, ///< work in progress: look again after `after`
        Retry,        ///< failed, retried with backoff of `retryClass` (and `after` as retry-after)
        Fatal,        ///< failed for good until the spec changes
        Removed,      ///< the object left the workspace
    };
    Kind kind = Kind::Done;
    std::chrono::milliseconds after{0};
    Backoff::RetryClass retryClass = Backoff::RetryClass::Fast;
    QString error;      ///< the last error, for people
    QString waitingFor; ///< owner | backoff | operation | account unreachable | …
    /// The resource whose verdict it waits for (its owner, or one its spec refers to): it runs
    /// again when that one is Ready.
    std::optional<ResourceKey> waitingOn;

    static PhaseResult done() { return {}; }
    static PhaseResult requeueAfter(std::chrono::milliseconds after, const QString &waitingFor)
    {
        PhaseResult r;
        r.kind = Kind::RequeueAfter;
        r.after = after;
        r.waitingFor = waitingFor;
        return r;
    }
};

/// The four phases of Azure Service Operator's genruntime.Reconciler. Each is idempotent and
/// works on `ctx.target.resource`, setting its Ready condition and recording events; the
/// controller persists the result.
class Reconciler
{
public:
    virtual ~Reconciler() = default;

    /// Take ownership: owner present and Ready, resource ID recorded, finalizer committed to the
    /// store before any backend write.
    virtual PhaseResult claim(ReconcileContext &ctx) = 0;
    /// Make the backend match the spec.
    virtual PhaseResult createOrUpdate(ReconcileContext &ctx) = 0;
    /// Issue and track deletion (finalizer removal is the controller's).
    virtual PhaseResult deleteResource(ReconcileContext &ctx) = 0;
    /// Observe only.
    virtual PhaseResult updateStatus(ReconcileContext &ctx) = 0;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>

#include <optional>

#include "condition.h"
#include "kind.h"
#include "reconciler.h"

namespace converge {

class KindRegistry;
struct Kind;

/// The four phases implemented once over any Manager (ASO's generic ARM reconciler is the
/// model); providers only write Managers.
///
/// Error categories map to severity and retry class: Unauthorized, Invalid and Terminal are
/// Errors (fatal until the spec changes); NotFound, Conflict and Transient are Warnings retried
/// fast; Throttled is a Warning retried slowly, after the server's retry-after. Errors while
/// deleting are always Warnings, so a deletion is never stuck for good.
class GenericReconciler final : public Reconciler
{
public:
    /// `kinds` must outlive the reconciler.
    explicit GenericReconciler(const KindRegistry &kinds);

    PhaseResult claim(ReconcileContext &ctx) override;
    PhaseResult createOrUpdate(ReconcileContext &ctx) override;
    PhaseResult deleteResource(ReconcileContext &ctx) override;
    PhaseResult updateStatus(ReconcileContext &ctx) override;

    /// Severity, retry class and reason for a backend error outside deletion.
    static PhaseResult resultFor(const BackendError &error);
    /// The condition reason for an error: its backend code when that is PascalCase, else the
    /// category's name.
    static QString reasonFor(const BackendError &error);

private:
    PhaseResult fail(ReconcileContext &ctx, const BackendError &error, bool deleting);
    PhaseResult inProgress(ReconcileContext &ctx, const Observation &observed);
    /// Fatal, Error ImmutableFieldChanged, with `message`; nothing is written.
    PhaseResult immutableChanged(ReconcileContext &ctx, const QString &message,
                                 const QString &requestId = {});
    /// The same when the spec changes a field the established backend resource cannot change
    /// (ImmutableFields): checked before any request, so that a new name never creates a second
    /// resource and leaves the first behind. Nullopt when nothing immutable changed.
    std::optional<PhaseResult> refuseImmutableChange(ReconcileContext &ctx, const Kind &kind);
    /// WaitingForReference while a resource the spec names (Kind::references) is missing, going,
    /// not Ready or without its backend ID; nullopt when every one is there.
    std::optional<PhaseResult> waitForReferences(ReconcileContext &ctx, const Kind &kind);
    /// Retry (fast) until `key`, an owner or a resource the spec names, is Ready: its Ready
    /// condition `reason` (Warning when `problem`, else Info) and an event of the same.
    PhaseResult waitOn(ReconcileContext &ctx, const ResourceKey &key, const QString &reason,
                       const QString &why, bool problem, const QString &waitingFor);
    /// Whether `ready` says only that the resource waits for another (an owner, a reference).
    static bool isWaiting(const Condition &ready);
    void setReady(ReconcileContext &ctx, const Condition &condition);
    void recordObserved(ReconcileContext &ctx, const Observation &observed);
    /// The prefetched observation (used once), else a get.
    static Outcome<Observation> observe(ReconcileContext &ctx);
    /// Journals the intent of a backend write, in one transaction with the finalizer claim()
    /// left pending. Nullopt when the finalizer could not be stored: then nothing may be
    /// written (`error` says why).
    std::optional<qint64> beginWrite(ReconcileContext &ctx, const QString &operation,
                                     const QJsonObject &details, QString *error);
    /// The outcome of an intent, stored by the controller with the run's status.
    static void finishWrite(ReconcileContext &ctx, qint64 intent, const QString &outcome);
    /// ManagedByAnother (a Warning retried slowly, nothing written) when another resource of
    /// the workspace manages `backendId` (SoleManager); nullopt when nobody else does.
    std::optional<PhaseResult> refuseSecondManager(ReconcileContext &ctx, const QString &backendId);
    /// DeleteRefused when other resources record what this one would delete; nullopt when none.
    std::optional<PhaseResult> refuseSharedDelete(ReconcileContext &ctx,
                                                  const Observation &observed);
    /// Retry (slow) with a Warning `reason` and an event, nothing written: what a resource does
    /// while another manages the same backend resource.
    PhaseResult waitForTheOtherManager(ReconcileContext &ctx, const QString &reason,
                                       const QString &message, const QString &requestId);
    /// Sets the backend ID in the resource-id annotation (the controller stores it).
    void recordResourceId(ReconcileContext &ctx, const Observation &observed);
    std::chrono::milliseconds pollDelay(const ReconcileContext &ctx,
                                        const Observation &observed) const;

    const KindRegistry &m_kinds;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "genericreconciler.h"

#include "clock.h"
#include "delta.h"
#include "eventrecorder.h"
#include "fieldpath.h"
#include "immutablefields.h"
#include "kindregistry.h"
#include "solemanager.h"
#include "workspace.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>

using namespace std::chrono_literals;

namespace converge {

namespace {

using Category = BackendError::Category;

QString phaseName(const char *name)
{
    return QString::fromLatin1(name);
}

QString describe(const BackendError &error)
{
    QString text =
        error.message.isEmpty() ? BackendError::categoryName(error.category) : error.message;
    if (!error.code.isEmpty() && !text.contains(error.code))
        text = error.code + QStringLiteral(": ") + text;
    return text;
}

PhaseResult finalizerNotStored(const QString &error)
{
    PhaseResult r;
    r.kind = PhaseResult::Kind::Retry;
    r.error = error;
    r.waitingFor = QStringLiteral("backoff");
    return r;
}

} // namespace

GenericReconciler::GenericReconciler(const KindRegistry &kinds)
    : m_kinds(kinds)
{}

QString GenericReconciler::reasonFor(const BackendError &error)
{
    static const QRegularExpression pascal(QStringLiteral("^[A-Z][A-Za-z0-9]+$"));
    if (pascal.match(error.code).hasMatch())
        return error.code;
    return BackendError::categoryName(error.category);
}

PhaseResult GenericReconciler::resultFor(const BackendError &error)
{
    PhaseResult r;
    // The condition's and event's reason is the code when it is a PascalCase word: their
    // message then leaves it out, or every view that shows "reason: message" says it twice.
    r.error =
        reasonFor(error) == error.code
            ? (error.message.isEmpty() ? BackendError::categoryName(error.category) : error.message)
            : describe(error);
    switch (error.category) {
    case Category::Unauthorized:
    case Category::Invalid:
    case Category::Terminal:
        r.kind = PhaseResult::Kind::Fatal;
        r.waitingFor = QStringLiteral("a spec change");
        return r;
    case Category::Throttled:
        r.kind = PhaseResult::Kind::Retry;
        r.retryClass = Backoff::RetryClass::Slow;
        r.after = error.retryAfter.value_or(0ms);
        r.waitingFor = QStringLiteral("backoff");
        return r;
    case Category::NotFound:
    case Category::Conflict:
    case Category::Transient:
        break;
    }
    r.kind = PhaseResult::Kind::Retry;
    r.retryClass = Backoff::RetryClass::Fast;
    r.after = error.retryAfter.value_or(0ms);
    r.waitingFor = error.category == Category::Transient && error.httpStatus == 0
                       ? QStringLiteral("account unreachable")
                       : QStringLiteral("backoff");
    return r;
}

void GenericReconciler::setReady(ReconcileContext &ctx, const Condition &condition)
{
    // The reconciler is the only writer of a key's Ready condition (the work queue never runs a
    // key twice at once), and what it just observed is the truth: it replaces the condition
    // even where ASO's ranking would keep a True over an in-progress one at the same generation
    // (a table being deleted or re-created is not Ready). The ranking still decides merges of
    // statuses from elsewhere (ResourceStatus::setCondition).
    ResourceStatus &status = ctx.target.resource.status;
    const Condition before = status.ready();
    if (before.isEquivalent(condition))
        return;
    Condition next = condition;
    // The transition time moves only when the status does.
    if (before.status == condition.status && before.lastTransitionTime.isValid())
        next.lastTransitionTime = before.lastTransitionTime;
    for (Condition &c : status.conditions) {
        if (c.type == next.type) {
            c = next;
            return;
        }
    }
    status.conditions.append(next);
}

PhaseResult GenericReconciler::fail(ReconcileContext &ctx, const BackendError &error, bool deleting)
{
    PhaseResult r = resultFor(error);
    if (!error.requestId.isEmpty())
        ctx.requestId = error.requestId;
    if (deleting) {
        // Deletion never fails for good: a Warning, retried slowly, says why it waits.
        r.kind = PhaseResult::Kind::Retry;
        r.retryClass =
            error.category == Category::Throttled || error.category == Category::Transient
                ? Backoff::RetryClass::Fast
                : Backoff::RetryClass::Slow;
    }
    const auto severity = r.kind == PhaseResult::Kind::Fatal ? Condition::Severity::Error
                                                             : Condition::Severity::Warning;
    const Resource &res = ctx.target.resource;
    setReady(ctx, Condition::notReady(severity, reasonFor(error), r.error, res.metadata.generation,
                                      ctx.clock->now()));
    ctx.events->warning(reasonFor(error), r.error, error.requestId);
    return r;
}

std::chrono::milliseconds GenericReconciler::pollDelay(const ReconcileContext &ctx,
                                                       const Observation &observed) const
{
    if (observed.pollAfter)
        return std::clamp(*observed.pollAfter, 100ms, std::chrono::milliseconds(60s));
    // A bounded backoff while an operation runs: 500 ms doubling to 10 s.
    const int shift = std::min(ctx.pollCount, 5);
    return std::min(std::chrono::milliseconds(500 * (1 << shift)), std::chrono::milliseconds(10s));
}

PhaseResult GenericReconciler::inProgress(ReconcileContext &ctx, const Observation &observed)
{
    const Resource &res = ctx.target.resource;
    const QString message =
        observed.progress.isEmpty() ? QStringLiteral("operation in progress") : observed.progress;
    setReady(ctx, Condition::notReady(Condition::Severity::Info, QStringLiteral("Reconciling"),
                                      message, res.metadata.generation, ctx.clock->now()));
    return PhaseResult::requeueAfter(pollDelay(ctx, observed), QStringLiteral("operation"));
}

void GenericReconciler::recordObserved(ReconcileContext &ctx, const Observation &observed)
{
    Resource &res = ctx.target.resource;
    QJsonObject json = observed.details;
    json.insert(QStringLiteral("spec"), observed.spec);
    if (!observed.resourceId.isEmpty())
        json.insert(QStringLiteral("resourceId"), observed.resourceId);
    if (!observed.name.isEmpty())
        json.insert(QStringLiteral("name"), observed.name); // lists match on it without an ID
    res.status.observed = json;
}

std::optional<qint64> GenericReconciler::beginWrite(ReconcileContext &ctx, const QString &operation,
                                                    const QJsonObject &details, QString *error)
{
    Resource &res = ctx.target.resource;
    qint64 intent = 0;
    StoreError storeError;
    const auto journal = [&] {
        intent = ctx.workspace->beginIntent(res.key(), operation, details, nullptr);
    };
    if (!ctx.finalizerPending) {
        journal();
        return intent;
    }
    // The finalizer is in the store before any backend write, so that nothing we create can be
    // forgotten by a deletion that races with it; setFinalizers() fails if the object changed since
    // this run read it (deleted, or a new spec), and then nothing is written.
    bool stored = false;
    StoreError transactionError;
    const bool committed = ctx.workspace->writeTogether(
        [&] {
            stored = ctx.workspace->setFinalizers(res, &storeError);
            if (stored)
                journal();
        },
        &transactionError);
    if (!stored || !committed) {
        *error = QStringLiteral("could not record the finalizer: %1")
                     .arg(stored ? transactionError.message : storeError.message);
        return std::nullopt;
    }
    ctx.finalizerPending = false;
    return intent;
}

void GenericReconciler::finishWrite(ReconcileContext &ctx, qint64 intent, const QString &outcome)
{
    ctx.finishedIntents.append({intent, outcome});
}

void GenericReconciler::recordResourceId(ReconcileContext &ctx, const Observation &observed)
{
    // Stored by the controller with the status (Workspace::updateStatus with a resource ID); a
    // crash before that loses nothing: the next pass observes and records it again.
    if (!observed.resourceId.isEmpty())
        ctx.target.resource.metadata.annotations.insert(Annotations::resourceId(),
                                                        observed.resourceId);
}

Outcome<Observation> GenericReconciler::observe(ReconcileContext &ctx)
{
    if (ctx.prefetched)
        return ctx.manager->fromListing(ctx.target, *std::exchange(ctx.prefetched, std::nullopt));
    Outcome<Observation> seen = ctx.manager->get(ctx.target);
    ctx.requestId = seen ? seen.value().requestId : seen.error().requestId;
    return seen;
}

std::optional<PhaseResult> GenericReconciler::waitForReferences(ReconcileContext &ctx,
                                                                const Kind &kind)
{
    Resource &res = ctx.target.resource;
    for (const KindReference &reference : kind.references) {
        const QString name = Kind::referencedName(reference, res.spec);
        if (name.isEmpty())
            continue;
        const ResourceKey key{reference.kind, name};
        const Resource *referenced = ctx.target.referenced(reference.kind, name);
        // As for an owner: one on its way is Info; one missing, going or failing is a Warning.
        QString why;
        bool problem = true;
        if (!referenced) {
            why = QStringLiteral("%1 names %2, which does not exist")
                      .arg(reference.field, key.toString());
        } else if (referenced->metadata.isBeingDeleted()) {
            why = QStringLiteral("%1 names %2, which is being deleted")
                      .arg(reference.field, key.toString());
        } else if (const Condition ready = referenced->status.ready(); !ready.isReady()) {
            why = QStringLiteral("%1 names %2, which is not Ready (%3)")
                      .arg(reference.field, key.toString(), ready.reason);
            problem = ready.severity == Condition::Severity::Error ||
                      ready.severity == Condition::Severity::Warning;
        } else if (reference.from.isEmpty() &&
                   referenced->metadata.annotations.value(Annotations::resourceId()).isEmpty()) {
            why = QStringLiteral("%1 names %2, whose %3 is not known yet")
                      .arg(reference.field, key.toString(), reference.idField);
            problem = false;
        }
        if (!why.isEmpty())
            return waitOn(ctx, key, QStringLiteral("WaitingForReference"), why, problem,
                          QStringLiteral("a reference"));
    }
    return std::nullopt;
}

PhaseResult GenericReconciler::waitOn(ReconcileContext &ctx, const ResourceKey &key,
                                      const QString &reason, const QString &why, bool problem,
                                      const QString &waitingFor)
{
    // One on its way is the normal order of things: Info and a Normal event. One that does not
    // exist, goes, or fails is worth a Warning.
    setReady(ctx, Condition::notReady(
                      problem ? Condition::Severity::Warning : Condition::Severity::Info, reason,
                      why, ctx.target.resource.metadata.generation, ctx.clock->now()));
    if (problem)
        ctx.events->warning(reason, why);
    else
        ctx.events->normal(reason, why);
    PhaseResult r;
    r.kind = PhaseResult::Kind::Retry;
    r.retryClass = Backoff::RetryClass::Fast;
    r.error = why;
    r.waitingFor = waitingFor;
    r.waitingOn = key;
    return r;
}

bool GenericReconciler::isWaiting(const Condition &ready)
{
    return ready.reason == QLatin1String("WaitingForOwner") ||
           ready.reason == QLatin1String("WaitingForReference");
}

PhaseResult GenericReconciler::claim(ReconcileContext &ctx)
{
    ctx.events->setPhase(phaseName("claim"));
    Resource &res = ctx.target.resource;
    const Kind *kind = m_kinds.find(res.kind);
    const QDateTime now = ctx.clock->now();
    if (!kind) {
        PhaseResult r;
        r.kind = PhaseResult::Kind::Fatal;
        r.error = QStringLiteral("no provider knows the kind %1").arg(res.kind);
        setReady(ctx, Condition::notReady(Condition::Severity::Error, QStringLiteral("UnknownKind"),
                                          r.error, res.metadata.generation, now));
        return r;
    }
    // What cannot change is refused before anything waits: a subscription moved to a topic
    // not made yet would otherwise wait for it, to be refused only once it comes.
    if (std::optional<PhaseResult> refused = refuseImmutableChange(ctx, *kind))
        return *refused;

    if (!kind->ownerKind.isEmpty()) {
        const ResourceKey ownerKey{kind->ownerKind, res.ownerName()};
        const Resource *owner = ctx.target.owners.isEmpty() ? nullptr : &ctx.target.owners.last();
        QString why;
        bool problem = true;
        if (!owner || owner->key() != ownerKey) {
            why = QStringLiteral("owner %1 does not exist").arg(ownerKey.toString());
        } else if (owner->metadata.isBeingDeleted()) {
            why = QStringLiteral("owner %1 is being deleted").arg(ownerKey.toString());
        } else if (const Condition ownerReady = owner->status.ready(); !ownerReady.isReady()) {
            why = QStringLiteral("owner %1 is not Ready (%2)")
                      .arg(ownerKey.toString(), ownerReady.reason);
            problem = ownerReady.severity == Condition::Severity::Error ||
                      ownerReady.severity == Condition::Severity::Warning;
        }
        if (!why.isEmpty())
            return waitOn(ctx, ownerKey, QStringLiteral("WaitingForOwner"), why, problem,
                          QStringLiteral("owner"));
    }
    if (std::optional<PhaseResult> waiting = waitForReferences(ctx, *kind))
        return *waiting;

    if (!ctx.manager) {
        return fail(ctx,
                    ctx.managerError.value_or(
                        BackendError{Category::Terminal,
                                     QString(),
                                     0,
                                     QStringLiteral("no Manager for %1").arg(res.kind),
                                     QString(),
                                     {}}),
                    false);
    }

    // A resource that records what another manages (a workspace written before the rule was
    // enforced holds such duplicates) writes nothing until one of them is detached.
    if (std::optional<PhaseResult> refused =
            refuseSecondManager(ctx, res.metadata.annotations.value(Annotations::resourceId())))
        return *refused;

    if (!res.hasFinalizer()) {
        // Stored with the first intent (beginWrite), before any backend write: one transaction,
        // not two. A run that writes nothing stores it with its status.
        res.metadata.finalizers.append(Annotations::finalizer());
        ctx.finalizerPending = true;
        ctx.events->normal(QStringLiteral("Claimed"),
                           QStringLiteral("%1 is managed by Converge").arg(res.key().toString()));
    }
    return PhaseResult::done();
}

PhaseResult GenericReconciler::createOrUpdate(ReconcileContext &ctx)
{
    ctx.events->setPhase(phaseName("createOrUpdate"));
    Resource &res = ctx.target.resource;
    const Kind *kind = m_kinds.find(res.kind);
    Q_ASSERT(kind && ctx.manager);
    const qint64 generation = res.metadata.generation;
    if (std::optional<PhaseResult> refused = refuseImmutableChange(ctx, *kind))
        return *refused;

    // A resource never seen in the backend is almost always absent: where create() adopts an
    // existing one unchanged, it is created straight away (one request, not get, create, get).
    // Only on the first attempt: after one whose outcome is unknown (the answer lost after the
    // backend acted) a get looks first, or every retry would be another create.
    const bool firstAttempt = std::none_of(
        res.status.conditions.cbegin(), res.status.conditions.cend(),
        [](const Condition &c) { return c.type == Condition::readyType() && !isWaiting(c); });
    const bool neverObserved = firstAttempt && !ctx.prefetched && res.status.observed.isEmpty() &&
                               !res.metadata.annotations.contains(Annotations::resourceId());
    std::optional<Observation> found;
    if (!neverObserved || !ctx.manager->createAdopts()) {
        Outcome<Observation> seen = observe(ctx);
        if (seen)
            found = std::move(seen.value());
        else if (seen.error().category != Category::NotFound)
            return fail(ctx, seen.error(), false);
    }

    const bool created = !found;
    if (created) {
        QString error;
        const std::optional<qint64> intent =
            beginWrite(ctx, QStringLiteral("create"),
                       QJsonObject{{QStringLiteral("generation"), generation}}, &error);
        if (!intent)
            return finalizerNotStored(error);
        ++ctx.backendWrites;
        Outcome<Observation> answer = ctx.manager->create(ctx.target);
        // "adopted" keeps the journal exact: a create that found its resource (made by an
        // attempt whose end was lost, or by someone else) did not make a second one.
        finishWrite(ctx, *intent,
                    !answer                  ? QStringLiteral("failed: ") + describe(answer.error())
                    : answer.value().existed ? QStringLiteral("adopted: it existed already")
                                             : QStringLiteral("succeeded"));
        if (!answer)
            return fail(ctx, answer.error(), false);
        found = std::move(answer.value());
        const QString what = found->resourceId.isEmpty() ? res.key().toString() : found->resourceId;
        if (found->continues) {
            // Said by the condition's progress; the step that ends it says Created.
        } else if (found->existed) {
            ctx.events->normal(QStringLiteral("Adopted"),
                               QStringLiteral("%1 already existed; it is managed now").arg(what),
                               found->requestId);
        } else {
            ctx.events->normal(QStringLiteral("Created"), QStringLiteral("created %1").arg(what),
                               found->requestId);
        }
    }

    const Observation &observed = *found;
    // Found by name, it may be what another resource of the workspace manages (two accounts on
    // one endpoint): then nothing more is written, and this one does not record it.
    if (observed.resourceId != res.metadata.annotations.value(Annotations::resourceId())) {
        if (std::optional<PhaseResult> refused = refuseSecondManager(ctx, observed.resourceId))
            return *refused;
    }
    recordObserved(ctx, observed);
    recordResourceId(ctx, observed);
    if (observed.inProgress)
        return inProgress(ctx, observed);
    ctx.pollCount = 0;

    const QStringList delta = Delta::between(kind->spec, res.spec, observed.spec);
    if (delta.isEmpty()) {
        // Up to date: no backend write at all.
        setReady(ctx, Condition::ready(generation, ctx.clock->now()));
        return PhaseResult::done();
    }

    // What the backend holds now may differ from the desired spec in an immutable field too
    // (changed outside, or a workspace written before the established spec was recorded).
    if (const QList<ImmutableFields::Change> changes =
            ImmutableFields::changed(*kind, res.metadata.name, res.spec, observed.spec);
        !changes.isEmpty())
        return immutableChanged(ctx, ImmutableFields::describe(res.key(), changes),
                                observed.requestId);
    // An observation that leaves a field out when it has its default (SQS's fifoQueue false)
    // says nothing of it to ImmutableFields, but the Delta sees the difference: no update can
    // make it, so it is refused here, before any write, as every immutable change is.
    if (const QStringList immutable = Delta::immutablePaths(kind->spec, delta);
        !immutable.isEmpty()) {
        QList<ImmutableFields::Change> changes;
        for (const QString &path : immutable)
            changes.append({path, FieldPath::valueAt(observed.spec, path),
                            FieldPath::valueAt(res.spec, path)});
        return immutableChanged(ctx, ImmutableFields::describe(res.key(), changes),
                                observed.requestId);
    }

    // The spec did not change since the backend last matched it: someone changed the backend.
    const Condition ready = res.status.ready();
    if (!created && ready.isReady() && ready.observedGeneration == generation) {
        ctx.events->warning(QStringLiteral("DriftDetected"),
                            QStringLiteral("the backend differs in %1; correcting")
                                .arg(delta.join(QStringLiteral(", "))),
                            observed.requestId);
    }

    QString error;
    const std::optional<qint64> intent =
        beginWrite(ctx, QStringLiteral("update"),
                   QJsonObject{{QStringLiteral("generation"), generation},
                               {QStringLiteral("delta"), QJsonArray::fromStringList(delta)}},
                   &error);
    if (!intent)
        return finalizerNotStored(error);
    ++ctx.backendWrites;
    Outcome<Observation> updated = ctx.manager->update(ctx.target, observed, delta);
    finishWrite(ctx, *intent,
                updated ? QStringLiteral("succeeded")
                        : QStringLiteral("failed: ") + describe(updated.error()));
    if (!updated)
        return fail(ctx, updated.error(), false);
    recordObserved(ctx, updated.value());
    if (!updated.value().continues)
        ctx.events->normal(QStringLiteral("Updated"),
                           QStringLiteral("updated %1").arg(delta.join(QStringLiteral(", "))),
                           updated.value().requestId);
    if (updated.value().inProgress)
        return inProgress(ctx, updated.value());
    setReady(ctx, Condition::ready(generation, ctx.clock->now()));
    return PhaseResult::done();
}

PhaseResult GenericReconciler::immutableChanged(ReconcileContext &ctx, const QString &message,
                                                const QString &requestId)
{
    PhaseResult r;
    r.kind = PhaseResult::Kind::Fatal;
    r.error = message;
    r.waitingFor = QStringLiteral("a spec change");
    setReady(ctx, Condition::notReady(Condition::Severity::Error,
                                      QStringLiteral("ImmutableFieldChanged"), message,
                                      ctx.target.resource.metadata.generation, ctx.clock->now()));
    ctx.events->warning(QStringLiteral("ImmutableFieldChanged"), message, requestId);
    return r;
}

std::optional<PhaseResult> GenericReconciler::refuseImmutableChange(ReconcileContext &ctx,
                                                                    const Kind &kind)
{
    const Resource &res = ctx.target.resource;
    const QList<ImmutableFields::Change> changes = ImmutableFields::changed(kind, res, res);
    if (changes.isEmpty())
        return std::nullopt;
    return immutableChanged(ctx, ImmutableFields::describe(res.key(), changes));
}

PhaseResult GenericReconciler::deleteResource(ReconcileContext &ctx)
{
    ctx.events->setPhase(phaseName("delete"));
    Resource &res = ctx.target.resource;
    if (!ctx.manager) {
        return fail(ctx,
                    ctx.managerError.value_or(
                        BackendError{Category::Terminal,
                                     QString(),
                                     0,
                                     QStringLiteral("no Manager for %1").arg(res.kind),
                                     QString(),
                                     {}}),
                    true);
    }

    // The backend resource deleted is the one established, by the name it was last seen under: a
    // name changed since (a workspace written before apply refused such changes) must not send
    // the delete to another resource and leave this one behind.
    Target addressed = ctx.target;
    if (const Kind *kind = m_kinds.find(res.kind); kind && !kind->backendNameField.isEmpty()) {
        const QJsonValue seen = res.status.observed.value(QStringLiteral("spec"))
                                    .toObject()
                                    .value(kind->backendNameField);
        if (seen.isString() && !seen.toString().isEmpty())
            addressed.resource.spec.insert(kind->backendNameField, seen);
    }
    Outcome<Observation> latest = ctx.manager->get(addressed);
    if (!latest) {
        if (latest.error().category == Category::NotFound) {
            PhaseResult r;
            r.kind = PhaseResult::Kind::Removed;
            return r;
        }
        return fail(ctx, latest.error(), true);
    }
    const Observation &observed = latest.value();
    if (observed.inProgress) {
        // Never delete while an operation runs (AWS refuses; some emulators then resurrect).
        return inProgress(ctx, observed);
    }
    // Deleting what another resource also records would delete it under that one too.
    if (std::optional<PhaseResult> refused = refuseSharedDelete(ctx, observed))
        return *refused;

    QString error;
    const std::optional<qint64> intent =
        beginWrite(ctx, QStringLiteral("delete"),
                   QJsonObject{{QStringLiteral("resourceId"), observed.resourceId}}, &error);
    if (!intent)
        return finalizerNotStored(error);
    ++ctx.backendWrites;
    Outcome<std::optional<Observation>> deleted = ctx.manager->deleteResource(addressed, observed);
    finishWrite(ctx, *intent,
                deleted ? QStringLiteral("succeeded")
                        : QStringLiteral("failed: ") + describe(deleted.error()));
    if (!deleted) {
        if (deleted.error().category == Category::NotFound) {
            PhaseResult r;
            r.kind = PhaseResult::Kind::Removed;
            return r;
        }
        return fail(ctx, deleted.error(), true);
    }
    if (deleted.value()) {
        ctx.events->normal(QStringLiteral("Deleting"),
                           QStringLiteral("deletion of %1 started").arg(res.key().toString()),
                           deleted.value()->requestId);
        Observation still = *deleted.value();
        still.inProgress = true;
        if (still.progress.isEmpty())
            still.progress = QStringLiteral("deletion in progress");
        return inProgress(ctx, still);
    }

    // Confirm: the finalizer goes only once get says NotFound.
    Outcome<Observation> after = ctx.manager->get(addressed);
    if (!after && after.error().category == Category::NotFound) {
        PhaseResult r;
        r.kind = PhaseResult::Kind::Removed;
        return r;
    }
    Observation waiting = after ? after.value() : observed;
    waiting.inProgress = true;
    waiting.progress = QStringLiteral("waiting for the backend to finish deleting");
    return inProgress(ctx, waiting);
}

std::optional<PhaseResult> GenericReconciler::refuseSecondManager(ReconcileContext &ctx,
                                                                  const QString &backendId)
{
    const Resource &res = ctx.target.resource;
    if (backendId.isEmpty() || !ctx.workspace || !res.spec.contains(QLatin1String("owner")))
        return std::nullopt;
    const QString message =
        SoleManager::secondManagerRefusal(*ctx.workspace, m_kinds, res.key(), backendId);
    if (message.isEmpty())
        return std::nullopt;
    return waitForTheOtherManager(ctx, QStringLiteral("ManagedByAnother"), message, {});
}

std::optional<PhaseResult> GenericReconciler::refuseSharedDelete(ReconcileContext &ctx,
                                                                 const Observation &observed)
{
    const Resource &res = ctx.target.resource;
    if (!ctx.workspace || !res.spec.contains(QLatin1String("owner")))
        return std::nullopt;
    QString id = res.metadata.annotations.value(Annotations::resourceId());
    if (id.isEmpty())
        id = observed.resourceId;
    const QString message =
        SoleManager::sharedDeleteRefusal(*ctx.workspace, m_kinds, res.key(), id);
    if (message.isEmpty())
        return std::nullopt;
    return waitForTheOtherManager(ctx, QStringLiteral("DeleteRefused"), message,
                                  observed.requestId);
}

PhaseResult GenericReconciler::waitForTheOtherManager(ReconcileContext &ctx, const QString &reason,
                                                      const QString &message,
                                                      const QString &requestId)
{
    // A Warning retried slowly: it resolves by itself once the other one is detached.
    setReady(ctx, Condition::notReady(Condition::Severity::Warning, reason, message,
                                      ctx.target.resource.metadata.generation, ctx.clock->now()));
    ctx.events->warning(reason, message, requestId);
    PhaseResult r;
    r.kind = PhaseResult::Kind::Retry;
    r.retryClass = Backoff::RetryClass::Slow;
    r.error = message;
    r.waitingFor = QStringLiteral("the other manager to be detached");
    return r;
}

PhaseResult GenericReconciler::updateStatus(ReconcileContext &ctx)
{
    ctx.events->setPhase(phaseName("updateStatus"));
    Resource &res = ctx.target.resource;
    const Kind *kind = m_kinds.find(res.kind);
    if (!ctx.manager || !kind) {
        return fail(ctx,
                    ctx.managerError.value_or(
                        BackendError{Category::Terminal,
                                     QString(),
                                     0,
                                     QStringLiteral("no Manager for %1").arg(res.kind),
                                     QString(),
                                     {}}),
                    false);
    }
    const qint64 generation = res.metadata.generation;
    // Observing by a changed name would record another resource as this one's.
    if (std::optional<PhaseResult> refused = refuseImmutableChange(ctx, *kind))
        return *refused;
    Outcome<Observation> latest = observe(ctx);
    if (!latest) {
        if (latest.error().category != Category::NotFound)
            return fail(ctx, latest.error(), false);
        // Under policy skip nothing is ever written; otherwise this is a person's Refresh,
        // which only observes, whatever the policy.
        const QString message =
            res.policy() == Annotations::ReconcilePolicy::Skip
                ? QStringLiteral("%1 does not exist in the backend; nothing is written under "
                                 "policy skip")
                      .arg(res.key().toString())
                : QStringLiteral("%1 does not exist in the backend: Refresh only observes; "
                                 "Reconcile recreates it")
                      .arg(res.key().toString());
        setReady(ctx, Condition::notReady(Condition::Severity::Warning,
                                          QStringLiteral("BackendResourceNotFound"), message,
                                          generation, ctx.clock->now()));
        ctx.events->warning(QStringLiteral("BackendResourceNotFound"), message,
                            latest.error().requestId);
        PhaseResult r;
        r.kind = PhaseResult::Kind::Retry;
        r.retryClass = Backoff::RetryClass::Slow;
        r.error = message;
        r.waitingFor = QStringLiteral("the backend resource");
        return r;
    }
    const Observation &observed = latest.value();
    recordObserved(ctx, observed);
    if (observed.inProgress)
        return inProgress(ctx, observed);
    ctx.pollCount = 0;
    const QStringList delta = Delta::between(kind->spec, res.spec, observed.spec);
    if (!delta.isEmpty() && res.policy() == Annotations::ReconcilePolicy::Skip) {
        ctx.events->warning(QStringLiteral("DriftDetected"),
                            QStringLiteral("the backend differs in %1; not corrected (policy "
                                           "skip)")
                                .arg(delta.join(QStringLiteral(", "))),
                            observed.requestId);
    }
    Condition ready = Condition::ready(generation, ctx.clock->now());
    if (!delta.isEmpty())
        ready.message =
            QStringLiteral("differs from the spec in %1").arg(delta.join(QStringLiteral(", ")));
    setReady(ctx, ready);
    return PhaseResult::done();
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "dynamodbtablehook.h"

#include "dynamodbjson.h"
#include "dynamodbtablesteps.h"
#include "resource.h"

#include <QDateTime>
#include <QJsonArray>

#include <algorithm>

namespace converge {

namespace {

using DynamoDbJson::s;

// The fields `update` carries that `desired` gives otherwise than `observed` has them.
QStringList differing(const DeclaredCall &update, const QJsonObject &desired,
                      const QJsonObject &observed)
{
    QStringList out;
    for (const QString &field : update.fields) {
        if (desired.contains(field) && desired.value(field) != observed.value(field))
            out << field;
    }
    return out;
}

} // namespace

Outcome<QJsonObject> DynamoDbTableHook::completeInput(const DeclaredCall &call, QJsonObject input,
                                                      const QJsonObject &spec,
                                                      const Observation *latest,
                                                      QStringList *secrets)
{
    Q_UNUSED(secrets)
    if (call.operation == QLatin1String("CreateTable")) {
        // A new table has no stream: only an enabled one is asked for.
        if (!input.value(s("StreamSpecification"))[s("StreamEnabled")].toBool())
            input.remove(s("StreamSpecification"));
        // DynamoDB refuses an empty list where it takes one: none is sent instead.
        for (const char *list : {"Tags", "GlobalSecondaryIndexes", "LocalSecondaryIndexes"}) {
            if (input.value(QLatin1String(list)).toArray().isEmpty())
                input.remove(QLatin1String(list));
        }
        return input;
    }
    if (call.operation == QLatin1String("UpdateTimeToLive") && latest) {
        QJsonObject ttl = input.value(s("TimeToLiveSpecification")).toObject();
        const QString was = latest->spec.value(s("timeToLive"))[s("attributeName")].toString();
        if (!ttl.contains(s("AttributeName")) && !was.isEmpty()) {
            ttl.insert(s("AttributeName"), was);
            input.insert(s("TimeToLiveSpecification"), ttl);
        }
        return input;
    }
    if (call.operation != QLatin1String("UpdateTable") || !latest)
        return input;
    const DynamoDbTableSteps::Step step =
        DynamoDbTableSteps::nextStep(spec, latest->spec, input.value(s("TableName")).toString());
    if (step.kind != DynamoDbTableSteps::Step::Kind::None)
        return step.request;
    BackendError error;
    error.category = BackendError::Category::Invalid;
    error.code = QStringLiteral("UnsupportedChange");
    error.message = QStringLiteral("DynamoDB cannot change %1 of an existing table; restore the "
                                   "previous value, or delete and re-create the table")
                        .arg(differing(call, spec, latest->spec).join(QStringLiteral(", ")));
    error.requestId = latest->requestId;
    return error;
}

std::optional<BackendError> DynamoDbTableHook::observe(Observation &o, const QJsonObject &resource,
                                                       const QJsonObject &desired,
                                                       const Target &target,
                                                       const QSet<QString> &sent)
{
    // Every field is DynamoDB's to say but the owner and the tags, which are the workspace's
    // and their calls'.
    const QJsonObject owner = o.spec.value(s("owner")).toObject();
    o.spec = DynamoDbTableSteps::observedSpec(resource, desired);
    if (!owner.isEmpty())
        o.spec.insert(s("owner"), owner);
    // Instants as people read them (DynamoDB answers seconds since 1970, with a fraction).
    if (const QJsonValue created = o.details.value(s("CreationDateTime")); created.isDouble())
        o.details.insert(s("CreationDateTime"), QDateTime::fromMSecsSinceEpoch(
                                                    qint64(created.toDouble() * 1000.0), Qt::UTC)
                                                    .toString(Qt::ISODateWithMs));
    if (const QString progress = DynamoDbTableSteps::indexProgress(resource);
        !o.inProgress && !progress.isEmpty()) {
        o.inProgress = true;
        o.progress = progress;
    }

    // After an UpdateTable step (a create carries the key schema; an update never does): look
    // again until no step is left, unless the step was not made.
    const QStringList stepFields = DynamoDbTableSteps::updateTableFields();
    const bool stepped =
        !sent.contains(s("keySchema")) &&
        std::any_of(stepFields.begin(), stepFields.end(),
                    [&sent](const QString &field) { return sent.contains(field); });
    if (!stepped)
        return std::nullopt;
    // The engine records what it observed before it asks for an update: the step was taken
    // from there.
    const QJsonObject before = target.resource.status.observed.value(s("spec")).toObject();
    const DynamoDbTableSteps::Step taken =
        before.isEmpty() ? DynamoDbTableSteps::Step()
                         : DynamoDbTableSteps::nextStep(desired, before, o.name);
    const bool tookOne = taken.kind != DynamoDbTableSteps::Step::Kind::None;
    if (o.inProgress) {
        if (tookOne)
            o.progress = taken.description + QStringLiteral(": ") + o.progress;
        return std::nullopt;
    }
    const DynamoDbTableSteps::Step next = DynamoDbTableSteps::nextStep(desired, o.spec, o.name);
    if (next.kind == DynamoDbTableSteps::Step::Kind::None)
        return std::nullopt;
    if (tookOne && next == taken) {
        BackendError error;
        error.category = BackendError::Category::Terminal;
        error.code = QStringLiteral("ChangeNotApplied");
        error.message = QStringLiteral("DynamoDB accepted UpdateTable (%1) on %2 but the table "
                                       "shows no such change; the endpoint may not implement it "
                                       "(dynalite ignores index and stream changes)")
                            .arg(taken.description, o.name);
        error.requestId = o.requestId;
        return error;
    }
    o.inProgress = true;
    o.progress = tookOne ? taken.description : QStringLiteral("next: ") + next.description;
    return std::nullopt;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "dynamodbtablesteps.h"

#include "dynamodbjson.h"

#include <QSet>

#include <optional>
#include <utility>

#include <functional>

namespace converge {

namespace {

using DynamoDbJson::payPerRequest;
using DynamoDbJson::provisioned;
using DynamoDbJson::s;

bool isTransitional(const QString &status)
{
    return status == QLatin1String("CREATING") || status == QLatin1String("UPDATING") ||
           status == QLatin1String("DELETING");
}

// --- spec → DynamoDB ---------------------------------------------------------------------------

QJsonArray keysToAws(const QJsonArray &keys)
{
    QJsonArray out;
    for (const QJsonValue &k : keys)
        out.append(QJsonObject{{s("AttributeName"), k[s("attributeName")]},
                               {s("KeyType"), k[s("keyType")]}});
    return out;
}

QJsonArray attributesToAws(const QJsonArray &attributes)
{
    QJsonArray out;
    for (const QJsonValue &a : attributes)
        out.append(QJsonObject{{s("AttributeName"), a[s("attributeName")]},
                               {s("AttributeType"), a[s("attributeType")]}});
    return out;
}

QJsonObject throughputToAws(const QJsonObject &throughput)
{
    return {{s("ReadCapacityUnits"), throughput.value(s("readCapacityUnits")).toInteger()},
            {s("WriteCapacityUnits"), throughput.value(s("writeCapacityUnits")).toInteger()}};
}

QJsonObject projectionToAws(const QJsonObject &projection)
{
    QJsonObject out{
        {s("ProjectionType"), projection.value(s("projectionType")).toString(s("ALL"))}};
    if (projection.contains(s("nonKeyAttributes")))
        out.insert(s("NonKeyAttributes"), projection.value(s("nonKeyAttributes")));
    return out;
}

QJsonObject streamToAws(const QJsonObject &stream)
{
    const bool enabled = stream.value(s("streamEnabled")).toBool();
    QJsonObject out{{s("StreamEnabled"), enabled}};
    if (enabled)
        out.insert(s("StreamViewType"), stream.value(s("streamViewType")));
    return out;
}

QString billingModeOf(const QJsonObject &spec)
{
    return spec.value(s("billingMode")).toString(payPerRequest);
}

QJsonObject indexToAws(const QJsonObject &index, bool withThroughput)
{
    QJsonObject out{{s("IndexName"), index.value(s("indexName"))},
                    {s("KeySchema"), keysToAws(index.value(s("keySchema")).toArray())},
                    {s("Projection"), projectionToAws(index.value(s("projection")).toObject())}};
    if (withThroughput && index.contains(s("provisionedThroughput")))
        out.insert(s("ProvisionedThroughput"),
                   throughputToAws(index.value(s("provisionedThroughput")).toObject()));
    return out;
}

// --- DynamoDB → spec ---------------------------------------------------------------------------

// Observed items whose key the desired list has come first, in its order; the others keep
// theirs. Lists compare index by index, and DynamoDB does not promise an order.
QJsonArray orderLike(const QJsonArray &observed, const QJsonArray &desired,
                     const std::function<QString(const QJsonValue &)> &keyOf)
{
    QJsonArray out;
    QList<bool> used(observed.size(), false);
    for (const QJsonValue &d : desired) {
        const QString key = keyOf(d);
        for (qsizetype i = 0; i < observed.size(); ++i) {
            if (!used[i] && keyOf(observed.at(i)) == key) {
                out.append(observed.at(i));
                used[i] = true;
                break;
            }
        }
    }
    for (qsizetype i = 0; i < observed.size(); ++i) {
        if (!used[i])
            out.append(observed.at(i));
    }
    return out;
}

QString fieldOf(const QJsonValue &v, const QString &name)
{
    return v.isObject() ? v[name].toString() : v.toString();
}

// HASH first, then RANGE, as the kind's schema requires.
QJsonArray keysFromAws(const QJsonArray &keys)
{
    QJsonArray out;
    for (const char *type : {"HASH", "RANGE"}) {
        for (const QJsonValue &k : keys) {
            if (k[s("KeyType")].toString() == QLatin1String(type))
                out.append(QJsonObject{{s("attributeName"), k[s("AttributeName")]},
                                       {s("keyType"), k[s("KeyType")]}});
        }
    }
    return out;
}

QJsonObject throughputFromAws(const QJsonObject &throughput)
{
    return {{s("readCapacityUnits"), throughput.value(s("ReadCapacityUnits")).toInteger()},
            {s("writeCapacityUnits"), throughput.value(s("WriteCapacityUnits")).toInteger()}};
}

QJsonObject projectionFromAws(const QJsonObject &projection, const QJsonObject &desired)
{
    QJsonObject out{
        {s("projectionType"), projection.value(s("ProjectionType")).toString(s("ALL"))}};
    const QJsonArray nonKey = projection.value(s("NonKeyAttributes")).toArray();
    if (!nonKey.isEmpty()) {
        const auto self = [](const QJsonValue &v) { return v.toString(); };
        out.insert(s("nonKeyAttributes"),
                   orderLike(nonKey, desired.value(s("nonKeyAttributes")).toArray(), self));
    }
    return out;
}

QJsonObject findByName(const QJsonArray &list, const QString &field, const QString &name)
{
    for (const QJsonValue &v : list) {
        if (v[field].toString() == name)
            return v.toObject();
    }
    return {};
}

QStringList sortedStrings(const QJsonArray &list)
{
    QStringList out;
    for (const QJsonValue &v : list)
        out.append(v.toString());
    out.sort();
    return out;
}

// Whether an index must be deleted and created again to match: keys and projection cannot
// change in place.
bool indexNeedsRecreate(const QJsonObject &desired, const QJsonObject &observed)
{
    if (desired.value(s("keySchema")) != observed.value(s("keySchema")))
        return true;
    const QJsonObject dp = desired.value(s("projection")).toObject();
    const QJsonObject op = observed.value(s("projection")).toObject();
    return dp.value(s("projectionType")).toString(s("ALL")) !=
               op.value(s("projectionType")).toString(s("ALL")) ||
           sortedStrings(dp.value(s("nonKeyAttributes")).toArray()) !=
               sortedStrings(op.value(s("nonKeyAttributes")).toArray());
}

bool sameThroughput(const QJsonObject &a, const QJsonObject &b)
{
    return a.value(s("readCapacityUnits")).toInteger() ==
               b.value(s("readCapacityUnits")).toInteger() &&
           a.value(s("writeCapacityUnits")).toInteger() ==
               b.value(s("writeCapacityUnits")).toInteger();
}

// Encryption as DescribeTable answers it (SSEDescription). A key given by ID or alias is
// answered by its ARN: the ID is checked against it; an alias cannot be without KMS, and is
// taken as given.
QJsonObject sseFromAws(const QJsonObject &sse, const QJsonObject &desired)
{
    const QString status = sse.value(s("Status")).toString();
    if (status != QLatin1String("ENABLED") && status != QLatin1String("ENABLING") &&
        status != QLatin1String("UPDATING"))
        return {{s("enabled"), false}};
    QJsonObject out{{s("enabled"), true},
                    {s("sseType"), sse.value(s("SSEType")).toString(s("KMS"))}};
    const QString arn = sse.value(s("KMSMasterKeyArn")).toString();
    const QString wanted = desired.value(s("kmsMasterKeyID")).toString();
    if (wanted.isEmpty())
        return out; // the AWS managed key, or not managed
    const bool alias =
        wanted.startsWith(QLatin1String("alias/")) || wanted.contains(QLatin1String(":alias/"));
    const bool same = wanted == arn || arn.endsWith(QLatin1String(":key/") + wanted);
    out.insert(s("kmsMasterKeyID"), alias || same ? wanted : arn);
    return out;
}

// Time to live as DescribeTimeToLive answers it: ENABLING counts as enabled (AWS may take an
// hour to finish); a disabled one has no attribute, and any the spec names is as good.
QJsonObject timeToLiveFromAws(const QJsonObject &ttl, const QJsonObject &desired)
{
    const QString status = ttl.value(s("TimeToLiveStatus")).toString();
    const bool enabled = status == QLatin1String("ENABLED") || status == QLatin1String("ENABLING");
    QJsonObject out{{s("enabled"), enabled}};
    const QString attribute = ttl.value(s("AttributeName")).toString();
    if (!attribute.isEmpty())
        out.insert(s("attributeName"), attribute);
    else if (desired.contains(s("attributeName")))
        out.insert(s("attributeName"), desired.value(s("attributeName")));
    return out;
}

// The first of the table's settings that the spec gives otherwise than it is: its class,
// deletion protection, encryption, on-demand limits.
std::optional<DynamoDbTableSteps::Step>
settingStep(const QJsonObject &desired, const QJsonObject &observed, const QJsonObject &base)
{
    DynamoDbTableSteps::Step step;
    step.kind = DynamoDbTableSteps::Step::Kind::Settings;
    step.request = base;
    const auto differs = [&](const char *field) {
        const QString name = QLatin1String(field);
        if (!desired.contains(name))
            return false;
        const QJsonValue want = desired.value(name);
        const QJsonValue have = observed.value(name);
        if (!want.isObject())
            return want != have;
        const QJsonObject w = want.toObject();
        for (auto it = w.begin(); it != w.end(); ++it) {
            if (it.value() != have[it.key()])
                return true;
        }
        return false;
    };
    if (differs("tableClass")) {
        step.request.insert(s("TableClass"), desired.value(s("tableClass")));
        step.description =
            QStringLiteral("set tableClass %1").arg(desired.value(s("tableClass")).toString());
    } else if (differs("deletionProtectionEnabled")) {
        const bool on = desired.value(s("deletionProtectionEnabled")).toBool();
        step.request.insert(s("DeletionProtectionEnabled"), on);
        step.description = on ? QStringLiteral("turn deletion protection on")
                              : QStringLiteral("turn deletion protection off");
    } else if (differs("sseSpecification")) {
        const QJsonObject sse = desired.value(s("sseSpecification")).toObject();
        QJsonObject out{{s("Enabled"), sse.value(s("enabled")).toBool()}};
        if (sse.contains(s("sseType")))
            out.insert(s("SSEType"), sse.value(s("sseType")));
        if (sse.contains(s("kmsMasterKeyID")))
            out.insert(s("KMSMasterKeyId"), sse.value(s("kmsMasterKeyID")));
        step.request.insert(s("SSESpecification"), out);
        step.description = QStringLiteral("set the table's encryption");
    } else if (differs("onDemandThroughput")) {
        const QJsonObject limits = desired.value(s("onDemandThroughput")).toObject();
        QJsonObject out;
        if (limits.contains(s("maxReadRequestUnits")))
            out.insert(s("MaxReadRequestUnits"), limits.value(s("maxReadRequestUnits")));
        if (limits.contains(s("maxWriteRequestUnits")))
            out.insert(s("MaxWriteRequestUnits"), limits.value(s("maxWriteRequestUnits")));
        step.request.insert(s("OnDemandThroughput"), out);
        step.description = QStringLiteral("set the on-demand limits");
    } else {
        return std::nullopt;
    }
    return step;
}

} // namespace

QJsonObject DynamoDbTableSteps::observedSpec(const QJsonObject &table, const QJsonObject &desired)
{
    QJsonObject spec;
    spec.insert(s("tableName"), table.value(s("TableName")));

    const QString mode =
        table.value(s("BillingModeSummary"))[s("BillingMode")].toString(provisioned);
    const bool isProvisioned = mode == provisioned;

    // Indexes, and the key attributes they and the table use.
    QSet<QString> keyAttributes;
    const auto addKeys = [&keyAttributes](const QJsonArray &keys) {
        for (const QJsonValue &k : keys)
            keyAttributes.insert(k[s("AttributeName")].toString());
    };
    addKeys(table.value(s("KeySchema")).toArray());
    const auto byIndex = [](const QJsonValue &v) { return fieldOf(v, s("indexName")); };
    const std::pair<const char *, const char *> lists[] = {
        {"GlobalSecondaryIndexes", "globalSecondaryIndexes"},
        {"LocalSecondaryIndexes", "localSecondaryIndexes"}};
    for (const auto &[member, field] : lists) {
        const QJsonArray wantedList = desired.value(QLatin1String(field)).toArray();
        QJsonArray indexes;
        for (const QJsonValue &v : table.value(QLatin1String(member)).toArray()) {
            const QJsonObject index = v.toObject();
            const QString name = index.value(s("IndexName")).toString();
            const QJsonObject wanted = findByName(wantedList, s("indexName"), name);
            addKeys(index.value(s("KeySchema")).toArray());
            QJsonObject out{
                {s("indexName"), name},
                {s("keySchema"), keysFromAws(index.value(s("KeySchema")).toArray())},
                {s("projection"), projectionFromAws(index.value(s("Projection")).toObject(),
                                                    wanted.value(s("projection")).toObject())}};
            if (isProvisioned && index.contains(s("ProvisionedThroughput")))
                out.insert(s("provisionedThroughput"),
                           throughputFromAws(index.value(s("ProvisionedThroughput")).toObject()));
            indexes.append(out);
        }
        if (!indexes.isEmpty())
            spec.insert(QLatin1String(field), orderLike(indexes, wantedList, byIndex));
    }

    QJsonArray attributes;
    for (const QJsonValue &a : table.value(s("AttributeDefinitions")).toArray()) {
        const QString name = a[s("AttributeName")].toString();
        if (keyAttributes.contains(name))
            attributes.append(QJsonObject{{s("attributeName"), name},
                                          {s("attributeType"), a[s("AttributeType")]}});
    }
    const auto byAttribute = [](const QJsonValue &v) { return fieldOf(v, s("attributeName")); };
    spec.insert(
        s("attributeDefinitions"),
        orderLike(attributes, desired.value(s("attributeDefinitions")).toArray(), byAttribute));
    spec.insert(s("keySchema"), keysFromAws(table.value(s("KeySchema")).toArray()));
    spec.insert(s("billingMode"), mode);
    if (isProvisioned && table.contains(s("ProvisionedThroughput")))
        spec.insert(s("provisionedThroughput"),
                    throughputFromAws(table.value(s("ProvisionedThroughput")).toObject()));
    if (const QJsonObject limits = table.value(s("OnDemandThroughput")).toObject();
        !isProvisioned && !limits.isEmpty()) {
        QJsonObject out;
        const std::pair<const char *, const char *> members[] = {
            {"MaxReadRequestUnits", "maxReadRequestUnits"},
            {"MaxWriteRequestUnits", "maxWriteRequestUnits"}};
        for (const auto &[member, field] : members) {
            // -1 (or nothing) is "no limit", which is what a spec that leaves it out means.
            if (const qint64 units = limits.value(QLatin1String(member)).toInteger(-1); units > 0)
                out.insert(QLatin1String(field), units);
        }
        if (!out.isEmpty())
            spec.insert(s("onDemandThroughput"), out);
    }

    const QJsonObject stream = table.value(s("StreamSpecification")).toObject();
    QJsonObject streamSpec{{s("streamEnabled"), stream.value(s("StreamEnabled")).toBool()}};
    if (stream.value(s("StreamEnabled")).toBool())
        streamSpec.insert(s("streamViewType"), stream.value(s("StreamViewType")));
    spec.insert(s("streamSpecification"), streamSpec);

    spec.insert(s("tableClass"),
                table.value(s("TableClassSummary"))[s("TableClass")].toString(s("STANDARD")));
    spec.insert(s("deletionProtectionEnabled"),
                table.value(s("DeletionProtectionEnabled")).toBool());
    spec.insert(s("sseSpecification"), sseFromAws(table.value(s("SSEDescription")).toObject(),
                                                  desired.value(s("sseSpecification")).toObject()));
    if (table.contains(s("TimeToLiveDescription")))
        spec.insert(s("timeToLive"),
                    timeToLiveFromAws(table.value(s("TimeToLiveDescription")).toObject(),
                                      desired.value(s("timeToLive")).toObject()));
    if (table.contains(s("ContinuousBackupsDescription"))) {
        const QString status =
            table
                .value(s("ContinuousBackupsDescription"))[s("PointInTimeRecoveryDescription")]
                                                         [s("PointInTimeRecoveryStatus")]
                .toString();
        spec.insert(s("continuousBackups"), QJsonObject{{s("pointInTimeRecoveryEnabled"),
                                                         status == QLatin1String("ENABLED")}});
    }
    return spec;
}

QString DynamoDbTableSteps::indexProgress(const QJsonObject &table)
{
    for (const QJsonValue &index : table.value(s("GlobalSecondaryIndexes")).toArray()) {
        const QString indexStatus = index[s("IndexStatus")].toString();
        if (isTransitional(indexStatus))
            return QStringLiteral("index %1 is %2")
                .arg(index[s("IndexName")].toString(), indexStatus);
    }
    return {};
}

QStringList DynamoDbTableSteps::updateTableFields()
{
    return {s("attributeDefinitions"),
            s("globalSecondaryIndexes"),
            s("billingMode"),
            s("provisionedThroughput"),
            s("onDemandThroughput"),
            s("streamSpecification"),
            s("sseSpecification"),
            s("tableClass"),
            s("deletionProtectionEnabled")};
}

DynamoDbTableSteps::Step DynamoDbTableSteps::nextStep(const QJsonObject &desired,
                                                      const QJsonObject &observed,
                                                      const QString &tableName)
{
    Step step;
    const bool indexesManaged = desired.contains(s("globalSecondaryIndexes"));
    const QJsonArray wantedIndexes = desired.value(s("globalSecondaryIndexes")).toArray();
    const QJsonArray seenIndexes = observed.value(s("globalSecondaryIndexes")).toArray();
    const QString wantedMode = billingModeOf(desired);
    const QString seenMode = observed.value(s("billingMode")).toString(provisioned);
    const QJsonObject base{{s("TableName"), tableName}};

    // 1. Index deletions.
    if (indexesManaged) {
        for (const QJsonValue &v : seenIndexes) {
            const QString name = v[s("indexName")].toString();
            const QJsonObject wanted = findByName(wantedIndexes, s("indexName"), name);
            if (wanted.isEmpty() || indexNeedsRecreate(wanted, v.toObject())) {
                step.kind = Step::Kind::DeleteIndex;
                step.index = name;
                step.request = base;
                step.request.insert(
                    s("GlobalSecondaryIndexUpdates"),
                    QJsonArray{QJsonObject{{s("Delete"), QJsonObject{{s("IndexName"), name}}}}});
                step.description = wanted.isEmpty()
                                       ? QStringLiteral("delete index %1").arg(name)
                                       : QStringLiteral("delete index %1 to re-create it with "
                                                        "new keys or projection")
                                             .arg(name);
                return step;
            }
        }
    }

    // 2. Billing mode and capacity, with the capacity of every index when switching to
    // PROVISIONED (DynamoDB requires it then).
    QJsonObject capacity = base;
    QJsonArray indexUpdates;
    QStringList what;
    const QJsonObject wantedThroughput = desired.value(s("provisionedThroughput")).toObject();
    if (wantedMode == provisioned) {
        const bool switching = seenMode != provisioned;
        if (switching) {
            capacity.insert(s("BillingMode"), provisioned);
            what << QStringLiteral("billing mode PROVISIONED");
        }
        if (switching || !sameThroughput(wantedThroughput,
                                         observed.value(s("provisionedThroughput")).toObject())) {
            capacity.insert(s("ProvisionedThroughput"), throughputToAws(wantedThroughput));
            what << QStringLiteral("table capacity");
        }
        for (const QJsonValue &v : seenIndexes) {
            const QString name = v[s("indexName")].toString();
            QJsonObject wanted = findByName(wantedIndexes, s("indexName"), name)
                                     .value(s("provisionedThroughput"))
                                     .toObject();
            if (wanted.isEmpty()) {
                if (!switching)
                    continue; // capacity of an index the spec does not manage
                wanted = wantedThroughput;
            }
            if (switching || !sameThroughput(wanted, v[s("provisionedThroughput")].toObject())) {
                indexUpdates.append(QJsonObject{
                    {s("Update"),
                     QJsonObject{{s("IndexName"), name},
                                 {s("ProvisionedThroughput"), throughputToAws(wanted)}}}});
                what << QStringLiteral("capacity of index %1").arg(name);
            }
        }
    } else if (seenMode != payPerRequest) {
        capacity.insert(s("BillingMode"), payPerRequest);
        what << QStringLiteral("billing mode PAY_PER_REQUEST");
    }
    if (!indexUpdates.isEmpty())
        capacity.insert(s("GlobalSecondaryIndexUpdates"), indexUpdates);
    if (capacity.size() > 1) {
        step.kind = Step::Kind::Capacity;
        step.request = capacity;
        step.description = QStringLiteral("set ") + what.join(QStringLiteral(", "));
        return step;
    }

    // 3. The stream. Its view type cannot change while it is enabled: disable it first.
    if (desired.contains(s("streamSpecification"))) {
        const QJsonObject wanted = desired.value(s("streamSpecification")).toObject();
        const QJsonObject seen = observed.value(s("streamSpecification")).toObject();
        const bool wantedOn = wanted.value(s("streamEnabled")).toBool();
        const bool seenOn = seen.value(s("streamEnabled")).toBool();
        const bool sameType = wanted.value(s("streamViewType")) == seen.value(s("streamViewType"));
        if (wantedOn != seenOn || (wantedOn && !sameType)) {
            step.kind = Step::Kind::Stream;
            step.request = base;
            if (wantedOn && seenOn) {
                step.request.insert(s("StreamSpecification"),
                                    QJsonObject{{s("StreamEnabled"), false}});
                step.description = QStringLiteral("disable the stream to change its view type");
            } else {
                step.request.insert(s("StreamSpecification"), streamToAws(wanted));
                step.description = wantedOn ? QStringLiteral("enable the stream")
                                            : QStringLiteral("disable the stream");
            }
            return step;
        }
    }

    // 4. The table's settings, one a call: UpdateTable takes them together with little else.
    if (std::optional<Step> setting = settingStep(desired, observed, base))
        return *setting;

    // 5. Index creations, with the attribute definitions of their keys.
    if (indexesManaged) {
        for (const QJsonValue &v : wantedIndexes) {
            const QString name = v[s("indexName")].toString();
            if (!findByName(seenIndexes, s("indexName"), name).isEmpty())
                continue;
            step.kind = Step::Kind::CreateIndex;
            step.index = name;
            step.request = base;
            step.request.insert(
                s("AttributeDefinitions"),
                attributesToAws(desired.value(s("attributeDefinitions")).toArray()));
            step.request.insert(
                s("GlobalSecondaryIndexUpdates"),
                QJsonArray{QJsonObject{
                    {s("Create"), indexToAws(v.toObject(), wantedMode == provisioned)}}});
            step.description = QStringLiteral("create index %1").arg(name);
            return step;
        }
    }
    return step;
}

} // namespace converge

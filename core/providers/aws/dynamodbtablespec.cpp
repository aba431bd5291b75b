// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "dynamodbtablespec.h"

#include "annotations.h"
#include "dynamodbjson.h"
#include "resource.h"

#include <QDateTime>
#include <QSet>

#include <functional>

namespace converge {

namespace {

using DynamoDbJson::payPerRequest;
using DynamoDbJson::provisioned;
using DynamoDbJson::s;

bool isTransitional(const QString &status, bool table)
{
    return status == QLatin1String("CREATING") || status == QLatin1String("UPDATING") ||
           status == QLatin1String("DELETING") || (table && status == QLatin1String("ARCHIVING"));
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

QJsonArray tagsToAws(const QJsonArray &tags)
{
    QJsonArray out;
    for (const QJsonValue &t : tags)
        out.append(QJsonObject{{s("Key"), t[s("key")]}, {s("Value"), t[s("value")].toString()}});
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

} // namespace

QString DynamoDbTableSpec::desiredTableName(const Resource &resource)
{
    const QString name = resource.spec.value(s("tableName")).toString();
    return name.isEmpty() ? resource.metadata.name : name;
}

QString DynamoDbTableSpec::tableName(const Resource &resource)
{
    const QString recorded =
        tableNameFromArn(resource.metadata.annotations.value(Annotations::resourceId()));
    return recorded.isEmpty() ? desiredTableName(resource) : recorded;
}

QString DynamoDbTableSpec::tableNameFromArn(const QString &arn)
{
    // arn:PARTITION:dynamodb:REGION:ACCOUNT:table/NAME
    const QStringList parts = arn.split(QLatin1Char(':'));
    if (parts.size() != 6 || parts.at(0) != QLatin1String("arn") ||
        parts.at(2) != QLatin1String("dynamodb") || !parts.at(5).startsWith(s("table/")))
        return {};
    const QString name = parts.at(5).mid(6);
    return name.contains(QLatin1Char('/')) ? QString() : name;
}

QJsonObject DynamoDbTableSpec::createRequest(const QJsonObject &spec, const QString &tableName)
{
    const bool isProvisioned = billingModeOf(spec) == provisioned;
    QJsonObject request{
        {s("TableName"), tableName},
        {s("AttributeDefinitions"),
         attributesToAws(spec.value(s("attributeDefinitions")).toArray())},
        {s("KeySchema"), keysToAws(spec.value(s("keySchema")).toArray())},
        {s("BillingMode"), billingModeOf(spec)},
    };
    if (isProvisioned && spec.contains(s("provisionedThroughput")))
        request.insert(s("ProvisionedThroughput"),
                       throughputToAws(spec.value(s("provisionedThroughput")).toObject()));
    const QJsonArray indexes = spec.value(s("globalSecondaryIndexes")).toArray();
    if (!indexes.isEmpty()) {
        QJsonArray out;
        for (const QJsonValue &index : indexes)
            out.append(indexToAws(index.toObject(), isProvisioned));
        request.insert(s("GlobalSecondaryIndexes"), out);
    }
    if (spec.contains(s("streamSpecification"))) {
        const QJsonObject stream = spec.value(s("streamSpecification")).toObject();
        // A disabled stream is what a new table has anyway: only an enabled one is sent.
        if (stream.value(s("streamEnabled")).toBool())
            request.insert(s("StreamSpecification"), streamToAws(stream));
    }
    const QJsonArray tags = spec.value(s("tags")).toArray();
    if (!tags.isEmpty())
        request.insert(s("Tags"), tagsToAws(tags));
    return request;
}

QJsonObject DynamoDbTableSpec::observedSpec(const QJsonObject &table, const QJsonArray &tags,
                                            bool hasTags, const QJsonObject &desired)
{
    QJsonObject spec;
    if (desired.contains(s("owner")))
        spec.insert(s("owner"), desired.value(s("owner")));
    spec.insert(s("tableName"), table.value(s("TableName")));

    const QString mode =
        table.value(s("BillingModeSummary"))[s("BillingMode")].toString(provisioned);
    const bool isProvisioned = mode == provisioned;

    // Global indexes, and the key attributes they and the table use.
    QSet<QString> keyAttributes;
    const auto addKeys = [&keyAttributes](const QJsonArray &keys) {
        for (const QJsonValue &k : keys)
            keyAttributes.insert(k[s("AttributeName")].toString());
    };
    addKeys(table.value(s("KeySchema")).toArray());
    const QJsonArray desiredIndexList = desired.value(s("globalSecondaryIndexes")).toArray();
    QJsonArray indexes;
    for (const QJsonValue &v : table.value(s("GlobalSecondaryIndexes")).toArray()) {
        const QJsonObject index = v.toObject();
        const QString name = index.value(s("IndexName")).toString();
        const QJsonObject wanted = findByName(desiredIndexList, s("indexName"), name);
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
    if (!indexes.isEmpty()) {
        const auto byIndex = [](const QJsonValue &v) { return fieldOf(v, s("indexName")); };
        spec.insert(s("globalSecondaryIndexes"), orderLike(indexes, desiredIndexList, byIndex));
    }

    const QJsonObject stream = table.value(s("StreamSpecification")).toObject();
    QJsonObject streamSpec{{s("streamEnabled"), stream.value(s("StreamEnabled")).toBool()}};
    if (stream.value(s("StreamEnabled")).toBool())
        streamSpec.insert(s("streamViewType"), stream.value(s("StreamViewType")));
    spec.insert(s("streamSpecification"), streamSpec);

    if (hasTags) {
        QJsonArray observedTags;
        for (const QJsonValue &t : tags)
            observedTags.append(
                QJsonObject{{s("key"), t[s("Key")]}, {s("value"), t[s("Value")].toString()}});
        const auto byKey = [](const QJsonValue &v) { return fieldOf(v, s("key")); };
        spec.insert(s("tags"), orderLike(observedTags, desired.value(s("tags")).toArray(), byKey));
    }
    return spec;
}

QJsonObject DynamoDbTableSpec::details(const QJsonObject &table)
{
    QJsonObject out{{s("tableStatus"), table.value(s("TableStatus"))},
                    {s("tableArn"), table.value(s("TableArn"))},
                    {s("itemCount"), table.value(s("ItemCount"))},
                    {s("tableSizeBytes"), table.value(s("TableSizeBytes"))}};
    if (table.contains(s("TableId")))
        out.insert(s("tableId"), table.value(s("TableId")));
    if (table.contains(s("CreationDateTime"))) {
        const auto ms = qint64(table.value(s("CreationDateTime")).toDouble() * 1000.0);
        out.insert(s("creationDateTime"),
                   QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs));
    }
    QJsonArray indexes;
    for (const QJsonValue &index : table.value(s("GlobalSecondaryIndexes")).toArray())
        indexes.append(QJsonObject{{s("indexName"), index[s("IndexName")]},
                                   {s("indexStatus"), index[s("IndexStatus")]},
                                   {s("itemCount"), index[s("ItemCount")]}});
    if (!indexes.isEmpty())
        out.insert(s("globalSecondaryIndexes"), indexes);
    QJsonArray local;
    for (const QJsonValue &index : table.value(s("LocalSecondaryIndexes")).toArray())
        local.append(index[s("IndexName")]);
    if (!local.isEmpty())
        out.insert(s("localSecondaryIndexes"), local);
    if (table.contains(s("LatestStreamArn")))
        out.insert(s("latestStreamArn"), table.value(s("LatestStreamArn")));
    return out;
}

QString DynamoDbTableSpec::progress(const QJsonObject &table)
{
    const QString status = table.value(s("TableStatus")).toString();
    if (isTransitional(status, true))
        return QStringLiteral("table is %1").arg(status);
    for (const QJsonValue &index : table.value(s("GlobalSecondaryIndexes")).toArray()) {
        const QString indexStatus = index[s("IndexStatus")].toString();
        if (isTransitional(indexStatus, false))
            return QStringLiteral("index %1 is %2")
                .arg(index[s("IndexName")].toString(), indexStatus);
    }
    return {};
}

DynamoDbTableSpec::Step DynamoDbTableSpec::nextStep(const QJsonObject &desired,
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

    // 4. Index creations, with the attribute definitions of their keys.
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

DynamoDbTableSpec::TagChanges DynamoDbTableSpec::tagChanges(const QJsonObject &desired,
                                                            const QJsonObject &observed)
{
    TagChanges changes;
    if (!desired.contains(s("tags")))
        return changes;
    const QJsonArray wanted = desired.value(s("tags")).toArray();
    const QJsonArray seen = observed.value(s("tags")).toArray();
    for (const QJsonValue &t : wanted) {
        const QJsonObject current = findByName(seen, s("key"), t[s("key")].toString());
        if (current.isEmpty() || current.value(s("value")).toString() != t[s("value")].toString())
            changes.set.append(
                QJsonObject{{s("Key"), t[s("key")]}, {s("Value"), t[s("value")].toString()}});
    }
    for (const QJsonValue &t : seen) {
        const QString key = t[s("key")].toString();
        if (findByName(wanted, s("key"), key).isEmpty())
            changes.remove.append(key);
    }
    return changes;
}

} // namespace converge

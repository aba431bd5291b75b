// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "dynamodbtablerules.h"

#include "dynamodbjson.h"
#include "kind.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSet>

#include <functional>

namespace converge {

namespace {

using DynamoDbJson::payPerRequest;
using DynamoDbJson::provisioned;
using DynamoDbJson::s;
using Check = std::function<QString(const QJsonValue &)>;

FieldSchema *childOf(FieldSchema *parent, const QString &name)
{
    if (!parent)
        return nullptr;
    for (FieldSchema &f : parent->fields) {
        if (f.name == name)
            return &f;
    }
    return nullptr;
}

// The schema of a list's items.
FieldSchema *itemOf(FieldSchema *list)
{
    return list && !list->items.isEmpty() ? &list->items.first() : nullptr;
}

// `check` after the one `field` has (the declaration's own come first).
void addCheck(FieldSchema *field, Check check)
{
    if (!field)
        return;
    Check before = field->check;
    field->check = [before, check](const QJsonValue &value) {
        if (before) {
            if (QString problem = before(value); !problem.isEmpty())
                return problem;
        }
        return check(value);
    };
}

Check unique(const QString &key, const QString &what)
{
    return [key, what](const QJsonValue &value) {
        QSet<QString> seen;
        for (const QJsonValue &item : value.toArray()) {
            const QString name = item[key].toString();
            if (seen.contains(name))
                return QStringLiteral("%1 \"%2\" appears twice").arg(what, name);
            seen.insert(name);
        }
        return QString();
    };
}

QString checkKeySchema(const QJsonValue &value)
{
    const QJsonArray keys = value.toArray();
    if (keys.isEmpty())
        return QStringLiteral("needs a HASH key");
    if (keys.at(0)[s("keyType")].toString() != QLatin1String("HASH"))
        return QStringLiteral("the first key must be the HASH key");
    if (keys.size() == 2) {
        if (keys.at(1)[s("keyType")].toString() != QLatin1String("RANGE"))
            return QStringLiteral("the second key must be the RANGE key");
        if (keys.at(0)[s("attributeName")] == keys.at(1)[s("attributeName")])
            return QStringLiteral("the HASH and RANGE keys must be different attributes");
    }
    return QString();
}

// A HASH key and at most one RANGE key, in that order.
void keySchema(FieldSchema *keys)
{
    if (!keys)
        return;
    keys->maxItems = 2;
    addCheck(keys, checkKeySchema);
}

QString checkProjection(const QJsonValue &value)
{
    const QJsonObject o = value.toObject();
    const bool include = o.value(s("projectionType")).toString() == QLatin1String("INCLUDE");
    const bool hasAttributes = !o.value(s("nonKeyAttributes")).toArray().isEmpty();
    if (include && !hasAttributes)
        return QStringLiteral("projectionType INCLUDE needs nonKeyAttributes");
    if (!include && o.contains(s("nonKeyAttributes")))
        return QStringLiteral("nonKeyAttributes are only for projectionType INCLUDE");
    return QString();
}

QString checkStream(const QJsonValue &value)
{
    const QJsonObject o = value.toObject();
    const bool enabled = o.value(s("streamEnabled")).toBool();
    const bool hasType = o.contains(s("streamViewType"));
    if (enabled && !hasType)
        return QStringLiteral("an enabled stream needs a streamViewType");
    if (!enabled && hasType)
        return QStringLiteral("streamViewType is only for an enabled stream");
    return QString();
}

QString checkCapacity(const QJsonObject &spec, bool isProvisioned)
{
    if (isProvisioned && !spec.contains(s("provisionedThroughput")))
        return QStringLiteral("billingMode PROVISIONED needs provisionedThroughput");
    if (!isProvisioned && spec.contains(s("provisionedThroughput")))
        return QStringLiteral("provisionedThroughput is only for billingMode PROVISIONED");
    if (isProvisioned && spec.contains(s("onDemandThroughput")))
        return QStringLiteral("onDemandThroughput is only for billingMode PAY_PER_REQUEST");
    for (const QJsonValue &index : spec.value(s("globalSecondaryIndexes")).toArray()) {
        const QString name = index[s("indexName")].toString();
        const bool has = index.toObject().contains(s("provisionedThroughput"));
        if (isProvisioned && !has)
            return QStringLiteral("index %1 needs provisionedThroughput (billingMode "
                                  "PROVISIONED)")
                .arg(name);
        if (!isProvisioned && has)
            return QStringLiteral("index %1: provisionedThroughput is only for billingMode "
                                  "PROVISIONED")
                .arg(name);
    }
    return QString();
}

// A local index shares the table's partition key and sorts by another attribute.
QString checkLocalIndexes(const QJsonObject &spec)
{
    const QJsonValue tableHash = spec.value(s("keySchema"))[0][s("attributeName")];
    for (const QJsonValue &index : spec.value(s("localSecondaryIndexes")).toArray()) {
        const QJsonArray keys = index[s("keySchema")].toArray();
        if (keys.size() != 2 || keys.at(0)[s("attributeName")] != tableHash)
            return QStringLiteral("local index %1 needs the table's HASH key (%2) and a RANGE "
                                  "key")
                .arg(index[s("indexName")].toString(), tableHash.toString());
    }
    return QString();
}

// The rules that tie fields together, as DynamoDB checks them on CreateTable.
QString checkTable(const QJsonValue &value)
{
    const QJsonObject spec = value.toObject();
    const bool isProvisioned = spec.value(s("billingMode")).toString(payPerRequest) == provisioned;
    if (QString problem = checkCapacity(spec, isProvisioned); !problem.isEmpty())
        return problem;
    if (QString problem = checkLocalIndexes(spec); !problem.isEmpty())
        return problem;

    // Every key attribute is defined, and every definition is a key of the table or an index.
    QSet<QString> keyAttributes;
    const auto addKeys = [&keyAttributes](const QJsonValue &keys) {
        for (const QJsonValue &k : keys.toArray())
            keyAttributes.insert(k[s("attributeName")].toString());
    };
    addKeys(spec.value(s("keySchema")));
    for (const char *indexes : {"globalSecondaryIndexes", "localSecondaryIndexes"}) {
        for (const QJsonValue &index : spec.value(QLatin1String(indexes)).toArray())
            addKeys(index[s("keySchema")]);
    }
    QSet<QString> defined;
    for (const QJsonValue &d : spec.value(s("attributeDefinitions")).toArray())
        defined.insert(d[s("attributeName")].toString());
    QStringList undefined = QStringList(keyAttributes.cbegin(), keyAttributes.cend());
    undefined.removeIf([&defined](const QString &a) { return defined.contains(a); });
    undefined.sort();
    if (!undefined.isEmpty())
        return QStringLiteral("attributeDefinitions must define the key attribute(s) %1")
            .arg(undefined.join(QStringLiteral(", ")));
    QStringList unused = QStringList(defined.cbegin(), defined.cend());
    unused.removeIf([&keyAttributes](const QString &a) { return keyAttributes.contains(a); });
    unused.sort();
    if (!unused.isEmpty())
        return QStringLiteral("attributeDefinitions may only define key attributes of the table "
                              "or its indexes; not used: %1")
            .arg(unused.join(QStringLiteral(", ")));
    return QString();
}

} // namespace

void DynamoDbTableRules::apply(Kind &table)
{
    // metadata.name is the default table name, so it must be a valid one as well.
    table.namePattern = QStringLiteral("^[a-z0-9][-a-z0-9.]+[a-z0-9]$");
    table.namePatternHint =
        QStringLiteral("lower-case letters, digits, '-' and '.', at least 3 characters, starting "
                       "and ending with a letter or digit");
    FieldSchema *spec = &table.spec;
    // The model's TableName takes an ARN as well, which names a table that exists already.
    if (FieldSchema *name = childOf(spec, s("tableName")))
        name->setLength(3, 255).setPattern(QStringLiteral("[A-Za-z0-9_.-]+"),
                                           QStringLiteral("letters, digits, '_', '-' and '.'"));
    // The model requires neither since CreateTable may restore a table from elsewhere; Converge
    // creates tables from their spec alone.
    for (const char *field : {"attributeDefinitions", "keySchema"}) {
        if (FieldSchema *required = childOf(spec, QLatin1String(field)))
            required->setRequired();
    }
    keySchema(childOf(spec, s("keySchema")));
    FieldSchema *attributes = childOf(spec, s("attributeDefinitions"));
    addCheck(attributes, unique(s("attributeName"), QStringLiteral("attribute")));
    for (const char *list : {"globalSecondaryIndexes", "localSecondaryIndexes"}) {
        FieldSchema *indexes = childOf(spec, QLatin1String(list));
        addCheck(indexes, unique(s("indexName"), QStringLiteral("index")));
        FieldSchema *index = itemOf(indexes);
        keySchema(childOf(index, s("keySchema")));
        addCheck(childOf(index, s("projection")), checkProjection);
    }
    addCheck(childOf(spec, s("streamSpecification")), checkStream);
    addCheck(childOf(spec, s("tags")), unique(s("key"), QStringLiteral("tag key")));
    addCheck(spec, checkTable);
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "resource.h"

#include <QJsonArray>

namespace converge {

namespace {

QString timeText(const QDateTime &time)
{
    return time.toUTC().toString(Qt::ISODateWithMs);
}

QDateTime timeFrom(const QJsonValue &value)
{
    const QString text = value.toString();
    return text.isEmpty() ? QDateTime() : QDateTime::fromString(text, Qt::ISODateWithMs).toUTC();
}

QJsonObject mapToJson(const QMap<QString, QString> &map)
{
    QJsonObject json;
    for (auto it = map.cbegin(); it != map.cend(); ++it)
        json.insert(it.key(), it.value());
    return json;
}

QMap<QString, QString> mapFromJson(const QJsonValue &value)
{
    QMap<QString, QString> map;
    const QJsonObject json = value.toObject();
    for (auto it = json.constBegin(); it != json.constEnd(); ++it)
        map.insert(it.key(), it.value().toString());
    return map;
}

} // namespace

Condition ResourceStatus::ready() const
{
    for (const Condition &c : conditions) {
        if (c.type == Condition::readyType())
            return c;
    }
    return Condition::unknown(QStringLiteral("NotReconciled"), QStringLiteral("Not reconciled yet"),
                              0, {});
}

bool ResourceStatus::setCondition(const Condition &incoming)
{
    for (Condition &c : conditions) {
        if (c.type != incoming.type)
            continue;
        if (!Condition::shouldOverwrite(c, incoming))
            return false;
        c = incoming;
        return true;
    }
    conditions.append(incoming);
    return true;
}

Annotations::ReconcilePolicy Resource::policy() const
{
    const QString value = metadata.annotations.value(Annotations::reconcilePolicy());
    return Annotations::policyFromName(value).value_or(Annotations::ReconcilePolicy::Manage);
}

QString Resource::ownerName() const
{
    return spec.value(QStringLiteral("owner")).toObject().value(QStringLiteral("name")).toString();
}

QJsonObject Resource::toJson(bool withStatus) const
{
    QJsonObject meta{{QStringLiteral("name"), metadata.name}};
    if (!metadata.uid.isEmpty())
        meta.insert(QStringLiteral("uid"), metadata.uid);
    if (metadata.generation)
        meta.insert(QStringLiteral("generation"), metadata.generation);
    if (metadata.resourceVersion)
        meta.insert(QStringLiteral("resourceVersion"), QString::number(metadata.resourceVersion));
    if (!metadata.labels.isEmpty())
        meta.insert(QStringLiteral("labels"), mapToJson(metadata.labels));
    if (!metadata.annotations.isEmpty())
        meta.insert(QStringLiteral("annotations"), mapToJson(metadata.annotations));
    if (!metadata.finalizers.isEmpty())
        meta.insert(QStringLiteral("finalizers"), QJsonArray::fromStringList(metadata.finalizers));
    if (metadata.creationTimestamp.isValid())
        meta.insert(QStringLiteral("creationTimestamp"), timeText(metadata.creationTimestamp));
    if (metadata.deletionTimestamp.isValid())
        meta.insert(QStringLiteral("deletionTimestamp"), timeText(metadata.deletionTimestamp));

    QJsonObject json{{QStringLiteral("apiVersion"), apiVersion},
                     {QStringLiteral("kind"), kind},
                     {QStringLiteral("metadata"), meta},
                     {QStringLiteral("spec"), spec}};
    if (withStatus) {
        QJsonArray conditions;
        for (const Condition &c : status.conditions)
            conditions.append(c.toJson());
        QJsonObject st;
        if (!conditions.isEmpty())
            st.insert(QStringLiteral("conditions"), conditions);
        if (!status.observed.isEmpty())
            st.insert(QStringLiteral("observed"), status.observed);
        if (!st.isEmpty())
            json.insert(QStringLiteral("status"), st);
    }
    return json;
}

Resource Resource::fromJson(const QJsonObject &json, QString *error)
{
    Resource r;
    r.apiVersion = json.value(QStringLiteral("apiVersion")).toString();
    r.kind = json.value(QStringLiteral("kind")).toString();
    const QJsonObject meta = json.value(QStringLiteral("metadata")).toObject();
    r.metadata.name = meta.value(QStringLiteral("name")).toString();
    r.metadata.uid = meta.value(QStringLiteral("uid")).toString();
    r.metadata.generation = meta.value(QStringLiteral("generation")).toInteger();
    const QJsonValue rv = meta.value(QStringLiteral("resourceVersion"));
    r.metadata.resourceVersion = rv.isString() ? rv.toString().toLongLong() : rv.toInteger();
    r.metadata.labels = mapFromJson(meta.value(QStringLiteral("labels")));
    r.metadata.annotations = mapFromJson(meta.value(QStringLiteral("annotations")));
    for (const QJsonValue &f : meta.value(QStringLiteral("finalizers")).toArray())
        r.metadata.finalizers.append(f.toString());
    r.metadata.creationTimestamp = timeFrom(meta.value(QStringLiteral("creationTimestamp")));
    r.metadata.deletionTimestamp = timeFrom(meta.value(QStringLiteral("deletionTimestamp")));
    r.spec = json.value(QStringLiteral("spec")).toObject();

    const QJsonObject st = json.value(QStringLiteral("status")).toObject();
    for (const QJsonValue &c : st.value(QStringLiteral("conditions")).toArray())
        r.status.conditions.append(Condition::fromJson(c.toObject(), error));
    r.status.observed = st.value(QStringLiteral("observed")).toObject();
    if (error && r.kind.isEmpty())
        *error = QStringLiteral("kind is missing");
    return r;
}

} // namespace converge

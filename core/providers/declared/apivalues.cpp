// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "apivalues.h"
#include "instants.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>

#include <algorithm>

namespace converge {

// The value at a dotted member path ("StreamDescriptionSummary.StreamStatus").
QJsonValue ApiValues::at(const QJsonObject &object, const QString &path)
{
    if (path.isEmpty())
        return object;
    QJsonValue v = object;
    for (const QString &part : path.split(QLatin1Char('.')))
        v = v.toObject().value(part);
    return v;
}

// An API's attribute map wants strings: 30, true and "30" all travel as "30".
QString ApiValues::text(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isDouble())
        return QString::number(value.toDouble(), 'g', 17);
    return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
}

// A JSON document in a string, as given or as IAM answers it (percent-encoded); undefined when
// it is neither.
QJsonValue ApiValues::document(const QString &text)
{
    for (const QString &candidate : {text, QUrl::fromPercentEncoding(text.toUtf8())}) {
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(candidate.toUtf8(), &error);
        if (error.error == QJsonParseError::NoError)
            return document.isArray() ? QJsonValue(document.array())
                                      : QJsonValue(document.object());
    }
    return QJsonValue(QJsonValue::Undefined);
}

// `observed`, a document, as `desired` spells it when both mean the same; else decoded and
// compact.
QString ApiValues::documentAsDesired(const QString &observed, const QString &desired)
{
    const QJsonValue seen = document(observed);
    if (seen.isUndefined())
        return observed;
    if (!desired.isEmpty() && document(desired) == seen)
        return desired;
    return QString::fromUtf8(seen.isArray()
                                 ? QJsonDocument(seen.toArray()).toJson(QJsonDocument::Compact)
                                 : QJsonDocument(seen.toObject()).toJson(QJsonDocument::Compact));
}

// `value` as `schema`'s type says: the query protocol's XML answers every number and truth as
// text (IAM's MaxSessionDuration="3600").
QJsonValue ApiValues::typed(const FieldSchema &schema, const QJsonValue &value)
{
    switch (schema.type) {
    case FieldSchema::Type::Int:
        if (value.isString()) {
            bool ok = false;
            const qint64 number = value.toString().toLongLong(&ok);
            return ok ? QJsonValue(number) : value;
        }
        return value;
    case FieldSchema::Type::Bool:
        if (value.isString() && (value.toString() == QLatin1String("true") ||
                                 value.toString() == QLatin1String("false")))
            return value.toString() == QLatin1String("true");
        return value;
    case FieldSchema::Type::String:
        // An instant as the spec spells it (S3 answers a lifecycle date with milliseconds).
        if (schema.timestamp) {
            if (const std::optional<QString> instant = Instants::canonical(value))
                return *instant;
        }
        return value;
    case FieldSchema::Type::Object: {
        QJsonObject o = value.toObject();
        for (const FieldSchema &field : schema.fields) {
            if (o.contains(field.name))
                o.insert(field.name, typed(field, o.value(field.name)));
        }
        return value.isObject() ? QJsonValue(o) : value;
    }
    case FieldSchema::Type::List: {
        if (!value.isArray() || schema.items.isEmpty())
            return value;
        QJsonArray items;
        for (const QJsonValue &item : value.toArray())
            items.append(typed(schema.items.first(), item));
        return items;
    }
    default:
        return value;
    }
}

QString ApiValues::lastSegment(const QString &id)
{
    const qsizetype slash = id.lastIndexOf(QLatin1Char('/'));
    const qsizetype colon = id.lastIndexOf(QLatin1Char(':'));
    return id.mid(std::max(slash, colon) + 1);
}

QString ApiValues::nextPageToken(const DeclaredCall &call, const QJsonObject &answer)
{
    return call.outputToken.isEmpty() ? QString() : at(answer, call.outputToken).toString();
}

QMap<QString, QString> ApiValues::tagMap(const QJsonValue &tags, const DeclaredTags::Shape &shape)
{
    QMap<QString, QString> out;
    if (!shape.isList) {
        const QJsonObject o = tags.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            out.insert(it.key(), it.value().toString());
        return out;
    }
    for (const QJsonValue &tag : tags.toArray())
        out.insert(tag[shape.key].toString(), tag[shape.value].toString());
    return out;
}

QJsonValue ApiValues::tagValue(const QMap<QString, QString> &tags, const DeclaredTags::Shape &shape)
{
    if (!shape.isList) {
        QJsonObject o;
        for (auto it = tags.begin(); it != tags.end(); ++it)
            o.insert(it.key(), it.value());
        return o;
    }
    QJsonArray list;
    for (auto it = tags.begin(); it != tags.end(); ++it)
        list.append(QJsonObject{{shape.key, it.key()}, {shape.value, it.value()}});
    return list;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awsqueryxml.h"

#include <QJsonArray>
#include <QUrl>
#include <QXmlStreamReader>

#include <algorithm>

namespace converge {

namespace {

constexpr int maxDepth = 64; // deeper answers are garbage, not AWS

void flatten(const QString &prefix, const QJsonValue &value, QList<QPair<QString, QString>> &out)
{
    if (value.isArray()) {
        const QJsonArray items = value.toArray();
        for (qsizetype i = 0; i < items.size(); ++i)
            flatten(QStringLiteral("%1.member.%2").arg(prefix).arg(i + 1), items.at(i), out);
    } else if (value.isObject()) {
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            flatten(prefix + QLatin1Char('.') + it.key(), it.value(), out);
    } else if (value.isBool()) {
        out.append({prefix, value.toBool() ? QStringLiteral("true") : QStringLiteral("false")});
    } else if (value.isDouble()) {
        out.append({prefix, QString::number(value.toDouble(), 'g', 17)});
    } else if (value.isString()) {
        out.append({prefix, value.toString()});
    }
}

// A map, as the query protocol spells it: Name.entry.N.key and Name.entry.N.value.
void flattenAttributes(const QString &prefix, const QJsonObject &map,
                       QList<QPair<QString, QString>> &out)
{
    int n = 0;
    for (auto it = map.begin(); it != map.end(); ++it) {
        ++n;
        out.append({QStringLiteral("%1.entry.%2.key").arg(prefix).arg(n), it.key()});
        flatten(QStringLiteral("%1.entry.%2.value").arg(prefix).arg(n), it.value(), out);
    }
}

QByteArray encode(const QString &text)
{
    return QUrl::toPercentEncoding(text);
}

// The element the reader is on, as JSON; the reader ends on its end element.
QJsonValue element(QXmlStreamReader &xml, int depth)
{
    if (depth > maxDepth) {
        xml.raiseError(QStringLiteral("nested too deep"));
        return {};
    }
    QString text;
    QList<QPair<QString, QJsonValue>> children;
    while (xml.readNext() != QXmlStreamReader::Invalid) {
        if (xml.isEndElement())
            break;
        if (xml.isCharacters()) {
            text += xml.text();
        } else if (xml.isStartElement()) {
            const QString name = xml.name().toString();
            children.append({name, element(xml, depth + 1)});
        }
    }
    // An empty element (an empty list, an unset value) says nothing: it is left out.
    if (children.isEmpty())
        return text.trimmed().isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(text);
    const bool allMembers = std::all_of(children.begin(), children.end(), [](const auto &c) {
        return c.first == QLatin1String("member");
    });
    if (allMembers) {
        QJsonArray list;
        for (const auto &c : children)
            list.append(c.second.isUndefined() ? QJsonValue(QString()) : c.second);
        return list;
    }
    const bool allEntries = std::all_of(children.begin(), children.end(), [](const auto &c) {
        return c.first == QLatin1String("entry") && c.second.isObject();
    });
    if (allEntries) {
        QJsonObject map;
        for (const auto &c : children) {
            const QJsonObject entry = c.second.toObject();
            map.insert(entry.value(QStringLiteral("key")).toString(),
                       entry.value(QStringLiteral("value")).isUndefined()
                           ? QJsonValue(QString())
                           : entry.value(QStringLiteral("value")));
        }
        return map;
    }
    QJsonObject object;
    for (const auto &c : children) {
        if (!c.second.isUndefined())
            object.insert(c.first, c.second);
    }
    return object;
}

} // namespace

QByteArray AwsQueryXml::form(const QString &operation, const QString &version,
                             const QJsonObject &input, const QStringList &mapMembers)
{
    QList<QPair<QString, QString>> fields{{QStringLiteral("Action"), operation},
                                          {QStringLiteral("Version"), version}};
    for (auto it = input.begin(); it != input.end(); ++it) {
        if (it.value().isObject() && mapMembers.contains(it.key()))
            flattenAttributes(it.key(), it.value().toObject(), fields);
        else
            flatten(it.key(), it.value(), fields);
    }
    QByteArray body;
    for (const auto &[name, value] : std::as_const(fields)) {
        if (!body.isEmpty())
            body += '&';
        body += encode(name) + '=' + encode(value);
    }
    return body;
}

AwsQueryXml::Answer AwsQueryXml::read(const QByteArray &xmlText)
{
    Answer answer;
    QXmlStreamReader xml(xmlText);
    while (!xml.atEnd() && !xml.isStartElement())
        xml.readNext();
    if (!xml.isStartElement()) {
        answer.parseError = xml.hasError() ? xml.errorString() : QStringLiteral("no element");
        return answer;
    }
    const QString root = xml.name().toString();
    const QJsonObject document = element(xml, 0).toObject();
    if (xml.hasError()) {
        answer.parseError = xml.errorString();
        return answer;
    }
    // The query protocol's errors, and the bare <Error> that S3 (and moto, for a bad signature
    // on any service) answers.
    if (root == QLatin1String("ErrorResponse") || root == QLatin1String("Error")) {
        const QJsonObject error = root == QLatin1String("Error")
                                      ? document
                                      : document.value(QStringLiteral("Error")).toObject();
        answer.errorCode = error.value(QStringLiteral("Code")).toString();
        answer.errorMessage = error.value(QStringLiteral("Message")).toString();
        answer.requestId = document.value(QStringLiteral("RequestId")).toString();
        return answer;
    }
    answer.requestId = document.value(QStringLiteral("ResponseMetadata"))
                           .toObject()
                           .value(QStringLiteral("RequestId"))
                           .toString();
    for (auto it = document.begin(); it != document.end(); ++it) {
        if (it.key().endsWith(QLatin1String("Result")))
            answer.result = it.value().toObject();
    }
    return answer;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "gcprestclient.h"

#include "apivalues.h"
#include "gcpsession.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QUrl>
#include <QUrlQuery>

namespace converge {

namespace {

QString snakeCase(const QString &name)
{
    QString out;
    for (const QChar c : name) {
        if (c.isUpper()) {
            out += QLatin1Char('_');
            out += c.toLower();
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace

GcpRestClient::GcpRestClient(QJsonObject operations, QString projectId,
                             std::shared_ptr<GcpSession> session)
    : m_operations(std::move(operations))
    , m_projectId(std::move(projectId))
    , m_session(std::move(session))
{}

Outcome<ApiCaller::Reply> GcpRestClient::call(const QString &operation, const QJsonObject &input)
{
    const QJsonObject op = m_operations.value(operation).toObject();
    if (op.isEmpty())
        return BackendError::make(
            BackendError::Category::Terminal, QStringLiteral("UnknownOperation"),
            QStringLiteral("the declaration has no operation %1").arg(operation));
    QJsonObject rest = input;
    QString path = op.value(QStringLiteral("path")).toString();
    static const QRegularExpression parameter(QStringLiteral("\\{(\\w+)\\}"));
    for (QRegularExpressionMatchIterator it = parameter.globalMatch(path); it.hasNext();) {
        const QString name = it.next().captured(1);
        QString value = rest.contains(name) ? ApiValues::text(rest.take(name)) : QString();
        if (value.isEmpty() && name == QLatin1String("projectsId"))
            value = m_projectId;
        if (value.isEmpty())
            return BackendError::make(BackendError::Category::Invalid,
                                      QStringLiteral("MissingPathParameter"),
                                      QStringLiteral("%1 needs %2").arg(operation, name));
        path.replace(QLatin1Char('{') + name + QLatin1Char('}'),
                     QString::fromLatin1(QUrl::toPercentEncoding(value)));
    }
    QUrlQuery query;
    for (const QJsonValue &member : op.value(QStringLiteral("query")).toArray()) {
        const QJsonValue value = rest.take(member.toString());
        if (!value.isUndefined() && !value.isNull())
            query.addQueryItem(member.toString(),
                               QString::fromUtf8(QUrl::toPercentEncoding(ApiValues::text(value))));
    }
    std::optional<QJsonObject> body;
    if (op.value(QStringLiteral("body")).toString() == QLatin1String("*")) {
        const QString wrap = op.value(QStringLiteral("wrap")).toString();
        if (wrap.isEmpty()) {
            body = rest;
        } else {
            QJsonObject wrapped{{wrap, rest}};
            const QString mask = op.value(QStringLiteral("mask")).toString();
            if (!mask.isEmpty()) {
                // Field paths as the protobuf names them (schema_settings): Google's servers
                // take the JSON names too, its emulators only these.
                QStringList paths;
                for (const QString &key : rest.keys())
                    paths << snakeCase(key);
                wrapped.insert(mask, paths.join(QLatin1Char(',')));
            }
            body = wrapped;
        }
    }
    auto answer = m_session->send(op.value(QStringLiteral("method")).toString().toLatin1(), path,
                                  query, body, operation);
    if (!answer)
        return answer.error();
    return Reply{answer.value().body, answer.value().requestId};
}

} // namespace converge

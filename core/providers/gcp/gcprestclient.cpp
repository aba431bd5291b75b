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

// A field mask's paths for what `members` holds, as the protobuf names them (schema_settings):
// Google's servers take the JSON names too, its emulators only these.
QString fieldPaths(const QJsonObject &members)
{
    QStringList paths;
    for (const QString &key : members.keys())
        paths << snakeCase(key);
    return paths.join(QLatin1Char(','));
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
    // A short name where the API wants a full one (a Spanner instance's config): the
    // operation's `fullNames` say the prefix, in which `{projectsId}` is the project's ID.
    const QJsonObject fullNames = op.value(QStringLiteral("fullNames")).toObject();
    for (auto it = fullNames.begin(); it != fullNames.end(); ++it) {
        const QString value = rest.value(it.key()).toString();
        if (!value.isEmpty() && !value.contains(QLatin1Char('/')))
            rest.insert(it.key(), QString(it.value().toString().replace(
                                              QStringLiteral("{projectsId}"), m_projectId) +
                                          value));
    }
    const QString mask = op.value(QStringLiteral("mask")).toString();
    std::optional<QJsonObject> body;
    if (op.value(QStringLiteral("body")).toString() == QLatin1String("*")) {
        const QString wrap = op.value(QStringLiteral("wrap")).toString();
        if (wrap.isEmpty()) {
            body = rest;
            if (!mask.isEmpty() && op.value(QStringLiteral("maskInQuery")).toBool())
                query.addQueryItem(mask, fieldPaths(rest));
        } else {
            // Members beside the resource (a create's instanceId) stay at the top.
            QJsonObject wrapped;
            for (const QJsonValue &member : op.value(QStringLiteral("beside")).toArray()) {
                if (rest.contains(member.toString()))
                    wrapped.insert(member.toString(), rest.take(member.toString()));
            }
            wrapped.insert(wrap, rest);
            if (!mask.isEmpty())
                wrapped.insert(mask, fieldPaths(rest));
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

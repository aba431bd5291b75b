// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "gcpsession.h"

#include "httpclient.h"

#include <QJsonDocument>

namespace converge {

namespace {

// google.rpc.Code's names, as the REST APIs spell `error.status`.
BackendError::Category categoryOfStatus(const QString &status, int http)
{
    using C = BackendError::Category;
    static const QHash<QString, C> byStatus{
        {QStringLiteral("NOT_FOUND"), C::NotFound},
        {QStringLiteral("ALREADY_EXISTS"), C::Conflict},
        {QStringLiteral("ABORTED"), C::Conflict},
        {QStringLiteral("UNAUTHENTICATED"), C::Unauthorized},
        {QStringLiteral("PERMISSION_DENIED"), C::Unauthorized},
        {QStringLiteral("RESOURCE_EXHAUSTED"), C::Throttled},
        {QStringLiteral("INVALID_ARGUMENT"), C::Invalid},
        {QStringLiteral("FAILED_PRECONDITION"), C::Invalid},
        {QStringLiteral("OUT_OF_RANGE"), C::Invalid},
        {QStringLiteral("UNIMPLEMENTED"), C::Terminal},
        {QStringLiteral("UNAVAILABLE"), C::Transient},
        {QStringLiteral("DEADLINE_EXCEEDED"), C::Transient},
        {QStringLiteral("INTERNAL"), C::Transient},
        {QStringLiteral("UNKNOWN"), C::Transient},
        {QStringLiteral("CANCELLED"), C::Transient},
    };
    const auto it = byStatus.constFind(status);
    return it != byStatus.cend() ? *it : BackendError::categoryForStatus(http);
}

// google.rpc.Code's name of the number `code`; empty for none.
QString statusOfCode(int code)
{
    static const char *const names[] = {"OK",
                                        "CANCELLED",
                                        "UNKNOWN",
                                        "INVALID_ARGUMENT",
                                        "DEADLINE_EXCEEDED",
                                        "NOT_FOUND",
                                        "ALREADY_EXISTS",
                                        "PERMISSION_DENIED",
                                        "RESOURCE_EXHAUSTED",
                                        "FAILED_PRECONDITION",
                                        "ABORTED",
                                        "OUT_OF_RANGE",
                                        "UNIMPLEMENTED",
                                        "INTERNAL",
                                        "UNAVAILABLE",
                                        "DATA_LOSS",
                                        "UNAUTHENTICATED"};
    return code > 0 && code < int(std::size(names)) ? QString::fromLatin1(names[code]) : QString();
}

} // namespace

GcpSession::GcpSession(HttpClient *http, QUrl endpoint, TokenSource token,
                       std::function<bool()> isCancelled)
    : m_http(http)
    , m_endpoint(std::move(endpoint))
    , m_token(std::move(token))
    , m_isCancelled(std::move(isCancelled))
{}

Outcome<GcpSession::Answer> GcpSession::send(const QByteArray &method, const QString &path,
                                             const QUrlQuery &query,
                                             const std::optional<QJsonObject> &body,
                                             const QString &operation)
{
    HttpRequest request;
    request.method = method;
    // The Spanner emulator's gateway answers a missing resource (a NOT_FOUND whose details it
    // cannot encode) with this 500: no retry will change it, and the declaration confirms the
    // absence by the list (absentConfirmedByList) at once rather than after seconds of backoff.
    request.isFinalAnswer = [](int status, const QByteArray &body) {
        return status == 500 && body.contains("failed to marshal error message");
    };
    request.url = m_endpoint;
    request.url.setPath(
        m_endpoint.path().chopped(m_endpoint.path().endsWith(QLatin1Char('/')) ? 1 : 0) + path,
        QUrl::TolerantMode);
    if (!query.isEmpty())
        request.url.setQuery(query);
    if (body) {
        request.setHeader(QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json"));
        request.body = QJsonDocument(*body).toJson(QJsonDocument::Compact);
    }
    HttpResponse response;
    for (bool fresh : {false, true}) {
        const Outcome<QString> token = m_token(fresh);
        if (!token)
            return token.error();
        const QString bearer = token.value();
        const auto sign = [this, &bearer](HttpRequest &r) {
            if (!bearer.isEmpty())
                r.setHeader(QByteArrayLiteral("Authorization"),
                            QByteArrayLiteral("Bearer ") + bearer.toLatin1());
            if (m_observer)
                m_observer(r);
        };
        response = m_http->send(request, sign, m_isCancelled);
        // A token refused may have been revoked or have expired early: once more with a new
        // one. An emulator never refuses.
        if (response.status != 401 || bearer.isEmpty())
            break;
    }
    if (!response.isSuccess())
        return errorFor(response, operation);
    Answer answer;
    answer.requestId = response.requestId;
    if (!response.body.trimmed().isEmpty()) {
        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(response.body, &parseError);
        if (!document.isObject()) {
            BackendError error = BackendError::make(
                BackendError::Category::Transient, QStringLiteral("InvalidResponse"),
                QStringLiteral("%1: the answer is not a JSON object (%2)")
                    .arg(operation, parseError.errorString()));
            error.httpStatus = response.status;
            return error;
        }
        answer.body = document.object();
    }
    return answer;
}

BackendError GcpSession::errorFor(const HttpResponse &response, const QString &operation)
{
    BackendError error = response.toError();
    if (response.clientError || response.status == 0)
        return error;
    const QJsonObject e =
        QJsonDocument::fromJson(response.body).object().value(QStringLiteral("error")).toObject();
    QString status = e.value(QStringLiteral("status")).toString();
    QString message = e.value(QStringLiteral("message")).toString();
    if (e.isEmpty()) {
        // A gRPC gateway's google.rpc.Status, its code a number (the Spanner emulator's).
        const QJsonObject s = QJsonDocument::fromJson(response.body).object();
        status = statusOfCode(s.value(QStringLiteral("code")).toInt(-1));
        message = s.value(QStringLiteral("message")).toString();
    }
    if (message.isEmpty())
        message = QString::fromUtf8(response.body.left(300)).trimmed();
    error.code = status.isEmpty() ? QStringLiteral("HTTP%1").arg(response.status) : status;
    error.category = categoryOfStatus(status, response.status);
    if (response.status == 401)
        error.category = BackendError::Category::Unauthorized;
    error.message = QStringLiteral("%1: %2").arg(operation, message);
    return error;
}

} // namespace converge

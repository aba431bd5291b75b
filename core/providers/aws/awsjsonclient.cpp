// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awsjsonclient.h"

#include "httpclient.h"

#include <QJsonDocument>
#include <QJsonParseError>

namespace converge {

AwsJsonClient::AwsJsonClient(AwsJsonService service, HttpClient *http, QUrl endpoint,
                             QString region, const Credentials &credentials,
                             std::function<bool()> isCancelled,
                             std::unique_ptr<HttpClient> ownedHttp)
    : m_service(std::move(service))
    , m_session(http, AwsSession::withRootPath(std::move(endpoint)), std::move(region), credentials,
                m_service.signingName, std::move(isCancelled), std::move(ownedHttp))
{}

AwsJsonClient::~AwsJsonClient() = default;

Outcome<AwsJsonClient::Reply> AwsJsonClient::call(const QString &operation,
                                                  const QJsonObject &request)
{
    HttpRequest http;
    http.method = QByteArrayLiteral("POST");
    http.url = m_session.endpoint();
    http.body = QJsonDocument(request).toJson(QJsonDocument::Compact);
    http.clientRequestId = HttpRequest::ClientRequestId::Aws;
    http.setHeader(QByteArrayLiteral("Content-Type"), m_service.contentType());
    http.setHeader(QByteArrayLiteral("X-Amz-Target"), m_service.target(operation));
    // x-amz-crc32 covers the bytes on the wire: a compressed body would need decompressing
    // after the check, which Qt does before we see it. Ask for the plain body.
    http.setHeader(QByteArrayLiteral("Accept-Encoding"), QByteArrayLiteral("identity"));

    const HttpResponse response = m_session.send(http);
    if (auto error = m_session.errorFor(response, operation))
        return *error;

    Reply reply;
    reply.requestId = response.requestId;
    const QByteArray body = response.body.trimmed();
    // Some operations (TagResource, UntagResource) answer with nothing, or `""` in dynalite.
    if (body.isEmpty() || body == "\"\"" || body == "null" || body == "{}")
        return reply;
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject())
        return AwsSession::invalidResponse(
            response, operation,
            QStringLiteral("not a JSON object (%1 bytes)").arg(response.body.size()));
    reply.body = document.object();
    return reply;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awsqueryclient.h"

#include "awsqueryxml.h"
#include "httpclient.h"

namespace converge {

AwsQueryClient::AwsQueryClient(Service service, HttpClient *http, QUrl endpoint, QString region,
                               const Credentials &credentials, std::function<bool()> isCancelled,
                               std::unique_ptr<HttpClient> ownedHttp)
    : m_service(std::move(service))
    , m_session(http, AwsSession::withRootPath(std::move(endpoint)), std::move(region), credentials,
                m_service.signingName, std::move(isCancelled), std::move(ownedHttp))
{}

AwsQueryClient::~AwsQueryClient() = default;

Outcome<ApiCaller::Reply> AwsQueryClient::call(const QString &operation, const QJsonObject &input)
{
    HttpRequest http;
    http.method = QByteArrayLiteral("POST");
    http.url = m_session.endpoint();
    http.body = AwsQueryXml::form(operation, m_service.apiVersion, input, m_service.mapMembers);
    http.clientRequestId = HttpRequest::ClientRequestId::Aws;
    http.setHeader(QByteArrayLiteral("Content-Type"),
                   QByteArrayLiteral("application/x-www-form-urlencoded; charset=utf-8"));
    const HttpResponse response = m_session.send(http);
    if (auto error = m_session.errorFor(response, operation))
        return *error;

    const AwsQueryXml::Answer answer = AwsQueryXml::read(response.body);
    if (!answer.parseError.isEmpty())
        return AwsSession::invalidResponse(
            response, operation,
            QStringLiteral("not a query protocol answer (%1)").arg(answer.parseError));
    Reply reply;
    reply.body = answer.result;
    reply.requestId = answer.requestId.isEmpty() ? response.requestId : answer.requestId;
    return reply;
}

} // namespace converge

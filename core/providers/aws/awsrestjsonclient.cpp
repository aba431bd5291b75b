// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awsrestjsonclient.h"

#include "httpclient.h"

namespace converge {

AwsRestJsonClient::AwsRestJsonClient(Service service, HttpClient *http, QUrl endpoint,
                                     QString region, const Credentials &credentials,
                                     std::function<bool()> isCancelled,
                                     std::unique_ptr<HttpClient> ownedHttp)
    : m_service(std::move(service))
    , m_session(http, std::move(endpoint), std::move(region), credentials, m_service.signingName,
                std::move(isCancelled), std::move(ownedHttp))
{}

AwsRestJsonClient::~AwsRestJsonClient() = default;

QUrl AwsRestJsonClient::urlFor(const QUrl &endpoint, const AwsRestJson::Request &request)
{
    return request.url(endpoint, request.path);
}

Outcome<ApiCaller::Reply> AwsRestJsonClient::call(const QString &operation,
                                                  const QJsonObject &input)
{
    const AwsRestJson::Request built = AwsRestJson::request(m_service.model, operation, input);
    if (!built.error.isEmpty())
        return BackendError::make(BackendError::Category::Invalid, QStringLiteral("InvalidRequest"),
                                  built.error);
    const HttpResponse response = m_session.send(built.http(urlFor(m_session.endpoint(), built)));
    if (auto error = m_session.errorFor(response, operation))
        return *error;

    const AwsRestJson::Answer answer = AwsRestJson::read(
        m_service.model, operation, response.status, response.headers, response.body);
    if (!answer.parseError.isEmpty())
        return AwsSession::invalidResponse(
            response, operation,
            QStringLiteral("not the JSON its model says (%1)").arg(answer.parseError));
    Reply reply;
    reply.body = answer.result;
    reply.requestId = response.requestId;
    return reply;
}

} // namespace converge

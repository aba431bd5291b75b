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
    QUrl url = endpoint;
    QString base = endpoint.path(QUrl::FullyDecoded);
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    url.setPath(base + request.path, QUrl::DecodedMode);
    if (request.query.isEmpty())
        url.setQuery(QString()); // no '?' at all
    else
        url.setQuery(request.query, QUrl::StrictMode);
    return url;
}

Outcome<ApiCaller::Reply> AwsRestJsonClient::call(const QString &operation,
                                                  const QJsonObject &input)
{
    const AwsRestJson::Request built = AwsRestJson::request(m_service.model, operation, input);
    if (!built.error.isEmpty()) {
        BackendError error;
        error.category = BackendError::Category::Invalid;
        error.code = QStringLiteral("InvalidRequest");
        error.message = built.error;
        return error;
    }
    HttpRequest http;
    http.method = built.method;
    http.url = urlFor(m_session.endpoint(), built);
    http.body = built.body;
    http.clientRequestId = HttpRequest::ClientRequestId::Aws;
    for (const auto &[name, value] : built.headers)
        http.setHeader(name, value);
    const HttpResponse response = m_session.send(http);
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

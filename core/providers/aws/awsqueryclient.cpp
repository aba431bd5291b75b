// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awsqueryclient.h"

#include "awserrormapper.h"
#include "awsqueryxml.h"
#include "httpclient.h"

namespace converge {

AwsQueryClient::AwsQueryClient(Service service, HttpClient *http, QUrl endpoint, QString region,
                               const Credentials &credentials, std::function<bool()> isCancelled,
                               std::unique_ptr<HttpClient> ownedHttp)
    : m_service(std::move(service))
    , m_ownedHttp(std::move(ownedHttp))
    , m_http(m_ownedHttp ? m_ownedHttp.get() : http)
    , m_endpoint(std::move(endpoint))
    , m_signer(SigV4Signer::forCredentials(credentials, region, m_service.signingName))
    , m_isCancelled(std::move(isCancelled))
{
    Q_ASSERT(m_http);
    if (m_endpoint.path().isEmpty())
        m_endpoint.setPath(QStringLiteral("/"));
    for (const QString &secret : credentials.secrets())
        m_redactor.addSecret(secret);
}

AwsQueryClient::~AwsQueryClient() = default;

Outcome<ApiCaller::Reply> AwsQueryClient::call(const QString &operation, const QJsonObject &input)
{
    HttpRequest http;
    http.method = QByteArrayLiteral("POST");
    http.url = m_endpoint;
    http.body = AwsQueryXml::form(operation, m_service.apiVersion, input, m_service.mapMembers);
    http.clientRequestId = HttpRequest::ClientRequestId::Aws;
    http.setHeader(QByteArrayLiteral("Content-Type"),
                   QByteArrayLiteral("application/x-www-form-urlencoded; charset=utf-8"));
    Signer sign = m_signer.signer();
    if (m_observer) {
        sign = [base = std::move(sign), this](HttpRequest &r) {
            base(r);
            m_observer(r);
        };
    }
    const HttpResponse response = m_http->send(http, sign, m_isCancelled);
    if (auto error = AwsErrorMapper::errorFor(response, operation, m_redactor))
        return *error;

    const AwsQueryXml::Answer answer = AwsQueryXml::read(response.body);
    if (!answer.parseError.isEmpty()) {
        BackendError error;
        error.category = BackendError::Category::Transient;
        error.code = QStringLiteral("InvalidResponse");
        error.httpStatus = response.status;
        error.requestId = response.requestId;
        error.message = QStringLiteral("the answer to %1 is not a query protocol answer (%2)")
                            .arg(operation, answer.parseError);
        return error;
    }
    Reply reply;
    reply.body = answer.result;
    reply.requestId = answer.requestId.isEmpty() ? response.requestId : answer.requestId;
    return reply;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awssession.h"

#include "awserrormapper.h"
#include "httpclient.h"

namespace converge {

AwsSession::AwsSession(HttpClient *http, QUrl endpoint, QString region,
                       const Credentials &credentials, const QString &signingName,
                       std::function<bool()> isCancelled, std::unique_ptr<HttpClient> ownedHttp)
    : m_ownedHttp(std::move(ownedHttp))
    , m_http(m_ownedHttp ? m_ownedHttp.get() : http)
    , m_endpoint(std::move(endpoint))
    , m_region(std::move(region))
    , m_signingName(signingName)
    , m_credentials(credentials)
    , m_signer(SigV4Signer::forCredentials(credentials, m_region, signingName))
    , m_isCancelled(std::move(isCancelled))
{
    Q_ASSERT(m_http);
    for (const QString &secret : credentials.secrets())
        m_redactor.addSecret(secret);
}

AwsSession::~AwsSession() = default;

QUrl AwsSession::withRootPath(QUrl endpoint)
{
    if (endpoint.path().isEmpty())
        endpoint.setPath(QStringLiteral("/"));
    return endpoint;
}

HttpResponse AwsSession::send(const HttpRequest &request, const QString &region)
{
    Signer sign = region.isEmpty() || region == m_region
                      ? m_signer.signer()
                      : SigV4Signer::forCredentials(m_credentials, region, m_signingName).signer();
    if (m_observer) {
        sign = [base = std::move(sign), this](HttpRequest &r) {
            base(r);
            m_observer(r);
        };
    }
    return m_http->send(request, sign, m_isCancelled);
}

std::optional<BackendError> AwsSession::errorFor(const HttpResponse &response,
                                                 const QString &operation) const
{
    return AwsErrorMapper::errorFor(response, operation, m_redactor);
}

BackendError AwsSession::invalidResponse(const HttpResponse &response, const QString &operation,
                                         const QString &what)
{
    BackendError error;
    error.category = BackendError::Category::Transient;
    error.code = QStringLiteral("InvalidResponse");
    error.httpStatus = response.status;
    error.requestId = response.requestId;
    error.message = QStringLiteral("the answer to %1 is %2").arg(operation, what);
    return error;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awsjsonclient.h"

#include "awserrormapper.h"
#include "httpclient.h"

#include <QJsonDocument>
#include <QJsonParseError>

namespace converge {

AwsJsonClient::AwsJsonClient(AwsJsonService service, HttpClient *http, QUrl endpoint,
                             QString region, const Credentials &credentials,
                             std::function<bool()> isCancelled,
                             std::unique_ptr<HttpClient> ownedHttp)
    : m_service(std::move(service))
    , m_ownedHttp(std::move(ownedHttp))
    , m_http(m_ownedHttp ? m_ownedHttp.get() : http)
    , m_endpoint(std::move(endpoint))
    , m_region(std::move(region))
    , m_signer(SigV4Signer::forCredentials(credentials, m_region, m_service.signingName))
    , m_isCancelled(std::move(isCancelled))
{
    Q_ASSERT(m_http);
    if (m_endpoint.path().isEmpty())
        m_endpoint.setPath(QStringLiteral("/"));
    for (const QString &secret : credentials.secrets())
        m_redactor.addSecret(secret);
}

AwsJsonClient::~AwsJsonClient() = default;

Outcome<AwsJsonClient::Reply> AwsJsonClient::call(const QString &operation,
                                                  const QJsonObject &request)
{
    HttpRequest http;
    http.method = QByteArrayLiteral("POST");
    http.url = m_endpoint;
    http.body = QJsonDocument(request).toJson(QJsonDocument::Compact);
    http.clientRequestId = HttpRequest::ClientRequestId::Aws;
    http.setHeader(QByteArrayLiteral("Content-Type"), m_service.contentType());
    http.setHeader(QByteArrayLiteral("X-Amz-Target"), m_service.target(operation));
    // x-amz-crc32 covers the bytes on the wire: a compressed body would need decompressing
    // after the check, which Qt does before we see it. Ask for the plain body.
    http.setHeader(QByteArrayLiteral("Accept-Encoding"), QByteArrayLiteral("identity"));

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

    Reply reply;
    reply.requestId = response.requestId;
    const QByteArray body = response.body.trimmed();
    // Some operations (TagResource, UntagResource) answer with nothing, or `""` in dynalite.
    if (body.isEmpty() || body == "\"\"" || body == "null" || body == "{}")
        return reply;
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        BackendError error;
        error.category = BackendError::Category::Transient;
        error.code = QStringLiteral("InvalidResponse");
        error.httpStatus = response.status;
        error.requestId = response.requestId;
        error.message = QStringLiteral("the answer to %1 is not a JSON object (%2 bytes)")
                            .arg(operation)
                            .arg(response.body.size());
        return error;
    }
    reply.body = document.object();
    return reply;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "dynamodbclient.h"

#include "awserrormapper.h"
#include "httpclient.h"

#include <QJsonDocument>
#include <QJsonParseError>

namespace converge {

namespace {

SigV4Signer makeSigner(const Credentials &credentials, const QString &region)
{
    const Credentials::Aws *aws = credentials.awsValue();
    Q_ASSERT_X(aws, "DynamoDbClient", "DynamoDB needs AWS credentials");
    return aws ? SigV4Signer(aws->accessKeyId, aws->secretAccessKey, region,
                             QStringLiteral("dynamodb"), aws->sessionToken)
               : SigV4Signer(QString(), QString(), region, QStringLiteral("dynamodb"));
}

} // namespace

DynamoDbClient::DynamoDbClient(HttpClient *http, QUrl endpoint, QString region,
                               const Credentials &credentials, std::function<bool()> isCancelled,
                               std::unique_ptr<HttpClient> ownedHttp)
    : m_ownedHttp(std::move(ownedHttp))
    , m_http(m_ownedHttp ? m_ownedHttp.get() : http)
    , m_endpoint(std::move(endpoint))
    , m_region(std::move(region))
    , m_signer(makeSigner(credentials, m_region))
    , m_isCancelled(std::move(isCancelled))
{
    Q_ASSERT(m_http);
    if (m_endpoint.path().isEmpty())
        m_endpoint.setPath(QStringLiteral("/"));
    for (const QString &secret : credentials.secrets())
        m_redactor.addSecret(secret);
}

DynamoDbClient::~DynamoDbClient() = default;

QUrl DynamoDbClient::defaultEndpoint(const QString &region)
{
    const QString suffix = region.startsWith(QLatin1String("cn-"))
                               ? QStringLiteral(".amazonaws.com.cn")
                               : QStringLiteral(".amazonaws.com");
    return QUrl(QStringLiteral("https://dynamodb.") + region + suffix + QLatin1Char('/'));
}

QByteArray DynamoDbClient::target(const QString &operation)
{
    return QByteArrayLiteral("DynamoDB_20120810.") + operation.toLatin1();
}

Outcome<DynamoDbClient::Reply> DynamoDbClient::call(const QString &operation,
                                                    const QJsonObject &request)
{
    HttpRequest http;
    http.method = QByteArrayLiteral("POST");
    http.url = m_endpoint;
    http.body = QJsonDocument(request).toJson(QJsonDocument::Compact);
    http.clientRequestId = HttpRequest::ClientRequestId::Aws;
    http.setHeader(QByteArrayLiteral("Content-Type"),
                   QByteArrayLiteral("application/x-amz-json-1.0"));
    http.setHeader(QByteArrayLiteral("X-Amz-Target"), target(operation));
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

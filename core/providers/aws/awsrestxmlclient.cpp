// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awsrestxmlclient.h"

#include "httpclient.h"

#include <QCryptographicHash>
#include <QRegularExpression>

namespace converge {

AwsRestXmlClient::AwsRestXmlClient(Service service, HttpClient *http, QUrl endpoint, QString region,
                                   const Credentials &credentials,
                                   std::function<bool()> isCancelled,
                                   std::unique_ptr<HttpClient> ownedHttp)
    : m_service(std::move(service))
    , m_session(http, std::move(endpoint), std::move(region), credentials, m_service.signingName,
                std::move(isCancelled), std::move(ownedHttp))
{}

AwsRestXmlClient::~AwsRestXmlClient() = default;

QUrl AwsRestXmlClient::urlFor(const QUrl &endpoint, const AwsRestXml::Request &request,
                              bool virtualHosted)
{
    // A DNS label without dots: a name with dots breaks the certificate's wildcard over https.
    static const QRegularExpression dnsLabel(QStringLiteral("^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$"));
    if (!virtualHosted || request.leadingLabel.isEmpty() ||
        !dnsLabel.match(request.leadingLabel).hasMatch())
        return request.url(endpoint, request.path);
    QUrl host = endpoint;
    host.setHost(request.leadingLabel + QLatin1Char('.') + endpoint.host());
    return request.url(host, request.pathAfterLabel.isEmpty() ? QStringLiteral("/")
                                                              : request.pathAfterLabel);
}

HttpResponse AwsRestXmlClient::send(const AwsRestXml::Request &built, const QString &region)
{
    const bool home = region == m_session.region();
    HttpRequest http =
        built.http(urlFor(home ? m_session.endpoint() : m_service.regionalEndpoint(region), built,
                          m_service.virtualHosted));
    if (!http.body.isEmpty() && http.header("Content-Type").isEmpty())
        http.setHeader(QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/xml"));
    // S3 refuses the configuration calls without a checksum of the body; MD5 is the one every
    // S3 and emulator takes.
    if (built.checksumRequired)
        http.setHeader(QByteArrayLiteral("Content-MD5"),
                       QCryptographicHash::hash(http.body, QCryptographicHash::Md5).toBase64());
    // S3 signs the payload's hash in a header of its own. A body that carries its MD5 is not
    // hashed again: Content-MD5 is among the signed headers and S3 refuses bytes that do not match
    // it, so the signature covers the bytes all the same (what S3's SigV4 documents as
    // UNSIGNED-PAYLOAD with a checksum). A large upload's parts carry their MD5 already (the
    // file's part digests), and Qt's SHA-256 of each took most of the upload's CPU.
    http.setHeader(QByteArrayLiteral("x-amz-content-sha256"),
                   !http.body.isEmpty() && !http.header("Content-MD5").isEmpty()
                       ? QByteArrayLiteral("UNSIGNED-PAYLOAD")
                       : QCryptographicHash::hash(http.body, QCryptographicHash::Sha256).toHex());
    return m_session.send(http, region);
}

Outcome<ApiCaller::Reply> AwsRestXmlClient::call(const QString &operation, QJsonObject input,
                                                 const QString &member, const QByteArray &bytes)
{
    // The model's payload member is the body; left out of the JSON, it is set as it is.
    input.remove(member);
    AwsRestXml::Request built = AwsRestXml::request(m_service.model, operation, input);
    if (built.blobPayload != member)
        return BackendError::make(BackendError::Category::Invalid, QStringLiteral("InvalidRequest"),
                                  QStringLiteral("%1's payload is not %2").arg(operation, member));
    built.body = bytes;
    return sendBuilt(operation, built);
}

Outcome<ApiCaller::Reply> AwsRestXmlClient::call(const QString &operation, const QJsonObject &input)
{
    return sendBuilt(operation, AwsRestXml::request(m_service.model, operation, input));
}

Outcome<ApiCaller::Reply> AwsRestXmlClient::sendBuilt(const QString &operation,
                                                      const AwsRestXml::Request &built)
{
    if (!built.error.isEmpty())
        return BackendError::make(BackendError::Category::Invalid, QStringLiteral("InvalidRequest"),
                                  built.error);
    const QString home = m_bucketRegions.value(built.leadingLabel, m_session.region());
    HttpResponse response = send(built, home);
    // A bucket in another region: AWS says which, and the request goes there (botocore's
    // S3RegionRedirector does the same).
    if (const QString there = QString::fromLatin1(response.header("x-amz-bucket-region"));
        m_service.regionalEndpoint && !built.leadingLabel.isEmpty() && !there.isEmpty() &&
        there != home &&
        (response.status == 301 || response.status == 307 || response.status == 400)) {
        m_bucketRegions.insert(built.leadingLabel, there);
        response = send(built, there);
    }
    if (auto error = m_session.errorFor(response, operation))
        return *error;

    const AwsRestXml::Answer answer =
        AwsRestXml::read(m_service.model, operation, response.headers, response.body);
    if (!answer.parseError.isEmpty())
        return AwsSession::invalidResponse(
            response, operation,
            QStringLiteral("not the XML its model says (%1)").arg(answer.parseError));
    Reply reply;
    reply.body = answer.result;
    reply.requestId = response.requestId;
    return reply;
}

} // namespace converge

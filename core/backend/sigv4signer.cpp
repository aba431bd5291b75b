// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "sigv4signer.h"

#include <QCryptographicHash>
#include <QMap>
#include <QMessageAuthenticationCode>
#include <QTimeZone>

#include <algorithm>
#include <utility>

namespace converge {

namespace {

const QByteArray algorithm = QByteArrayLiteral("AWS4-HMAC-SHA256");

/// Headers that intermediaries or the HTTP stack may add, drop or rewrite: signing them would
/// make valid requests fail. The AWS SDKs leave the same ones out.
bool isUnsignable(const QByteArray &lowerName)
{
    static const QByteArray names[] = {
        "authorization", "connection",        "expect",  "keep-alive", "proxy-authorization", "te",
        "trailer",       "transfer-encoding", "upgrade", "user-agent", "x-amzn-trace-id",
    };
    return std::find(std::begin(names), std::end(names), lowerName) != std::end(names);
}

/// RFC 3986 unreserved characters stay, everything else is %XX with upper-case hex.
QByteArray uriEncode(const QByteArray &text, bool keepSlash)
{
    return text.toPercentEncoding(keepSlash ? QByteArrayLiteral("/") : QByteArray());
}

QByteArray hmac(const QByteArray &key, const QByteArray &message)
{
    return QMessageAuthenticationCode::hash(message, key, QCryptographicHash::Sha256);
}

QByteArray sha256Hex(const QByteArray &data)
{
    return QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex();
}

} // namespace

SigV4Signer::SigV4Signer(QString accessKeyId, QString secretAccessKey, QString region,
                         QString service, QString sessionToken)
    : m_accessKeyId(std::move(accessKeyId))
    , m_secret(secretAccessKey.toUtf8())
    , m_region(std::move(region))
    , m_service(std::move(service))
    , m_sessionToken(sessionToken.toUtf8())
{}

QByteArray SigV4Signer::amzDate(const QDateTime &time)
{
    return time.toTimeZone(QTimeZone::utc())
        .toString(QStringLiteral("yyyyMMdd'T'HHmmss'Z'"))
        .toLatin1();
}

SigV4Signer::Parts SigV4Signer::compute(const HttpRequest &request, const QDateTime &now) const
{
    QByteArray date = request.header("X-Amz-Date").trimmed();
    if (date.isEmpty())
        date = amzDate(now);
    const QByteArray day = date.left(8);

    // Canonical URI: the decoded path, encoded once, slashes kept.
    QByteArray path = uriEncode(request.url.path(QUrl::FullyDecoded).toUtf8(), true);
    if (path.isEmpty())
        path = "/";

    // Canonical query: decode, re-encode strictly, sort by name then value.
    QList<std::pair<QByteArray, QByteArray>> query;
    const QByteArray encodedQuery = request.url.query(QUrl::FullyEncoded).toUtf8();
    for (const QByteArray &pair : encodedQuery.split('&')) {
        if (pair.isEmpty())
            continue;
        const qsizetype eq = pair.indexOf('=');
        const QByteArray name = QByteArray::fromPercentEncoding(eq < 0 ? pair : pair.left(eq));
        const QByteArray value =
            eq < 0 ? QByteArray() : QByteArray::fromPercentEncoding(pair.mid(eq + 1));
        query.append({uriEncode(name, false), uriEncode(value, false)});
    }
    std::sort(query.begin(), query.end());
    QByteArrayList queryParts;
    for (const auto &[name, value] : std::as_const(query))
        queryParts << name + '=' + value;

    // Canonical headers: lower-case names, values trimmed with inner whitespace runs collapsed,
    // repeated names comma-joined in order.
    QMap<QByteArray, QByteArray> headers;
    for (const auto &[name, value] : request.headers) {
        const QByteArray key = name.trimmed().toLower();
        if (isUnsignable(key))
            continue;
        auto it = headers.find(key);
        if (it == headers.end())
            headers.insert(key, value.simplified());
        else
            *it += ',' + value.simplified();
    }
    if (!headers.contains("host"))
        headers.insert("host", HttpRequest::hostHeader(request.url));
    if (!headers.contains("x-amz-date"))
        headers.insert("x-amz-date", date);

    QByteArray canonicalHeaders;
    for (auto it = headers.cbegin(); it != headers.cend(); ++it)
        canonicalHeaders += it.key() + ':' + it.value() + '\n';

    // S3 sends the payload's hash in a header of its own (AwsRestXmlClient): what it says is
    // the payload's hash, and a large body is not hashed twice.
    const auto given = headers.constFind("x-amz-content-sha256");
    const QByteArray payloadHash = given != headers.cend() ? *given : sha256Hex(request.body);
    Parts parts;
    parts.signedHeaders = headers.keys().join(';');
    parts.canonicalRequest = request.method.toUpper() + '\n' + path + '\n' + queryParts.join('&') +
                             '\n' + canonicalHeaders + '\n' + parts.signedHeaders + '\n' +
                             payloadHash;

    const QByteArray scope =
        day + '/' + m_region.toUtf8() + '/' + m_service.toUtf8() + "/aws4_request";
    parts.stringToSign =
        algorithm + '\n' + date + '\n' + scope + '\n' + sha256Hex(parts.canonicalRequest);

    QByteArray key = hmac("AWS4" + m_secret, day);
    key = hmac(key, m_region.toUtf8());
    key = hmac(key, m_service.toUtf8());
    key = hmac(key, "aws4_request");
    parts.signature = hmac(key, parts.stringToSign).toHex();
    parts.authorization = algorithm + " Credential=" + m_accessKeyId.toUtf8() + '/' + scope +
                          ", SignedHeaders=" + parts.signedHeaders +
                          ", Signature=" + parts.signature;
    return parts;
}

void SigV4Signer::sign(HttpRequest &request, const QDateTime &now) const
{
    request.setHeader(QByteArrayLiteral("X-Amz-Date"), amzDate(now));
    if (!m_sessionToken.isEmpty())
        request.setHeader(QByteArrayLiteral("X-Amz-Security-Token"), m_sessionToken);
    request.removeHeader("Authorization");
    request.setHeader(QByteArrayLiteral("Authorization"), compute(request).authorization);
}

Signer SigV4Signer::signer() const
{
    return [self = *this](HttpRequest &request) {
        self.sign(request, QDateTime::currentDateTimeUtc());
    };
}

SigV4Signer SigV4Signer::forCredentials(const Credentials &credentials, const QString &region,
                                        const QString &service)
{
    const Credentials::Aws *aws = credentials.awsValue();
    Q_ASSERT_X(aws, "SigV4Signer", "SigV4 needs AWS credentials");
    return aws ? SigV4Signer(aws->accessKeyId, aws->secretAccessKey, region, service,
                             aws->sessionToken)
               : SigV4Signer(QString(), QString(), region, service);
}

} // namespace converge

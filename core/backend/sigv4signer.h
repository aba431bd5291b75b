// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "credentials.h"
#include "httprequest.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>

namespace converge {

/// AWS Signature Version 4 in the Authorization header, as used by DynamoDB's JSON 1.0 protocol
/// (POST /, X-Amz-Target, Content-Type application/x-amz-json-1.0) and checked against AWS's
/// published SigV4 test suite.
///
/// Every header of the request is signed except those proxies and the HTTP stack may change
/// (User-Agent, Expect, Connection, ...), plus `host` taken from the URL when absent. The path is
/// taken decoded and URI-encoded once, as the test suite expects; it is not normalized (dot
/// segments are not resolved). S3's single-encoding rule and presigned URLs are out of scope.
class SigV4Signer final
{
public:
    /// The intermediate results, for tests and for debugging a rejected signature.
    struct Parts
    {
        QByteArray canonicalRequest;
        QByteArray stringToSign;
        QByteArray signedHeaders; ///< "content-type;host;x-amz-date"
        QByteArray signature;     ///< lower-case hex
        QByteArray authorization; ///< the Authorization header value
    };

    SigV4Signer(QString accessKeyId, QString secretAccessKey, QString region, QString service,
                QString sessionToken = {});

    /// "20261130T034811Z".
    /// A signer with `credentials`' AWS keys (Credentials::Aws), for `service` in `region`.
    static SigV4Signer forCredentials(const Credentials &credentials, const QString &region,
                                      const QString &service);

    static QByteArray amzDate(const QDateTime &time);

    /// Computes the signature of `request` as it is. Its X-Amz-Date header gives the time; without
    /// one `now` is used (and must then be set on the request by the caller, as sign() does).
    Parts compute(const HttpRequest &request, const QDateTime &now = {}) const;

    /// Sets X-Amz-Date to `now`, X-Amz-Security-Token when there is a session token, and
    /// Authorization.
    void sign(HttpRequest &request, const QDateTime &now) const;
    /// A Signer for HttpClient that signs with the current time on every attempt.
    Signer signer() const;

    const QString &region() const { return m_region; }
    const QString &service() const { return m_service; }

private:
    QString m_accessKeyId;
    QByteArray m_secret;
    QString m_region;
    QString m_service;
    QByteArray m_sessionToken;
};

} // namespace converge

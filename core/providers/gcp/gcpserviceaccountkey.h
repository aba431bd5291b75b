// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "outcome.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>

namespace converge {

/// A Google service account's JSON key (`type: service_account`), and the signed JWT that asks
/// its token endpoint for an access token (RFC 7523, as Google's client libraries send it).
/// The signature is RS256 by OpenSSL's libcrypto: Qt has no RSA signature, and cryptography is
/// never written by hand here.
struct GcpServiceAccountKey
{
    QString clientEmail;
    QString privateKeyId;
    QByteArray privateKeyPem; ///< a secret: never in a message
    QString tokenUri;         ///< the key's token_uri (Google's libraries honour it), or Google's

    static QString defaultTokenUri()
    {
        return QStringLiteral("https://oauth2.googleapis.com/token");
    }
    static QString cloudPlatformScope()
    {
        return QStringLiteral("https://www.googleapis.com/auth/cloud-platform");
    }

    /// Reads a key file's content; `source` names it in errors ("file ~/key.json"), which never
    /// hold any of its content.
    static Outcome<GcpServiceAccountKey> parse(const QByteArray &json, const QString &source);

    /// The JWT: header {alg: RS256, typ: JWT, kid}, claims {iss, scope, aud: tokenUri, iat,
    /// exp: iat + 3600}, signed with the private key.
    Outcome<QByteArray> assertion(const QDateTime &now) const;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "httprequest.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>

namespace converge {

/// Azure Storage Shared Key authorization ("Authorize with Shared Key", Microsoft Learn).
///
/// Three string-to-sign forms:
/// - Blob and Queue (`SharedKey`): the verb, the 11 standard header lines (Content-Length empty
///   for an empty body, as versions 2015-02-21 and later want), the x-ms- headers lower-cased
///   and sorted, and the canonical resource: `/<account><encoded path>` followed by one line per
///   query parameter, names lower-cased and sorted, values decoded, sorted and comma-joined.
/// - Table (`SharedKey`): verb, Content-MD5, Content-Type, the date (x-ms-date if present), and
///   the canonical resource with only the `comp` parameter (`?comp=...`).
/// - Table (`SharedKeyLite`): the date and that same canonical resource.
///
/// Emulator URLs are path-style and already hold the account in the path, so the canonical
/// resource of `http://127.0.0.1:10000/devstoreaccount1/c` is
/// `/devstoreaccount1/devstoreaccount1/c`, as Azurite expects.
class SharedKeySigner final
{
public:
    enum class Scheme { BlobQueue, Table, TableLite };

    /// `key` is the account key as given (base64); an undecodable key makes the signer invalid.
    SharedKeySigner(QString account, const QString &key, Scheme scheme);

    bool isValid() const { return m_error.isEmpty(); }
    /// Why the signer is invalid (never contains the key).
    QString error() const { return m_error; }
    const QString &account() const { return m_account; }
    Scheme scheme() const { return m_scheme; }

    /// The x-ms-version sent when the request names none: 2021-12-02, which Azurite 3.35 accepts.
    static QByteArray apiVersion();
    /// RFC 1123 in the C locale and UTC, e.g. "Mon, 30 Nov 2026 03:48:11 GMT".
    static QByteArray httpDate(const QDateTime &time);

    QByteArray canonicalResource(const QUrl &url) const;
    QByteArray stringToSign(const HttpRequest &request) const;
    /// Base64 HMAC-SHA256 of `stringToSign` with the decoded key.
    QByteArray signature(const QByteArray &stringToSign) const;

    /// Sets x-ms-date to `now`, x-ms-version if missing, and Authorization.
    void sign(HttpRequest &request, const QDateTime &now) const;
    /// A Signer for HttpClient that signs with the current time on every attempt.
    Signer signer() const;

private:
    QString m_account;
    QByteArray m_key; // decoded
    Scheme m_scheme;
    QString m_error;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QUrl>

#include <functional>

namespace converge {

/// One HTTP request as a value: what a provider builds, a signer signs and HttpClient sends.
///
/// Header names are matched case-insensitively; their order is kept because signers that
/// join repeated headers depend on it.
struct HttpRequest
{
    using Headers = QList<QPair<QByteArray, QByteArray>>;

    /// Which client request id header HttpClient adds, so that the backend's logs can be matched
    /// with ours. The id stays the same across the retries of one send().
    enum class ClientRequestId {
        None,
        Azure, ///< x-ms-client-request-id: <uuid>
        Aws,   ///< amz-sdk-invocation-id: <uuid>
    };

    QByteArray method = QByteArrayLiteral("GET");
    QUrl url;
    Headers headers;
    QByteArray body;
    ClientRequestId clientRequestId = ClientRequestId::None;
    /// Answers (status, body) that are final though their status is one HttpClient retries:
    /// the caller settles them itself (the Spanner emulator's 500 for a missing resource, which
    /// its list confirms). Null: every retriable status is retried.
    std::function<bool(int status, const QByteArray &body)> isFinalAnswer;

    /// The first value of a header, or an empty array.
    QByteArray header(QByteArrayView name) const;
    bool hasHeader(QByteArrayView name) const;
    /// Replaces every header of that name by one with this value (appends if absent).
    void setHeader(const QByteArray &name, const QByteArray &value);
    void removeHeader(QByteArrayView name);

    static QByteArray clientRequestIdHeader(ClientRequestId style);

    /// The Host header for `url` (RFC 9110, 7.2): the host, an IPv6 literal in brackets, and
    /// the port unless it is the scheme's default. What is sent, and what SigV4 signs.
    static QByteArray hostHeader(const QUrl &url);
};

/// Signs a request in place, once per attempt (dates and so signatures change between retries).
using Signer = std::function<void(HttpRequest &request)>;

} // namespace converge

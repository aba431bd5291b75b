// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "backenderror.h"

#include <QByteArray>
#include <QList>
#include <QNetworkReply>
#include <QPair>
#include <QString>

#include <chrono>
#include <optional>

namespace converge {

/// What HttpClient::send() returns: the last attempt's answer plus how we got there.
///
/// Three outcomes: an HTTP answer (status != 0, maybe an error status for the provider to
/// interpret), a transport failure (transportError set, status 0), or a refusal by the client
/// itself (clientError set: insecure URL, redirect, oversized body, cancellation, timeout).
struct HttpResponse
{
    using Headers = QList<QPair<QByteArray, QByteArray>>;

    int status = 0; ///< 0 when no HTTP answer arrived
    Headers headers;
    QByteArray body;
    QNetworkReply::NetworkError transportError = QNetworkReply::NoError;
    QString transportErrorString;
    /// Set when HttpClient refused or gave up on its own; takes precedence over the others.
    std::optional<BackendError> clientError;
    QString requestId;       ///< the server's: x-ms-request-id or x-amzn-RequestId
    QString clientRequestId; ///< the id we sent (x-ms-client-request-id, amz-sdk-invocation-id)
    int attempts = 0;        ///< requests actually sent; 0 when refused before sending
    std::chrono::milliseconds elapsed{0}; ///< whole send(), retries and waits included
    /// The backend's wait hint when it was too long to wait for in-process: the engine should
    /// requeue the work after this long instead.
    std::optional<std::chrono::milliseconds> retryAfter;
    bool cancelled = false;

    /// The first value of a header (case-insensitive), or an empty array.
    QByteArray header(QByteArrayView name) const;

    /// A 2xx answer with no client or transport error.
    bool isSuccess() const;

    /// The generic error for a failed response: the client error if any, else the transport
    /// failure, else the HTTP status with the backend's error code taken from x-ms-error-code
    /// (Azure) or the __type of a JSON body (AWS). Providers refine code and message from the
    /// body where they know its shape. Meaningless for a successful response.
    BackendError toError() const;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "httpresponse.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace converge {

namespace {

QString transportCode(QNetworkReply::NetworkError error)
{
    switch (error) {
    case QNetworkReply::ConnectionRefusedError:
        return QStringLiteral("ConnectionRefused");
    case QNetworkReply::RemoteHostClosedError:
        return QStringLiteral("ConnectionClosed");
    case QNetworkReply::HostNotFoundError:
        return QStringLiteral("HostNotFound");
    case QNetworkReply::TimeoutError:
        return QStringLiteral("Timeout");
    case QNetworkReply::SslHandshakeFailedError:
        return QStringLiteral("TlsHandshakeFailed");
    default:
        return QStringLiteral("TransportError");
    }
}

} // namespace

QByteArray HttpResponse::header(QByteArrayView name) const
{
    for (const auto &[key, value] : headers) {
        if (name.compare(key, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

bool HttpResponse::isSuccess() const
{
    return !clientError && transportError == QNetworkReply::NoError && status >= 200 &&
           status < 300;
}

BackendError HttpResponse::toError() const
{
    if (clientError) {
        BackendError error = *clientError;
        if (error.requestId.isEmpty())
            error.requestId = requestId;
        if (!error.retryAfter)
            error.retryAfter = retryAfter;
        return error;
    }
    BackendError error;
    error.httpStatus = status;
    error.requestId = requestId;
    error.retryAfter = retryAfter;
    if (status == 0) {
        error.category = BackendError::Category::Transient;
        error.code = transportCode(transportError);
        error.message = transportErrorString;
        if (transportError == QNetworkReply::SslHandshakeFailedError)
            error.category = BackendError::Category::Terminal; // a bad certificate stays bad
        return error;
    }
    error.category = BackendError::categoryForStatus(status);
    error.code = QString::fromUtf8(header("x-ms-error-code"));
    if (error.code.isEmpty()) {
        // AWS JSON protocols: {"__type":
        // "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", "message": "..."}: the name
        // after '#' is the code.
        const QJsonObject json = QJsonDocument::fromJson(body).object();
        const QString type = json.value(QStringLiteral("__type")).toString();
        error.code = type.mid(type.lastIndexOf(QLatin1Char('#')) + 1);
        error.message = json.value(QStringLiteral("message")).toString();
        if (error.message.isEmpty())
            error.message = json.value(QStringLiteral("Message")).toString();
    }
    if (error.message.isEmpty())
        error.message = QStringLiteral("HTTP %1").arg(status);
    return error;
}

} // namespace converge

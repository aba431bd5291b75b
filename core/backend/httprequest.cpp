// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "httprequest.h"

namespace converge {

QByteArray HttpRequest::header(QByteArrayView name) const
{
    for (const auto &[key, value] : headers) {
        if (name.compare(key, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

bool HttpRequest::hasHeader(QByteArrayView name) const
{
    for (const auto &[key, value] : headers) {
        if (name.compare(key, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

void HttpRequest::setHeader(const QByteArray &name, const QByteArray &value)
{
    removeHeader(name);
    headers.append({name, value});
}

void HttpRequest::removeHeader(QByteArrayView name)
{
    headers.removeIf([name](const QPair<QByteArray, QByteArray> &header) {
        return name.compare(header.first, Qt::CaseInsensitive) == 0;
    });
}

QByteArray HttpRequest::clientRequestIdHeader(ClientRequestId style)
{
    switch (style) {
    case ClientRequestId::Azure:
        return QByteArrayLiteral("x-ms-client-request-id");
    case ClientRequestId::Aws:
        return QByteArrayLiteral("amz-sdk-invocation-id");
    case ClientRequestId::None:
        break;
    }
    return {};
}

QByteArray HttpRequest::hostHeader(const QUrl &url)
{
    QByteArray host = url.host(QUrl::FullyEncoded).toUtf8();
    if (host.contains(':'))
        host = '[' + host + ']';
    const int port = url.port(-1);
    const bool https = url.scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) == 0;
    if (port != -1 && port != (https ? 443 : 80))
        host += ':' + QByteArray::number(port);
    return host;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "gcpoauth.h"

#include "httpclient.h"
#include "redactor.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace converge {

Outcome<AccessToken> GcpOAuth::exchange(HttpClient &http, const QUrl &tokenUri,
                                        const QUrlQuery &form, const QString &what,
                                        const std::function<bool()> &isCancelled)
{
    HttpRequest request;
    request.method = QByteArrayLiteral("POST");
    request.url = tokenUri;
    request.setHeader(QByteArrayLiteral("Content-Type"),
                      QByteArrayLiteral("application/x-www-form-urlencoded"));
    // Every value percent-encoded ('+' too, which a form would read as a space), not as
    // QUrlQuery spells a URL's query.
    QByteArrayList pairs;
    for (const auto &item : form.queryItems(QUrl::FullyDecoded))
        pairs << QUrl::toPercentEncoding(item.first) + '=' + QUrl::toPercentEncoding(item.second);
    request.body = pairs.join('&');
    const HttpResponse response = http.send(request, {}, isCancelled);

    // Nothing the form carried (an assertion, a refresh token, a client secret) may come back
    // in a message, even where an endpoint echoes it.
    Redactor redactor;
    for (const auto &item : form.queryItems(QUrl::FullyDecoded)) {
        if (item.first != QLatin1String("grant_type"))
            redactor.addSecret(item.second);
    }
    const QJsonObject answer = QJsonDocument::fromJson(response.body).object();
    if (!response.isSuccess()) {
        BackendError error = response.toError();
        error.message = redactor.redact(error.message);
        if (response.status == 0)
            return error;
        const QString code = answer.value(QStringLiteral("error")).toString();
        const QString description = answer.value(QStringLiteral("error_description")).toString();
        if (response.status == 400 || response.status == 401 || response.status == 403) {
            error.category = BackendError::Category::Unauthorized;
            error.code = QStringLiteral("CredentialRefused");
        }
        error.message = redactor.redact(
            QStringLiteral("the token endpoint %1 refused %2 (HTTP %3%4%5)")
                .arg(tokenUri.toString(QUrl::RemoveUserInfo | QUrl::RemoveQuery), what)
                .arg(response.status)
                .arg(code.isEmpty() ? QString() : QStringLiteral(" ") + code,
                     description.isEmpty() ? QString() : QStringLiteral(": ") + description));
        return error;
    }
    AccessToken token;
    token.accessToken = answer.value(QStringLiteral("access_token")).toString();
    const qint64 lifetime = answer.value(QStringLiteral("expires_in")).toInteger(3600);
    if (token.accessToken.isEmpty()) {
        BackendError error = BackendError::make(
            BackendError::Category::Transient, QStringLiteral("InvalidTokenResponse"),
            QStringLiteral("the token endpoint %1 answered no access_token for %2")
                .arg(tokenUri.toString(QUrl::RemoveUserInfo | QUrl::RemoveQuery), what));
        error.httpStatus = response.status;
        return error;
    }
    token.expiresOn = QDateTime::currentDateTimeUtc().addSecs(lifetime);
    return token;
}

} // namespace converge

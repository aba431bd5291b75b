// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "backenderror.h"
#include "credentials.h"
#include "httpresponse.h"
#include "redactor.h"
#include "sigv4signer.h"

#include <QUrl>

#include <functional>
#include <memory>
#include <optional>

namespace converge {

class HttpClient;
struct HttpRequest;

/// What every AWS protocol client (json, query, rest-xml) sends through: the worker's
/// HttpClient, the account's endpoint and region, a SigV4 signer for the service, the request
/// observer tests count with, the cancellation check, and the Redactor that keeps the
/// credentials' secrets out of errors. A client builds its protocol's request and reads its
/// answer; signing, sending and mapping errors are done here once.
///
/// Used from one worker thread, like its HttpClient.
class AwsSession final
{
public:
    /// Sees every attempt after signing (tests count them).
    using RequestObserver = std::function<void(const HttpRequest &request)>;

    /// `http` does not belong to the session unless given as `ownedHttp`.
    AwsSession(HttpClient *http, QUrl endpoint, QString region, const Credentials &credentials,
               const QString &signingName, std::function<bool()> isCancelled,
               std::unique_ptr<HttpClient> ownedHttp);
    ~AwsSession();
    Q_DISABLE_COPY_MOVE(AwsSession)

    /// `endpoint` with the path `/` when it has none (the json and query protocols post there).
    static QUrl withRootPath(QUrl endpoint);

    const QUrl &endpoint() const { return m_endpoint; }
    const QString &region() const { return m_region; }
    void setRequestObserver(RequestObserver observer) { m_observer = std::move(observer); }

    /// Signs `request` for the session's region, or for `region` when another is given (a
    /// bucket AWS keeps elsewhere), and sends it.
    HttpResponse send(const HttpRequest &request, const QString &region = {});
    /// The engine's error for an answer that is one (AwsErrorMapper), secrets taken out.
    std::optional<BackendError> errorFor(const HttpResponse &response,
                                         const QString &operation) const;
    /// An answer that is not what the protocol says (`what`: why not): retried as transient.
    static BackendError invalidResponse(const HttpResponse &response, const QString &operation,
                                        const QString &what);

private:
    std::unique_ptr<HttpClient> m_ownedHttp;
    HttpClient *m_http;
    QUrl m_endpoint;
    QString m_region;
    QString m_signingName;
    Credentials m_credentials; ///< for a signer of another region
    SigV4Signer m_signer;
    Redactor m_redactor;
    std::function<bool()> m_isCancelled;
    RequestObserver m_observer;
};

} // namespace converge

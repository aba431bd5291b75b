// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "httpresponse.h"
#include "outcome.h"

#include <QJsonObject>
#include <QUrl>
#include <QUrlQuery>

#include <functional>
#include <optional>

namespace converge {

class HttpClient;
struct HttpRequest;

/// What every request to a Google Cloud REST API goes through: the worker's HttpClient, the
/// service's endpoint, the project's access token as a Bearer header (none for an emulator),
/// and Google's error shape (`{error: {code, status, message}}`) mapped to the engine's
/// categories. A 401 asks for a fresh token once and sends again: a token may be revoked or
/// expire early.
///
/// Used from one worker thread, like its HttpClient.
class GcpSession final
{
public:
    /// The bearer token (empty: none); `fresh`: the last one was refused.
    using TokenSource = std::function<Outcome<QString>(bool fresh)>;
    /// Sees every attempt (tests count them).
    using RequestObserver = std::function<void(const HttpRequest &request)>;

    struct Answer
    {
        QJsonObject body;
        QString requestId;
    };

    GcpSession(HttpClient *http, QUrl endpoint, TokenSource token,
               std::function<bool()> isCancelled);

    const QUrl &endpoint() const { return m_endpoint; }
    void setRequestObserver(RequestObserver observer) { m_observer = std::move(observer); }

    /// `method` `path` (from the endpoint's root, e.g. /v1/projects/p/topics) with `query` and,
    /// unless null, `body` as JSON; the answer's JSON. `operation` names the call in errors.
    Outcome<Answer> send(const QByteArray &method, const QString &path, const QUrlQuery &query,
                         const std::optional<QJsonObject> &body, const QString &operation);

    /// The engine's error for a Google answer that is one.
    static BackendError errorFor(const HttpResponse &response, const QString &operation);

private:
    HttpClient *m_http;
    QUrl m_endpoint;
    TokenSource m_token;
    std::function<bool()> m_isCancelled;
    RequestObserver m_observer;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "cabundle.h"
#include "httprequest.h"
#include "httpresponse.h"
#include "proxyresolver.h"
#include "retrypolicy.h"

#include <QHash>
#include <QString>
#include <QUrl>
#ifndef QT_NO_SSL
#include <QSslConfiguration>
#endif

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QThread;

namespace converge {

class HttpConnection;

/// Sends HTTP requests for one engine worker thread, with retries, timeouts, request ids and the
/// transport rules that keep credentials where they belong.
///
/// Every request goes out exactly once per attempt over HttpClient's own HTTP/1.1 connections
/// (HttpConnection), kept alive per origin: the attempts counted, backed off and reported are
/// all the attempts there are (Qt's QNetworkAccessManager re-sends by itself after a dropped
/// connection, see HttpConnection).
///
/// Threading: an HttpClient belongs to the thread that created it (its connections' sockets
/// live there). send() looks synchronous: it
/// runs a local QEventLoop on the calling thread until the answer arrives, so other events of
/// that thread are delivered meanwhile. It is meant for worker threads and must NEVER be called
/// on the GUI thread, which must not wait on the network (DESIGN.md, "Threads").
///
/// Rules applied to every request:
/// - https keeps TLS verification on. Plain http is sent only to loopback hosts (127.0.0.0/8,
///   ::1, "localhost") unless Options::allowInsecureHttp is set; otherwise the request is refused
///   before anything is sent or signed.
/// - Redirects are never followed: a 3xx answer is an Invalid error naming the target host,
///   because the signed headers would otherwise travel to another host.
/// - Responses larger than Options::maxResponseBytes are aborted with a Terminal error.
/// - A User-Agent from BuildInfo::userAgent(), and a client request id (a UUID) when the request
///   asks for one; the id is the same across the retries of one send().
/// - A body without a Content-Type is sent as application/octet-stream, set before the signer
///   runs (signers sign the Content-Type).
/// - Proxies as ProxyResolver says (the environment, else the desktop's settings), through a
///   CONNECT tunnel for http and https; a proxy that asks for authentication (407) or a proxy
///   setting that cannot be used is a Terminal error naming the proxy.
/// - TLS trusts the system's certificate authorities and those of SSL_CERT_FILE / SSL_CERT_DIR
///   (CaBundle).
class HttpClient final
{
public:
    struct Options
    {
        /// Until the connection is open (DNS, TCP, TLS).
        std::chrono::milliseconds connectTimeout{10000};
        /// Longest time without any bytes moving once connected (a server that stops answering).
        std::chrono::milliseconds transferTimeout{20000};
        /// A kept-alive connection idle for longer is closed rather than reused (servers close
        /// idle connections: Node's http server, so Azurite and dynalite, after 5 s).
        std::chrono::milliseconds maxIdle{4000};
        qint64 maxResponseBytes = qint64(64) * 1024 * 1024;
        RetryPolicy::Options retry;
        /// For tests: makes the retry jitter deterministic.
        RetryPolicy::RandomSource random;
        /// Send plain http to non-loopback hosts. Off by default: a SAS token or signature sent in
        /// clear text to another machine can be replayed.
        bool allowInsecureHttp = false;
        /// How often the cancellation hook is polled while waiting.
        std::chrono::milliseconds cancelCheckInterval{50};
        /// Which proxy each request takes; null: ProxyResolver::fromProcess(), read when the
        /// client is made.
        std::shared_ptr<const ProxyResolver> proxies;
        /// Certificate authorities trusted besides the system's; null: CaBundle::fromProcess(),
        /// read at the client's first https connection.
        std::shared_ptr<const CaBundle> caBundle;
    };

    /// Returns true when the caller no longer wants the answer; polled while waiting.
    using CancelCheck = std::function<bool()>;

    /// Creates the network access manager in the calling thread, which then owns this client.
    HttpClient();
    explicit HttpClient(Options options);
    ~HttpClient();
    Q_DISABLE_COPY_MOVE(HttpClient)

    const Options &options() const { return m_options; }

    /// Sends `request`, calling `sign` before every attempt, retrying per RetryPolicy, until an
    /// answer that is not retried, a refusal, or cancellation. See HttpResponse for the outcomes.
    /// Retried: retriable statuses; connection failures before the request went out; and for
    /// GET and HEAD any connection failure but a timeout. A write whose connection failed after
    /// it went out, and any timeout, are returned at once: the caller decides (the engine looks
    /// before it writes again). Worker threads only (see the class comment).
    HttpResponse send(const HttpRequest &request, const Signer &sign = {},
                      const CancelCheck &isCancelled = {});

    /// The refusal send() would give for this URL before sending anything, if any.
    std::optional<BackendError> checkUrl(const QUrl &url) const;

    /// GET and HEAD: requests that change nothing, so may be sent again whatever happened.
    static bool isSafe(const QByteArray &method);

    /// 127.0.0.0/8, ::1 and "localhost".
    static bool isLoopbackHost(const QString &host);

private:
    struct Attempt;
    /// One attempt: its answer, transport failure or refusal goes into `response`.
    Attempt sendOnce(const HttpRequest &request, const CancelCheck &isCancelled,
                     HttpResponse &response);
    /// Waits `delay`; returns false when cancelled meanwhile.
    bool wait(std::chrono::milliseconds delay, const CancelCheck &isCancelled);

    /// The proxy for a URL's origin, resolved once per origin (the desktop's settings may be
    /// slow to ask).
    const ProxyResolver::Choice &proxyFor(const QUrl &url);

    static constexpr std::size_t maxIdleConnections = 4;

    Options m_options;
    RetryPolicy m_retry;
    QThread *m_thread;
    std::shared_ptr<const ProxyResolver> m_proxies;
    QHash<QString, ProxyResolver::Choice> m_proxyByOrigin;
    std::shared_ptr<const CaBundle> m_caBundle; ///< null until needed, unless given
#ifndef QT_NO_SSL
    /// Made at the first https connection, and only when the bundle adds certificates.
    const std::optional<QSslConfiguration> &tlsConfiguration();
    std::optional<QSslConfiguration> m_tls;
    bool m_tlsReady = false;
#endif
    /// Open connections between requests, the most recently used last.
    std::vector<std::unique_ptr<HttpConnection>> m_idle;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "httpclient.h"

#include "buildinfo.h"
#include "httpconnection.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QHash>
#include <QHostAddress>
#include <QLoggingCategory>
#include <QThread>
#include <QTimer>
#include <QUuid>

Q_LOGGING_CATEGORY(lcHttp, "converge.backend.http")

namespace converge {

namespace {

QString requestIdOf(const HttpResponse &response)
{
    for (const char *name : {"x-ms-request-id", "x-amzn-RequestId", "x-amz-request-id"}) {
        if (const QByteArray value = response.header(name); !value.isEmpty())
            return QString::fromLatin1(value);
    }
    return {};
}

QString mebibytes(qint64 bytes)
{
    return QString::number(double(bytes) / (1024.0 * 1024.0), 'g', 4) + QStringLiteral(" MiB");
}

BackendError clientError(BackendError::Category category, const QString &code,
                         const QString &message)
{
    BackendError error;
    error.category = category;
    error.code = code;
    error.message = message;
    return error;
}

/// A GUI application's main thread must never block on the network. Checked by class name so
/// that core does not include QtGui.
bool onGuiThread()
{
    const QCoreApplication *app = QCoreApplication::instance();
    return app && app->inherits("QGuiApplication") && QThread::currentThread() == app->thread();
}

} // namespace

/// What send() needs to know of an attempt beyond the answer it put in the response.
struct HttpClient::Attempt
{
    bool cancelled = false;
    bool idleConnectionClosed = false;
    bool requestWritten = false;
};

HttpClient::HttpClient()
    : HttpClient(Options{})
{}

HttpClient::HttpClient(Options options)
    : m_options(std::move(options))
    , m_retry(m_options.retry, m_options.random)
    , m_thread(QThread::currentThread())
    , m_proxies(m_options.proxies
                    ? m_options.proxies
                    : std::make_shared<const ProxyResolver>(ProxyResolver::fromProcess()))
    , m_caBundle(m_options.caBundle)
{}

#ifndef QT_NO_SSL
const std::optional<QSslConfiguration> &HttpClient::tlsConfiguration()
{
    if (m_tlsReady)
        return m_tls;
    m_tlsReady = true;
    // Read at the first https connection: a client that speaks only http never needs it.
    if (!m_caBundle) {
        m_caBundle = std::make_shared<const CaBundle>(CaBundle::fromProcess());
        for (const QString &problem : m_caBundle->problems())
            qCWarning(lcHttp).noquote() << problem;
    }
    if (!m_caBundle->isEmpty()) {
        // Setting CA certificates turns off Qt's loading of the system's on demand: give the
        // system's, whatever the default configuration was given, and the bundle's. The
        // system's are read once per process: hundreds of files, and every client needs them.
        static const QList<QSslCertificate> system = QSslConfiguration::systemCaCertificates();
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setCaCertificates(tls.caCertificates() + system + m_caBundle->certificates());
        m_tls = std::move(tls);
    }
    return m_tls;
}
#endif

const ProxyResolver::Choice &HttpClient::proxyFor(const QUrl &url)
{
    const QString origin = HttpConnection::originOf(url);
    auto it = m_proxyByOrigin.find(origin);
    if (it == m_proxyByOrigin.end())
        it = m_proxyByOrigin.insert(origin, m_proxies->resolve(url));
    return *it;
}

HttpClient::~HttpClient() = default;

bool HttpClient::isSafe(const QByteArray &method)
{
    return method.compare("GET", Qt::CaseInsensitive) == 0 ||
           method.compare("HEAD", Qt::CaseInsensitive) == 0;
}

bool HttpClient::isLoopbackHost(const QString &host)
{
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

std::optional<BackendError> HttpClient::checkUrl(const QUrl &url) const
{
    if (!url.isValid() || url.host().isEmpty()) {
        return clientError(BackendError::Category::Invalid, QStringLiteral("InvalidUrl"),
                           QStringLiteral("not a valid http(s) URL: %1")
                               .arg(url.toDisplayString(QUrl::RemoveQuery)));
    }
    const QString scheme = url.scheme().toLower();
    if (scheme == QLatin1String("https"))
        return std::nullopt;
    if (scheme != QLatin1String("http")) {
        return clientError(BackendError::Category::Invalid, QStringLiteral("UnsupportedScheme"),
                           QStringLiteral("unsupported URL scheme \"%1\": use https").arg(scheme));
    }
    if (isLoopbackHost(url.host()) || m_options.allowInsecureHttp)
        return std::nullopt;
    return clientError(
        BackendError::Category::Invalid, QStringLiteral("InsecureHttp"),
        QStringLiteral("refusing to send a request over plain http to %1: credentials would travel "
                       "unencrypted. Use https (plain http is allowed to loopback addresses only, "
                       "unless insecure http is allowed explicitly)")
            .arg(url.host()));
}

HttpResponse HttpClient::send(const HttpRequest &request, const Signer &sign,
                              const CancelCheck &isCancelled)
{
    Q_ASSERT_X(QThread::currentThread() == m_thread, "HttpClient::send",
               "an HttpClient must be used from the thread that created it");
    Q_ASSERT_X(!onGuiThread(), "HttpClient::send", "never block the GUI thread on the network");

    QElapsedTimer clock;
    clock.start();
    HttpResponse response;
    const auto finish = [&response, &clock] {
        response.elapsed = std::chrono::milliseconds(clock.elapsed());
        return response;
    };
    const auto markCancelled = [&response] {
        response.cancelled = true;
        response.clientError =
            clientError(BackendError::Category::Transient, QStringLiteral("Cancelled"),
                        QStringLiteral("the request was cancelled"));
    };

    if (auto refusal = checkUrl(request.url)) {
        response.clientError = std::move(refusal);
        return finish();
    }
    if (const ProxyResolver::Choice &proxy = proxyFor(request.url); proxy.refusal) {
        response.clientError = proxy.refusal;
        return finish();
    }

    HttpRequest prepared = request;
    if (!prepared.hasHeader("User-Agent"))
        prepared.setHeader(QByteArrayLiteral("User-Agent"), BuildInfo::userAgent().toUtf8());
    if (const QByteArray idHeader = HttpRequest::clientRequestIdHeader(request.clientRequestId);
        !idHeader.isEmpty()) {
        if (!prepared.hasHeader(idHeader))
            prepared.setHeader(idHeader, QUuid::createUuid().toByteArray(QUuid::WithoutBraces));
        response.clientRequestId = QString::fromLatin1(prepared.header(idHeader));
    }
    if (!prepared.body.isEmpty() && !prepared.hasHeader("Content-Type"))
        prepared.setHeader(QByteArrayLiteral("Content-Type"), "application/octet-stream");

    bool replayedOnNewConnection = false;
    for (int attempt = 1, retry = 0;; ++attempt) {
        if (isCancelled && isCancelled()) {
            markCancelled();
            break;
        }
        HttpRequest signedRequest = prepared;
        if (sign)
            sign(signedRequest);
        const Attempt result = sendOnce(signedRequest, isCancelled, response);
        response.attempts = attempt;
        response.requestId = requestIdOf(response);
        if (result.cancelled) {
            markCancelled();
            break;
        }
        if (result.idleConnectionClosed && !replayedOnNewConnection) {
            replayedOnNewConnection = true;
            continue;
        }
        // An answer says what the server did; a transport failure may not. A write that may
        // have reached the server goes back to the caller, which looks before it writes again
        // (the engine gets first after an unknown outcome), and so does a timeout: a server
        // that stopped answering is the engine's to see and hold back, not this client's to
        // wait out three times over.
        const bool retriable =
            !response.clientError &&
            (response.status != 0
                 ? RetryPolicy::isRetriableStatus(response.status)
                 : RetryPolicy::isRetriableTransportError(response.transportError) &&
                       response.transportError != QNetworkReply::TimeoutError &&
                       (!result.requestWritten || isSafe(prepared.method)));
        if (!retriable || (response.status != 0 && prepared.isFinalAnswer &&
                           prepared.isFinalAnswer(response.status, response.body)))
            break;
        const RetryPolicy::Decision decision =
            m_retry.delayFor(++retry, response.headers, QDateTime::currentDateTimeUtc());
        if (!decision.retry) {
            response.retryAfter = decision.retryAfter;
            break;
        }
        if (!wait(decision.delay, isCancelled)) {
            markCancelled();
            break;
        }
    }
    return finish();
}

HttpClient::Attempt HttpClient::sendOnce(const HttpRequest &request, const CancelCheck &isCancelled,
                                         HttpResponse &response)
{
    const QString origin = HttpConnection::originOf(request.url);
    std::unique_ptr<HttpConnection> connection;
    // The most recently used connection of this origin first: the likeliest to be still open.
    // One the server closed meanwhile is dropped on the way.
    for (auto it = m_idle.rbegin(); it != m_idle.rend() && !connection;) {
        if ((*it)->origin() != origin) {
            ++it;
            continue;
        }
        std::unique_ptr<HttpConnection> candidate = std::move(*it);
        it = std::make_reverse_iterator(m_idle.erase(std::next(it).base()));
        if (candidate->isReusable(m_options.maxIdle))
            connection = std::move(candidate);
    }
    const ProxyResolver::Choice &proxy = proxyFor(request.url); // send() checked its refusal
    const bool reused = connection != nullptr;
    if (!connection) {
        HttpConnection::Route route;
        route.proxy = proxy.proxy;
        route.proxyDescription = proxy.describe();
#ifndef QT_NO_SSL
        if (request.url.scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) == 0)
            route.tls = tlsConfiguration();
#endif
        connection = std::make_unique<HttpConnection>(request.url, std::move(route));
    }

    HttpConnection::Limits limits;
    limits.connectTimeout = m_options.connectTimeout;
    limits.transferTimeout = m_options.transferTimeout;
    limits.maxResponseBytes = m_options.maxResponseBytes;
    limits.cancelCheckInterval = m_options.cancelCheckInterval;
    const QByteArray method = request.method.toUpper();
    HttpConnection::Result result = connection->exchange(HttpConnection::serialize(request),
                                                         method == "HEAD", limits, isCancelled);

    response.status = result.status;
    response.headers = std::move(result.headers);
    response.body = std::move(result.body);
    response.transportError = result.error;
    response.transportErrorString = std::move(result.errorString);
    response.clientError.reset();
    Attempt attempt;
    attempt.cancelled = result.cancelled;
    attempt.requestWritten = result.requestWritten;
    // A kept-alive connection the server closed while it was idle fails before any answer; a
    // request that only reads may go again at once on a new connection (what HTTP clients do,
    // RFC 9112, 9.3.1). A write waits for the retry policy: the server may have acted on it.
    attempt.idleConnectionClosed = reused && !result.answerStarted &&
                                   result.error == QNetworkReply::RemoteHostClosedError &&
                                   isSafe(method);
    if (connection->isReusable(m_options.maxIdle)) {
        if (m_idle.size() >= maxIdleConnections)
            m_idle.erase(m_idle.begin());
        m_idle.push_back(std::move(connection));
    }
    if (response.transportError == QNetworkReply::ProxyAuthenticationRequiredError) {
        BackendError error = clientError(
            BackendError::Category::Terminal, QStringLiteral("ProxyAuthenticationRequired"),
            QStringLiteral("the %1 asks for authentication (407); authenticated proxies are not "
                           "supported yet: use a proxy that needs no sign-in, or list %2 in "
                           "NO_PROXY")
                .arg(proxy.describe(), request.url.host()));
        error.httpStatus = 407;
        response.clientError = std::move(error);
    } else if (result.tooLarge) {
        response.clientError = clientError(
            BackendError::Category::Terminal, QStringLiteral("ResponseTooLarge"),
            QStringLiteral("the response from %1 is larger than %2; refusing to read it")
                .arg(request.url.host(), mebibytes(m_options.maxResponseBytes)));
    } else if (response.status >= 300 && response.status < 400 && response.status != 304) {
        const QUrl target = request.url.resolved(QUrl::fromEncoded(response.header("Location")));
        BackendError error = clientError(
            BackendError::Category::Invalid, QStringLiteral("Redirected"),
            QStringLiteral("redirected to %1; credentials are only sent to the account's host")
                .arg(target.host().isEmpty() ? QStringLiteral("an unknown location")
                                             : target.host()));
        error.httpStatus = response.status;
        response.clientError = std::move(error);
    }
    return attempt;
}

bool HttpClient::wait(std::chrono::milliseconds delay, const CancelCheck &isCancelled)
{
    if (delay <= std::chrono::milliseconds::zero())
        return !(isCancelled && isCancelled());
    QEventLoop loop;
    QTimer done;
    done.setSingleShot(true);
    done.setTimerType(Qt::PreciseTimer); // a server's "wait 300 ms" means at least 300 ms
    QObject::connect(&done, &QTimer::timeout, &loop, &QEventLoop::quit);
    bool cancelled = false;
    QTimer cancelTimer;
    cancelTimer.setInterval(m_options.cancelCheckInterval);
    QObject::connect(&cancelTimer, &QTimer::timeout, &loop, [&] {
        if (isCancelled()) {
            cancelled = true;
            loop.quit();
        }
    });
    done.start(delay);
    if (isCancelled)
        cancelTimer.start();
    loop.exec();
    return !cancelled;
}

} // namespace converge

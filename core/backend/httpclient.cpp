// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "httpclient.h"

#include "buildinfo.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QHash>
#include <QHostAddress>
#include <QNetworkAccessManager>
#include <QNetworkRequest>
#include <QThread>
#include <QTimer>
#include <QUuid>

namespace converge {

namespace {

QString requestIdOf(const HttpResponse::Headers &headers)
{
    for (const char *name : {"x-ms-request-id", "x-amzn-RequestId", "x-amz-request-id"}) {
        for (const auto &[key, value] : headers) {
            if (QByteArrayView(name).compare(key, Qt::CaseInsensitive) == 0)
                return QString::fromLatin1(value);
        }
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

struct HttpClient::Attempt
{
    int status = 0;
    HttpResponse::Headers headers;
    QByteArray body;
    QNetworkReply::NetworkError transportError = QNetworkReply::NoError;
    QString transportErrorString;
    std::optional<BackendError> clientError;
    bool cancelled = false;
};

HttpClient::HttpClient()
    : HttpClient(Options{})
{}

HttpClient::HttpClient(Options options)
    : m_options(std::move(options))
    , m_retry(m_options.retry, m_options.random)
    , m_network(std::make_unique<QNetworkAccessManager>())
{
    m_network->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    m_network->setAutoDeleteReplies(false);
}

HttpClient::~HttpClient() = default;

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
    Q_ASSERT_X(QThread::currentThread() == m_network->thread(), "HttpClient::send",
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

    for (int attempt = 1;; ++attempt) {
        if (isCancelled && isCancelled()) {
            markCancelled();
            break;
        }
        HttpRequest signedRequest = prepared;
        if (sign)
            sign(signedRequest);
        Attempt result = sendOnce(signedRequest, isCancelled);
        response.attempts = attempt;
        response.status = result.status;
        response.headers = std::move(result.headers);
        response.body = std::move(result.body);
        response.transportError = result.transportError;
        response.transportErrorString = std::move(result.transportErrorString);
        response.clientError = std::move(result.clientError);
        response.requestId = requestIdOf(response.headers);
        if (result.cancelled) {
            markCancelled();
            break;
        }
        const bool retriable =
            !response.clientError &&
            (response.status != 0
                 ? RetryPolicy::isRetriableStatus(response.status)
                 : RetryPolicy::isRetriableTransportError(response.transportError));
        if (!retriable)
            break;
        const RetryPolicy::Decision decision =
            m_retry.delayFor(attempt, response.headers, QDateTime::currentDateTimeUtc());
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

HttpClient::Attempt HttpClient::sendOnce(const HttpRequest &request, const CancelCheck &isCancelled)
{
    QNetworkRequest networkRequest(request.url);
    networkRequest.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                                QNetworkRequest::ManualRedirectPolicy);
    networkRequest.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);
    networkRequest.setTransferTimeout(int(m_options.transferTimeout.count()));
    // QNetworkRequest keeps one value per name: join repeated headers as HTTP allows.
    QList<QByteArray> names;
    QHash<QByteArray, QByteArray> values;
    for (const auto &[name, value] : request.headers) {
        const QByteArray key = name.toLower();
        if (!values.contains(key)) {
            names.append(name);
            values.insert(key, value);
        } else {
            values[key] += QByteArrayLiteral(", ") + value;
        }
    }
    for (const QByteArray &name : std::as_const(names))
        networkRequest.setRawHeader(name, values.value(name.toLower()));

    // Without a body, GET/HEAD/DELETE go out without a Content-Length, and HEAD must be sent as
    // HEAD so that Qt does not wait for a body. Everything else sends the body, even an empty one
    // (Content-Length: 0, which Azure requires on PUT).
    const QByteArray method = request.method.toUpper();
    QNetworkReply *raw = nullptr;
    if (method == "HEAD")
        raw = m_network->head(networkRequest);
    else if (method == "GET" && request.body.isEmpty())
        raw = m_network->get(networkRequest);
    else if (method == "DELETE" && request.body.isEmpty())
        raw = m_network->deleteResource(networkRequest);
    else
        raw = m_network->sendCustomRequest(networkRequest, request.method, request.body);
    // Deleted directly when this function returns, outside its signal handlers: a worker that
    // sends many requests in one slot must not pile up replies waiting for deleteLater.
    const std::unique_ptr<QNetworkReply> reply(raw);

    enum class Abort { None, ConnectTimeout, TooLarge, Cancelled };
    Abort abortReason = Abort::None;
    QByteArray body;
    QEventLoop loop;
    const auto abortWith = [&](Abort reason) {
        if (abortReason == Abort::None)
            abortReason = reason;
        reply->abort();
    };

    QTimer connectTimer;
    connectTimer.setSingleShot(true);
    connectTimer.setInterval(m_options.connectTimeout);
    QObject::connect(&connectTimer, &QTimer::timeout, &loop,
                     [&] { abortWith(Abort::ConnectTimeout); });
    QObject::connect(reply.get(), &QNetworkReply::requestSent, &loop, [&] { connectTimer.stop(); });
    QObject::connect(reply.get(), &QNetworkReply::metaDataChanged, &loop, [&] {
        connectTimer.stop();
        const QVariant length = reply->header(QNetworkRequest::ContentLengthHeader);
        if (length.isValid() && length.toLongLong() > m_options.maxResponseBytes)
            abortWith(Abort::TooLarge);
    });
    QObject::connect(reply.get(), &QNetworkReply::readyRead, &loop, [&] {
        body += reply->readAll();
        if (body.size() > m_options.maxResponseBytes)
            abortWith(Abort::TooLarge);
    });
    QTimer cancelTimer;
    cancelTimer.setInterval(m_options.cancelCheckInterval);
    QObject::connect(&cancelTimer, &QTimer::timeout, &loop, [&] {
        if (isCancelled())
            abortWith(Abort::Cancelled);
    });
    QObject::connect(reply.get(), &QNetworkReply::finished, &loop, &QEventLoop::quit);

    if (!reply->isFinished()) {
        connectTimer.start();
        if (isCancelled)
            cancelTimer.start();
        loop.exec();
    }
    if (abortReason == Abort::None && reply->isOpen())
        body += reply->readAll();

    Attempt attempt;
    attempt.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    attempt.headers = reply->rawHeaderPairs();
    attempt.body = std::move(body);
    switch (abortReason) {
    case Abort::Cancelled:
        attempt.cancelled = true;
        return attempt;
    case Abort::TooLarge:
        attempt.body.clear();
        attempt.clientError = clientError(
            BackendError::Category::Terminal, QStringLiteral("ResponseTooLarge"),
            QStringLiteral("the response from %1 is larger than %2; refusing to read it")
                .arg(request.url.host(), mebibytes(m_options.maxResponseBytes)));
        return attempt;
    case Abort::ConnectTimeout:
        attempt.status = 0;
        attempt.transportError = QNetworkReply::TimeoutError;
        attempt.transportErrorString =
            QStringLiteral("could not connect to %1 within %2 ms")
                .arg(request.url.authority(), QString::number(m_options.connectTimeout.count()));
        return attempt;
    case Abort::None:
        break;
    }
    if (attempt.status == 0) {
        attempt.transportError = reply->error();
        attempt.transportErrorString = reply->errorString();
        // Qt reports its own transfer timeout as a cancellation; we did not cancel.
        if (attempt.transportError == QNetworkReply::OperationCanceledError) {
            attempt.transportError = QNetworkReply::TimeoutError;
            attempt.transportErrorString =
                QStringLiteral("no data from %1 for %2 ms")
                    .arg(request.url.authority(),
                         QString::number(m_options.transferTimeout.count()));
        }
        return attempt;
    }
    if (attempt.status >= 300 && attempt.status < 400 && attempt.status != 304) {
        const QUrl target = request.url.resolved(
            reply->attribute(QNetworkRequest::RedirectionTargetAttribute).toUrl());
        BackendError error = clientError(
            BackendError::Category::Invalid, QStringLiteral("Redirected"),
            QStringLiteral("redirected to %1; credentials are only sent to the account's host")
                .arg(target.host().isEmpty() ? QStringLiteral("an unknown location")
                                             : target.host()));
        error.httpStatus = attempt.status;
        attempt.clientError = std::move(error);
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

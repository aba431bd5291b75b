// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "httpconnection.h"

#include "httpresponseparser.h"

#include <QEventLoop>
#include <QHash>
#include <QTcpSocket>
#include <QTimer>
#ifndef QT_NO_SSL
#include <QSslSocket>
#endif

namespace converge {

namespace {

bool isHttps(const QUrl &url)
{
    return url.scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) == 0;
}

int portOf(const QUrl &url)
{
    return url.port(isHttps(url) ? 443 : 80);
}

QNetworkReply::NetworkError networkErrorOf(QAbstractSocket::SocketError error)
{
    switch (error) {
    case QAbstractSocket::ConnectionRefusedError:
        return QNetworkReply::ConnectionRefusedError;
    case QAbstractSocket::RemoteHostClosedError:
        return QNetworkReply::RemoteHostClosedError;
    case QAbstractSocket::HostNotFoundError:
        return QNetworkReply::HostNotFoundError;
    case QAbstractSocket::SocketTimeoutError:
        return QNetworkReply::TimeoutError;
    case QAbstractSocket::NetworkError:
        return QNetworkReply::TemporaryNetworkFailureError;
    case QAbstractSocket::SslHandshakeFailedError:
    case QAbstractSocket::SslInternalError:
    case QAbstractSocket::SslInvalidUserDataError:
        return QNetworkReply::SslHandshakeFailedError;
    case QAbstractSocket::ProxyConnectionRefusedError:
        return QNetworkReply::ProxyConnectionRefusedError;
    case QAbstractSocket::ProxyConnectionClosedError:
        return QNetworkReply::ProxyConnectionClosedError;
    case QAbstractSocket::ProxyConnectionTimeoutError:
        return QNetworkReply::ProxyTimeoutError;
    case QAbstractSocket::ProxyNotFoundError:
        return QNetworkReply::ProxyNotFoundError;
    case QAbstractSocket::ProxyAuthenticationRequiredError:
        return QNetworkReply::ProxyAuthenticationRequiredError;
    default:
        return QNetworkReply::UnknownNetworkError;
    }
}

} // namespace

HttpConnection::HttpConnection(const QUrl &url)
    : HttpConnection(url, Route())
{}

HttpConnection::HttpConnection(const QUrl &url, Route route)
    : m_url(url)
    , m_route(std::move(route))
    , m_origin(originOf(url))
{}

QString HttpConnection::where() const
{
    if (m_route.proxy.type() == QNetworkProxy::NoProxy)
        return m_url.authority();
    return QStringLiteral("%1 through the %2").arg(m_url.authority(), m_route.proxyDescription);
}

HttpConnection::~HttpConnection()
{
    if (m_socket)
        m_socket->abort();
}

QString HttpConnection::originOf(const QUrl &url)
{
    return url.scheme().toLower() + QLatin1String("://") + url.host().toLower() + QLatin1Char(':') +
           QString::number(portOf(url));
}

QByteArray HttpConnection::serialize(const HttpRequest &request)
{
    // As Qt's HTTP stack formats the target (and so as the signers were checked against).
    QUrl::FormattingOptions format(QUrl::RemoveFragment | QUrl::RemoveUserInfo |
                                   QUrl::FullyEncoded | QUrl::RemoveScheme | QUrl::RemoveAuthority);
    QUrl target = request.url;
    if (target.path().isEmpty())
        target.setPath(QStringLiteral("/"));
    else
        format |= QUrl::NormalizePathSegments;

    const QByteArray method = request.method.toUpper();
    QByteArray bytes;
    bytes.reserve(512 + request.body.size());
    bytes += method + ' ' + target.toEncoded(format) + " HTTP/1.1\r\n";
    if (!request.hasHeader("Host"))
        bytes += "Host: " + HttpRequest::hostHeader(request.url) + "\r\n";

    // Repeated names are joined into one field as HTTP allows, in the order given.
    QList<QByteArray> names;
    QHash<QByteArray, QByteArray> values;
    for (const auto &[name, value] : request.headers) {
        if (name.compare("Content-Length", Qt::CaseInsensitive) == 0 ||
            name.compare("Connection", Qt::CaseInsensitive) == 0 ||
            name.compare("Transfer-Encoding", Qt::CaseInsensitive) == 0) {
            continue; // framing is this class's business
        }
        const QByteArray key = name.toLower();
        auto it = values.find(key);
        if (it == values.end()) {
            names.append(name);
            values.insert(key, value);
        } else {
            *it += QByteArrayLiteral(", ") + value;
        }
    }
    for (const QByteArray &name : std::as_const(names))
        bytes += name + ": " + values.value(name.toLower()) + "\r\n";

    // GET, HEAD and DELETE without a body go out without a Content-Length; everything else
    // says its length, even 0 (Azure requires it on an empty PUT).
    const bool bodyless =
        request.body.isEmpty() && (method == "GET" || method == "HEAD" || method == "DELETE");
    if (!bodyless)
        bytes += "Content-Length: " + QByteArray::number(request.body.size()) + "\r\n";
    bytes += "\r\n";
    bytes += request.body;
    return bytes;
}

bool HttpConnection::isReusable(std::chrono::milliseconds maxIdle)
{
    if (!m_reusable || !m_socket || m_socket->state() != QAbstractSocket::ConnectedState)
        return false;
    if (m_idleSince.isValid() && m_idleSince.elapsed() > maxIdle.count())
        return false;
    // A server that closed an idle connection has sent its FIN; the thread may not have run
    // its event loop since, so look now without waiting. Any byte on an idle connection is
    // out of protocol, too.
    if (m_socket->waitForReadyRead(0) || m_socket->bytesAvailable() > 0 ||
        m_socket->state() != QAbstractSocket::ConnectedState) {
        m_reusable = false;
        return false;
    }
    return true;
}

void HttpConnection::open()
{
    if (m_socket)
        m_socket->abort();
    const QString host = m_url.host();
    const quint16 port = quint16(portOf(m_url));
    if (isHttps(m_url)) {
#ifndef QT_NO_SSL
        auto ssl = std::make_unique<QSslSocket>();
        ssl->setProtocol(QSsl::SecureProtocols);
        if (m_route.tls)
            ssl->setSslConfiguration(*m_route.tls);
        // Set even when direct: the default would follow an application-wide proxy.
        ssl->setProxy(m_route.proxy);
        ssl->connectToHostEncrypted(host, port);
        m_socket = std::move(ssl);
#else
        m_socket.reset();
        return;
#endif
    } else {
        m_socket = std::make_unique<QTcpSocket>();
        m_socket->setProxy(m_route.proxy);
        m_socket->connectToHost(host, port);
    }
}

HttpConnection::Result HttpConnection::exchange(const QByteArray &requestBytes, bool headRequest,
                                                const Limits &limits,
                                                const std::function<bool()> &isCancelled)
{
    Result result;
    m_reusable = false;
    // First: in a thread not started by QThread, it makes the event dispatcher that the
    // socket's notifiers need at creation.
    QEventLoop loop;

    const bool fresh = !m_socket || m_socket->state() != QAbstractSocket::ConnectedState;
    if (fresh)
        open();
    if (!m_socket) {
        result.error = QNetworkReply::SslHandshakeFailedError;
        result.errorString = QStringLiteral("this build of Qt has no TLS support");
        return result;
    }
    QTcpSocket *socket = m_socket.get();
    const bool tls = isHttps(m_url);

    enum class Stop { None, ConnectTimeout, TransferTimeout, Cancelled, SocketError };
    Stop stop = Stop::None;
    QAbstractSocket::SocketError socketError = QAbstractSocket::UnknownSocketError;
    HttpResponseParser parser(headRequest, limits.maxResponseBytes);

    QTimer connectTimer;
    connectTimer.setSingleShot(true);
    QTimer transferTimer;
    transferTimer.setSingleShot(true);
    transferTimer.setInterval(limits.transferTimeout);
    QTimer cancelTimer;
    cancelTimer.setInterval(limits.cancelCheckInterval);

    const auto end = [&](Stop reason) {
        if (stop == Stop::None)
            stop = reason;
        loop.quit();
    };
    const auto readAvailable = [&] {
        if (parser.state() != HttpResponseParser::State::Incomplete)
            return;
        const QByteArray bytes = socket->readAll();
        if (bytes.isEmpty())
            return;
        transferTimer.start();
        if (parser.feed(bytes) != HttpResponseParser::State::Incomplete)
            loop.quit();
    };
    const auto send = [&] {
        connectTimer.stop();
        transferTimer.start();
        if (fresh) { // small requests must not wait for Nagle's algorithm
            socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
            socket->setSocketOption(QAbstractSocket::KeepAliveOption, 1);
        }
        socket->write(requestBytes);
        result.requestWritten = true;
    };

    QObject::connect(&connectTimer, &QTimer::timeout, &loop, [&] { end(Stop::ConnectTimeout); });
    QObject::connect(&transferTimer, &QTimer::timeout, &loop, [&] { end(Stop::TransferTimeout); });
    QObject::connect(&cancelTimer, &QTimer::timeout, &loop, [&] {
        if (isCancelled())
            end(Stop::Cancelled);
    });
    QObject::connect(socket, &QIODevice::bytesWritten, &loop, [&] {
        if (!connectTimer.isActive())
            transferTimer.start();
    });
    QObject::connect(socket, &QIODevice::readyRead, &loop, readAvailable);
    QObject::connect(
        socket, &QAbstractSocket::errorOccurred, &loop, [&](QAbstractSocket::SocketError error) {
            readAvailable();
            if (parser.state() != HttpResponseParser::State::Incomplete || stop != Stop::None)
                return; // the first failure says what happened
            socketError = error;
            if (error == QAbstractSocket::RemoteHostClosedError &&
                parser.finish() == HttpResponseParser::State::Complete) {
                loop.quit();
                return;
            }
            end(Stop::SocketError);
        });
    QObject::connect(socket, &QAbstractSocket::disconnected, &loop, [&] {
        readAvailable();
        if (parser.state() != HttpResponseParser::State::Incomplete || stop != Stop::None)
            return;
        socketError = QAbstractSocket::RemoteHostClosedError;
        if (parser.finish() == HttpResponseParser::State::Complete) {
            loop.quit();
            return;
        }
        end(Stop::SocketError);
    });
#ifndef QT_NO_SSL
    if (tls && fresh) {
        QObject::connect(static_cast<QSslSocket *>(socket), &QSslSocket::encrypted, &loop, send);
    }
#endif
    if (!tls && fresh)
        QObject::connect(socket, &QAbstractSocket::connected, &loop, send);

    if (fresh) {
        connectTimer.start(limits.connectTimeout);
    } else {
        send();
    }
    if (isCancelled)
        cancelTimer.start();
    if (socket->state() == QAbstractSocket::UnconnectedState && stop == Stop::None &&
        socketError == QAbstractSocket::UnknownSocketError) {
        // connectToHost failed synchronously (e.g. an invalid host name)
        socketError = socket->error();
        stop = Stop::SocketError;
    }
    if (stop == Stop::None)
        loop.exec();
    QObject::disconnect(socket, nullptr, &loop, nullptr);

    result.answerStarted = parser.started();
    switch (parser.state()) {
    case HttpResponseParser::State::Complete:
        result.status = parser.status();
        result.headers = parser.headers();
        result.body = parser.takeBody();
        m_reusable = parser.keepAlive() && socket->state() == QAbstractSocket::ConnectedState &&
                     socket->bytesAvailable() == 0;
        if (m_reusable)
            m_idleSince.start();
        else
            socket->abort();
        return result;
    case HttpResponseParser::State::Failed:
        socket->abort();
        if (parser.tooLarge()) {
            result.tooLarge = true;
            return result;
        }
        if (stop == Stop::SocketError) { // cut by the end of the connection
            result.error = QNetworkReply::RemoteHostClosedError;
        } else {
            result.error = QNetworkReply::ProtocolFailure;
        }
        result.errorString = QStringLiteral("%1: %2").arg(where(), parser.errorString());
        return result;
    case HttpResponseParser::State::Incomplete:
        break;
    }
    socket->abort();
    switch (stop) {
    case Stop::Cancelled:
        result.cancelled = true;
        break;
    case Stop::ConnectTimeout:
        result.error = QNetworkReply::TimeoutError;
        result.errorString = QStringLiteral("could not connect to %1 within %2 ms")
                                 .arg(where(), QString::number(limits.connectTimeout.count()));
        break;
    case Stop::TransferTimeout:
        result.error = QNetworkReply::TimeoutError;
        result.errorString = QStringLiteral("no data from %1 for %2 ms")
                                 .arg(where(), QString::number(limits.transferTimeout.count()));
        break;
    case Stop::SocketError:
    case Stop::None:
        result.error = networkErrorOf(socketError);
        result.errorString =
            result.error == QNetworkReply::RemoteHostClosedError
                ? QStringLiteral("%1 closed the connection %2")
                      .arg(where(), result.answerStarted ? QStringLiteral("mid-answer")
                                                         : QStringLiteral("before answering"))
                : QStringLiteral("%1: %2").arg(where(), socket->errorString());
        break;
    }
    return result;
}

} // namespace converge

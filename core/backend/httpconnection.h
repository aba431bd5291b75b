// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "httprequest.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QList>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QPair>
#include <QString>
#include <QUrl>
#ifndef QT_NO_SSL
#include <QSslConfiguration>
#endif

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

class QTcpSocket;

namespace converge {

/// One HTTP/1.1 connection of an HttpClient to one origin (scheme, host and port), over a
/// QTcpSocket or, for https, a QSslSocket with the platform's certificate verification. It
/// carries one exchange at a time and stays open between exchanges while the server allows.
///
/// Why not QNetworkAccessManager: when a connection drops before or during an answer, Qt's HTTP
/// stack sends the request again by itself (POSTs included, up to three times, a few
/// milliseconds apart), and the caller never learns of it. A client that must honour a
/// server's Retry-After, count what it sent and not repeat a write blindly has to own every
/// attempt: here an exchange is sent exactly once, and its failure is the caller's to handle.
///
/// Through a proxy (Route::proxy), the socket tunnels with HTTP CONNECT (or SOCKS5) for http and
/// https alike, so the request is the same on the wire as without one.
///
/// Belongs to the thread that created it; exchange() runs a local event loop on it.
class HttpConnection final
{
public:
    using Headers = QList<QPair<QByteArray, QByteArray>>;

    struct Limits
    {
        /// Until the connection is open (TCP, and TLS for https).
        std::chrono::milliseconds connectTimeout{10000};
        /// Longest time without any byte moving once connected.
        std::chrono::milliseconds transferTimeout{20000};
        qint64 maxResponseBytes = qint64(64) * 1024 * 1024;
        std::chrono::milliseconds cancelCheckInterval{50};
    };

    struct Result
    {
        int status = 0; ///< set only for a complete answer
        Headers headers;
        QByteArray body;
        QNetworkReply::NetworkError error = QNetworkReply::NoError;
        QString errorString;
        bool tooLarge = false;
        bool cancelled = false;
        /// Any byte of the answer arrived (for a failure: the server had seen the request).
        bool answerStarted = false;
        /// The request was handed to the connection: the server may have seen it.
        bool requestWritten = false;
    };

    /// How the connection reaches its origin.
    struct Route
    {
        QNetworkProxy proxy{QNetworkProxy::NoProxy};
        QString proxyDescription; ///< for messages: "proxy host:port (from …)"
#ifndef QT_NO_SSL
        /// Replaces Qt's default TLS configuration (extra CA certificates); unset: the default.
        std::optional<QSslConfiguration> tls;
#endif
    };

    explicit HttpConnection(const QUrl &url);
    HttpConnection(const QUrl &url, Route route);
    ~HttpConnection();
    Q_DISABLE_COPY_MOVE(HttpConnection)

    /// "scheme://host:port" with the scheme's default port filled in.
    static QString originOf(const QUrl &url);
    const QString &origin() const
    {
        return m_origin;
    }

    /// The request as it goes on the wire: request line, Host, the headers as given (repeated
    /// names joined as HTTP allows), Content-Length for a body or any method but GET, HEAD and
    /// DELETE, and the body.
    static QByteArray serialize(const HttpRequest &request);

    /// Sends `requestBytes` (from serialize()) and reads the answer. Never sends twice.
    Result exchange(const QByteArray &requestBytes, bool headRequest, const Limits &limits,
                    const std::function<bool()> &isCancelled);

    /// Open, left clean by its last answer, idle for at most `maxIdle`, and not closed by the
    /// server meanwhile (checked without waiting).
    bool isReusable(std::chrono::milliseconds maxIdle);

private:
    void open();
    /// "host:port", and the proxy when there is one: where a failure happened.
    QString where() const;

    QUrl m_url;
    Route m_route;
    QString m_origin;
    std::unique_ptr<QTcpSocket> m_socket;
    QElapsedTimer m_idleSince;
    bool m_reusable = false;
};

} // namespace converge

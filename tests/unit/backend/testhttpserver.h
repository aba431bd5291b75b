// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPair>
#include <QTcpServer>
#include <QUrl>

#include <functional>

class QTcpSocket;

namespace converge::test {

/// A tiny scripted HTTP/1.1 server on 127.0.0.1 for HttpClient tests: it answers requests in
/// order from a queue of canned replies (then with a fallback), records what it received, and
/// can stall (accept a request and never answer) to provoke timeouts and cancellation.
class TestHttpServer final : public QObject
{
    Q_OBJECT

public:
    using Headers = QList<QPair<QByteArray, QByteArray>>;

    struct Reply
    {
        int status = 200;
        Headers headers;
        QByteArray body;
        bool stall = false; ///< never answer
        /// Close the connection instead of answering (after the request was read), or after
        /// half of the answer.
        enum class Drop { No, BeforeAnswer, MidAnswer } drop = Drop::No;
        /// Close the connection a moment after a complete answer (an idle keep-alive timeout).
        bool closeAfterAnswer = false;
    };

    struct Received
    {
        QByteArray method;
        QByteArray target; ///< path and query as sent
        Headers headers;
        QByteArray body;
        QByteArray header(QByteArrayView name) const;
        bool hasHeader(QByteArrayView name) const;
    };

    explicit TestHttpServer(QObject *parent = nullptr);
    ~TestHttpServer() override;

    bool isListening() const { return m_server.isListening(); }
    quint16 port() const { return m_server.serverPort(); }
    /// http://127.0.0.1:<port><path>
    QUrl url(const QString &path = QStringLiteral("/")) const;

    void enqueue(const Reply &reply) { m_replies.append(reply); }
    /// Answers every request the queue does not by what `responder` makes of it (a token
    /// endpoint that checks what it is sent), instead of the fallback.
    void setResponder(std::function<Reply(const Received &)> responder)
    {
        m_responder = std::move(responder);
    }
    void setFallback(const Reply &reply) { m_fallback = reply; }
    const QList<Received> &received() const { return m_received; }
    /// Connections accepted so far.
    int connections() const { return m_connections; }

signals:
    void requestReceived();

private:
    void onReadyRead(QTcpSocket *socket);
    void answer(QTcpSocket *socket, const Received &request);

    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    QList<Reply> m_replies;
    Reply m_fallback;
    std::function<Reply(const Received &)> m_responder;
    QList<Received> m_received;
    int m_connections = 0;
};

} // namespace converge::test

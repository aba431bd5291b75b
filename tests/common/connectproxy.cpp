// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "connectproxy.h"

#include <QTcpSocket>

namespace converge::test {

namespace {

const char *tailProperty = "converge_tail";

} // namespace

ConnectProxy::ConnectProxy(Mode mode, QObject *parent)
    : QObject(parent)
    , m_mode(mode)
{
    connect(&m_server, &QTcpServer::newConnection, this, &ConnectProxy::onNewConnection);
}

ConnectProxy::~ConnectProxy() = default;

void ConnectProxy::setUpstream(const QString &host, quint16 port)
{
    m_upstreamHost = host;
    m_upstreamPort = port;
}

bool ConnectProxy::listen(const QHostAddress &address)
{
    return m_server.listen(address, 0);
}

QString ConnectProxy::url() const
{
    const QHostAddress address = m_server.serverAddress();
    const QString host = address.protocol() == QAbstractSocket::IPv6Protocol
                             ? QLatin1Char('[') + address.toString() + QLatin1Char(']')
                             : address.toString();
    return QStringLiteral("http://%1:%2").arg(host).arg(port());
}

void ConnectProxy::onNewConnection()
{
    while (QTcpSocket *client = m_server.nextPendingConnection()) {
        client->setParent(this);
        ++m_connections;
        connect(client, &QTcpSocket::disconnected, client, &QObject::deleteLater);
        if (m_mode == Mode::Forward) {
            startTunnel(client, m_upstreamHost, m_upstreamPort, false);
            continue;
        }
        // Read the CONNECT head, then hand the socket over to the tunnel.
        auto head = std::make_shared<QByteArray>();
        auto *reading = new QObject(client);
        connect(client, &QTcpSocket::readyRead, reading, [this, client, head, reading] {
            *head += client->readAll();
            const qsizetype end = head->indexOf("\r\n\r\n");
            if (end < 0)
                return;
            delete reading; // disconnects this reader
            const QList<QByteArray> line = head->left(head->indexOf("\r\n")).split(' ');
            if (line.size() < 2 || line.at(0) != "CONNECT") {
                client->write("HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n"
                              "Connection: close\r\n\r\n");
                client->disconnectFromHost();
                return;
            }
            const QString target = QString::fromLatin1(line.at(1));
            m_targets << target;
            if (m_mode == Mode::RequireAuthentication) {
                ++m_refused;
                client->write("HTTP/1.1 407 Proxy Authentication Required\r\n"
                              "Proxy-Authenticate: Basic realm=\"converge-test\"\r\n"
                              "Content-Length: 0\r\nConnection: close\r\n\r\n");
                client->disconnectFromHost();
                return;
            }
            const qsizetype colon = target.lastIndexOf(QLatin1Char(':'));
            QString host = target.left(colon);
            if (host.startsWith(QLatin1Char('[')))
                host = host.mid(1, host.size() - 2);
            const QByteArray rest = head->mid(end + 4);
            startTunnel(client, host, quint16(target.mid(colon + 1).toUInt()), true);
            if (!rest.isEmpty())
                client->setProperty("converge_pending", rest);
        });
    }
}

void ConnectProxy::startTunnel(QTcpSocket *client, const QString &host, quint16 port, bool answer)
{
    auto *upstream = new QTcpSocket(client);
    const auto pipeClient = [this, client, upstream] {
        const QByteArray bytes = client->readAll();
        countRequests(client, bytes);
        upstream->write(bytes);
    };
    connect(upstream, &QTcpSocket::connected, client, [this, client, upstream, answer, pipeClient] {
        if (answer) {
            ++m_tunnels;
            client->write("HTTP/1.1 200 Connection established\r\n\r\n");
        }
        const QByteArray pending = client->property("converge_pending").toByteArray();
        if (!pending.isEmpty()) {
            countRequests(client, pending);
            upstream->write(pending);
        }
        connect(client, &QTcpSocket::readyRead, upstream, pipeClient);
        pipeClient();
    });
    connect(upstream, &QTcpSocket::readyRead, client,
            [client, upstream] { client->write(upstream->readAll()); });
    connect(upstream, &QTcpSocket::disconnected, client,
            [client] { client->disconnectFromHost(); });
    connect(upstream, &QTcpSocket::errorOccurred, client, [client, upstream, answer] {
        if (upstream->state() != QAbstractSocket::ConnectedState && answer) {
            client->write("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
        }
        client->disconnectFromHost();
    });
    connect(client, &QTcpSocket::disconnected, upstream,
            [upstream] { upstream->disconnectFromHost(); });
    upstream->connectToHost(host, port);
}

void ConnectProxy::countRequests(QTcpSocket *client, const QByteArray &bytes)
{
    // A request line may be split between reads: keep the last few bytes of the previous one.
    const QByteArray tail = client->property(tailProperty).toByteArray();
    const QByteArray text = tail + bytes;
    const QByteArray marker = " HTTP/1.1\r\n";
    for (qsizetype at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) {
        if (at + marker.size() > tail.size())
            ++m_requests;
    }
    client->setProperty(tailProperty, text.right(marker.size() - 1));
}

} // namespace converge::test

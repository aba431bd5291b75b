// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QObject>
#include <QStringList>
#include <QTcpServer>

class QTcpSocket;

namespace converge::test {

/// An HTTP CONNECT proxy on loopback for the network tests, counting what goes through it.
///
/// Tunnel: answers `CONNECT host:port` with 200 and then carries bytes both ways; plain http
/// requests seen inside tunnels are counted too. RequireAuthentication: answers every CONNECT
/// with 407 Proxy Authentication Required (Basic). Forward: no proxy protocol at all, every
/// connection is carried to one fixed upstream (a stand-in for a server listening on another
/// address, e.g. on [::1] in front of an emulator on 127.0.0.1).
///
/// Lives on the thread that made it, which must run its event loop (QTRY_*, QSignalSpy::wait).
class ConnectProxy final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectProxy)

public:
    enum class Mode { Tunnel, RequireAuthentication, Forward };

    explicit ConnectProxy(Mode mode, QObject *parent = nullptr);
    ~ConnectProxy() override;

    /// For Forward: where every connection goes.
    void setUpstream(const QString &host, quint16 port);
    /// Listens on `address` (127.0.0.1 unless told) on a free port.
    bool listen(const QHostAddress &address = QHostAddress::LocalHost);
    quint16 port() const { return m_server.serverPort(); }
    /// "http://127.0.0.1:PORT" (or "http://[::1]:PORT").
    QString url() const;

    int tunnels() const { return m_tunnels; }         ///< CONNECTs answered 200
    int refused() const { return m_refused; }         ///< CONNECTs answered 407
    int connections() const { return m_connections; } ///< client connections accepted
    int requests() const { return m_requests; }       ///< plain http requests seen inside
    /// The "host:port" of each CONNECT, in order.
    QStringList targets() const { return m_targets; }

private:
    void onNewConnection();
    void startTunnel(QTcpSocket *client, const QString &host, quint16 port, bool answer);
    void countRequests(QTcpSocket *client, const QByteArray &bytes);

    Mode m_mode;
    QTcpServer m_server;
    QString m_upstreamHost;
    quint16 m_upstreamPort = 0;
    int m_tunnels = 0;
    int m_refused = 0;
    int m_connections = 0;
    int m_requests = 0;
    QStringList m_targets;
};

} // namespace converge::test

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Custom certificate authorities: a TLS server with a self-signed certificate (made with the
// openssl command) is trusted once SSL_CERT_FILE or SSL_CERT_DIR names it and refused
// otherwise, and https goes through an HTTPS_PROXY's CONNECT tunnel with the same checks.
#include "cabundle.h"
#include "connectproxy.h"
#include "httpclient.h"

#include <QProcess>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace converge;
using namespace converge::test;

namespace {

/// Answers every request with 200 "ok" over TLS.
class TlsServer final : public QObject
{
public:
    TlsServer(const QSslCertificate &certificate, const QSslKey &key)
    {
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setLocalCertificate(certificate);
        tls.setPrivateKey(key);
        m_server.setSslConfiguration(tls);
        connect(&m_server, &QTcpServer::pendingConnectionAvailable, this, [this] {
            while (auto *socket = static_cast<QSslSocket *>(m_server.nextPendingConnection())) {
                socket->setParent(this);
                connect(socket, &QSslSocket::readyRead, socket, [socket] {
                    QByteArray head = socket->property("head").toByteArray() + socket->readAll();
                    socket->setProperty("head", head);
                    if (head.contains("\r\n\r\n")) {
                        socket->setProperty("head", QByteArray());
                        socket->write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
                    }
                });
                connect(socket, &QSslSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }
    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    QUrl url() const
    {
        return QUrl(QStringLiteral("https://127.0.0.1:%1/x").arg(m_server.serverPort()));
    }

private:
    QSslServer m_server;
};

} // namespace

class tst_CaBundle final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_certPath;
    QSslCertificate m_certificate;
    QSslKey m_key;

    HttpResponse get(const QUrl &url, HttpClient::Options options,
                     ProxyResolver::Environment proxyEnvironment = {})
    {
        options.proxies = std::make_shared<const ProxyResolver>(std::move(proxyEnvironment),
                                                                ProxyResolver::SystemQuery());
        HttpClient http(options);
        HttpRequest request;
        request.url = url;
        return http.send(request);
    }

    HttpClient::Options trusting(const ProxyResolver::Environment &environment)
    {
        HttpClient::Options options;
        options.caBundle = std::make_shared<const CaBundle>(CaBundle::fromEnvironment(environment));
        return options;
    }

private slots:
    void initTestCase()
    {
        if (!QSslSocket::supportsSsl())
            QSKIP("this Qt has no TLS backend");
        const QString openssl = QStandardPaths::findExecutable(QStringLiteral("openssl"));
        if (openssl.isEmpty())
            QSKIP("no openssl command (scripts/install-deps installs it)");
        QVERIFY(m_dir.isValid());
        QVERIFY(QDir(m_dir.path()).mkdir(QStringLiteral("certs")));
        m_certPath = m_dir.filePath(QStringLiteral("certs/ca.pem"));
        const QString keyPath = m_dir.filePath(QStringLiteral("key.pem"));
        QProcess process;
        process.start(
            openssl, {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                      QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-days"),
                      QStringLiteral("2"), QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1"),
                      QStringLiteral("-addext"), QStringLiteral("subjectAltName=IP:127.0.0.1"),
                      QStringLiteral("-keyout"), keyPath, QStringLiteral("-out"), m_certPath});
        QVERIFY(process.waitForFinished(60000));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        const QList<QSslCertificate> certificates = QSslCertificate::fromPath(m_certPath);
        QCOMPARE(certificates.size(), 1);
        m_certificate = certificates.first();
        QFile keyFile(keyPath);
        QVERIFY(keyFile.open(QIODevice::ReadOnly));
        m_key = QSslKey(keyFile.readAll(), QSsl::Rsa);
        QVERIFY(!m_key.isNull());
    }

    void untrustedWithoutTheBundle()
    {
        TlsServer server(m_certificate, m_key);
        QVERIFY(server.listen());
        const HttpResponse response = get(server.url(), trusting({}));
        QCOMPARE(response.status, 0);
        QCOMPARE(response.transportError, QNetworkReply::SslHandshakeFailedError);
    }

    void trustedThroughSslCertFile()
    {
        TlsServer server(m_certificate, m_key);
        QVERIFY(server.listen());
        const HttpResponse response =
            get(server.url(), trusting({{QStringLiteral("SSL_CERT_FILE"), m_certPath}}));
        QVERIFY2(response.status == 200, qPrintable(response.transportErrorString));
        QCOMPARE(response.body, QByteArray("ok"));
    }

    void trustedThroughSslCertDir()
    {
        TlsServer server(m_certificate, m_key);
        QVERIFY(server.listen());
        const QString dirs =
            QStringLiteral("/nonexistent-ca-dir:") + m_dir.filePath(QStringLiteral("certs"));
        const CaBundle bundle = CaBundle::fromEnvironment({{QStringLiteral("SSL_CERT_DIR"), dirs}});
        QCOMPARE(bundle.certificates().size(), 1);
        QCOMPARE(bundle.problems().size(), 1); // the missing folder, named
        QVERIFY(bundle.problems().first().contains(QLatin1String("/nonexistent-ca-dir")));
        const HttpResponse response =
            get(server.url(), trusting({{QStringLiteral("SSL_CERT_DIR"), dirs}}));
        QVERIFY2(response.status == 200, qPrintable(response.transportErrorString));
    }

    void theProcessEnvironmentIsRead()
    {
        TlsServer server(m_certificate, m_key);
        QVERIFY(server.listen());
        const QByteArray saved = qgetenv("SSL_CERT_FILE");
        qputenv("SSL_CERT_FILE", m_certPath.toLocal8Bit());
        const HttpResponse response = get(server.url(), HttpClient::Options{});
        if (saved.isEmpty())
            qunsetenv("SSL_CERT_FILE");
        else
            qputenv("SSL_CERT_FILE", saved);
        QVERIFY2(response.status == 200, qPrintable(response.transportErrorString));
    }

    void unreadableFileIsAProblem()
    {
        const CaBundle bundle = CaBundle::fromEnvironment(
            {{QStringLiteral("SSL_CERT_FILE"), m_dir.filePath(QStringLiteral("missing.pem"))}});
        QVERIFY(bundle.isEmpty());
        QCOMPARE(bundle.problems().size(), 1);
    }

    void httpsThroughTheConnectProxy()
    {
        TlsServer server(m_certificate, m_key);
        QVERIFY(server.listen());
        ConnectProxy proxy(ConnectProxy::Mode::Tunnel);
        QVERIFY(proxy.listen());
        const HttpResponse response =
            get(server.url(), trusting({{QStringLiteral("SSL_CERT_FILE"), m_certPath}}),
                {{QStringLiteral("HTTPS_PROXY"), proxy.url()},
                 {QStringLiteral("CONVERGE_PROXY_LOOPBACK"), QStringLiteral("1")}});
        QVERIFY2(response.status == 200, qPrintable(response.transportErrorString));
        QCOMPARE(proxy.tunnels(), 1);
        QCOMPARE(proxy.targets(),
                 QStringList{QStringLiteral("127.0.0.1:%1").arg(server.url().port())});
    }
};

QTEST_GUILESS_MAIN(tst_CaBundle)
#include "tst_cabundle.moc"

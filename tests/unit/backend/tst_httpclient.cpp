// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// HttpClient against a scripted HTTP server on 127.0.0.1: retries, server hints, timeouts,
// cancellation and the transport rules. Delays are injected small so the suite takes seconds.
#include "buildinfo.h"
#include "httpclient.h"
#include "testhttpserver.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <atomic>
#include <memory>
#include <thread>

using namespace converge;
using namespace converge::test;
using namespace std::chrono_literals;

class tst_HttpClient final : public QObject
{
    Q_OBJECT

private:
    static HttpClient::Options fastOptions()
    {
        HttpClient::Options options;
        options.retry.baseDelay = 1ms;
        options.random = [] { return 0.0; };
        options.transferTimeout = 5s;
        options.connectTimeout = 5s;
        options.cancelCheckInterval = 10ms;
        return options;
    }

    static TestHttpServer::Reply reply(int status, TestHttpServer::Headers headers = {},
                                       QByteArray body = {})
    {
        TestHttpServer::Reply r;
        r.status = status;
        r.headers = std::move(headers);
        r.body = std::move(body);
        return r;
    }

    static HttpRequest get(const QUrl &url)
    {
        HttpRequest request;
        request.url = url;
        request.clientRequestId = HttpRequest::ClientRequestId::Azure;
        return request;
    }

private slots:
    void retriesOn503Then200()
    {
        TestHttpServer server;
        QVERIFY(server.isListening());
        server.enqueue(reply(503, {{"x-ms-request-id", "first"}}));
        server.enqueue(reply(200, {{"x-ms-request-id", "second"}}, "hello"));
        HttpClient client(fastOptions());
        int signings = 0;
        const HttpResponse response =
            client.send(get(server.url(QStringLiteral("/c"))), [&signings](HttpRequest &r) {
                r.setHeader("Authorization", "Test " + QByteArray::number(++signings));
            });
        QVERIFY(response.isSuccess());
        QCOMPARE(response.status, 200);
        QCOMPARE(response.body, QByteArray("hello"));
        QCOMPARE(response.attempts, 2);
        QCOMPARE(response.requestId, QStringLiteral("second"));
        QCOMPARE(signings, 2);
        QCOMPARE(server.received().size(), 2);
        // Signed again per attempt; one client request id for the whole send().
        QCOMPARE(server.received().at(0).header("Authorization"), QByteArray("Test 1"));
        QCOMPARE(server.received().at(1).header("Authorization"), QByteArray("Test 2"));
        static const QRegularExpression uuid(
            QStringLiteral("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"));
        QVERIFY2(uuid.match(response.clientRequestId).hasMatch(),
                 qPrintable(response.clientRequestId));
        for (const auto &received : server.received()) {
            QCOMPARE(received.header("x-ms-client-request-id"),
                     response.clientRequestId.toLatin1());
            QCOMPARE(received.header("User-Agent"), BuildInfo::userAgent().toUtf8());
        }
    }

    void awsRequestsCarryAnInvocationId()
    {
        TestHttpServer server;
        HttpClient client(fastOptions());
        HttpRequest request = get(server.url());
        request.clientRequestId = HttpRequest::ClientRequestId::Aws;
        const HttpResponse response = client.send(request);
        QVERIFY(response.isSuccess());
        QCOMPARE(server.received().value(0).header("amz-sdk-invocation-id"),
                 response.clientRequestId.toLatin1());
        QVERIFY(!server.received().value(0).hasHeader("x-ms-client-request-id"));
    }

    void honoursServerHints_data()
    {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<int>("minimumMs");
        QTest::newRow("retry-after-ms") << QByteArray("retry-after-ms") << QByteArray("300") << 300;
        QTest::newRow("x-ms-retry-after-ms")
            << QByteArray("x-ms-retry-after-ms") << QByteArray("250") << 250;
        QTest::newRow("Retry-After seconds")
            << QByteArray("Retry-After") << QByteArray("1") << 1000;
    }

    void honoursServerHints()
    {
        QFETCH(QByteArray, name);
        QFETCH(QByteArray, value);
        QFETCH(int, minimumMs);
        TestHttpServer server;
        server.enqueue(reply(503, {{name, value}}));
        server.enqueue(reply(200));
        HttpClient client(fastOptions()); // base delay 1 ms: only the hint can make it wait
        QElapsedTimer clock;
        clock.start();
        const HttpResponse response = client.send(get(server.url()));
        QCOMPARE(response.status, 200);
        QCOMPARE(response.attempts, 2);
        QVERIFY2(clock.elapsed() >= minimumMs, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(clock.elapsed() < minimumMs + 5000);
    }

    void aHintBeyondTheCapIsLeftToTheEngine()
    {
        TestHttpServer server;
        server.setFallback(reply(503, {{"Retry-After", "120"}}));
        HttpClient client(fastOptions());
        const HttpResponse response = client.send(get(server.url()));
        QCOMPARE(response.status, 503);
        QCOMPARE(response.attempts, 1);
        QVERIFY(response.retryAfter.has_value());
        QCOMPARE(response.retryAfter->count(), 120000);
        QVERIFY(response.elapsed < 5s);
        const BackendError error = response.toError();
        QCOMPARE(error.category, BackendError::Category::Throttled);
        QCOMPARE(error.retryAfter, response.retryAfter);
    }

    void givesUpAfterThreeRetries()
    {
        TestHttpServer server;
        server.setFallback(reply(503, {{"x-ms-error-code", "ServerBusy"}}));
        HttpClient client(fastOptions());
        const HttpResponse response = client.send(get(server.url()));
        QCOMPARE(response.attempts, 4);
        QCOMPARE(server.received().size(), 4);
        QCOMPARE(response.status, 503);
        QVERIFY(!response.isSuccess());
        QVERIFY(!response.retryAfter.has_value());
        QCOMPARE(response.toError().code, QStringLiteral("ServerBusy"));
    }

    void doesNotRetryClientErrors_data()
    {
        QTest::addColumn<int>("status");
        QTest::newRow("400") << 400;
        QTest::newRow("404") << 404;
        QTest::newRow("409") << 409;
        QTest::newRow("501") << 501;
    }

    void doesNotRetryClientErrors()
    {
        QFETCH(int, status);
        TestHttpServer server;
        server.setFallback(reply(status, {{"x-ms-error-code", "InvalidResourceName"}}));
        HttpClient client(fastOptions());
        const HttpResponse response = client.send(get(server.url()));
        QCOMPARE(response.status, status);
        QCOMPARE(response.attempts, 1);
        QCOMPARE(server.received().size(), 1);
        QCOMPARE(response.toError().code, QStringLiteral("InvalidResourceName"));
    }

    void retriesRefusedConnections()
    {
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost, 0));
        const quint16 port = closed.serverPort();
        closed.close();
        HttpClient client(fastOptions());
        HttpRequest request;
        request.url = QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(port));
        const HttpResponse response = client.send(request);
        QCOMPARE(response.status, 0);
        QCOMPARE(response.transportError, QNetworkReply::ConnectionRefusedError);
        QCOMPARE(response.attempts, 4);
        QCOMPARE(response.toError().category, BackendError::Category::Transient);
        QCOMPARE(response.toError().code, QStringLiteral("ConnectionRefused"));
    }

    void transferTimeoutFires()
    {
        TestHttpServer server;
        TestHttpServer::Reply stall;
        stall.stall = true;
        server.setFallback(stall);
        HttpClient::Options options = fastOptions();
        options.transferTimeout = 200ms;
        options.retry.maxRetries = 1;
        HttpClient client(options);
        const HttpResponse response = client.send(get(server.url()));
        QCOMPARE(response.status, 0);
        QCOMPARE(response.transportError, QNetworkReply::TimeoutError);
        // A timeout goes back to the caller at once, even for a GET and with retries left: the
        // engine holds the account's work instead of this client waiting it out again.
        QCOMPARE(response.attempts, 1);
        QCOMPARE(server.received().size(), 1);
        QVERIFY(response.elapsed >= 180ms); // Qt's timer is coarse (5%)
        QVERIFY(response.elapsed < 10s);
        QVERIFY(!response.cancelled);
        const BackendError error = response.toError();
        QCOMPARE(error.code, QStringLiteral("Timeout"));
        QCOMPARE(error.category, BackendError::Category::Transient);
        QVERIFY2(error.message.contains(QStringLiteral("200 ms")), qPrintable(error.message));
    }

    void everyAttemptIsOneRequest_data()
    {
        using Drop = TestHttpServer::Reply::Drop;
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<Drop>("drop");
        QTest::addColumn<int>("attempts");

        // A read may go again; a write whose outcome is unknown goes back to the caller.
        QTest::newRow("GET, closed before the answer")
            << QByteArray("GET") << Drop::BeforeAnswer << 4;
        QTest::newRow("GET, closed mid-answer") << QByteArray("GET") << Drop::MidAnswer << 4;
        QTest::newRow("POST, closed before the answer")
            << QByteArray("POST") << Drop::BeforeAnswer << 1;
        QTest::newRow("POST, closed mid-answer") << QByteArray("POST") << Drop::MidAnswer << 1;
        QTest::newRow("PUT, closed before the answer")
            << QByteArray("PUT") << Drop::BeforeAnswer << 1;
    }

    void everyAttemptIsOneRequest()
    {
        // The server sees exactly the attempts the client counts: nothing is sent again behind
        // the retry policy's back (Qt's own HTTP stack re-sends after a dropped connection,
        // POSTs included).
        QFETCH(QByteArray, method);
        QFETCH(TestHttpServer::Reply::Drop, drop);
        QFETCH(int, attempts);
        TestHttpServer server;
        TestHttpServer::Reply dropped = reply(200, {}, QByteArray(200, 'x'));
        dropped.drop = drop;
        server.setFallback(dropped);
        HttpClient client(fastOptions());
        HttpRequest request = get(server.url());
        request.method = method;
        request.body = method == "GET" ? QByteArray() : QByteArray("{}");
        const HttpResponse response = client.send(request);
        QCOMPARE(response.status, 0);
        QCOMPARE(response.transportError, QNetworkReply::RemoteHostClosedError);
        QCOMPARE(response.attempts, attempts);
        QTest::qWait(50); // anything sent late would arrive now
        QCOMPARE(server.received().size(), attempts);
        QCOMPARE(response.toError().category, BackendError::Category::Transient);
    }

    void keepsTheConnectionAlive()
    {
        TestHttpServer server;
        server.setFallback(reply(200, {}, "ok"));
        HttpClient client(fastOptions());
        for (int i = 0; i < 5; ++i)
            QCOMPARE(client.send(get(server.url())).status, 200);
        QCOMPARE(server.received().size(), 5);
        QCOMPARE(server.connections(), 1);
    }

    void doesNotReuseAConnectionTheServerClosed()
    {
        TestHttpServer server;
        TestHttpServer::Reply closing = reply(200, {}, "ok");
        closing.closeAfterAnswer = true;
        server.setFallback(closing);
        HttpClient client(fastOptions());
        for (int i = 0; i < 3; ++i) {
            const HttpResponse response = client.send(get(server.url()));
            QCOMPARE(response.status, 200);
            QCOMPARE(response.attempts, 1);
            QTest::qWait(100); // the server closes the idle connection meanwhile
        }
        QCOMPARE(server.received().size(), 3);
        QCOMPARE(server.connections(), 3);
    }

    void worksInAThreadNotStartedByQThread()
    {
        // Tests and tools call managers from a plain std::thread; Qt adopts it, and the
        // socket's notifiers need an event dispatcher before the socket exists.
        TestHttpServer server;
        server.setFallback(reply(200, {}, "ok"));
        std::atomic<int> status{-1};
        std::thread thread([&] {
            HttpClient client(fastOptions());
            status = client.send(get(server.url())).status;
        });
        QTRY_VERIFY_WITH_TIMEOUT(status != -1, 15000); // the server answers on this thread
        thread.join();
        QCOMPARE(status.load(), 200);
    }

    void refusesPlainHttpToOtherHosts_data()
    {
        QTest::addColumn<QUrl>("url");
        QTest::newRow("name") << QUrl(QStringLiteral("http://example.com/c"));
        QTest::newRow("private address") << QUrl(QStringLiteral("http://10.1.2.3:10000/acct"));
        QTest::newRow("ipv6") << QUrl(QStringLiteral("http://[2001:db8::1]/"));
        QTest::newRow("localhost lookalike") << QUrl(QStringLiteral("http://localhost.evil.com/"));
    }

    void refusesPlainHttpToOtherHosts()
    {
        QFETCH(QUrl, url);
        HttpClient client(fastOptions());
        int signings = 0;
        const HttpResponse response =
            client.send(get(url), [&signings](HttpRequest &) { ++signings; });
        QVERIFY(response.clientError.has_value());
        QCOMPARE(response.clientError->category, BackendError::Category::Invalid);
        QCOMPARE(response.clientError->code, QStringLiteral("InsecureHttp"));
        QVERIFY(response.clientError->message.contains(url.host()));
        QCOMPARE(response.attempts, 0);
        QCOMPARE(signings, 0); // nothing was signed, so nothing could leak
    }

    void allowsLoopbackAndHttps_data()
    {
        QTest::addColumn<QUrl>("url");
        QTest::addColumn<bool>("allowInsecure");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("127.0.0.1")
            << QUrl(QStringLiteral("http://127.0.0.1:10000/a")) << false << true;
        QTest::newRow("127.8.9.10") << QUrl(QStringLiteral("http://127.8.9.10/")) << false << true;
        QTest::newRow("localhost")
            << QUrl(QStringLiteral("http://LocalHost:8000/")) << false << true;
        QTest::newRow("::1") << QUrl(QStringLiteral("http://[::1]:8000/")) << false << true;
        QTest::newRow("https") << QUrl(QStringLiteral("https://acme.blob.core.windows.net/"))
                               << false << true;
        QTest::newRow("http, allowed explicitly")
            << QUrl(QStringLiteral("http://10.1.2.3/")) << true << true;
        QTest::newRow("ftp") << QUrl(QStringLiteral("ftp://127.0.0.1/")) << true << false;
        QTest::newRow("no host") << QUrl(QStringLiteral("http:///x")) << false << false;
    }

    void allowsLoopbackAndHttps()
    {
        QFETCH(QUrl, url);
        QFETCH(bool, allowInsecure);
        QFETCH(bool, allowed);
        HttpClient::Options options = fastOptions();
        options.allowInsecureHttp = allowInsecure;
        HttpClient client(options);
        const std::optional<BackendError> refusal = client.checkUrl(url);
        QCOMPARE(!refusal.has_value(), allowed);
    }

    void refusesRedirects_data()
    {
        QTest::addColumn<QByteArray>("location");
        QTest::addColumn<QString>("host");
        QTest::newRow("other host")
            << QByteArray("http://127.0.0.2:9/elsewhere") << QStringLiteral("127.0.0.2");
        QTest::newRow("https elsewhere")
            << QByteArray("https://attacker.example/steal") << QStringLiteral("attacker.example");
    }

    void refusesRedirects()
    {
        QFETCH(QByteArray, location);
        QFETCH(QString, host);
        TestHttpServer server;
        server.setFallback(reply(302, {{"Location", location}}));
        HttpClient client(fastOptions());
        const HttpResponse response = client.send(get(server.url()), [](HttpRequest &r) {
            r.setHeader("Authorization", "SharedKey secret");
        });
        QCOMPARE(server.received().size(), 1); // not followed, not retried
        QCOMPARE(response.attempts, 1);
        QVERIFY(response.clientError.has_value());
        QCOMPARE(response.clientError->category, BackendError::Category::Invalid);
        QCOMPARE(response.clientError->httpStatus, 302);
        QCOMPARE(response.clientError->message,
                 QStringLiteral("redirected to %1; credentials are only sent to the account's "
                                "host")
                     .arg(host));
        QVERIFY(!response.isSuccess());
    }

    void cancellationAbortsTheReply()
    {
        TestHttpServer server;
        TestHttpServer::Reply stall;
        stall.stall = true;
        server.setFallback(stall);
        HttpClient client(fastOptions()); // transfer timeout 5 s
        bool cancelled = false;
        QTimer::singleShot(100ms, this, [&cancelled] { cancelled = true; });
        const HttpResponse response =
            client.send(get(server.url()), {}, [&cancelled] { return cancelled; });
        QVERIFY(response.cancelled);
        QCOMPARE(response.attempts, 1);
        QVERIFY(response.elapsed < 3s);
        QVERIFY(response.clientError.has_value());
        QCOMPARE(response.clientError->code, QStringLiteral("Cancelled"));
    }

    void cancellationEndsTheBackoffWait()
    {
        TestHttpServer server;
        server.setFallback(reply(503, {{"retry-after-ms", "30000"}}));
        HttpClient client(fastOptions());
        bool cancelled = false;
        QTimer::singleShot(100ms, this, [&cancelled] { cancelled = true; });
        const HttpResponse response =
            client.send(get(server.url()), {}, [&cancelled] { return cancelled; });
        QVERIFY(response.cancelled);
        QCOMPARE(response.attempts, 1);
        QCOMPARE(server.received().size(), 1);
        QVERIFY(response.elapsed < 5s);
    }

    void refusesOversizedBodies()
    {
        TestHttpServer server;
        server.setFallback(reply(200, {}, QByteArray(4096, 'x')));
        HttpClient::Options options = fastOptions();
        options.maxResponseBytes = 1024;
        HttpClient client(options);
        const HttpResponse response = client.send(get(server.url()));
        QVERIFY(response.clientError.has_value());
        QCOMPARE(response.clientError->code, QStringLiteral("ResponseTooLarge"));
        QCOMPARE(response.clientError->category, BackendError::Category::Terminal);
        QVERIFY(response.body.isEmpty());
        QCOMPARE(response.attempts, 1);
        QVERIFY(!response.isSuccess());
    }

    void sendsBodiesAsSigned()
    {
        // Azure wants Content-Length: 0 on an empty PUT and signs Content-Type: Qt must not add
        // one of its own after signing.
        TestHttpServer server;
        HttpClient client(fastOptions());
        HttpRequest put;
        put.method = "PUT";
        put.url = server.url(QStringLiteral("/acct/c"));
        QVERIFY(client.send(put).isSuccess());
        HttpRequest post;
        post.method = "POST";
        post.url = server.url();
        post.body = "{}";
        QVERIFY(client.send(post).isSuccess());
        HttpRequest head;
        head.method = "HEAD";
        head.url = server.url();
        const HttpResponse headResponse = client.send(head);
        QVERIFY(headResponse.isSuccess());
        QVERIFY(headResponse.elapsed < 3s);

        QCOMPARE(server.received().size(), 3);
        const auto &emptyPut = server.received().at(0);
        QCOMPARE(emptyPut.method, QByteArray("PUT"));
        QCOMPARE(emptyPut.header("Content-Length"), QByteArray("0"));
        QVERIFY(!emptyPut.hasHeader("Content-Type"));
        const auto &jsonPost = server.received().at(1);
        QCOMPARE(jsonPost.body, QByteArray("{}"));
        QCOMPARE(jsonPost.header("Content-Type"), QByteArray("application/octet-stream"));
        QCOMPARE(server.received().at(2).method, QByteArray("HEAD"));
    }
    void httpsVerifiesTheServer()
    {
        // A TLS server whose certificate nobody trusts: the handshake fails and no request
        // reaches it. Once its certificate is trusted, requests go through, kept alive.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString certPath = dir.filePath(QStringLiteral("cert.pem"));
        const QString keyPath = dir.filePath(QStringLiteral("key.pem"));
        QProcess openssl;
        openssl.start(QStringLiteral("openssl"),
                      {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                       QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                       QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
                       QStringLiteral("-keyout"), keyPath, QStringLiteral("-out"), certPath,
                       QStringLiteral("-days"), QStringLiteral("1"), QStringLiteral("-subj"),
                       QStringLiteral("/CN=localhost"), QStringLiteral("-addext"),
                       QStringLiteral("subjectAltName=DNS:localhost")});
        QVERIFY2(openssl.waitForFinished(30000) && openssl.exitCode() == 0,
                 qPrintable(QStringLiteral("openssl (Debian package openssl): %1")
                                .arg(QString::fromLocal8Bit(openssl.readAllStandardError()))));
        QFile certFile(certPath);
        QFile keyFile(keyPath);
        QVERIFY(certFile.open(QIODevice::ReadOnly) && keyFile.open(QIODevice::ReadOnly));
        const QSslCertificate certificate(&certFile, QSsl::Pem);
        const QSslKey key(&keyFile, QSsl::Ec, QSsl::Pem);
        QVERIFY(!certificate.isNull() && !key.isNull());

        QSslServer server;
        QSslConfiguration serverConfig = QSslConfiguration::defaultConfiguration();
        serverConfig.setLocalCertificate(certificate);
        serverConfig.setPrivateKey(key);
        server.setSslConfiguration(serverConfig);
        int requests = 0;
        connect(&server, &QTcpServer::pendingConnectionAvailable, this, [&] {
            while (QTcpSocket *socket = server.nextPendingConnection()) {
                auto buffer = std::make_shared<QByteArray>();
                connect(socket, &QIODevice::readyRead, socket, [socket, buffer, &requests] {
                    *buffer += socket->readAll();
                    while (buffer->contains("\r\n\r\n")) {
                        buffer->remove(0, buffer->indexOf("\r\n\r\n") + 4);
                        ++requests;
                        socket->write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
                    }
                });
            }
        });
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        HttpRequest request =
            get(QUrl(QStringLiteral("https://localhost:%1/").arg(server.serverPort())));

        HttpClient untrusting(fastOptions());
        const HttpResponse refused = untrusting.send(request);
        QCOMPARE(refused.status, 0);
        QCOMPARE(refused.transportError, QNetworkReply::SslHandshakeFailedError);
        QCOMPARE(refused.toError().code, QStringLiteral("TlsHandshakeFailed"));
        QCOMPARE(refused.attempts, 1); // not retried: a certificate does not heal
        QCOMPARE(requests, 0);

        const QSslConfiguration before = QSslConfiguration::defaultConfiguration();
        QSslConfiguration trusting = before;
        trusting.addCaCertificate(certificate);
        QSslConfiguration::setDefaultConfiguration(trusting);
        HttpClient client(fastOptions());
        for (int i = 0; i < 3; ++i) {
            const HttpResponse response = client.send(request);
            QCOMPARE(response.status, 200);
            QCOMPARE(response.body, QByteArray("ok"));
        }
        QSslConfiguration::setDefaultConfiguration(before);
        QCOMPARE(requests, 3);
        QCOMPARE(server.findChildren<QSslSocket *>().size(), 1); // one connection, kept alive
    }
};

QTEST_GUILESS_MAIN(tst_HttpClient)
#include "tst_httpclient.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Bearer tokens against an Azurite of the test's own that accepts only them (--oauth basic,
// https with a certificate made here and trusted through SSL_CERT_FILE): containers, queues
// and tables created with a token from a token command and from a stand-in `az` on PATH; a
// token about to expire replaced before a request fails; a failing command's message on the
// account, with nothing retried; no token in the workspace; all of it through an HTTPS_PROXY.
#include "azureintegration.h"
#include "connectproxy.h"
#include "privateazurite.h"

#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QStandardPaths>

using namespace converge;
using namespace converge::test;
using namespace std::chrono_literals;

namespace {

/// The header every stand-in token starts with ({"alg":"RS256","typ":"JWT"}, base64url).
const QByteArray tokenHeader = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9";

} // namespace

class tst_AzureTokens final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<PrivateAzurite> m_azurite;
    QString m_tokens; // the stand-in scripts' folder
    QString m_runs;   // the file the stand-ins count their runs in
    int m_case = 0;

    Resource account(const QJsonObject &credential) const
    {
        return azureResource(AzureKinds::storageAccount(), QStringLiteral("entra"),
                             {{QStringLiteral("accountName"), devAccountName()},
                              {QStringLiteral("endpoints"), m_azurite->endpoints()},
                              {QStringLiteral("credential"), credential}});
    }

    static QList<Resource> children(const QString &suffix)
    {
        const QString name = uniqueStem() + suffix;
        const QJsonObject owner = ownedBy(QStringLiteral("entra"));
        return {azureResource(AzureKinds::blobContainer(), name, owner),
                azureResource(AzureKinds::queue(), name, owner),
                azureResource(AzureKinds::table(), QString(name).remove(QLatin1Char('-')), owner)};
    }

    QJsonObject tokenCommand() const
    {
        return {{QStringLiteral("tokenCommand"),
                 QJsonObject{{QStringLiteral("command"),
                              QJsonArray{QString(m_tokens + QStringLiteral("/fake-token")),
                                         QStringLiteral("--for"), QStringLiteral("tests")}}}}};
    }

    int runs() const
    {
        QFile file(m_runs);
        if (!file.open(QIODevice::ReadOnly))
            return 0;
        return int(file.readAll().count('\n'));
    }

    static QByteArray workspaceBytes(const AzureEngine &engine)
    {
        QByteArray all;
        for (const QString &suffix : {QString(), QStringLiteral("-wal")}) {
            QFile f(engine.path + suffix);
            if (f.open(QIODevice::ReadOnly))
                all += f.readAll();
        }
        return all;
    }

private slots:
    void initTestCase()
    {
        const QString source = qEnvironmentVariable("CONVERGE_SOURCE_DIR");
        QVERIFY2(!source.isEmpty(), "run through CTest (CONVERGE_SOURCE_DIR)");
        m_tokens = source + QStringLiteral("/tests/integration/azure/tokens");
        const QString openssl = QStandardPaths::findExecutable(QStringLiteral("openssl"));
        QVERIFY2(!openssl.isEmpty(), "openssl (Debian package openssl, scripts/install-deps)");
        QVERIFY(m_dir.isValid());
        const QString cert = m_dir.filePath(QStringLiteral("azurite-cert.pem"));
        const QString key = m_dir.filePath(QStringLiteral("azurite-key.pem"));
        QProcess process;
        process.start(
            openssl, {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                      QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-days"),
                      QStringLiteral("2"), QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1"),
                      QStringLiteral("-addext"), QStringLiteral("subjectAltName=IP:127.0.0.1"),
                      QStringLiteral("-keyout"), key, QStringLiteral("-out"), cert});
        QVERIFY(process.waitForFinished(60000));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        // Trusted the way a person trusts a company CA: HttpClient reads it at its first https
        // connection.
        qputenv("SSL_CERT_FILE", cert.toLocal8Bit());
        for (const char *name : {"HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy"})
            qunsetenv(name);
        m_azurite = std::make_unique<PrivateAzurite>(
            source, PrivateAzurite::Options{
                        .certPath = cert, .keyPath = key, .oauth = true, .location = {}});
        QVERIFY2(m_azurite->start(), "Azurite with --oauth basic did not start");
    }

    void init()
    {
        m_runs = m_dir.filePath(QStringLiteral("runs-%1.txt").arg(++m_case));
        qputenv("CONVERGE_FAKE_TOKEN_RUNS", m_runs.toLocal8Bit());
        qunsetenv("CONVERGE_FAKE_TOKEN_FAIL");
        qunsetenv("CONVERGE_FAKE_TOKEN_FIRST_EXPIRES_IN");
    }

    void bearerCredentialsAreRedacted()
    {
        // The accounts here name no key at all: whatever they create, a bearer token created.
        const Resource entra = account(tokenCommand());
        const Outcome<AzureAccount> resolved = AzureAccount::fromSpec(entra.spec, nullptr);
        QVERIFY2(resolved, qPrintable(resolved ? QString() : resolved.error().toString()));
        QCOMPARE(resolved.value().credentials.kind(), Credentials::Kind::AzureBearer);
        QVERIFY(resolved.value().credentials.secrets().first().startsWith(
            QString::fromLatin1(tokenHeader)));
        QVERIFY(!resolved.value().credentials.redactedDescription().contains(
            QString::fromLatin1(tokenHeader)));
    }

    void tokenCommandCreatesEverything()
    {
        AzureEngine engine;
        const Resource entra = account(tokenCommand());
        QVERIFY(engine.apply(QList<Resource>{entra} + children(QStringLiteral("-cmd"))));
        QVERIFY(engine.start());
        QTRY_VERIFY2_WITH_TIMEOUT(engine.allReady(), qPrintable(engine.describe()), 60000);
        QVERIFY(engine.requests.writes >= 3);
        QCOMPARE(runs(), 1); // one token for every worker and request
        engine.stop();
        QVERIFY(!workspaceBytes(engine).contains(tokenHeader));
        for (const Resource &r : engine.ws->list())
            QVERIFY(!r.status.ready().message.contains(QString::fromLatin1(tokenHeader)));
    }

    void azureCliOnPath()
    {
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", m_tokens.toLocal8Bit() + ':' + path);
        AzureEngine engine;
        const Resource entra =
            account({{QStringLiteral("azureCli"),
                      QJsonObject{{QStringLiteral("tenant"), QStringLiteral("contoso.example")}}}});
        QVERIFY(engine.apply(QList<Resource>{entra} + children(QStringLiteral("-cli"))));
        QVERIFY(engine.start());
        QTRY_VERIFY2_WITH_TIMEOUT(engine.allReady(), qPrintable(engine.describe()), 60000);
        engine.stop();
        qputenv("PATH", path);
        QCOMPARE(runs(), 1);
        QFile file(m_runs);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray arguments = file.readAll().trimmed();
        QCOMPARE(arguments, QByteArray("account get-access-token --resource "
                                       "https://storage.azure.com/ -o json --tenant "
                                       "contoso.example"));
    }

    void tokenAboutToExpireIsReplaced()
    {
        // The first token lives 2 minutes, inside the 5-minute margin: the next request asks
        // again, and the second (an hour) is kept.
        qputenv("CONVERGE_FAKE_TOKEN_FIRST_EXPIRES_IN", "120");
        AzureEngine engine;
        const Resource entra = account(tokenCommand());
        const QList<Resource> made = children(QStringLiteral("-exp"));
        QVERIFY(engine.apply(QList<Resource>{entra} + made));
        QVERIFY(engine.start());
        QTRY_VERIFY2_WITH_TIMEOUT(engine.allReady(), qPrintable(engine.describe()), 60000);
        QVERIFY(engine.resyncAndWait());
        engine.stop();
        QCOMPARE(runs(), 2);
        // Nothing failed on the way: no resource was ever anything but progressing or Ready.
        for (const Resource &r : QList<Resource>{entra} + made) {
            QCOMPARE(engine.events(r.key(), QStringLiteral("AuthenticationFailed")), 0);
            QCOMPARE(engine.events(r.key(), QStringLiteral("TokenCommandFailed")), 0);
        }
        QVERIFY(engine.allReady());
    }

    void httpsThroughTheProxy()
    {
        // The three together: https through HTTPS_PROXY's tunnel, the certificate trusted
        // through SSL_CERT_FILE, a bearer token.
        ConnectProxy proxy(ConnectProxy::Mode::Tunnel);
        QVERIFY(proxy.listen());
        qputenv("HTTPS_PROXY", proxy.url().toLatin1());
        qputenv("CONVERGE_PROXY_LOOPBACK", "1");
        AzureEngine engine;
        const Resource entra = account(tokenCommand());
        QVERIFY(engine.apply(QList<Resource>{entra} + children(QStringLiteral("-tls"))));
        QVERIFY(engine.start());
        QTRY_VERIFY2_WITH_TIMEOUT(engine.allReady(), qPrintable(engine.describe()), 60000);
        engine.stop();
        qunsetenv("HTTPS_PROXY");
        qunsetenv("CONVERGE_PROXY_LOOPBACK");
        QVERIFY(proxy.tunnels() > 0);
        QCOMPARE(proxy.connections(), proxy.tunnels());
        qInfo("%d tunnels for %d requests", proxy.tunnels(), int(engine.requests.total));
    }

    void failingCommandSaysWhatToRun()
    {
        qputenv("CONVERGE_FAKE_TOKEN_FAIL", "1");
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", m_tokens.toLocal8Bit() + ':' + path);
        AzureEngine engine;
        const Resource entra = account({{QStringLiteral("azureCli"), QJsonObject{}}});
        QVERIFY(engine.apply(QList<Resource>{entra} + children(QStringLiteral("-fail"))));
        QVERIFY(engine.start());
        QTRY_COMPARE_WITH_TIMEOUT(engine.ready(entra).status, Condition::Status::False, 30000);
        const Condition ready = engine.ready(entra);
        QCOMPARE(ready.severity, Condition::Severity::Error);
        QCOMPARE(ready.reason, QStringLiteral("TokenCommandFailed"));
        QVERIFY2(ready.message.contains(QLatin1String("Please run 'az login'")),
                 qPrintable(ready.message));
        QVERIFY2(ready.message.contains(QLatin1String("`az login`")), qPrintable(ready.message));
        // Final: not run again until the person acts.
        const int before = runs();
        QTest::qWait(2000);
        QCOMPARE(runs(), before);
        engine.stop();
        qputenv("PATH", path);
        QVERIFY(before >= 1 && before <= 2);
    }
};

QTEST_GUILESS_MAIN(tst_AzureTokens)
#include "tst_azuretokens.moc"

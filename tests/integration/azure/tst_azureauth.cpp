// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Credentials against Azurite through the engine: a wrong key is a fatal Unauthorized error
// with a bounded number of requests (no retry storm) until the spec changes; an account SAS
// from the environment works for blob, queue and table; secrets reach neither the workspace
// nor events.
#include "azureintegration.h"

#include <QFile>
#include <QMessageAuthenticationCode>

using namespace converge;
using namespace converge::test;
using namespace std::chrono_literals;

class tst_AzureAuth final : public QObject
{
    Q_OBJECT

private:
    Emulators m_emulators;
    // A well-formed key that is not the account's.
    const QByteArray m_wrongKey = QByteArray(64, 'k').toBase64();

    Resource accountWith(const QJsonObject &credential) const
    {
        return emulatorAccount(m_emulators, QStringLiteral("devstore"), credential);
    }

    /// An account SAS for Azurite's account, computed as Azure's documentation says (Converge
    /// itself never signs SAS tokens).
    static QByteArray accountSas()
    {
        const QByteArray version = "2021-12-02";
        const QByteArray expiry = "2099-01-01T00:00:00Z";
        const QByteArray toSign = devAccountName().toLatin1() + "\nrwdlacup\nbqt\nsco\n\n" +
                                  expiry + "\n\n\n" + version + "\n\n";
        const QByteArray signature = QMessageAuthenticationCode::hash(
                                         toSign, QByteArray::fromBase64(devAccountKey().toLatin1()),
                                         QCryptographicHash::Sha256)
                                         .toBase64();
        return "sv=" + version + "&ss=bqt&srt=sco&sp=rwdlacup&se=" + expiry +
               "&sig=" + QUrl::toPercentEncoding(QString::fromLatin1(signature));
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
        m_emulators = Emulators::fromEnvironment();
        QVERIFY2(m_emulators.isValid(), qPrintable(m_emulators.error));
    }

    void wrongKeyIsFatalAndQuiet()
    {
        qputenv("CONVERGE_TEST_WRONG_KEY", m_wrongKey);
        qputenv("CONVERGE_TEST_GOOD_KEY", devAccountKey().toLatin1());
        AzureEngine engine;
        Resource account =
            accountWith({{QStringLiteral("env"), QStringLiteral("CONVERGE_TEST_WRONG_KEY")}});
        const Resource container =
            azureResource(AzureKinds::blobContainer(), uniqueStem() + QStringLiteral("-auth"),
                          ownedBy(QStringLiteral("devstore")));
        QVERIFY(engine.apply({account, container}));
        QVERIFY(engine.start());
        QTRY_COMPARE_WITH_TIMEOUT(engine.ready(account).status, Condition::Status::False, 10000);
        const Condition ready = engine.ready(account);
        QCOMPARE(ready.severity, Condition::Severity::Error);
        QVERIFY2(ready.reason == QLatin1String("AuthorizationFailure") ||
                     ready.reason == QLatin1String("AuthenticationFailed"),
                 qPrintable(ready.reason));
        QVERIFY(!ready.message.contains(QString::fromLatin1(m_wrongKey)));
        QVERIFY(engine.hasEvent(account, ready.reason));

        // No retry storm: the account is not asked again, the container waits without asking.
        const int seen = engine.requests.total;
        QTest::qWait(1500);
        QVERIFY2(engine.requests.total <= 2, qPrintable(engine.requests.since(0)));
        QCOMPARE(engine.requests.total.load(), seen);
        QCOMPARE(engine.ready(container).reason, QStringLiteral("WaitingForOwner"));
        qInfo("wrong key: %d request(s) in total, none more over 1.5 s", seen);

        // A spec change (another credential) is what brings it back.
        account.spec.insert(
            QStringLiteral("credential"),
            QJsonObject{{QStringLiteral("env"), QStringLiteral("CONVERGE_TEST_GOOD_KEY")}});
        QVERIFY(engine.apply({account}));
        QTRY_VERIFY2_WITH_TIMEOUT(engine.allReady(), qPrintable(engine.describe()), 15000);

        engine.stop();
        const QByteArray bytes = workspaceBytes(engine);
        QVERIFY(!bytes.isEmpty());
        QVERIFY(!bytes.contains(m_wrongKey));
        QVERIFY(!bytes.contains(devAccountKey().toLatin1()));
        DirectAccess direct(m_emulators);
        QVERIFY(direct.manager(AzureKinds::blobContainer())
                    ->deleteResource(direct.target(container), {}));
    }

    void accountSasFromTheEnvironment()
    {
        const QByteArray sas = accountSas();
        qputenv("CONVERGE_TEST_SAS", sas);
        AzureEngine engine;
        const Resource account =
            accountWith({{QStringLiteral("sasEnv"), QStringLiteral("CONVERGE_TEST_SAS")}});
        const QString stem = uniqueStem();
        const Resource container =
            azureResource(AzureKinds::blobContainer(), stem + QStringLiteral("-sas"),
                          ownedBy(QStringLiteral("devstore")));
        const Resource queue = azureResource(AzureKinds::queue(), stem + QStringLiteral("-sas"),
                                             ownedBy(QStringLiteral("devstore")));
        const Resource table = azureResource(
            AzureKinds::table(), QStringLiteral("sastable"),
            ownedBy(QStringLiteral("devstore"),
                    {{QStringLiteral("azureName"), QString(stem + QStringLiteral("Sas"))}}));
        const Resource blob = azureResource(
            AzureKinds::blob(), QStringLiteral("hello"),
            ownedBy(container.metadata.name, {{QStringLiteral("content"), QStringLiteral("hi")}}));
        QVERIFY(engine.apply({account, container, queue, table, blob}));
        QVERIFY(engine.start());
        QTRY_VERIFY2_WITH_TIMEOUT(engine.allReady(), qPrintable(engine.describe()), 20000);
        QVERIFY(engine.ws->requestDeletion(blob.key(), nullptr));
        QVERIFY(engine.ws->requestDeletion(container.key(), nullptr));
        QVERIFY(engine.ws->requestDeletion(queue.key(), nullptr));
        QVERIFY(engine.ws->requestDeletion(table.key(), nullptr));
        QTRY_COMPARE_WITH_TIMEOUT(engine.ws->count(), 1, 15000);
        engine.stop();
        const QByteArray signature = sas.mid(sas.indexOf("sig=") + 4);
        QVERIFY(!workspaceBytes(engine).contains(signature));
        QVERIFY(!workspaceBytes(engine).contains(QByteArray::fromPercentEncoding(signature)));
    }

    void missingVariableIsUnauthorized()
    {
        qunsetenv("CONVERGE_TEST_UNSET_KEY");
        AzureEngine engine;
        const Resource account =
            accountWith({{QStringLiteral("env"), QStringLiteral("CONVERGE_TEST_UNSET_KEY")}});
        QVERIFY(engine.apply({account}));
        QVERIFY(engine.start());
        QTRY_COMPARE_WITH_TIMEOUT(engine.ready(account).status, Condition::Status::False, 10000);
        QCOMPARE(engine.ready(account).severity, Condition::Severity::Error);
        QVERIFY2(engine.ready(account).message.contains(
                     QLatin1String("CONVERGE_TEST_UNSET_KEY is not set")),
                 qPrintable(engine.ready(account).message));
        QCOMPARE(engine.requests.total.load(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_AzureAuth)
#include "tst_azureauth.moc"

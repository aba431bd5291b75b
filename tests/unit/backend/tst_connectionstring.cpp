// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "connectionstring.h"

#include <QTest>

using namespace converge;

namespace {

const QString devKey = QStringLiteral(
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==");
const QString sas = QStringLiteral(
    "sv=2021-12-02&ss=bqt&srt=sco&sp=rwdlacup&se=2026-12-01T00:00:00Z&spr=https&sig=c2lnbmF0dXJl");

} // namespace

class tst_ConnectionString final : public QObject
{
    Q_OBJECT

private slots:
    void valid_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("account");
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("hasSas");
        QTest::addColumn<QString>("blob");
        QTest::addColumn<QString>("queue");
        QTest::addColumn<QString>("table");
        QTest::addColumn<bool>("development");

        QTest::newRow("portal")
            << QStringLiteral("DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=") +
                   devKey + QStringLiteral(";EndpointSuffix=core.windows.net")
            << QStringLiteral("acme") << devKey << false
            << QStringLiteral("https://acme.blob.core.windows.net/")
            << QStringLiteral("https://acme.queue.core.windows.net/")
            << QStringLiteral("https://acme.table.core.windows.net/") << false;
        QTest::newRow("defaults, spaces, trailing ;, any case")
            << QStringLiteral(" accountname = acme ; ACCOUNTKEY=") + devKey + QStringLiteral(" ;")
            << QStringLiteral("acme") << devKey << false
            << QStringLiteral("https://acme.blob.core.windows.net/")
            << QStringLiteral("https://acme.queue.core.windows.net/")
            << QStringLiteral("https://acme.table.core.windows.net/") << false;
        QTest::newRow("sovereign cloud over http")
            << QStringLiteral("DefaultEndpointsProtocol=http;AccountName=acme;AccountKey=") +
                   devKey + QStringLiteral(";EndpointSuffix=core.chinacloudapi.cn")
            << QStringLiteral("acme") << devKey << false
            << QStringLiteral("http://acme.blob.core.chinacloudapi.cn/")
            << QStringLiteral("http://acme.queue.core.chinacloudapi.cn/")
            << QStringLiteral("http://acme.table.core.chinacloudapi.cn/") << false;
        QTest::newRow("development storage")
            << QStringLiteral("UseDevelopmentStorage=true") << QStringLiteral("devstoreaccount1")
            << devKey << false << QStringLiteral("http://127.0.0.1:10000/devstoreaccount1")
            << QStringLiteral("http://127.0.0.1:10001/devstoreaccount1")
            << QStringLiteral("http://127.0.0.1:10002/devstoreaccount1") << true;
        QTest::newRow("azurite spelled out")
            << QStringLiteral("DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;"
                              "AccountKey=") +
                   devKey +
                   QStringLiteral(";BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;"
                                  "QueueEndpoint=http://127.0.0.1:10001/devstoreaccount1;"
                                  "TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;")
            << QStringLiteral("devstoreaccount1") << devKey << false
            << QStringLiteral("http://127.0.0.1:10000/devstoreaccount1")
            << QStringLiteral("http://127.0.0.1:10001/devstoreaccount1")
            << QStringLiteral("http://127.0.0.1:10002/devstoreaccount1") << false;
        QTest::newRow("SAS with one endpoint, no name")
            << QStringLiteral("BlobEndpoint=https://acme.blob.core.windows.net/;"
                              "SharedAccessSignature=") +
                   sas
            << QString() << QString() << true
            << QStringLiteral("https://acme.blob.core.windows.net/") << QString() << QString()
            << false;
        QTest::newRow("SAS with a name")
            << QStringLiteral("AccountName=acme;SharedAccessSignature=?") + sas
            << QStringLiteral("acme") << QString() << true
            << QStringLiteral("https://acme.blob.core.windows.net/")
            << QStringLiteral("https://acme.queue.core.windows.net/")
            << QStringLiteral("https://acme.table.core.windows.net/") << false;
        // For an account whose credential is a Microsoft Entra ID token: no secret at all.
        QTest::newRow("endpoints only, no secret")
            << QStringLiteral("BlobEndpoint=https://acme.blob.core.windows.net/;"
                              "QueueEndpoint=https://acme.queue.core.windows.net/;"
                              "TableEndpoint=https://acme.table.core.windows.net/")
            << QString() << QString() << false
            << QStringLiteral("https://acme.blob.core.windows.net/")
            << QStringLiteral("https://acme.queue.core.windows.net/")
            << QStringLiteral("https://acme.table.core.windows.net/") << false;
        QTest::newRow("name and protocol, no secret")
            << QStringLiteral("AccountName=acme;DefaultEndpointsProtocol=https")
            << QStringLiteral("acme") << QString() << false
            << QStringLiteral("https://acme.blob.core.windows.net/")
            << QStringLiteral("https://acme.queue.core.windows.net/")
            << QStringLiteral("https://acme.table.core.windows.net/") << false;
    }

    void valid()
    {
        QFETCH(QString, text);
        QFETCH(QString, account);
        QFETCH(QString, key);
        QFETCH(bool, hasSas);
        QFETCH(QString, blob);
        QFETCH(QString, queue);
        QFETCH(QString, table);
        QFETCH(bool, development);

        QString error;
        const std::optional<ConnectionString> c = ConnectionString::parse(text, &error);
        QVERIFY2(c.has_value(), qPrintable(error));
        QCOMPARE(c->accountName, account);
        QCOMPARE(c->accountKey, key);
        QCOMPARE(c->sas.has_value(), hasSas);
        QCOMPARE(c->blobEndpoint.toString(), blob);
        QCOMPARE(c->queueEndpoint.toString(), queue);
        QCOMPARE(c->tableEndpoint.toString(), table);
        QCOMPARE(c->isDevelopmentStorage, development);

        const Credentials credentials = c->credentials();
        if (!key.isEmpty()) {
            QCOMPARE(credentials.kind(), Credentials::Kind::AzureSharedKey);
            QCOMPARE(credentials.azureSharedKeyValue()->key, key);
        } else if (hasSas) {
            QCOMPARE(credentials.kind(), Credentials::Kind::AzureSas);
            QCOMPARE(credentials.azureSasValue()->token, sas);
        } else {
            QVERIFY(credentials.isEmpty());
        }
        // The redacted form keeps no secret.
        QVERIFY(!c->redacted().contains(devKey));
        QVERIFY(!c->redacted().contains(QStringLiteral("c2lnbmF0dXJl")));
    }

    void accountNameFromEndpoints_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("account");
        QTest::newRow("named") << QStringLiteral("AccountName=acme;BlobEndpoint=https://x.example/")
                               << QStringLiteral("acme");
        QTest::newRow("public host") << QStringLiteral("BlobEndpoint=https://Acme.blob.core."
                                                       "windows.net/")
                                     << QStringLiteral("acme");
        QTest::newRow("queue host only")
            << QStringLiteral("QueueEndpoint=https://acme.queue.core.usgovcloudapi.net")
            << QStringLiteral("acme");
        QTest::newRow("path style")
            << QStringLiteral("BlobEndpoint=https://127.0.0.1:10000/devstoreaccount1")
            << QStringLiteral("devstoreaccount1");
        QTest::newRow("custom domain")
            << QStringLiteral("BlobEndpoint=https://files.example.com/") << QString();
    }

    void accountNameFromEndpoints()
    {
        QFETCH(QString, text);
        QFETCH(QString, account);
        QString error;
        const std::optional<ConnectionString> c = ConnectionString::parse(text, &error);
        QVERIFY2(c.has_value(), qPrintable(error));
        QCOMPARE(c->accountNameFromEndpoints(), account);
    }

    void invalid_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");

        QTest::newRow("empty") << QString() << QStringLiteral("the connection string is empty");
        QTest::newRow("unknown key")
            << QStringLiteral("AccountName=acme;AcountKey=") + devKey
            << QStringLiteral("unknown connection string key \"AcountKey\"");
        QTest::newRow("missing =")
            << QStringLiteral("AccountName=acme;AccountKey")
            << QStringLiteral("part 2 of the connection string has no '=' (expected Key=Value "
                              "pairs separated by ';')");
        QTest::newRow("a pasted key is not echoed")
            << QStringLiteral("AccountName=acme;") + devKey
            << QStringLiteral("part 2 of the connection string is not a Key=Value pair (text not "
                              "shown: it may be a secret)");
        QTest::newRow("duplicate key, any case")
            << QStringLiteral("AccountName=acme;accountname=other")
            << QStringLiteral("the key AccountName appears twice");
        QTest::newRow("missing account")
            << QStringLiteral("DefaultEndpointsProtocol=https;EndpointSuffix=core.windows.net")
            << QStringLiteral("the connection string names no account (AccountName=...)");
        QTest::newRow("key without account") << QStringLiteral("AccountKey=") + devKey
                                             << QStringLiteral("AccountKey needs AccountName");
        QTest::newRow("SAS without endpoint or account")
            << QStringLiteral("SharedAccessSignature=") + sas
            << QStringLiteral("the connection string names no account (AccountName=...)");
        QTest::newRow("key not base64") << QStringLiteral("AccountName=a;AccountKey=not*base64")
                                        << QStringLiteral("AccountKey is not valid base64");
        QTest::newRow("bad protocol")
            << QStringLiteral("DefaultEndpointsProtocol=ftp;AccountName=a")
            << QStringLiteral("DefaultEndpointsProtocol must be https or "
                              "http");
        QTest::newRow("relative endpoint")
            << QStringLiteral("AccountName=a;BlobEndpoint=acme.blob.core.windows.net")
            << QStringLiteral("BlobEndpoint must be an absolute http(s) URL");
        QTest::newRow("development storage plus more")
            << QStringLiteral("UseDevelopmentStorage=true;AccountName=a")
            << QStringLiteral("UseDevelopmentStorage=true cannot be combined with other keys; "
                              "spell out the endpoints instead");
        QTest::newRow("development storage false")
            << QStringLiteral("UseDevelopmentStorage=false")
            << QStringLiteral("UseDevelopmentStorage only takes the value true");
        QTest::newRow("bad SAS")
            << QStringLiteral("AccountName=a;SharedAccessSignature=sv=2021-12-02&se=2026-12-01")
            << QStringLiteral("SharedAccessSignature: the SAS token has no signature (sig=...)");
    }

    void invalid()
    {
        QFETCH(QString, text);
        QFETCH(QString, error);
        QString actual;
        QVERIFY(!ConnectionString::parse(text, &actual).has_value());
        QCOMPARE(actual, error);
        QVERIFY(!actual.contains(devKey.left(16))); // errors never echo the key, even in part
    }
};

QTEST_GUILESS_MAIN(tst_ConnectionString)
#include "tst_connectionstring.moc"

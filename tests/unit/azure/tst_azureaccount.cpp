// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Resolving a StorageAccount spec: endpoints, each credential source, the errors people see
// (Unauthorized, never with a secret in them), and the factory's refusals. No network.
#include "azureaccount.h"
#include "azurefactory.h"
#include "azurekinds.h"
#include "azurestorageclient.h"
#include "credentialstore.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace converge;
using Category = BackendError::Category;

namespace {

const QString key = QStringLiteral("c2VjcmV0LWtleS1mb3ItdGVzdHMtb25seQ=="); // base64, not real
const QString sas = QStringLiteral("sv=2021-12-02&ss=bqt&srt=sco&sp=rl&se=2099-01-01T00:00:00Z"
                                   "&sig=c2lnbmF0dXJl%2Bxyz");

/// An in-memory keychain for these tests.
class MemoryStore final : public CredentialStore
{
public:
    QString description() const override { return QStringLiteral("memory"); }
    std::optional<QString> read(const QString &name, BackendError *error) override
    {
        if (name == QLatin1String("acme"))
            return key;
        fail(error, Category::NotFound, QStringLiteral("CredentialNotFound"),
             QStringLiteral("no entry %1").arg(name));
        return std::nullopt;
    }
    bool write(const QString &, const QString &, BackendError *) override { return false; }
    bool remove(const QString &, BackendError *) override { return false; }
};

QJsonObject spec(const QJsonObject &credential, const QJsonObject &endpoints = {})
{
    QJsonObject s{{QStringLiteral("accountName"), QStringLiteral("acme")},
                  {QStringLiteral("credential"), credential}};
    if (!endpoints.isEmpty())
        s.insert(QStringLiteral("endpoints"), endpoints);
    return s;
}

} // namespace

class tst_AzureAccount final : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        qunsetenv("CONVERGE_TEST_AZURE_KEY");
        qunsetenv("CONVERGE_TEST_AZURE_SAS");
        qunsetenv("CONVERGE_TEST_AZURE_CS");
    }

    void defaultEndpoints()
    {
        qputenv("CONVERGE_TEST_AZURE_KEY", key.toLatin1());
        const Outcome<AzureAccount> a = AzureAccount::fromSpec(
            spec({{QStringLiteral("env"), QStringLiteral("CONVERGE_TEST_AZURE_KEY")}}), nullptr);
        QVERIFY(a);
        QCOMPARE(a.value().blobEndpoint.toString(),
                 QStringLiteral("https://acme.blob.core.windows.net/"));
        QCOMPARE(a.value().tableEndpoint.toString(),
                 QStringLiteral("https://acme.table.core.windows.net/"));
        QCOMPARE(a.value().credentials, Credentials::azureSharedKey(QStringLiteral("acme"), key));
        QVERIFY(!a.value().credentialSource.contains(key));
    }

    void emulator()
    {
        QJsonObject endpoints{{QStringLiteral("blob"), QStringLiteral("http://127.0.0.1:1/a")},
                              {QStringLiteral("queue"), QStringLiteral("http://127.0.0.1:2/a")},
                              {QStringLiteral("table"), QStringLiteral("http://localhost:3/a")}};
        Outcome<AzureAccount> a =
            AzureAccount::fromSpec(spec({{QStringLiteral("emulator"), true}}, endpoints), nullptr);
        QVERIFY(a);
        QCOMPARE(a.value().credentials.azureSharedKeyValue()->key, AzureAccount::emulatorKey());
        QCOMPARE(a.value().queueEndpoint.port(), 2);

        endpoints.insert(QStringLiteral("table"),
                         QStringLiteral("https://acme.table.core.windows.net"));
        a = AzureAccount::fromSpec(spec({{QStringLiteral("emulator"), true}}, endpoints), nullptr);
        QVERIFY(!a);
        QCOMPARE(a.error().category, Category::Invalid);
        QVERIFY(a.error().message.contains(QLatin1String("loopback")));
    }

    void credentialErrors_data()
    {
        QTest::addColumn<QJsonObject>("credential");
        QTest::addColumn<QByteArray>("keyValue");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("env unset")
            << QJsonObject{{QStringLiteral("env"), QStringLiteral("CONVERGE_TEST_AZURE_KEY")}}
            << QByteArray() << "CredentialNotFound"
            << "CONVERGE_TEST_AZURE_KEY is not set";
        QTest::newRow("env not base64")
            << QJsonObject{{QStringLiteral("env"), QStringLiteral("CONVERGE_TEST_AZURE_KEY")}}
            << QByteArray("not*base64*secretvalue") << "InvalidAccountKey"
            << "not valid base64";
        QTest::newRow("no keychain")
            << QJsonObject{{QStringLiteral("keychain"), QStringLiteral("acme")}} << QByteArray()
            << "NoKeychain"
            << "no keychain available; use env or file";
        QTest::newRow("sas unset")
            << QJsonObject{{QStringLiteral("sasEnv"), QStringLiteral("CONVERGE_TEST_AZURE_SAS")}}
            << QByteArray() << "CredentialNotFound"
            << "CONVERGE_TEST_AZURE_SAS";
        QTest::newRow("file missing")
            << QJsonObject{{QStringLiteral("file"), QStringLiteral("/nonexistent/converge-keys")}}
            << QByteArray() << "CredentialNotFound"
            << "entry acme of file";
    }

    void credentialErrors()
    {
        QFETCH(QJsonObject, credential);
        QFETCH(QByteArray, keyValue);
        QFETCH(QString, code);
        QFETCH(QString, message);
        if (!keyValue.isEmpty())
            qputenv("CONVERGE_TEST_AZURE_KEY", keyValue);
        const Outcome<AzureAccount> a = AzureAccount::fromSpec(spec(credential), nullptr);
        QVERIFY(!a);
        QCOMPARE(a.error().category, Category::Unauthorized);
        QCOMPARE(a.error().code, code);
        QVERIFY2(a.error().message.contains(message), qPrintable(a.error().message));
        if (!keyValue.isEmpty())
            QVERIFY(!a.error().message.contains(QString::fromLatin1(keyValue)));
    }

    void keychain()
    {
        MemoryStore store;
        Outcome<AzureAccount> a = AzureAccount::fromSpec(
            spec({{QStringLiteral("keychain"), QStringLiteral("acme")}}), &store);
        QVERIFY(a);
        QCOMPARE(a.value().credentials.azureSharedKeyValue()->key, key);
        a = AzureAccount::fromSpec(spec({{QStringLiteral("keychain"), QStringLiteral("other")}}),
                                   &store);
        QVERIFY(!a);
        QCOMPARE(a.error().category, Category::Unauthorized);
        QVERIFY(a.error().message.contains(QLatin1String("no entry other")));
    }

    void file()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("keys"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("# keys\nacme=" + key.toLatin1() + "\n");
        f.close();
        QVERIFY(f.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
        Outcome<AzureAccount> a =
            AzureAccount::fromSpec(spec({{QStringLiteral("file"), path}}), nullptr);
        QVERIFY2(a, qPrintable(a ? QString() : a.error().message));
        QCOMPARE(a.value().credentials.azureSharedKeyValue()->key, key);

        QVERIFY(f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther));
        a = AzureAccount::fromSpec(spec({{QStringLiteral("file"), path}}), nullptr);
        QVERIFY(!a);
        QCOMPARE(a.error().category, Category::Unauthorized);
        QVERIFY(!a.error().message.contains(key));
    }

    void sasToken()
    {
        qputenv("CONVERGE_TEST_AZURE_SAS", sas.toLatin1());
        Outcome<AzureAccount> a = AzureAccount::fromSpec(
            spec({{QStringLiteral("sasEnv"), QStringLiteral("CONVERGE_TEST_AZURE_SAS")}}), nullptr);
        QVERIFY(a);
        QCOMPARE(a.value().credentials.kind(), Credentials::Kind::AzureSas);

        qputenv("CONVERGE_TEST_AZURE_SAS", "sv=2021-12-02&se=2001-01-01T00:00:00Z&sig=abcd");
        a = AzureAccount::fromSpec(
            spec({{QStringLiteral("sasEnv"), QStringLiteral("CONVERGE_TEST_AZURE_SAS")}}), nullptr);
        QVERIFY(!a);
        QCOMPARE(a.error().code, QStringLiteral("SasTokenExpired"));
    }

    void connectionString()
    {
        qputenv("CONVERGE_TEST_AZURE_CS",
                "DefaultEndpointsProtocol=http;AccountName=acme;AccountKey=" + key.toLatin1() +
                    ";BlobEndpoint=http://127.0.0.1:5/acme;QueueEndpoint=http://127.0.0.1:6/acme;"
                    "TableEndpoint=http://127.0.0.1:7/acme");
        const QJsonObject credential{
            {QStringLiteral("connectionStringEnv"), QStringLiteral("CONVERGE_TEST_AZURE_CS")}};
        Outcome<AzureAccount> a = AzureAccount::fromSpec(
            spec(credential, {{QStringLiteral("table"), QStringLiteral("http://127.0.0.1:9/t")}}),
            nullptr);
        QVERIFY2(a, qPrintable(a ? QString() : a.error().message));
        QCOMPARE(a.value().blobEndpoint.port(), 5);
        QCOMPARE(a.value().tableEndpoint.port(), 9); // the spec wins
        QCOMPARE(a.value().credentials.azureSharedKeyValue()->key, key);

        qputenv("CONVERGE_TEST_AZURE_CS", "AccountName=other;AccountKey=" + key.toLatin1());
        a = AzureAccount::fromSpec(spec(credential), nullptr);
        QVERIFY(!a);
        QVERIFY(a.error().message.contains(QLatin1String("account other")));
        QVERIFY(!a.error().message.contains(key));
    }

    void clientRedactsSecrets()
    {
        AzureAccount account;
        account.name = QStringLiteral("acme");
        account.credentials = Credentials::azureSharedKey(QStringLiteral("acme"), key);
        AzureStorageClient client(account, nullptr, {}, {});
        HttpResponse r;
        r.transportError = QNetworkReply::ProtocolFailure;
        r.transportErrorString =
            QStringLiteral("Error transferring https://acme/c?sv=1&sig=abc%2B - key ") + key;
        const BackendError e = client.error(r);
        QVERIFY2(!e.message.contains(key), qPrintable(e.message));
        QVERIFY2(!e.message.contains(QLatin1String("abc%2B")), qPrintable(e.message));
    }

    void urls()
    {
        AzureAccount account;
        account.name = QStringLiteral("devstoreaccount1");
        account.blobEndpoint = QUrl(QStringLiteral("http://127.0.0.1:10000/devstoreaccount1/"));
        AzureStorageClient client(account, nullptr, {}, {});
        const QUrl url =
            client.url(AzureAccount::Service::Blob, QStringLiteral("c1/dir/a b#?%.txt"),
                       {{QStringLiteral("comp"), QStringLiteral("list")},
                        {QStringLiteral("prefix"), QStringLiteral("a+b&c")}});
        QCOMPARE(url.path(QUrl::FullyEncoded),
                 QStringLiteral("/devstoreaccount1/c1/dir/a%20b%23%3F%25.txt"));
        QCOMPARE(url.query(QUrl::FullyEncoded), QStringLiteral("comp=list&prefix=a%2Bb%26c"));
        QCOMPARE(AzureStorageClient::resourceId(url),
                 QStringLiteral("http://127.0.0.1:10000/devstoreaccount1/c1/dir/a b%23%3F%25.txt"));
    }

    void metadataNames()
    {
        HttpRequest request;
        AzureStorageClient::setMetadataHeaders(
            request, {{QStringLiteral("Team"), QStringLiteral("billing")}});
        QCOMPARE(request.header("x-ms-meta-Team"), QByteArray("billing"));
        // Some answers lower-case the names; Azure matches them case-insensitively.
        const HttpResponse::Headers headers{{"X-MS-META-team", "billing"},
                                            {"x-ms-meta-Other", "x"},
                                            {"x-ms-meta-", "ignored"},
                                            {"x-ms-version", "2021-12-02"}};
        const QJsonObject observed = AzureStorageClient::metadataFromHeaders(headers);
        QCOMPARE(observed, (QJsonObject{{QStringLiteral("team"), QStringLiteral("billing")},
                                        {QStringLiteral("Other"), QStringLiteral("x")}}));
        QCOMPARE(AzureStorageClient::alignMetadataNames(
                     observed, {{QStringLiteral("Team"), QStringLiteral("sales")}}),
                 (QJsonObject{{QStringLiteral("Team"), QStringLiteral("billing")},
                              {QStringLiteral("Other"), QStringLiteral("x")}}));
    }

    void factoryRefusals()
    {
        AzureFactory factory;
        Resource account;
        account.kind = AzureKinds::storageAccount();
        account.metadata.name = QStringLiteral("acme");
        account.spec = spec({{QStringLiteral("keychain"), QStringLiteral("acme")}});
        ManagerEnvironment env; // no keychain, no HTTP client: nothing is sent here
        auto made = factory.manager(AzureKinds::blobContainer(), account, env);
        QVERIFY(!made);
        QCOMPARE(made.error().category, Category::Unauthorized);
        QCOMPARE(made.error().message, QStringLiteral("no keychain available; use env or file "
                                                      "(credential keychain: acme)"));

        MemoryStore store;
        env.credentials = &store;
        made = factory.manager(AzureKinds::blobContainer(), account, env);
        QVERIFY(made);
        QVERIFY(made.value());

        made = factory.manager(QStringLiteral("Widget"), account, env);
        QVERIFY(!made);
        Resource notAnAccount = account;
        notAnAccount.kind = AzureKinds::blobContainer();
        made = factory.manager(AzureKinds::blob(), notAnAccount, env);
        QVERIFY(!made);
        QCOMPARE(made.error().code, QStringLiteral("OwnerMissing"));
        QCOMPARE(factory.accountKinds(), QStringList{AzureKinds::storageAccount()});
    }
};

QTEST_GUILESS_MAIN(tst_AzureAccount)
#include "tst_azureaccount.moc"

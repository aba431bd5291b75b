// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awsfactory.h"

#include "awskinds.h"
#include "credentialstore.h"
#include "httpclient.h"
#include "kindregistry.h"

#include <QFile>
#include <QHash>
#include <QTemporaryDir>
#include <QTest>

using namespace converge;

namespace {

const QString secret = QStringLiteral("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");

/// An in-memory keychain for this test.
class MemoryStore final : public CredentialStore
{
public:
    QHash<QString, QString> entries;
    QString description() const override { return QStringLiteral("memory"); }
    std::optional<QString> read(const QString &name, BackendError *error) override
    {
        if (entries.contains(name))
            return entries.value(name);
        fail(error, BackendError::Category::NotFound, QStringLiteral("CredentialNotFound"),
             QStringLiteral("no keychain entry %1").arg(name));
        return std::nullopt;
    }
    bool write(const QString &name, const QString &value, BackendError *) override
    {
        entries.insert(name, value);
        return true;
    }
    bool remove(const QString &name, BackendError *) override
    {
        entries.remove(name);
        return true;
    }
};

Resource account(const QJsonObject &credential,
                 const QString &endpoint = QStringLiteral("http://127.0.0.1:8000"))
{
    Resource r;
    r.apiVersion = AwsKinds::apiVersion();
    r.kind = AwsKinds::accountKind();
    r.metadata.name = QStringLiteral("acct");
    r.spec = QJsonObject{{QStringLiteral("region"), QStringLiteral("us-east-1")},
                         {QStringLiteral("credential"), credential}};
    if (!endpoint.isEmpty())
        r.spec.insert(QStringLiteral("endpoint"), endpoint);
    return r;
}

bool writeFile(const QString &path, const QByteArray &content, QFile::Permissions permissions)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    file.write(content);
    file.close();
    return file.setPermissions(permissions);
}

} // namespace

class tst_AwsFactory final : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        qunsetenv("AWS_ACCESS_KEY_ID");
        qunsetenv("AWS_SECRET_ACCESS_KEY");
        qunsetenv("AWS_SESSION_TOKEN");
    }

    void describesItself()
    {
        AwsFactory factory;
        QCOMPARE(factory.provider(), QStringLiteral("aws"));
        QCOMPARE(factory.kinds().mid(0, 2),
                 (QStringList{QStringLiteral("AwsAccount"), QStringLiteral("S3Object")}));
        // And every declared kind (resources/kinds/aws), DynamoDBTable among them.
        QVERIFY(factory.kinds().contains(QStringLiteral("CloudWatchLogGroup")));
        QVERIFY(factory.kinds().contains(QStringLiteral("DynamoDBTable")));
        QCOMPARE(factory.kinds().size(), 2 + AwsKinds::declaredKinds().size());
        QCOMPARE(factory.accountKinds(), QStringList{QStringLiteral("AwsAccount")});
        KindRegistry registry;
        factory.registerKinds(registry);
        QStringList made = factory.kinds();
        made.sort();
        QCOMPARE(registry.names(), made); // names() is sorted
    }

    void emulatorKeys()
    {
        const auto resolved =
            AwsFactory::resolveCredentials(account({{QStringLiteral("emulator"), true}}), nullptr);
        QVERIFY(resolved.ok());
        const Credentials::Aws *aws = resolved.value().awsValue();
        QVERIFY(aws);
        QCOMPARE(aws->accessKeyId, AwsFactory::emulatorAccessKeyId());
        QCOMPARE(aws->secretAccessKey, AwsFactory::emulatorSecretAccessKey());
    }

    void emulatorKeysNeverLeaveTheMachine()
    {
        for (const QString &endpoint :
             {QStringLiteral("https://dynamodb.us-east-1.amazonaws.com"), QString()}) {
            const auto resolved = AwsFactory::resolveCredentials(
                account({{QStringLiteral("emulator"), true}}, endpoint), nullptr);
            QVERIFY(!resolved.ok());
            QCOMPARE(resolved.error().category, BackendError::Category::Unauthorized);
            QCOMPARE(resolved.error().code, QStringLiteral("EmulatorCredentialNotLocal"));
        }
    }

    void environment()
    {
        qputenv("AWS_ACCESS_KEY_ID", "AKIAEXAMPLE");
        qputenv("AWS_SECRET_ACCESS_KEY", secret.toUtf8());
        auto resolved =
            AwsFactory::resolveCredentials(account({{QStringLiteral("env"), true}}), nullptr);
        QVERIFY(resolved.ok());
        QCOMPARE(resolved.value().awsValue()->accessKeyId, QStringLiteral("AKIAEXAMPLE"));
        QCOMPARE(resolved.value().awsValue()->secretAccessKey, secret);
        QVERIFY(resolved.value().awsValue()->sessionToken.isEmpty());

        qputenv("AWS_SESSION_TOKEN", "token-123");
        resolved =
            AwsFactory::resolveCredentials(account({{QStringLiteral("env"), true}}), nullptr);
        QCOMPARE(resolved.value().awsValue()->sessionToken, QStringLiteral("token-123"));
    }

    void environmentMissingSecret()
    {
        qputenv("AWS_ACCESS_KEY_ID", "AKIAEXAMPLE");
        const auto resolved =
            AwsFactory::resolveCredentials(account({{QStringLiteral("env"), true}}), nullptr);
        QVERIFY(!resolved.ok());
        QCOMPARE(resolved.error().category, BackendError::Category::Unauthorized);
        QVERIFY(resolved.error().message.contains(QStringLiteral("AWS_SECRET_ACCESS_KEY")));
        QVERIFY(resolved.error().message.contains(QStringLiteral("file: PATH")));
        QVERIFY(resolved.error().message.startsWith(QStringLiteral("AwsAccount/acct: ")));
    }

    void file()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("aws.credentials"));
        QVERIFY(writeFile(path,
                          "# for tests\naws_access_key_id=AKIAFILE\naws_secret_access_key=" +
                              secret.toUtf8() + "\n",
                          QFile::ReadOwner | QFile::WriteOwner));
        const auto resolved =
            AwsFactory::resolveCredentials(account({{QStringLiteral("file"), path}}), nullptr);
        QVERIFY2(resolved.ok(), qPrintable(resolved.ok() ? QString() : resolved.error().message));
        QCOMPARE(resolved.value().awsValue()->accessKeyId, QStringLiteral("AKIAFILE"));
        QCOMPARE(resolved.value().awsValue()->secretAccessKey, secret);

        // "~/" is the home folder.
        const QByteArray home = qgetenv("HOME");
        qputenv("HOME", dir.path().toUtf8());
        const auto fromHome = AwsFactory::resolveCredentials(
            account({{QStringLiteral("file"), QStringLiteral("~/aws.credentials")}}), nullptr);
        qputenv("HOME", home);
        QVERIFY(fromHome.ok());
    }

    void fileReadableByOthersIsRefused()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("aws.credentials"));
        QVERIFY(
            writeFile(path, "aws_access_key_id=AKIAFILE\naws_secret_access_key=" + secret.toUtf8(),
                      QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
        const auto resolved =
            AwsFactory::resolveCredentials(account({{QStringLiteral("file"), path}}), nullptr);
        QVERIFY(!resolved.ok());
        QCOMPARE(resolved.error().category, BackendError::Category::Unauthorized);
        QVERIFY(!resolved.error().message.contains(secret));
        QVERIFY(!resolved.error().code.isEmpty());
    }

    void fileWithoutSecret()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("aws.credentials"));
        QVERIFY(
            writeFile(path, "aws_access_key_id=AKIAFILE\n", QFile::ReadOwner | QFile::WriteOwner));
        const auto resolved =
            AwsFactory::resolveCredentials(account({{QStringLiteral("file"), path}}), nullptr);
        QVERIFY(!resolved.ok());
        QCOMPARE(resolved.error().code, QStringLiteral("CredentialNotFound"));
        QVERIFY(resolved.error().message.contains(QStringLiteral("aws_secret_access_key")));
    }

    void keychain()
    {
        const Resource acct = account({{QStringLiteral("keychain"), QStringLiteral("prod")}});
        const auto none = AwsFactory::resolveCredentials(acct, nullptr);
        QVERIFY(!none.ok());
        QCOMPARE(none.error().category, BackendError::Category::Unauthorized);
        QCOMPARE(none.error().code, QStringLiteral("KeychainUnavailable"));
        QVERIFY(none.error().message.contains(QStringLiteral("env: true")));

        MemoryStore store;
        store.entries.insert(QStringLiteral("prod/aws_access_key_id"), QStringLiteral("AKIAKC"));
        store.entries.insert(QStringLiteral("prod/aws_secret_access_key"), secret);
        store.entries.insert(QStringLiteral("prod/aws_session_token"), QStringLiteral("tok"));
        const auto resolved = AwsFactory::resolveCredentials(acct, &store);
        QVERIFY(resolved.ok());
        QCOMPARE(resolved.value(),
                 Credentials::aws(QStringLiteral("AKIAKC"), secret, QStringLiteral("tok")));
    }

    void managers()
    {
        AwsFactory factory;
        HttpClient http;
        ManagerEnvironment env;
        env.http = &http;
        const Resource acct = account({{QStringLiteral("emulator"), true}});
        QVERIFY(factory.manager(QStringLiteral("AwsAccount"), acct, env).ok());
        QVERIFY(factory.manager(QStringLiteral("DynamoDBTable"), acct, env).ok());

        const auto unknown = factory.manager(QStringLiteral("Bucket"), acct, env);
        QVERIFY(!unknown.ok());

        Resource wrong = acct;
        wrong.kind = QStringLiteral("StorageAccount");
        QCOMPARE(factory.manager(QStringLiteral("DynamoDBTable"), wrong, env).error().category,
                 BackendError::Category::Invalid);

        const auto unauthorized = factory.manager(QStringLiteral("DynamoDBTable"),
                                                  account({{QStringLiteral("env"), true}}), env);
        QVERIFY(!unauthorized.ok());
        QCOMPARE(unauthorized.error().category, BackendError::Category::Unauthorized);
    }
};

QTEST_GUILESS_MAIN(tst_AwsFactory)
#include "tst_awsfactory.moc"

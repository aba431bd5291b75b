// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awsprofile.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace converge;

namespace {

const QString secret = QStringLiteral("converge-profile-secret-not-real-0001");
const QString sessionToken = QStringLiteral("converge-profile-session-token-0001");

} // namespace

class tst_AwsProfile final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    AwsProfile::Files m_files;

    // Mode 0600, as `aws configure` writes them (and as the secret scan expects of them).
    void write(const QString &path, const QByteArray &content)
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QVERIFY(file.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
        file.write(content);
    }
    void writeConfig(const QByteArray &content) { write(m_files.config, content); }
    void writeCredentials(const QByteArray &content) { write(m_files.credentials, content); }

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_files.config = m_dir.filePath(QStringLiteral("config"));
        m_files.credentials = m_dir.filePath(QStringLiteral("credentials"));
        QFile::remove(m_files.config);
        QFile::remove(m_files.credentials);
    }

    void staticKeysFromTheCredentialsFile()
    {
        writeCredentials("[dev]\naws_access_key_id = AKIAPROFILEDEV\naws_secret_access_key = " +
                         secret.toUtf8() + "\n");
        const auto profile = AwsProfile::load(QStringLiteral("dev"), m_files);
        QVERIFY2(profile.ok(), qPrintable(profile.ok() ? QString() : profile.error().message));
        QVERIFY(profile.value().credentialProcess().isEmpty());
        const Credentials credentials = profile.value().staticCredentials();
        QCOMPARE(credentials.awsValue()->accessKeyId, QStringLiteral("AKIAPROFILEDEV"));
        QVERIFY(credentials.awsValue()->secretAccessKey == secret);
        QVERIFY(credentials.awsValue()->sessionToken.isEmpty());
        QVERIFY(profile.value().region().isEmpty());
    }

    void sessionTokenAndRegionFromBothFiles()
    {
        writeConfig("[profile dev]\nregion = eu-central-1\naws_access_key_id = AKIACONFIG\n");
        writeCredentials("[dev]\naws_access_key_id = AKIACREDS\naws_secret_access_key = " +
                         secret.toUtf8() + "\naws_session_token = " + sessionToken.toUtf8() + "\n");
        const auto profile = AwsProfile::load(QStringLiteral("dev"), m_files);
        QVERIFY(profile.ok());
        QCOMPARE(profile.value().region(), QStringLiteral("eu-central-1"));
        // The credentials file wins, as in the AWS CLI.
        const Credentials credentials = profile.value().staticCredentials();
        QCOMPARE(credentials.awsValue()->accessKeyId, QStringLiteral("AKIACREDS"));
        QVERIFY(credentials.awsValue()->sessionToken == sessionToken);
    }

    void configSectionsNeedTheProfilePrefix()
    {
        // [dev] in the config file is not the profile dev; [default] is the default one.
        writeConfig("[dev]\naws_access_key_id = AKIA1\naws_secret_access_key = " + secret.toUtf8() +
                    "\n[default]\nregion = us-west-2\n" +
                    "credential_process = tool --for default\n");
        const auto dev = AwsProfile::load(QStringLiteral("dev"), m_files);
        QVERIFY(!dev.ok());
        QCOMPARE(dev.error().code, QStringLiteral("ProfileNotFound"));
        const auto byDefault = AwsProfile::load(QStringLiteral("default"), m_files);
        QVERIFY(byDefault.ok());
        QCOMPARE(byDefault.value().region(), QStringLiteral("us-west-2"));
        QCOMPARE(byDefault.value().credentialProcess(), QStringLiteral("tool --for default"));
    }

    void missingProfileNamesTheFilesAndSections()
    {
        writeConfig("[profile other]\nregion = r\n");
        const auto profile = AwsProfile::load(QStringLiteral("dev"), m_files);
        QVERIFY(!profile.ok());
        QCOMPARE(profile.error().category, BackendError::Category::Unauthorized);
        QCOMPARE(profile.error().code, QStringLiteral("ProfileNotFound"));
        const QString message = profile.error().message;
        QVERIFY2(message.contains(QStringLiteral("\"dev\"")), qPrintable(message));
        QVERIFY2(message.contains(m_files.config + QStringLiteral(" [profile dev]")),
                 qPrintable(message));
        QVERIFY2(message.contains(m_files.credentials +
                                  QStringLiteral(" [dev] (the file does not exist)")),
                 qPrintable(message));
        QVERIFY2(!message.contains(m_files.config + QStringLiteral(" [profile dev] (the file")),
                 qPrintable(message));
    }

    void invalidFileNamesFileAndLine()
    {
        writeCredentials("[dev]\naws_secret_access_key = " + secret.toUtf8() +
                         "\naws_secret_access_key = x\n");
        const auto profile = AwsProfile::load(QStringLiteral("dev"), m_files);
        QVERIFY(!profile.ok());
        QCOMPARE(profile.error().code, QStringLiteral("ProfileFileInvalid"));
        QVERIFY(profile.error().message.contains(m_files.credentials));
        QVERIFY(profile.error().message.contains(QStringLiteral("line 3")));
        QVERIFY(!profile.error().message.contains(secret));
    }

    void unreadableFileIsNamed()
    {
        writeConfig("[profile dev]\nregion = r\n");
        QVERIFY(QFile::setPermissions(m_files.config, {}));
        if (QFile(m_files.config).open(QIODevice::ReadOnly))
            QSKIP("running as a user who reads any file (root)");
        const auto profile = AwsProfile::load(QStringLiteral("dev"), m_files);
        QVERIFY(!profile.ok());
        QCOMPARE(profile.error().code, QStringLiteral("ProfileFileUnreadable"));
        QVERIFY(profile.error().message.contains(m_files.config));
    }

    void incompleteKeysAreRefused()
    {
        writeCredentials("[dev]\naws_access_key_id = AKIA1\n");
        const auto profile = AwsProfile::load(QStringLiteral("dev"), m_files);
        QVERIFY(!profile.ok());
        QCOMPARE(profile.error().code, QStringLiteral("ProfileHasNoCredentials"));
        QVERIFY2(profile.error().message.contains(QStringLiteral("no aws_secret_access_key")),
                 qPrintable(profile.error().message));
        writeCredentials("[dev]\nregion = r\n");
        QVERIFY(AwsProfile::load(QStringLiteral("dev"), m_files)
                    .error()
                    .message.contains(QStringLiteral("has no credentials")));
    }

    void unsupportedProfilesAreRefused_data()
    {
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<QString>("named");

        QTest::newRow("assume role") << QByteArray("role_arn = arn:aws:iam::1:role/r\n"
                                                   "source_profile = base\n")
                                     << QStringLiteral("role_arn");
        QTest::newRow("credential source") << QByteArray("credential_source = Environment\n")
                                           << QStringLiteral("credential_source");
        QTest::newRow("sso session") << QByteArray("sso_session = corp\nsso_account_id = 1\n")
                                     << QStringLiteral("sso_session");
        QTest::newRow("legacy sso") << QByteArray("sso_start_url = https://x.awsapps.com/start\n")
                                    << QStringLiteral("sso_start_url");
        QTest::newRow("web identity") << QByteArray("web_identity_token_file = /t\n"
                                                    "role_arn = arn:aws:iam::1:role/r\n")
                                      << QStringLiteral("role_arn");
        QTest::newRow("web identity alone") << QByteArray("web_identity_token_file = /t\n")
                                            << QStringLiteral("web_identity_token_file");
    }

    void unsupportedProfilesAreRefused()
    {
        QFETCH(QByteArray, config);
        QFETCH(QString, named);
        // Static keys beside them must not make the profile half-used.
        writeConfig("[profile dev]\n" + config);
        writeCredentials(
            "[dev]\naws_access_key_id = AKIA1\naws_secret_access_key = " + secret.toUtf8() + "\n");
        const auto profile = AwsProfile::load(QStringLiteral("dev"), m_files);
        QVERIFY(!profile.ok());
        QCOMPARE(profile.error().category, BackendError::Category::Unauthorized);
        QCOMPARE(profile.error().code, QStringLiteral("ProfileNotSupported"));
        QVERIFY2(
            profile.error().message.contains(QStringLiteral("(") + named + QStringLiteral(")")),
            qPrintable(profile.error().message));
        QVERIFY2(profile.error().message.contains(QStringLiteral("not")),
                 qPrintable(profile.error().message));
        QVERIFY(profile.error().message.contains(QStringLiteral("\"dev\"")));
    }

    void filesFromTheEnvironment()
    {
        qunsetenv("AWS_CONFIG_FILE");
        qunsetenv("AWS_SHARED_CREDENTIALS_FILE");
        AwsProfile::Files files = AwsProfile::filesFromEnvironment();
        QCOMPARE(files.config, QDir::homePath() + QStringLiteral("/.aws/config"));
        QCOMPARE(files.credentials, QDir::homePath() + QStringLiteral("/.aws/credentials"));
        qputenv("AWS_CONFIG_FILE", "/etc/aws/config");
        qputenv("AWS_SHARED_CREDENTIALS_FILE", "~/keys");
        files = AwsProfile::filesFromEnvironment();
        QCOMPARE(files.config, QStringLiteral("/etc/aws/config"));
        QCOMPARE(files.credentials, QDir::homePath() + QStringLiteral("/keys"));
        qunsetenv("AWS_CONFIG_FILE");
        qunsetenv("AWS_SHARED_CREDENTIALS_FILE");
    }
};

QTEST_GUILESS_MAIN(tst_AwsProfile)
#include "tst_awsprofile.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The connect dialog's sign-ins, which store nothing: the Azure CLI preset (who is signed in,
// from a stand-in `az` on PATH; not installed; not signed in), a token command, a connection
// string without a key for the endpoints, and AWS named profiles picked from the files
// AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE name (one the engine cannot use refused with its
// reason). Each resource is compared whole and read back through ManifestReader.
#include "connectdialog.h"

#include "accountrequest.h"
#include "awskinds.h"
#include "azureclistatus.h"
#include "azurekinds.h"
#include "backenderror.h"
#include "credentialstore.h"
#include "kindregistry.h"
#include "manifestreader.h"
#include "manifestwriter.h"

#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QGroupBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>

using namespace converge;
using namespace std::chrono_literals;

namespace {

KindRegistry builtInKinds()
{
    KindRegistry kinds;
    AzureKinds::registerAll(kinds);
    AwsKinds::registerKinds(kinds);
    return kinds;
}

/// A keychain that counts every call: the sign-ins must not touch it.
class CountingStore final : public CredentialStore
{
public:
    QString description() const override { return QStringLiteral("counting"); }
    std::optional<QString> read(const QString &, BackendError *) override
    {
        ++calls;
        return std::nullopt;
    }
    bool write(const QString &, const QString &, BackendError *) override
    {
        ++calls;
        return true;
    }
    bool remove(const QString &, BackendError *) override
    {
        ++calls;
        return true;
    }
    std::atomic<int> calls{0};
};

QString json(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

void choose(ConnectDialog &dialog, AccountForm::Preset preset)
{
    auto *combo = dialog.findChild<QComboBox *>(QStringLiteral("presetCombo"));
    combo->setCurrentIndex(combo->findData(int(preset)));
}

QLineEdit *edit(ConnectDialog &dialog, const char *name)
{
    auto *e = dialog.findChild<QLineEdit *>(QLatin1String(name));
    Q_ASSERT(e);
    return e;
}

void clickConnect(ConnectDialog &dialog)
{
    QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("connectButton")),
                      Qt::LeftButton);
}

} // namespace

class tst_ConnectSignIn final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_standIns; // the folder of the stand-in az
    QByteArray m_path;
    KindRegistry m_kinds = builtInKinds();

    // Accepted, the resource is exactly `spec`, reads back through a manifest, and the
    // keychain was never asked.
    void verifyResource(ConnectDialog &dialog, const CountingStore &store, const QString &kind,
                        const QString &name, const QJsonObject &spec)
    {
        QSignalSpy accepted{&dialog, &QDialog::accepted};
        QVERIFY(accepted.isValid());
        clickConnect(dialog);
        QVERIFY2(accepted.count() == 1, qPrintable(dialog.errorText()));
        const Resource &r = dialog.resource();
        QCOMPARE(r.kind, kind);
        QCOMPARE(r.metadata.name, name);
        QCOMPARE(json(r.spec), json(spec));
        QCOMPARE(dialog.note(), QString());
        QCOMPARE(store.calls.load(), 0);
        QVERIFY(!dialog.findChild<QGroupBox *>(QStringLiteral("secretBox"))->isVisibleTo(&dialog));

        const QByteArray yaml = ManifestWriter(m_kinds).toYaml({r});
        const ManifestReader::Result read =
            ManifestReader(m_kinds).read(yaml, QStringLiteral("a.yaml"));
        QVERIFY2(read.ok(), qPrintable(read.errors.value(0).toString() + QLatin1Char('\n') +
                                       QString::fromUtf8(yaml)));
        QCOMPARE(read.objects.size(), 1);
        QCOMPARE(json(read.objects.first().resource.spec), json(spec));
    }

    void writeFile(const QString &name, const QByteArray &content)
    {
        QFile file(m_dir.filePath(name));
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(content);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QString source = qEnvironmentVariable("CONVERGE_SOURCE_DIR");
        QVERIFY2(!source.isEmpty(), "run through CTest (CONVERGE_SOURCE_DIR)");
        m_standIns = source + QStringLiteral("/tests/integration/azure/tokens");
        QVERIFY(QFile::exists(m_standIns + QStringLiteral("/az")));
        m_path = qgetenv("PATH");
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("empty")));
    }

    void init()
    {
        // The stand-in first, the system's tools (sh, sleep) after it.
        qputenv("PATH", m_standIns.toLocal8Bit() + ':' + m_path);
        qunsetenv("CONVERGE_FAKE_AZ_SIGNED_OUT");
        qunsetenv("CONVERGE_FAKE_AZ_HANG");
    }

    void cleanupTestCase() { qputenv("PATH", m_path); }

    void azureCliShowsWhoIsSignedIn()
    {
        CountingStore store;
        ConnectDialog dialog(m_kinds, &store, {});
        dialog.show();
        choose(dialog, AccountForm::Preset::AzureCli);
        QTRY_VERIFY(dialog.signedInText().startsWith(QLatin1String("Signed in")));
        const QString text = dialog.signedInText();
        QVERIFY2(text.contains(QStringLiteral("ada@contoso.com")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Contoso (72f988bf-86f1-41af-91ab-2d7cd011db47)")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Subscription: Contoso Development")),
                 qPrintable(text));

        // A subscription named in the dialog is the one asked about.
        edit(dialog, "subscriptionEdit")->setText(QStringLiteral("Contoso Production"));
        QMetaObject::invokeMethod(edit(dialog, "subscriptionEdit"), "editingFinished");
        QTRY_VERIFY(dialog.signedInText().contains(QStringLiteral("Contoso Production")));

        edit(dialog, "tokenAccountEdit")->setText(QStringLiteral("acmestorage"));
        edit(dialog, "tenantEdit")->setText(QStringLiteral("contoso.onmicrosoft.com"));
        QCOMPARE(edit(dialog, "nameEdit")->text(), QStringLiteral("acmestorage"));

        // Tall enough for the three lines (a window system applies the size later than
        // offscreen does).
        QTRY_VERIFY(dialog.height() >= dialog.layout()->totalHeightForWidth(dialog.width()));

        // For docs/screenshots/connect-azure-cli.png (see the README).
        if (const QString shot = qEnvironmentVariable("CONVERGE_DIALOG_SCREENSHOT");
            !shot.isEmpty())
            QVERIFY(dialog.grab().save(shot));

        verifyResource(dialog, store, AzureKinds::storageAccount(), QStringLiteral("acmestorage"),
                       {{QStringLiteral("accountName"), QStringLiteral("acmestorage")},
                        {QStringLiteral("allowInsecureHttp"), false},
                        {QStringLiteral("credential"),
                         QJsonObject{{QStringLiteral("azureCli"),
                                      QJsonObject{{QStringLiteral("subscription"),
                                                   QStringLiteral("Contoso Production")},
                                                  {QStringLiteral("tenant"),
                                                   QStringLiteral("contoso.onmicrosoft.com")}}}}}});
    }

    void azureCliNotInstalled()
    {
        qputenv("PATH", m_dir.filePath(QStringLiteral("empty")).toLocal8Bit());
        ConnectDialog dialog(m_kinds, nullptr, {});
        dialog.show();
        choose(dialog, AccountForm::Preset::AzureCli);
        QTRY_VERIFY2(
            dialog.signedInText().contains(QStringLiteral("not installed (apt install azure-cli)")),
            qPrintable(dialog.signedInText()));
        // Connect still works: the account says Ready False until the CLI is there.
        edit(dialog, "tokenAccountEdit")->setText(QStringLiteral("acmestorage"));
        QSignalSpy accepted{&dialog, &QDialog::accepted};
        clickConnect(dialog);
        QCOMPARE(accepted.count(), 1);
    }

    void azureCliNotSignedIn()
    {
        qputenv("CONVERGE_FAKE_AZ_SIGNED_OUT", "1");
        ConnectDialog dialog(m_kinds, nullptr, {});
        dialog.show();
        choose(dialog, AccountForm::Preset::AzureCli);
        QTRY_VERIFY(dialog.signedInText().contains(QStringLiteral("Nobody is signed in")));
        const QString text = dialog.signedInText();
        QVERIFY2(text.contains(QStringLiteral("Please run 'az login' to setup account.")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Run az login in a terminal")), qPrintable(text));

        // Signed in meanwhile: Check again says so.
        qunsetenv("CONVERGE_FAKE_AZ_SIGNED_OUT");
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("checkAgainButton")),
                          Qt::LeftButton);
        QTRY_VERIFY(dialog.signedInText().contains(QStringLiteral("ada@contoso.com")));
    }

    // A CLI that never answers is given up on, without waiting on the GUI thread.
    void azureCliTimeout()
    {
        qputenv("CONVERGE_FAKE_AZ_HANG", "1");
        AzureCliStatus status;
        status.setTimeout(300ms);
        QSignalSpy finished{&status, &AzureCliStatus::finished};
        QVERIFY(finished.isValid());
        QElapsedTimer clock;
        clock.start();
        status.check();
        QVERIFY(clock.elapsed() < 250);
        QCOMPARE(status.result().state, AzureCliStatus::State::Checking);
        QVERIFY(finished.wait(5000));
        QCOMPARE(status.result().state, AzureCliStatus::State::Failed);
        QVERIFY2(status.result().message.contains(QStringLiteral("did not answer")),
                 qPrintable(status.result().message));
    }

    void parse_data()
    {
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QByteArray>("out");
        QTest::addColumn<QByteArray>("err");
        QTest::addColumn<int>("state");
        QTest::addColumn<QString>("text");
        QTest::newRow("service principal")
            << 0
            << QByteArray("{\"id\":\"s1\",\"name\":\"Prod\",\"tenantId\":\"t1\",\"user\":"
                          "{\"name\":\"1111-app\",\"type\":\"servicePrincipal\"}}")
            << QByteArray() << int(AzureCliStatus::State::SignedIn)
            << QStringLiteral("Signed in as 1111-app\nTenant: t1\nSubscription: Prod");
        QTest::newRow("other failure")
            << 2 << QByteArray() << QByteArray("ERROR: The subscription 'x' doesn't exist.\n")
            << int(AzureCliStatus::State::Failed)
            << QStringLiteral("az account show failed (exit code 2): The subscription 'x' "
                              "doesn't exist.");
        QTest::newRow("not json") << 0 << QByteArray("hello") << QByteArray()
                                  << int(AzureCliStatus::State::Failed)
                                  << QStringLiteral("az account show printed no signed-in user; "
                                                    "is this the Azure CLI?");
    }

    void parse()
    {
        QFETCH(int, exitCode);
        QFETCH(QByteArray, out);
        QFETCH(QByteArray, err);
        QFETCH(int, state);
        QFETCH(QString, text);
        const AzureCliStatus::Result r = AzureCliStatus::parse(exitCode, out, err);
        QCOMPARE(int(r.state), state);
        QCOMPARE(r.text(), text);
    }

    void splitCommandLine_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("words");
        QTest::addColumn<bool>("ok");
        QTest::newRow("blanks") << QStringLiteral(" a\tb  c ")
                                << QStringList{QStringLiteral("a"), QStringLiteral("b"),
                                               QStringLiteral("c")}
                                << true;
        QTest::newRow("single quotes")
            << QStringLiteral("'/opt/sign in/token' --x='a \"b\"'")
            << QStringList{QStringLiteral("/opt/sign in/token"), QStringLiteral("--x=a \"b\"")}
            << true;
        QTest::newRow("double quotes and backslashes")
            << QStringLiteral("tool \"a \\\"b\\\" \\x\" d\\ e")
            << QStringList{QStringLiteral("tool"), QStringLiteral("a \"b\" \\x"),
                           QStringLiteral("d e")}
            << true;
        QTest::newRow("empty argument")
            << QStringLiteral("tool '' x")
            << QStringList{QStringLiteral("tool"), QString(), QStringLiteral("x")} << true;
        QTest::newRow("unterminated") << QStringLiteral("tool it's") << QStringList() << false;
    }

    void splitCommandLine()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, words);
        QFETCH(bool, ok);
        QString error;
        QCOMPARE(AccountRequest::splitCommandLine(text, &error), words);
        QCOMPARE(error.isEmpty(), ok);
    }

    void tokenCommand()
    {
        CountingStore store;
        ConnectDialog dialog(m_kinds, &store, {});
        dialog.show();
        choose(dialog, AccountForm::Preset::AzureTokenCommand);
        auto *hint = dialog.findChild<QLabel *>(QStringLiteral("tokenCommandHint"));
        QVERIFY(hint->isVisibleTo(&dialog));
        QVERIFY(hint->text().contains(QStringLiteral("accessToken")));
        QVERIFY(!dialog.findChild<QLabel *>(QStringLiteral("signedInLabel"))->isVisibleTo(&dialog));
        edit(dialog, "tokenAccountEdit")->setText(QStringLiteral("acmestorage"));

        QSignalSpy accepted{&dialog, &QDialog::accepted};
        clickConnect(dialog);
        QCOMPARE(accepted.count(), 0);
        QVERIFY2(dialog.errorText().contains(QStringLiteral("command")),
                 qPrintable(dialog.errorText()));

        edit(dialog, "tokenCommandEdit")->setText(QStringLiteral("token 'unterminated"));
        clickConnect(dialog);
        QCOMPARE(accepted.count(), 0);
        QVERIFY2(dialog.errorText().contains(QStringLiteral("unterminated")),
                 qPrintable(dialog.errorText()));

        // Split as a shell splits simple quoting.
        edit(dialog, "tokenCommandEdit")
            ->setText(
                QStringLiteral("'/opt/sign in/token' --resource \"https://storage.azure.com/\""));
        verifyResource(
            dialog, store, AzureKinds::storageAccount(), QStringLiteral("acmestorage"),
            {{QStringLiteral("accountName"), QStringLiteral("acmestorage")},
             {QStringLiteral("allowInsecureHttp"), false},
             {QStringLiteral("credential"),
              QJsonObject{
                  {QStringLiteral("tokenCommand"),
                   QJsonObject{{QStringLiteral("command"),
                                QJsonArray{QStringLiteral("/opt/sign in/token"),
                                           QStringLiteral("--resource"),
                                           QStringLiteral("https://storage.azure.com/")}}}}}}});
    }

    // The connection string a portal shows for an account without shared keys: endpoints only.
    void keylessConnectionString()
    {
        CountingStore store;
        ConnectDialog dialog(m_kinds, &store, {});
        dialog.show();
        choose(dialog, AccountForm::Preset::AzureTokenCommand);
        edit(dialog, "tokenCommandEdit")->setText(QStringLiteral("token-tool"));
        auto *cs = edit(dialog, "tokenConnectionStringEdit");
        QCOMPARE(cs->echoMode(), QLineEdit::Normal); // it holds no secret

        cs->setText(QStringLiteral("AccountName=acme;AccountKey=") +
                    QString::fromLatin1(QByteArray(64, 'k').toBase64()));
        QSignalSpy accepted{&dialog, &QDialog::accepted};
        clickConnect(dialog);
        QCOMPARE(accepted.count(), 0);
        QVERIFY2(dialog.errorText().contains(QStringLiteral("holds a secret")),
                 qPrintable(dialog.errorText()));
        QVERIFY(!dialog.errorText().contains(QStringLiteral("a2tr")));

        cs->setText(QStringLiteral("BlobEndpoint=https://acme.blob.core.chinacloudapi.cn/;"
                                   "QueueEndpoint=https://acme.queue.core.chinacloudapi.cn/;"
                                   "TableEndpoint=https://acme.table.core.chinacloudapi.cn/"));
        QCOMPARE(edit(dialog, "nameEdit")->text(), QStringLiteral("acme"));
        verifyResource(
            dialog, store, AzureKinds::storageAccount(), QStringLiteral("acme"),
            {{QStringLiteral("accountName"), QStringLiteral("acme")},
             {QStringLiteral("allowInsecureHttp"), false},
             {QStringLiteral("credential"),
              QJsonObject{{QStringLiteral("tokenCommand"),
                           QJsonObject{{QStringLiteral("command"),
                                        QJsonArray{QStringLiteral("token-tool")}}}}}},
             {QStringLiteral("endpoints"),
              QJsonObject{{QStringLiteral("blob"),
                           QStringLiteral("https://acme.blob.core.chinacloudapi.cn/")},
                          {QStringLiteral("queue"),
                           QStringLiteral("https://acme.queue.core.chinacloudapi.cn/")},
                          {QStringLiteral("table"),
                           QStringLiteral("https://acme.table.core.chinacloudapi.cn/")}}}});
    }

    void keylessConnectionStringWithAzureCli()
    {
        AccountForm form;
        form.preset = AccountForm::Preset::AzureCli;
        form.name = QStringLiteral("acme");
        form.connectionString = QStringLiteral("DefaultEndpointsProtocol=https;AccountName=acme");
        const AccountRequest request = AccountRequest::build(form, m_kinds);
        QVERIFY2(request.ok(), qPrintable(request.error));
        QCOMPARE(request.resource.spec.value(QStringLiteral("credential")).toObject(),
                 (QJsonObject{{QStringLiteral("azureCli"), QJsonObject()}}));
        QCOMPARE(request.resource.spec.value(QStringLiteral("endpoints"))
                     .toObject()
                     .value(QStringLiteral("blob"))
                     .toString(),
                 QStringLiteral("https://acme.blob.core.windows.net/"));
        QVERIFY(request.secrets.isEmpty());

        form.accountName = QStringLiteral("other");
        QVERIFY(AccountRequest::build(form, m_kinds).error.contains(QStringLiteral("not other")));
    }

    void awsProfiles()
    {
        writeFile(QStringLiteral("config"),
                  "[default]\nregion = eu-west-1\n\n"
                  "[profile dev]\nregion = us-west-2\ncredential_process = /opt/bin/keys dev\n\n"
                  "[profile corp]\nsso_session = corp\nsso_account_id = 123456789012\n"
                  "sso_role_name = Admin\nregion = eu-central-1\n\n"
                  "[sso-session corp]\nsso_start_url = https://corp.awsapps.com/start\n"
                  "sso_region = eu-central-1\n");
        writeFile(QStringLiteral("credentials"),
                  "[default]\naws_access_key_id = converge-test-key-id\n"
                  "aws_secret_access_key = converge-test-not-a-secret\n\n"
                  "[ci]\naws_access_key_id = converge-test-key-id\n"
                  "aws_secret_access_key = converge-test-not-a-secret\n");
        qputenv("AWS_CONFIG_FILE", m_dir.filePath(QStringLiteral("config")).toLocal8Bit());
        qputenv("AWS_SHARED_CREDENTIALS_FILE",
                m_dir.filePath(QStringLiteral("credentials")).toLocal8Bit());
        const auto restore = qScopeGuard([] {
            qunsetenv("AWS_CONFIG_FILE");
            qunsetenv("AWS_SHARED_CREDENTIALS_FILE");
        });

        CountingStore store;
        ConnectDialog dialog(m_kinds, &store, {});
        dialog.show();
        choose(dialog, AccountForm::Preset::AwsProfile);
        auto *combo = dialog.findChild<QComboBox *>(QStringLiteral("profileCombo"));
        QStringList names;
        for (int i = 0; i < combo->count(); ++i)
            names << combo->itemData(i).toString();
        QCOMPARE(names, (QStringList{QStringLiteral("default"), QStringLiteral("dev"),
                                     QStringLiteral("corp"), QStringLiteral("ci")}));
        QCOMPARE(combo->itemText(2), QStringLiteral("corp (not supported)"));
        auto *info = dialog.findChild<QLabel *>(QStringLiteral("profileInfoLabel"));
        QCOMPARE(info->text(), QStringLiteral("The profile's region: eu-west-1."));
        QCOMPARE(edit(dialog, "profileRegionEdit")->text(), QStringLiteral("eu-west-1"));

        combo->setCurrentIndex(1);
        QCOMPARE(edit(dialog, "profileRegionEdit")->text(), QStringLiteral("us-west-2"));
        QCOMPARE(edit(dialog, "nameEdit")->text(), QStringLiteral("aws-dev"));

        // The SSO profile: listed, its region not taken, Connect refused with the engine's reason.
        combo->setCurrentIndex(2);
        QVERIFY2(info->text().contains(QStringLiteral("sso_session")), qPrintable(info->text()));
        QSignalSpy accepted{&dialog, &QDialog::accepted};
        clickConnect(dialog);
        QCOMPARE(accepted.count(), 0);
        const QString error = dialog.errorText();
        QVERIFY2(error.contains(QStringLiteral("Converge cannot use the profile corp")),
                 qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("AWS IAM Identity Center sign-in (sso_session) is "
                                               "not supported yet")),
                 qPrintable(error));

        // A credentials-only profile without a region asks for one.
        combo->setCurrentIndex(3);
        QCOMPARE(edit(dialog, "profileRegionEdit")->text(), QString());
        clickConnect(dialog);
        QCOMPARE(accepted.count(), 0);
        QVERIFY2(dialog.errorText().contains(QStringLiteral("names no region")),
                 qPrintable(dialog.errorText()));

        combo->setCurrentIndex(1);
        verifyResource(dialog, store, AwsKinds::accountKind(), QStringLiteral("aws-dev"),
                       {{QStringLiteral("allowInsecureHttp"), false},
                        {QStringLiteral("credential"),
                         QJsonObject{{QStringLiteral("profile"), QStringLiteral("dev")}}},
                        {QStringLiteral("region"), QStringLiteral("us-west-2")}});
    }

    void awsNoProfiles()
    {
        qputenv("AWS_CONFIG_FILE", m_dir.filePath(QStringLiteral("missing-config")).toLocal8Bit());
        qputenv("AWS_SHARED_CREDENTIALS_FILE",
                m_dir.filePath(QStringLiteral("missing-credentials")).toLocal8Bit());
        const auto restore = qScopeGuard([] {
            qunsetenv("AWS_CONFIG_FILE");
            qunsetenv("AWS_SHARED_CREDENTIALS_FILE");
        });
        ConnectDialog dialog(m_kinds, nullptr, {});
        dialog.show();
        choose(dialog, AccountForm::Preset::AwsProfile);
        const QString info = dialog.findChild<QLabel *>(QStringLiteral("profileInfoLabel"))->text();
        QVERIFY2(info.contains(QStringLiteral("No profiles in")) &&
                     info.contains(QStringLiteral("missing-config")),
                 qPrintable(info));
        QSignalSpy accepted{&dialog, &QDialog::accepted};
        clickConnect(dialog);
        QCOMPARE(accepted.count(), 0);
        QCOMPARE(dialog.errorText(), info);
    }
};

QTEST_MAIN(tst_ConnectSignIn)
#include "tst_connectsignin.moc"

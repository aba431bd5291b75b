// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The connect dialog: the account resource each preset and a connection string build, secrets
// going to the store (never into the resource), and a refusing keychain leaving nothing behind.
#include "connectdialog.h"

#include "accountrequest.h"
#include "awskinds.h"
#include "azurekinds.h"
#include "backenderror.h"
#include "credentialstore.h"
#include "gcpkinds.h"
#include "kindregistry.h"

#include <QComboBox>
#include <QJsonDocument>
#include <QLineEdit>
#include <QMutex>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace converge;

Q_DECLARE_METATYPE(converge::AccountForm)

namespace {

// A published-format but made-up key: base64 of 64 bytes.
const QString accountKey = QString::fromLatin1(QByteArray(64, 'k').toBase64());
const QString awsSecret = QStringLiteral("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");

KindRegistry builtInKinds()
{
    KindRegistry kinds;
    AzureKinds::registerAll(kinds);
    AwsKinds::registerKinds(kinds);
    GcpKinds::registerKinds(kinds);
    return kinds;
}

/// An in-memory store that can refuse like a headless keychain, from the n-th write on.
class MemoryStore final : public CredentialStore
{
public:
    QString description() const override { return QStringLiteral("memory"); }
    std::optional<QString> read(const QString &name, BackendError *) override
    {
        QMutexLocker lock(&m_mutex);
        return m_entries.contains(name) ? std::optional(m_entries.value(name)) : std::nullopt;
    }
    bool write(const QString &name, const QString &secret, BackendError *error) override
    {
        QMutexLocker lock(&m_mutex);
        if (m_failFrom >= 0 && m_writes++ >= m_failFrom)
            return fail(error, BackendError::Category::Terminal,
                        QStringLiteral("KeychainUnavailable"),
                        QStringLiteral("the OS keychain is not available"));
        m_entries.insert(name, secret);
        return true;
    }
    bool remove(const QString &name, BackendError *) override
    {
        QMutexLocker lock(&m_mutex);
        m_entries.remove(name);
        return true;
    }
    void failFrom(int write) { m_failFrom = write; }
    QHash<QString, QString> entries()
    {
        QMutexLocker lock(&m_mutex);
        return m_entries;
    }

private:
    QMutex m_mutex;
    QHash<QString, QString> m_entries;
    int m_failFrom = -1;
    int m_writes = 0;
};

QString json(const Resource &r)
{
    return QString::fromUtf8(QJsonDocument(r.toJson(false)).toJson());
}

AccountForm form(AccountForm::Preset preset)
{
    AccountForm f;
    f.preset = preset;
    f.keychainEntry = QStringLiteral("entry");
    return f;
}

} // namespace

class tst_ConnectDialog final : public QObject
{
    Q_OBJECT

private slots:
    void build_data()
    {
        using P = AccountForm::Preset;
        using S = AccountForm::SecretStore;
        QTest::addColumn<AccountForm>("form");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QJsonObject>("spec");    // fields the spec must hold
        QTest::addColumn<QStringList>("secrets"); // entry names to write
        QTest::addColumn<QString>("error");       // part of the error, or empty

        AccountForm azurite = form(P::Azurite);
        azurite.name = QStringLiteral("local");
        QTest::newRow("azurite")
            << azurite << AzureKinds::storageAccount()
            << QJsonObject{{QStringLiteral("accountName"), QStringLiteral("devstoreaccount1")},
                           {QStringLiteral("credential"),
                            QJsonObject{{QStringLiteral("emulator"), true}}},
                           {QStringLiteral("endpoints"),
                            QJsonObject{
                                {QStringLiteral("blob"),
                                 QStringLiteral("http://127.0.0.1:10000/devstoreaccount1")},
                                {QStringLiteral("queue"),
                                 QStringLiteral("http://127.0.0.1:10001/devstoreaccount1")},
                                {QStringLiteral("table"), QStringLiteral("http://127.0.0.1:10002/"
                                                                         "devstoreaccount1")}}}}
            << QStringList() << QString();

        AccountForm dynalite = form(P::Dynalite);
        dynalite.name = QStringLiteral("local-aws");
        QTest::newRow("dynalite")
            << dynalite << AwsKinds::accountKind()
            << QJsonObject{{QStringLiteral("region"), QStringLiteral("us-east-1")},
                           {QStringLiteral("endpoint"), QStringLiteral("http://127.0.0.1:8000")},
                           {QStringLiteral("credential"),
                            QJsonObject{{QStringLiteral("emulator"), true}}}}
            << QStringList() << QString();

        AccountForm cs = form(P::AzureConnectionString);
        cs.name = QStringLiteral("acme");
        cs.connectionString = QStringLiteral("DefaultEndpointsProtocol=https;AccountName=acme;"
                                             "AccountKey=%1;EndpointSuffix=core.windows.net")
                                  .arg(accountKey);
        QTest::newRow("connection string, keychain")
            << cs << AzureKinds::storageAccount()
            << QJsonObject{{QStringLiteral("accountName"), QStringLiteral("acme")},
                           {QStringLiteral("credential"),
                            QJsonObject{{QStringLiteral("keychain"), QStringLiteral("entry")}}}}
            << QStringList{QStringLiteral("entry")} << QString();

        AccountForm csEnv = cs;
        csEnv.store = S::Environment;
        csEnv.envVariable = QStringLiteral("ACME_KEY");
        QTest::newRow("connection string, environment")
            << csEnv << AzureKinds::storageAccount()
            << QJsonObject{{QStringLiteral("credential"),
                            QJsonObject{{QStringLiteral("env"), QStringLiteral("ACME_KEY")}}}}
            << QStringList() << QString();

        AccountForm dev = form(P::AzureConnectionString);
        dev.name = QStringLiteral("dev");
        dev.connectionString = QStringLiteral("UseDevelopmentStorage=true");
        QTest::newRow("connection string, development storage")
            << dev << AzureKinds::storageAccount()
            << QJsonObject{{QStringLiteral("accountName"), QStringLiteral("devstoreaccount1")},
                           {QStringLiteral("credential"),
                            QJsonObject{{QStringLiteral("emulator"), true}}}}
            << QStringList() << QString();

        AccountForm sas = form(P::AzureConnectionString);
        sas.name = QStringLiteral("acme");
        sas.connectionString =
            QStringLiteral("BlobEndpoint=https://acme.blob.core.windows.net/;"
                           "SharedAccessSignature=sv=2021-08-06&ss=b&srt=sco&sp=rl&se=2099-01-"
                           "01T00:00:00Z&sig=abc%3D");
        QTest::newRow("connection string with a SAS, keychain")
            << sas << AzureKinds::storageAccount() << QJsonObject() << QStringList()
            << QStringLiteral("shared access signature");

        AccountForm bad = form(P::AzureConnectionString);
        bad.name = QStringLiteral("acme");
        bad.connectionString = QStringLiteral("AccountName=acme;AccountKey");
        QTest::newRow("broken connection string")
            << bad << AzureKinds::storageAccount() << QJsonObject() << QStringList()
            << QStringLiteral("not valid");

        AccountForm key = form(P::AzureKey);
        key.name = QStringLiteral("acme");
        key.accountName = QStringLiteral("acme");
        key.accountKey = accountKey;
        key.store = S::File;
        key.filePath = QStringLiteral("/secrets/azure.credentials");
        QTest::newRow("name and key, file")
            << key << AzureKinds::storageAccount()
            << QJsonObject{{QStringLiteral("accountName"), QStringLiteral("acme")},
                           {QStringLiteral("credential"),
                            QJsonObject{{QStringLiteral("file"),
                                         QStringLiteral("/secrets/azure.credentials")}}}}
            << QStringList{QStringLiteral("acme")} << QString();

        AccountForm notBase64 = key;
        notBase64.accountKey = QStringLiteral("not a key!");
        QTest::newRow("key not base64")
            << notBase64 << AzureKinds::storageAccount() << QJsonObject() << QStringList()
            << QStringLiteral("base64");

        AccountForm aws = form(P::Aws);
        aws.name = QStringLiteral("prod");
        aws.region = QStringLiteral("eu-west-1");
        aws.accessKeyId = QStringLiteral("AKIAIOSFODNN7EXAMPLE");
        aws.secretAccessKey = awsSecret;
        QTest::newRow("aws, keychain")
            << aws << AwsKinds::accountKind()
            << QJsonObject{{QStringLiteral("region"), QStringLiteral("eu-west-1")},
                           {QStringLiteral("credential"),
                            QJsonObject{{QStringLiteral("keychain"), QStringLiteral("entry")}}}}
            << QStringList{QStringLiteral("entry/aws_access_key_id"),
                           QStringLiteral("entry/aws_secret_access_key")}
            << QString();

        AccountForm awsEnv = aws;
        awsEnv.store = S::Environment;
        QTest::newRow("aws, environment")
            << awsEnv << AwsKinds::accountKind()
            << QJsonObject{{QStringLiteral("credential"),
                            QJsonObject{{QStringLiteral("env"), true}}}}
            << QStringList() << QString();

        AccountForm gcpLocal = form(P::GcpEmulators);
        gcpLocal.name = QStringLiteral("local-gcp");
        gcpLocal.gcpProject = QStringLiteral("converge-local");
        QTest::newRow("google emulators")
            << gcpLocal << GcpKinds::projectKind()
            << QJsonObject{{QStringLiteral("projectId"), QStringLiteral("converge-local")},
                           {QStringLiteral("endpoints"),
                            QJsonObject{
                                {QStringLiteral("pubsub"), QStringLiteral("http://127.0.0.1:8085")},
                                {QStringLiteral("spanner"),
                                 QStringLiteral("http://127.0.0.1:9020")}}},
                           {QStringLiteral("credential"),
                            QJsonObject{{QStringLiteral("emulator"), true}}}}
            << QStringList() << QString();
        AccountForm gcloud = form(P::GcpGcloud);
        gcloud.name = QStringLiteral("prod");
        gcloud.gcpProject = QStringLiteral("acme-prod-42");
        gcloud.gcloudAccount = QStringLiteral("ops@acme.example");
        QTest::newRow("google, gcloud")
            << gcloud << GcpKinds::projectKind()
            << QJsonObject{{QStringLiteral("projectId"), QStringLiteral("acme-prod-42")},
                           {QStringLiteral("credential"),
                            QJsonObject{{QStringLiteral("gcloud"),
                                         QJsonObject{{QStringLiteral("account"),
                                                      QStringLiteral("ops@acme.example")}}}}}}
            << QStringList() << QString();
        AccountForm gcloudBad = gcloud;
        gcloudBad.gcpProject = QStringLiteral("Acme Prod");
        QTest::newRow("google, invalid project")
            << gcloudBad << GcpKinds::projectKind() << QJsonObject() << QStringList()
            << QStringLiteral("spec.projectId");
        AccountForm gcloudNone = gcloud;
        gcloudNone.gcpProject.clear();
        QTest::newRow("google, no project")
            << gcloudNone << GcpKinds::projectKind() << QJsonObject() << QStringList()
            << QStringLiteral("project's ID");

        AccountForm awsBadRegion = aws;
        awsBadRegion.region = QStringLiteral("EU West");
        QTest::newRow("aws, invalid region")
            << awsBadRegion << AwsKinds::accountKind() << QJsonObject() << QStringList()
            << QStringLiteral("spec.region");
    }

    void build()
    {
        QFETCH(AccountForm, form);
        QFETCH(QString, kind);
        QFETCH(QJsonObject, spec);
        QFETCH(QStringList, secrets);
        QFETCH(QString, error);
        const KindRegistry kinds = builtInKinds();
        const AccountRequest request = AccountRequest::build(form, kinds);
        if (!error.isEmpty()) {
            QVERIFY2(request.error.contains(error), qPrintable(request.error));
            QVERIFY(request.secrets.isEmpty());
            QVERIFY(!request.error.contains(accountKey));
            return;
        }
        QVERIFY2(request.ok(), qPrintable(request.error));
        QCOMPARE(request.resource.kind, kind);
        QCOMPARE(request.resource.apiVersion, kinds.find(kind)->apiVersion());
        QCOMPARE(request.resource.metadata.name, form.name);
        for (auto it = spec.begin(); it != spec.end(); ++it)
            QCOMPARE(request.resource.spec.value(it.key()), it.value());
        QStringList names;
        for (const AccountRequest::Secret &s : request.secrets)
            names << s.name;
        QCOMPARE(names, secrets);
        // The secret is never in the resource.
        const QString text = json(request.resource);
        QVERIFY2(!text.contains(accountKey), qPrintable(text));
        QVERIFY2(!text.contains(awsSecret), qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("AKIAIOSFODNN7EXAMPLE")));
    }

    // Every label with a shortcut (its '&') names the field it goes to: without a buddy the
    // '&' shows as it is (a form row of a layout, the file's, had one).
    void everyShortcutLabelHasItsField()
    {
        const KindRegistry kinds = builtInKinds();
        MemoryStore store;
        ConnectDialog dialog(kinds, &store, {});
        dialog.show();
        int labels = 0;
        for (const QLabel *label : dialog.findChildren<QLabel *>()) {
            if (label->textFormat() == Qt::RichText || !label->text().contains(QLatin1Char('&')))
                continue;
            ++labels;
            QVERIFY2(label->buddy(), qPrintable(label->text()));
        }
        QVERIFY(labels > 5);
    }

    // Through the widgets: a connection string, the key to the keychain on a worker thread,
    // the dialog accepted with a resource that names the entry.
    // Through the widgets: Google's presets need a project ID only (the emulators' prefilled),
    // keep nothing secret, and name the account after the project.
    void googleCloudPresets()
    {
        const KindRegistry kinds = builtInKinds();
        MemoryStore store;
        ConnectDialog dialog(kinds, &store, {});
        dialog.show();
        auto *preset = dialog.findChild<QComboBox *>(QStringLiteral("presetCombo"));
        auto *project = dialog.findChild<QLineEdit *>(QStringLiteral("gcpProjectEdit"));
        auto *account = dialog.findChild<QLineEdit *>(QStringLiteral("gcloudAccountEdit"));
        QVERIFY(project && account);
        preset->setCurrentIndex(preset->findData(int(AccountForm::Preset::GcpEmulators)));
        QCOMPARE(project->text(), QStringLiteral("converge-local"));
        QVERIFY(!account->isVisible());
        QVERIFY(!dialog.findChild<QWidget *>(QStringLiteral("secretBox"))->isVisible());
        QCOMPARE(dialog.findChild<QLineEdit *>(QStringLiteral("nameEdit"))->text(),
                 QStringLiteral("converge-local"));

        preset->setCurrentIndex(preset->findData(int(AccountForm::Preset::GcpGcloud)));
        QVERIFY(account->isVisible());
        project->setText(QStringLiteral("acme-prod-42"));
        account->setText(QStringLiteral("ops@acme.example"));
        QCOMPARE(dialog.findChild<QLineEdit *>(QStringLiteral("nameEdit"))->text(),
                 QStringLiteral("acme-prod-42"));
        QTRY_VERIFY(dialog.height() >= dialog.layout()->totalHeightForWidth(dialog.width()));
        // For looking at it (see the README's screenshots).
        if (const QString shot = qEnvironmentVariable("CONVERGE_GCP_DIALOG_SCREENSHOT");
            !shot.isEmpty())
            QVERIFY(dialog.grab().save(shot));
        QSignalSpy accepted{&dialog, &QDialog::accepted};
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("connectButton")),
                          Qt::LeftButton);
        // Nothing to store: accepted at once, within the click.
        QCOMPARE(accepted.count(), 1);
        QVERIFY(store.entries().isEmpty());
        QCOMPARE(dialog.resource().kind, GcpKinds::projectKind());
        QCOMPARE(dialog.resource().spec.value(QStringLiteral("credential")).toObject(),
                 (QJsonObject{{QStringLiteral("gcloud"),
                               QJsonObject{{QStringLiteral("account"),
                                            QStringLiteral("ops@acme.example")}}}}));
    }

    void connectionStringToKeychain()
    {
        const KindRegistry kinds = builtInKinds();
        MemoryStore store;
        ConnectDialog dialog(kinds, &store, {});
        dialog.show();
        auto *preset = dialog.findChild<QComboBox *>(QStringLiteral("presetCombo"));
        preset->setCurrentIndex(preset->findData(int(AccountForm::Preset::AzureConnectionString)));
        auto *cs = dialog.findChild<QLineEdit *>(QStringLiteral("connectionStringEdit"));
        QCOMPARE(cs->echoMode(), QLineEdit::Password);
        cs->setText(QStringLiteral("AccountName=acme;AccountKey=%1").arg(accountKey));
        // Suggestions follow the connection string.
        QCOMPARE(dialog.findChild<QLineEdit *>(QStringLiteral("nameEdit"))->text(),
                 QStringLiteral("acme"));
        QCOMPARE(dialog.findChild<QLineEdit *>(QStringLiteral("keychainEntryEdit"))->text(),
                 QStringLiteral("azure-storage/acme"));

        QSignalSpy accepted{&dialog, &QDialog::accepted};
        QVERIFY(accepted.isValid());
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("connectButton")),
                          Qt::LeftButton);
        QVERIFY(accepted.wait(5000));
        QCOMPARE(store.entries().value(QStringLiteral("azure-storage/acme")), accountKey);
        QCOMPARE(dialog.resource().spec.value(QStringLiteral("credential")).toObject(),
                 (QJsonObject{{QStringLiteral("keychain"), QStringLiteral("azure-storage/acme")}}));
        QVERIFY(!json(dialog.resource()).contains(accountKey));
    }

    // A keychain that refuses the second of the AWS entries: the first is removed again, the
    // dialog stays open and names the alternatives.
    void refusingKeychainStoresNothing()
    {
        const KindRegistry kinds = builtInKinds();
        MemoryStore store;
        store.failFrom(1);
        ConnectDialog dialog(kinds, &store, {});
        dialog.show();
        auto *preset = dialog.findChild<QComboBox *>(QStringLiteral("presetCombo"));
        preset->setCurrentIndex(preset->findData(int(AccountForm::Preset::Aws)));
        dialog.findChild<QLineEdit *>(QStringLiteral("accessKeyIdEdit"))
            ->setText(QStringLiteral("AKIAIOSFODNN7EXAMPLE"));
        dialog.findChild<QLineEdit *>(QStringLiteral("secretAccessKeyEdit"))->setText(awsSecret);

        QSignalSpy failed{&dialog, &ConnectDialog::storeFailed};
        QVERIFY(failed.isValid());
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("connectButton")),
                          Qt::LeftButton);
        QVERIFY(failed.wait(5000));
        QVERIFY(dialog.isVisible());
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QVERIFY(store.entries().isEmpty());
        const QString message = dialog.errorText();
        QVERIFY2(message.contains(QStringLiteral("Nothing was stored")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("file")) &&
                     message.contains(QStringLiteral("environment variable")),
                 qPrintable(message));
        QVERIFY(!message.contains(awsSecret));
        QVERIFY(dialog.resource().kind.isEmpty());

        // The alternative the message offers: a file, mode 0600.
        QTemporaryDir dir;
        auto *storeCombo = dialog.findChild<QComboBox *>(QStringLiteral("secretStoreCombo"));
        storeCombo->setCurrentIndex(storeCombo->findData(int(AccountForm::SecretStore::File)));
        const QString file = dir.filePath(QStringLiteral("aws.credentials"));
        dialog.findChild<QLineEdit *>(QStringLiteral("filePathEdit"))->setText(file);
        QSignalSpy accepted{&dialog, &QDialog::accepted};
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("connectButton")),
                          Qt::LeftButton);
        QVERIFY(accepted.wait(5000));
        QCOMPARE(QFile::permissions(file) & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
                 QFileDevice::Permissions());
        QCOMPARE(dialog.resource().spec.value(QStringLiteral("credential")).toObject(),
                 (QJsonObject{{QStringLiteral("file"), file}}));
    }

    // Connect never replaces an account of the workspace.
    void existingNameRefused()
    {
        const KindRegistry kinds = builtInKinds();
        ConnectDialog dialog(kinds, nullptr, {QStringLiteral("StorageAccount/azurite")});
        dialog.show();
        QSignalSpy accepted{&dialog, &QDialog::accepted};
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("connectButton")),
                          Qt::LeftButton);
        QCOMPARE(accepted.count(), 0);
        QVERIFY2(dialog.errorText().contains(QStringLiteral("already has")),
                 qPrintable(dialog.errorText()));
        dialog.findChild<QLineEdit *>(QStringLiteral("nameEdit"))->setText(QStringLiteral("az2"));
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("connectButton")),
                          Qt::LeftButton);
        QCOMPARE(accepted.count(), 1);
        QCOMPARE(dialog.resource().key().toString(), QStringLiteral("StorageAccount/az2"));
        // Without a keychain the dialog does not offer it.
        auto *storeCombo = dialog.findChild<QComboBox *>(QStringLiteral("secretStoreCombo"));
        QCOMPARE(storeCombo->findData(int(AccountForm::SecretStore::Keychain)), -1);
    }
};

QTEST_MAIN(tst_ConnectDialog)
#include "tst_connectdialog.moc"

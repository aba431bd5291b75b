// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "connectdialog.h"

#include "azureclistatus.h"
#include "backenderror.h"
#include "filecredentialstore.h"
#include "kindregistry.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace converge {

namespace {

using Preset = AccountForm::Preset;
using Store = AccountForm::SecretStore;

enum Page { EmulatorPage, ConnectionStringPage, KeyPage, AwsPage, TokenPage, ProfilePage, GcpPage };

constexpr int fileRow = 2; // of the secret box's form: store, keychain entry, file, variable

Page pageFor(Preset preset)
{
    switch (preset) {
    case Preset::Azurite:
    case Preset::Dynalite:
        return EmulatorPage;
    case Preset::AzureConnectionString:
        return ConnectionStringPage;
    case Preset::AzureKey:
        return KeyPage;
    case Preset::Aws:
        return AwsPage;
    case Preset::AzureCli:
    case Preset::AzureTokenCommand:
        return TokenPage;
    case Preset::AwsProfile:
        return ProfilePage;
    case Preset::GcpEmulators:
    case Preset::GcpGcloud:
        return GcpPage;
    }
    return EmulatorPage;
}

QLineEdit *lineEdit(QWidget *parent, const QString &name, bool secret = false)
{
    auto *edit = new QLineEdit(parent);
    edit->setObjectName(name);
    if (secret) {
        edit->setEchoMode(QLineEdit::Password);
        edit->setInputMethodHints(Qt::ImhHiddenText | Qt::ImhNoPredictiveText |
                                  Qt::ImhSensitiveData);
    }
    return edit;
}

QString suggestedFile(const AccountForm &form)
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation);
    return QDir(dir).filePath(form.preset == Preset::Aws
                                  ? QStringLiteral("aws-%1.credentials").arg(form.name.trimmed())
                                  : QStringLiteral("azure-storage.credentials"));
}

} // namespace

ConnectDialog::ConnectDialog(const KindRegistry &kinds, CredentialStore *keychain,
                             const QStringList &existingNames, QWidget *parent)
    : QDialog(parent)
    , m_kinds(kinds)
    , m_keychain(keychain)
    , m_existingNames(existingNames)
{
    setObjectName(QStringLiteral("connectDialog"));
    setWindowTitle(tr("Connect account"));
    m_pool.setMaxThreadCount(1);
    auto *layout = new QVBoxLayout(this);

    auto *top = new QFormLayout;
    m_preset = new QComboBox(this);
    m_preset->setObjectName(QStringLiteral("presetCombo"));
    m_preset->addItem(tr("Local Azurite (emulator)"), int(Preset::Azurite));
    m_preset->addItem(tr("Local dynalite (emulator)"), int(Preset::Dynalite));
    m_preset->addItem(tr("Azure Storage account: connection string"),
                      int(Preset::AzureConnectionString));
    m_preset->addItem(tr("Azure Storage account: name and key"), int(Preset::AzureKey));
    m_preset->addItem(tr("Azure Storage account: sign in with the Azure CLI"),
                      int(Preset::AzureCli));
    m_preset->addItem(tr("Azure Storage account: token command"), int(Preset::AzureTokenCommand));
    m_preset->addItem(tr("AWS account (DynamoDB)"), int(Preset::Aws));
    m_preset->addItem(tr("AWS account: named profile"), int(Preset::AwsProfile));
    m_preset->addItem(tr("Local Google Cloud emulators (Pub/Sub, Spanner)"),
                      int(Preset::GcpEmulators));
    m_preset->addItem(tr("Google Cloud project: sign in with the Google Cloud CLI"),
                      int(Preset::GcpGcloud));
    top->addRow(tr("&Connect to:"), m_preset);
    m_name = lineEdit(this, QStringLiteral("nameEdit"));
    m_name->setToolTip(tr("The account's name in this workspace (metadata.name); resources "
                          "name it as their owner"));
    top->addRow(tr("&Name in the workspace:"), m_name);
    layout->addLayout(top);

    m_pages = new QStackedWidget(this);
    m_pages->setObjectName(QStringLiteral("presetPages"));
    auto *emulator = new QLabel(m_pages);
    emulator->setObjectName(QStringLiteral("emulatorNote"));
    emulator->setWordWrap(true);
    m_pages->addWidget(emulator);

    auto *csPage = new QWidget(m_pages);
    auto *csForm = new QFormLayout(csPage);
    m_connectionString = lineEdit(csPage, QStringLiteral("connectionStringEdit"), true);
    m_connectionString->setPlaceholderText(
        QStringLiteral("DefaultEndpointsProtocol=https;AccountName=…;AccountKey=…"));
    csForm->addRow(tr("Connection &string:"), m_connectionString);
    auto *csNote = new QLabel(tr("The account key goes to the store chosen below; the workspace "
                                 "keeps the account name and endpoints only."),
                              csPage);
    csNote->setWordWrap(true);
    csForm->addRow(csNote);
    m_pages->addWidget(csPage);

    auto *keyPage = new QWidget(m_pages);
    auto *keyForm = new QFormLayout(keyPage);
    m_accountName = lineEdit(keyPage, QStringLiteral("accountNameEdit"));
    keyForm->addRow(tr("Storage &account:"), m_accountName);
    m_accountKey = lineEdit(keyPage, QStringLiteral("accountKeyEdit"), true);
    keyForm->addRow(tr("Account &key:"), m_accountKey);
    m_pages->addWidget(keyPage);

    auto *awsPage = new QWidget(m_pages);
    auto *awsForm = new QFormLayout(awsPage);
    m_region = lineEdit(awsPage, QStringLiteral("regionEdit"));
    m_region->setText(QStringLiteral("us-east-1"));
    awsForm->addRow(tr("&Region:"), m_region);
    m_endpoint = lineEdit(awsPage, QStringLiteral("endpointEdit"));
    m_endpoint->setPlaceholderText(tr("https://dynamodb.REGION.amazonaws.com (default)"));
    awsForm->addRow(tr("&Endpoint (optional):"), m_endpoint);
    m_accessKeyId = lineEdit(awsPage, QStringLiteral("accessKeyIdEdit"));
    awsForm->addRow(tr("Access key &ID:"), m_accessKeyId);
    m_secretAccessKey = lineEdit(awsPage, QStringLiteral("secretAccessKeyEdit"), true);
    awsForm->addRow(tr("&Secret access key:"), m_secretAccessKey);
    m_pages->addWidget(awsPage);

    // The sign-in presets: no secret is typed in, so none is kept.
    auto *tokenPage = new QWidget(m_pages);
    auto *tokenForm = new QFormLayout(tokenPage);
    m_tokenAccount = lineEdit(tokenPage, QStringLiteral("tokenAccountEdit"));
    m_tokenAccount->setPlaceholderText(tr("e.g. acmestorage, or give the endpoints below"));
    tokenForm->addRow(tr("Storage &account:"), m_tokenAccount);
    m_tokenConnectionString = lineEdit(tokenPage, QStringLiteral("tokenConnectionStringEdit"));
    m_tokenConnectionString->setPlaceholderText(
        tr("BlobEndpoint=…;QueueEndpoint=…;TableEndpoint=… (no key)"));
    m_tokenConnectionString->setToolTip(
        tr("A connection string without a key, for accounts whose endpoints are not "
           "ACCOUNT.blob.core.windows.net (sovereign clouds, private endpoints, Azurite); left "
           "empty, Azure's public endpoints of the account are used"));
    tokenForm->addRow(tr("&Endpoints (optional):"), m_tokenConnectionString);
    m_tenant = lineEdit(tokenPage, QStringLiteral("tenantEdit"));
    m_tenant->setPlaceholderText(tr("the Azure CLI's default"));
    tokenForm->addRow(tr("&Tenant (optional):"), m_tenant);
    m_subscription = lineEdit(tokenPage, QStringLiteral("subscriptionEdit"));
    m_subscription->setPlaceholderText(tr("the Azure CLI's default"));
    tokenForm->addRow(tr("S&ubscription (optional):"), m_subscription);
    m_signInRow = new QWidget(tokenPage);
    auto *signInLayout = new QVBoxLayout(m_signInRow);
    signInLayout->setContentsMargins(0, 0, 0, 0);
    m_signedIn = new QLabel(m_signInRow);
    m_signedIn->setObjectName(QStringLiteral("signedInLabel"));
    m_signedIn->setWordWrap(true);
    m_signedIn->setTextFormat(Qt::PlainText);
    m_signedIn->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_checkAgain = new QPushButton(tr("C&heck again"), m_signInRow);
    m_checkAgain->setObjectName(QStringLiteral("checkAgainButton"));
    signInLayout->addWidget(m_signedIn);
    signInLayout->addWidget(m_checkAgain, 0, Qt::AlignLeft);
    tokenForm->addRow(tr("Azure CLI:"), m_signInRow);
    m_tokenCommand = lineEdit(tokenPage, QStringLiteral("tokenCommandEdit"));
    m_tokenCommand->setPlaceholderText(tr("e.g. my-sign-in token --resource "
                                          "https://storage.azure.com/"));
    tokenForm->addRow(tr("Co&mmand:"), m_tokenCommand);
    m_tokenCommandHint = new QLabel(
        tr("Run without a shell (quote arguments with spaces). It must print JSON in the Azure "
           "CLI's shape, e.g. {\"accessToken\": \"eyJ0…\", \"expires_on\": 1767225600}, a "
           "token for https://storage.azure.com/. Converge runs it again before the token "
           "expires."),
        tokenPage);
    m_tokenCommandHint->setObjectName(QStringLiteral("tokenCommandHint"));
    m_tokenCommandHint->setWordWrap(true);
    tokenForm->addRow(m_tokenCommandHint);
    auto *tokenNote = new QLabel(tr("Nothing secret is stored: the workspace names where the "
                                    "token comes from, and the token stays in memory."),
                                 tokenPage);
    tokenNote->setWordWrap(true);
    tokenForm->addRow(tokenNote);
    m_pages->addWidget(tokenPage);
    m_cliStatus = new AzureCliStatus(this);

    auto *profilePage = new QWidget(m_pages);
    auto *profileForm = new QFormLayout(profilePage);
    m_profile = new QComboBox(profilePage);
    m_profile->setObjectName(QStringLiteral("profileCombo"));
    profileForm->addRow(tr("&Profile:"), m_profile);
    m_profileInfo = new QLabel(profilePage);
    m_profileInfo->setObjectName(QStringLiteral("profileInfoLabel"));
    m_profileInfo->setWordWrap(true);
    m_profileInfo->setTextFormat(Qt::PlainText);
    profileForm->addRow(m_profileInfo);
    m_profileRegion = lineEdit(profilePage, QStringLiteral("profileRegionEdit"));
    m_profileRegion->setPlaceholderText(tr("the profile's region"));
    profileForm->addRow(tr("&Region:"), m_profileRegion);
    m_profileEndpoint = lineEdit(profilePage, QStringLiteral("profileEndpointEdit"));
    m_profileEndpoint->setPlaceholderText(tr("https://dynamodb.REGION.amazonaws.com (default)"));
    profileForm->addRow(tr("&Endpoint (optional):"), m_profileEndpoint);
    auto *profileNote = new QLabel(tr("Nothing secret is stored: the workspace names the profile; "
                                      "its keys or credential_process stay in the AWS files."),
                                   profilePage);
    profileNote->setWordWrap(true);
    profileForm->addRow(profileNote);
    m_pages->addWidget(profilePage);

    auto *gcpPage = new QWidget(m_pages);
    auto *gcpForm = new QFormLayout(gcpPage);
    m_gcpProject = lineEdit(gcpPage, QStringLiteral("gcpProjectEdit"));
    m_gcpProject->setPlaceholderText(tr("e.g. my-project-123"));
    gcpForm->addRow(tr("&Project ID:"), m_gcpProject);
    m_gcloudAccount = lineEdit(gcpPage, QStringLiteral("gcloudAccountEdit"));
    m_gcloudAccount->setPlaceholderText(tr("the Google Cloud CLI's active account"));
    gcpForm->addRow(tr("&Account (optional):"), m_gcloudAccount);
    // One note a preset, each set once: a wrapped label whose text changes after the page is
    // laid out is given the height of its old text.
    m_gcpLocalNote =
        new QLabel(tr("The Pub/Sub emulator at http://127.0.0.1:8085 and Spanner's at "
                      "http://127.0.0.1:9020, as scripts/dev.sh run starts them (credential "
                      "emulator: true). Any project ID will do. Nothing secret is stored."),
                   gcpPage);
    m_gcpLocalNote->setObjectName(QStringLiteral("gcpLocalNote"));
    m_gcpLocalNote->setWordWrap(true);
    gcpForm->addRow(m_gcpLocalNote);
    m_gcloudNote =
        new QLabel(tr("Converge asks the Google Cloud CLI for the signed-in user's token "
                      "(gcloud auth print-access-token) and again before it expires; run gcloud "
                      "auth login first. Nothing secret is stored. A service account key or "
                      "Application Default Credentials: write the credential in the project's "
                      "spec (see the manifest reference)."),
                   gcpPage);
    m_gcloudNote->setObjectName(QStringLiteral("gcloudNote"));
    m_gcloudNote->setWordWrap(true);
    gcpForm->addRow(m_gcloudNote);
    m_pages->addWidget(gcpPage);
    layout->addWidget(m_pages);

    auto *secretBox = new QGroupBox(tr("Keep the secret in"), this);
    secretBox->setObjectName(QStringLiteral("secretBox"));
    m_secretBox = secretBox;
    auto *secretForm = new QFormLayout(secretBox);
    m_store = new QComboBox(secretBox);
    m_store->setObjectName(QStringLiteral("secretStoreCombo"));
    if (m_keychain)
        m_store->addItem(tr("The OS keychain"), int(Store::Keychain));
    m_store->addItem(tr("A file readable only by you (mode 0600)"), int(Store::File));
    m_store->addItem(tr("An environment variable you set (nothing is stored)"),
                     int(Store::Environment));
    secretForm->addRow(tr("S&tore:"), m_store);
    m_keychainEntry = lineEdit(secretBox, QStringLiteral("keychainEntryEdit"));
    secretForm->addRow(tr("Keychain &entry:"), m_keychainEntry);
    auto *fileRow = new QHBoxLayout;
    m_filePath = lineEdit(secretBox, QStringLiteral("filePathEdit"));
    auto *browse = new QToolButton(secretBox);
    browse->setObjectName(QStringLiteral("browseFileButton"));
    browse->setText(tr("…"));
    fileRow->addWidget(m_filePath, 1);
    fileRow->addWidget(browse);
    // A row of a layout gets no buddy from QFormLayout (its '&' would show): the label's own.
    auto *fileLabel = new QLabel(tr("&File:"), secretBox);
    fileLabel->setBuddy(m_filePath);
    secretForm->addRow(fileLabel, fileRow);
    m_envVariable = lineEdit(secretBox, QStringLiteral("envVariableEdit"));
    m_envVariable->setText(QStringLiteral("AZURE_STORAGE_KEY"));
    secretForm->addRow(tr("&Variable:"), m_envVariable);
    m_storeHint = new QLabel(secretBox);
    m_storeHint->setObjectName(QStringLiteral("storeHint"));
    m_storeHint->setWordWrap(true);
    secretForm->addRow(m_storeHint);
    layout->addWidget(secretBox);

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("errorLabel"));
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::PlainText);
    m_error->setStyleSheet(QStringLiteral("color: #c62828"));
    m_error->setVisible(false);
    layout->addWidget(m_error);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    QPushButton *connectButton = m_buttons->button(QDialogButtonBox::Ok);
    connectButton->setText(tr("&Connect"));
    connectButton->setObjectName(QStringLiteral("connectButton"));
    m_buttons->button(QDialogButtonBox::Cancel)->setObjectName(QStringLiteral("cancelButton"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ConnectDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);

    connect(m_preset, &QComboBox::currentIndexChanged, this, &ConnectDialog::presetChanged);
    connect(m_store, &QComboBox::currentIndexChanged, this, &ConnectDialog::storeChanged);
    for (QLineEdit *edit : {m_name, m_connectionString, m_accountName, m_region, m_tokenAccount,
                            m_tokenConnectionString, m_gcpProject})
        connect(edit, &QLineEdit::textChanged, this, &ConnectDialog::updateSuggestions);
    connect(m_profile, &QComboBox::currentIndexChanged, this, &ConnectDialog::profileChanged);
    connect(m_checkAgain, &QPushButton::clicked, this, &ConnectDialog::checkSignIn);
    connect(m_subscription, &QLineEdit::editingFinished, this, [this] {
        if (m_subscription->text() != m_subscription->property("checked").toString())
            checkSignIn();
    });
    connect(m_cliStatus, &AzureCliStatus::finished, this, [this] {
        m_signedIn->setText(m_cliStatus->result().text());
        m_checkAgain->setEnabled(true);
        fitHeight();
    });
    connect(browse, &QToolButton::clicked, this, [this] {
        auto *dialog = new QFileDialog(this, tr("Credential file"), m_filePath->text());
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->setAcceptMode(QFileDialog::AcceptSave);
        dialog->setOption(QFileDialog::DontConfirmOverwrite); // entries are added, not replaced
        connect(dialog, &QFileDialog::fileSelected, m_filePath, &QLineEdit::setText);
        dialog->open();
    });
    // Wide enough for an endpoint URL and the signed-in tenant's ID on one line.
    resize(fontMetrics().averageCharWidth() * 100, height());
    presetChanged();
}

ConnectDialog::~ConnectDialog()
{
    m_pool.waitForDone();
}

AccountForm ConnectDialog::form() const
{
    AccountForm f;
    f.preset = static_cast<Preset>(m_preset->currentData().toInt());
    f.name = m_name->text();
    f.connectionString = m_connectionString->text();
    f.accountName = m_accountName->text();
    f.accountKey = m_accountKey->text();
    f.region = m_region->text();
    f.endpoint = m_endpoint->text();
    f.accessKeyId = m_accessKeyId->text();
    f.secretAccessKey = m_secretAccessKey->text();
    f.tenant = m_tenant->text();
    f.subscription = m_subscription->text();
    f.tokenCommand = m_tokenCommand->text();
    f.awsProfile = m_profile->currentData().toString();
    f.gcpProject = m_gcpProject->text();
    f.gcloudAccount = m_gcloudAccount->text();
    // Each page has its own fields; the form holds those of the page shown.
    if (f.preset == Preset::AzureCli || f.preset == Preset::AzureTokenCommand) {
        f.accountName = m_tokenAccount->text();
        f.connectionString = m_tokenConnectionString->text();
    } else if (f.preset == Preset::AwsProfile) {
        f.region = m_profileRegion->text();
        f.endpoint = m_profileEndpoint->text();
    }
    f.store = static_cast<Store>(m_store->currentData().toInt());
    f.keychainEntry = m_keychainEntry->text();
    f.filePath = m_filePath->text();
    f.envVariable = m_envVariable->text();
    return f;
}

QString ConnectDialog::errorText() const
{
    return m_error->isVisible() ? m_error->text() : QString();
}

QString ConnectDialog::signedInText() const
{
    return m_signedIn->text();
}

void ConnectDialog::checkSignIn()
{
    m_subscription->setProperty("checked", m_subscription->text());
    m_checkAgain->setEnabled(false);
    m_cliStatus->check(m_subscription->text());
    m_signedIn->setText(m_cliStatus->result().text());
}

void ConnectDialog::reloadProfiles()
{
    const QString current = m_profile->currentData().toString();
    m_profiles = AwsProfileList::read(AwsProfile::filesFromEnvironment());
    const QSignalBlocker blocker(m_profile);
    m_profile->clear();
    for (const AwsProfileList::Entry &e : std::as_const(m_profiles.entries)) {
        m_profile->addItem(e.usable() ? e.name : tr("%1 (not supported)").arg(e.name), e.name);
        if (!e.usable())
            m_profile->setItemData(m_profile->count() - 1, e.error, Qt::ToolTipRole);
    }
    const int index = m_profile->findData(current);
    m_profile->setCurrentIndex(index >= 0 ? index : 0);
    profileChanged();
}

void ConnectDialog::profileChanged()
{
    const AwsProfileList::Entry *entry = m_profiles.find(m_profile->currentData().toString());
    QString info;
    if (!m_profiles.error.isEmpty())
        info = m_profiles.error;
    else if (!entry)
        info = tr("No profiles in %1 or %2. Add one with aws configure --profile NAME.")
                   .arg(QDir::toNativeSeparators(m_profiles.files.config),
                        QDir::toNativeSeparators(m_profiles.files.credentials));
    else if (!entry->usable())
        info = tr("Converge cannot use this profile: %1").arg(entry->error);
    else
        info = entry->region.isEmpty() ? tr("The profile names no region: enter one.")
                                       : tr("The profile's region: %1.").arg(entry->region);
    m_profileInfo->setText(info);
    // The region follows the profile until the person types one of their own.
    const QString region = entry ? entry->region : QString();
    if (m_profileRegion->text().isEmpty() || m_profileRegion->text() == m_suggestedRegion) {
        m_profileRegion->setText(region);
        m_suggestedRegion = region;
    }
    updateSuggestions();
}

void ConnectDialog::fitHeight()
{
    // Once the layout has taken in the change (a label's new text, rows shown or hidden): tall
    // enough for wrapped notes at the width the person gave it. It never shrinks once fitted,
    // which would make the buttons jump under the pointer.
    QMetaObject::invokeMethod(
        this,
        [this] {
            // A label's new size reaches the outer layouts one posted event per level; their
            // cached heights-for-width would still be the old ones.
            for (QLayout *l : findChildren<QLayout *>())
                l->invalidate();
            layout()->activate();
            int height = layout()->hasHeightForWidth() ? layout()->totalHeightForWidth(width())
                                                       : sizeHint().height();
            height = qMax(height, minimumSizeHint().height());
            // A window system applies a resize later: height() may not show the last one yet.
            if (m_fittedHeight > 0)
                height = std::max({height, this->height(), m_fittedHeight});
            m_fittedHeight = height;
            resize(width(), height);
        },
        Qt::QueuedConnection);
}

bool ConnectDialog::event(QEvent *event)
{
    const bool handled = QDialog::event(event);
    // A wrapped label's new height can reach the layout after the fit that followed its change
    // (a QLabel lays its text out lazily): each layout request that leaves the dialog too short
    // for its rows fits it again. A top-level layout grows the window only to its minimum size,
    // which does not count heights for width.
    if (event->type() == QEvent::LayoutRequest && m_fittedHeight > 0 && layout() &&
        layout()->hasHeightForWidth() && height() < layout()->totalHeightForWidth(width()))
        fitHeight();
    return handled;
}

QList<QWidget *> ConnectDialog::formWidgets() const
{
    return {m_preset, m_name, m_pages, m_secretBox};
}

void ConnectDialog::presetChanged()
{
    const Preset preset = form().preset;
    m_pages->setCurrentIndex(pageFor(preset));
    // The stack is as tall as the page shown, not as its tallest page: no empty band under a
    // short form.
    for (int i = 0; i < m_pages->count(); ++i)
        m_pages->widget(i)->setSizePolicy(
            i == m_pages->currentIndex()
                ? QSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred)
                : QSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored));
    if (auto *note = findChild<QLabel *>(QStringLiteral("emulatorNote"))) {
        note->setText(preset == Preset::Azurite
                          ? tr("Azurite on this machine: blob, queue and table at "
                               "http://127.0.0.1:10000–10002/devstoreaccount1, with the "
                               "development key Microsoft publishes (credential emulator: true). "
                               "Nothing secret is stored.")
                          : tr("dynalite on this machine at http://127.0.0.1:8000, region "
                               "us-east-1, with fixed dummy keys (credential emulator: true). "
                               "Nothing secret is stored."));
    }
    m_secretBox->setVisible(form().needsSecret());
    m_error->setVisible(false);
    if (preset == Preset::AzureCli || preset == Preset::AzureTokenCommand) {
        auto *tokenForm = qobject_cast<QFormLayout *>(m_tokenAccount->parentWidget()->layout());
        const bool cli = preset == Preset::AzureCli;
        for (QWidget *w : {static_cast<QWidget *>(m_tenant), static_cast<QWidget *>(m_subscription),
                           m_signInRow})
            tokenForm->setRowVisible(w, cli);
        tokenForm->setRowVisible(m_tokenCommand, !cli);
        tokenForm->setRowVisible(m_tokenCommandHint, !cli);
        if (cli)
            checkSignIn();
    } else if (preset == Preset::AwsProfile) {
        reloadProfiles();
    } else if (preset == Preset::GcpEmulators || preset == Preset::GcpGcloud) {
        const bool local = preset == Preset::GcpEmulators;
        auto *gcpForm = qobject_cast<QFormLayout *>(m_gcpProject->parentWidget()->layout());
        gcpForm->setRowVisible(m_gcloudAccount, !local);
        gcpForm->setRowVisible(m_gcpLocalNote, local);
        gcpForm->setRowVisible(m_gcloudNote, !local);
        if (local && m_gcpProject->text().isEmpty())
            m_gcpProject->setText(QStringLiteral("converge-local"));
    }
    updateSuggestions();
    storeChanged();
    fitHeight();
}

void ConnectDialog::storeChanged()
{
    const AccountForm f = form();
    auto *secretForm = qobject_cast<QFormLayout *>(m_secretBox->layout());
    secretForm->setRowVisible(m_keychainEntry, f.store == Store::Keychain);
    secretForm->setRowVisible(fileRow, f.store == Store::File);
    // AWS reads the standard variables; only Azure names one.
    secretForm->setRowVisible(m_envVariable,
                              f.store == Store::Environment && f.preset != Preset::Aws);
    switch (f.store) {
    case Store::Keychain:
        m_storeHint->setText(
            tr("The workspace names the entry; the secret stays in the keychain."));
        break;
    case Store::File:
        m_storeHint->setText(tr("One name=value line per secret; the file is created with mode "
                                "0600 and Converge refuses it if others can read it."));
        break;
    case Store::Environment:
        m_storeHint->setText(
            f.preset == Preset::Aws
                ? tr("Converge reads AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY from the "
                     "environment it starts in; the keys typed above are not used.")
                : tr("Converge reads the key (or, for a connection string with a SAS, the SAS "
                     "token) from this variable in the environment it starts in."));
        break;
    }
}

void ConnectDialog::updateSuggestions()
{
    AccountForm f = form();
    const QString name = AccountRequest::suggestedName(f);
    if (m_name->text().isEmpty() || m_name->text() == m_suggestedName) {
        m_suggestedName = name;
        if (m_name->text() != name)
            m_name->setText(name); // re-enters through textChanged, harmlessly
        f.name = name;
    }
    const QString entry = AccountRequest::suggestedKeychainEntry(f);
    if (m_keychainEntry->text().isEmpty() || m_keychainEntry->text() == m_suggestedEntry) {
        m_suggestedEntry = entry;
        m_keychainEntry->setText(entry);
    }
    const QString file = suggestedFile(f);
    if (m_filePath->text().isEmpty() ||
        m_filePath->property("suggested").toString() == m_filePath->text()) {
        m_filePath->setProperty("suggested", file);
        m_filePath->setText(file);
    }
}

void ConnectDialog::showError(const QString &message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

void ConnectDialog::accept()
{
    if (m_storing)
        return;
    const AccountForm f = form();
    if (f.preset == Preset::AwsProfile) {
        const AwsProfileList::Entry *entry = m_profiles.find(f.awsProfile);
        if (!m_profiles.error.isEmpty() || !entry) {
            showError(m_profileInfo->text());
            return;
        }
        if (!entry->usable()) {
            showError(tr("Converge cannot use the profile %1: %2").arg(entry->name, entry->error));
            return;
        }
        if (entry->region.isEmpty() && f.region.trimmed().isEmpty()) {
            showError(tr("The profile %1 names no region: enter one.").arg(entry->name));
            return;
        }
    }
    const AccountRequest request = AccountRequest::build(f, m_kinds);
    if (!request.ok()) {
        showError(request.error);
        return;
    }
    if (m_existingNames.contains(request.resource.key().toString())) {
        showError(tr("The workspace already has an account named %1. Choose another name: "
                     "Connect never replaces an account.")
                      .arg(request.resource.metadata.name));
        return;
    }
    m_resource = request.resource;
    m_note = request.note;
    if (request.secrets.isEmpty()) {
        QDialog::accept();
        return;
    }

    m_storing = true;
    showError({});
    for (QWidget *w : formWidgets())
        w->setEnabled(false);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    m_storeHint->setText(f.store == Store::Keychain ? tr("Storing the secret in the OS keychain…")
                                                    : tr("Storing the secret in the file…"));
    CredentialStore *keychain = f.store == Store::Keychain ? m_keychain : nullptr;
    const QString file = QDir::current().absoluteFilePath(f.filePath.trimmed());
    const QList<AccountRequest::Secret> secrets = request.secrets;
    // The dialog's destructor waits for this task, so `this` outlives it.
    m_pool.start([this, keychain, file, secrets] {
        BackendError error;
        bool ok = false;
        if (keychain) {
            ok = AccountRequest::storeSecrets(*keychain, secrets, &error);
        } else {
            QDir().mkpath(QFileInfo(file).absolutePath());
            FileCredentialStore store(file);
            ok = AccountRequest::storeSecrets(store, secrets, &error);
        }
        const bool unavailable = !ok && keychain &&
                                 (error.category == BackendError::Category::Terminal ||
                                  error.category == BackendError::Category::Unauthorized);
        QMetaObject::invokeMethod(
            this,
            [this, ok, message = error.message, unavailable] {
                finishStore(ok, message, unavailable);
            },
            Qt::QueuedConnection);
    });
}

void ConnectDialog::finishStore(bool ok, const QString &message, bool unavailable)
{
    m_storing = false;
    for (QWidget *w : formWidgets())
        w->setEnabled(true);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(true);
    storeChanged();
    if (ok) {
        QDialog::accept();
        return;
    }
    m_resource = Resource();
    m_note.clear();
    QString text = tr("Nothing was stored: %1").arg(message);
    if (unavailable)
        text += QStringLiteral("\n\n") +
                tr("Without the keychain, keep the secret in a file readable only by you "
                   "(credential file: PATH, mode 0600) or in an environment variable "
                   "(credential env): choose one under \"Keep the secret in\" and Connect "
                   "again.");
    showError(text);
    Q_EMIT storeFailed(text);
}

} // namespace converge

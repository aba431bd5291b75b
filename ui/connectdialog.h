// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "accountrequest.h"
#include "awsprofilelist.h"

#include <QDialog>
#include <QThreadPool>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;
class QWidget;

namespace converge {

class AzureCliStatus;
class CredentialStore;
class KindRegistry;

/// File → Connect account…: a local emulator preset (Azurite, dynalite, Google's Pub/Sub and
/// Spanner), an Azure Storage account from a connection string or a name and key, an AWS account,
/// or a Google Cloud project as the Google Cloud CLI's user. The account key or secret
/// access key goes to the chosen store — the OS keychain, a mode-0600 file, or an environment
/// variable the user sets — and the resource only names where it is.
///
/// Sign-ins store nothing: an Azure Storage account with the Azure CLI's token (the dialog asks
/// `az account show`, as a child process, who is signed in) or a token command's, and an AWS
/// account with a named profile of the AWS shared files (a picker filled from them; a profile
/// Converge cannot use is listed with the engine's reason and refused on Connect).
///
/// Connect writes the secrets on a worker thread; when the store refuses (a headless session
/// without a keychain) the dialog says so with the alternatives, has stored nothing, and stays
/// open. Accepted, resource() is the account to apply.
class ConnectDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectDialog)

public:
    /// `kinds` must outlive the dialog; `keychain` (not owned, may be null: the keychain choice
    /// is then not offered) too. `existingNames` are the accounts already in the workspace, as
    /// "Kind/name" (ResourceKey::toString).
    ConnectDialog(const KindRegistry &kinds, CredentialStore *keychain,
                  const QStringList &existingNames, QWidget *parent = nullptr);
    /// Waits for a secret being written (the keychain's own timeout bounds it).
    ~ConnectDialog() override;

    /// What the widgets say now.
    AccountForm form() const;
    /// The account to apply, once accepted.
    const Resource &resource() const { return m_resource; }
    /// What the user still has to do (set an environment variable), once accepted; or empty.
    QString note() const { return m_note; }
    /// The message shown under the form (a refusal, an error), or empty.
    QString errorText() const;
    bool isStoring() const { return m_storing; }
    /// The line under the Azure CLI preset: who is signed in, or why nobody is.
    QString signedInText() const;

public Q_SLOTS:
    void accept() override;

protected:
    bool event(QEvent *event) override;

Q_SIGNALS:
    /// Storing the secrets failed; the dialog stays open and says why.
    void storeFailed(const QString &message);

private:
    void presetChanged();
    void storeChanged();
    void updateSuggestions();
    void showError(const QString &message);
    void finishStore(bool ok, const QString &message, bool unavailable);
    void checkSignIn();
    void reloadProfiles();
    void profileChanged();
    QList<QWidget *> formWidgets() const;
    void fitHeight();

    const KindRegistry &m_kinds;
    CredentialStore *m_keychain = nullptr; // not owned
    QStringList m_existingNames;
    Resource m_resource;
    QString m_note;
    bool m_storing = false;
    int m_fittedHeight = 0;
    QString m_suggestedName;
    QString m_suggestedEntry;
    QThreadPool m_pool;

    // Owned through Qt parents.
    QComboBox *m_preset = nullptr;
    QLineEdit *m_name = nullptr;
    QStackedWidget *m_pages = nullptr;
    QLineEdit *m_connectionString = nullptr;
    QLineEdit *m_accountName = nullptr;
    QLineEdit *m_accountKey = nullptr;
    QLineEdit *m_region = nullptr;
    QLineEdit *m_endpoint = nullptr;
    QLineEdit *m_accessKeyId = nullptr;
    QLineEdit *m_secretAccessKey = nullptr;
    QLineEdit *m_tokenAccount = nullptr;
    QLineEdit *m_tokenConnectionString = nullptr;
    QLineEdit *m_tenant = nullptr;
    QLineEdit *m_subscription = nullptr;
    QWidget *m_signInRow = nullptr;
    QLabel *m_signedIn = nullptr;
    QPushButton *m_checkAgain = nullptr;
    QLineEdit *m_tokenCommand = nullptr;
    QLabel *m_tokenCommandHint = nullptr;
    AzureCliStatus *m_cliStatus = nullptr;
    QComboBox *m_profile = nullptr;
    QLabel *m_profileInfo = nullptr;
    QLineEdit *m_profileRegion = nullptr;
    QLineEdit *m_profileEndpoint = nullptr;
    QLineEdit *m_gcpProject = nullptr;
    QLineEdit *m_gcloudAccount = nullptr;
    QLabel *m_gcpLocalNote = nullptr;
    QLabel *m_gcloudNote = nullptr;
    AwsProfileList m_profiles;
    QString m_suggestedRegion;
    QWidget *m_secretBox = nullptr;
    QComboBox *m_store = nullptr;
    QLineEdit *m_keychainEntry = nullptr;
    QLineEdit *m_filePath = nullptr;
    QLineEdit *m_envVariable = nullptr;
    QLabel *m_storeHint = nullptr;
    QLabel *m_error = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace converge

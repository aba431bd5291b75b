// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "accountrequest.h"

#include <QDialog>
#include <QThreadPool>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QStackedWidget;
class QWidget;

namespace converge {

class CredentialStore;
class KindRegistry;

/// File → Connect account…: a local emulator preset (Azurite, dynalite), an Azure Storage account
/// from a connection string or a name and key, or an AWS account. The account key or secret
/// access key goes to the chosen store — the OS keychain, a mode-0600 file, or an environment
/// variable the user sets — and the resource only names where it is.
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

public Q_SLOTS:
    void accept() override;

Q_SIGNALS:
    /// Storing the secrets failed; the dialog stays open and says why.
    void storeFailed(const QString &message);

private:
    void presetChanged();
    void storeChanged();
    void updateSuggestions();
    void showError(const QString &message);
    void finishStore(bool ok, const QString &message, bool unavailable);

    const KindRegistry &m_kinds;
    CredentialStore *m_keychain = nullptr; // not owned
    QStringList m_existingNames;
    Resource m_resource;
    QString m_note;
    bool m_storing = false;
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

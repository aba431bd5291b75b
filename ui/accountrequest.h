// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QCoreApplication>

#include "resource.h"

#include <QList>
#include <QString>

namespace converge {

class BackendError;
class CredentialStore;
class KindRegistry;

/// What the connect dialog's fields say, before anything is built or stored.
struct AccountForm
{
    enum class Preset { Azurite, Dynalite, AzureConnectionString, AzureKey, Aws };
    /// Where the secret goes: the OS keychain, a mode-0600 file, or an environment variable
    /// the user sets (then nothing is stored).
    enum class SecretStore { Keychain, File, Environment };

    Preset preset = Preset::Azurite;
    QString name; ///< the resource's metadata.name
    QString connectionString;
    QString accountName;
    QString accountKey;
    QString region;
    QString endpoint; ///< AWS only; empty for AWS's public endpoint
    QString accessKeyId;
    QString secretAccessKey;
    SecretStore store = SecretStore::Keychain;
    QString keychainEntry;
    QString filePath;
    QString envVariable; ///< Azure only: AWS reads the standard AWS_* variables

    bool needsSecret() const { return preset != Preset::Azurite && preset != Preset::Dynalite; }
};

/// The account resource a form asks for and the secrets to store for it: the resource names
/// where the secret is (a keychain entry, a file, a variable), never the secret itself.
struct AccountRequest
{
    Q_DECLARE_TR_FUNCTIONS(AccountRequest)

public:
    struct Secret
    {
        QString name;
        QString value;
    };

    Resource resource;     ///< validated, defaults filled in; only when `error` is empty
    QList<Secret> secrets; ///< to write to the chosen store, in order
    QString error;         ///< what is wrong with the form; never contains a secret
    QString note;          ///< what the user still has to do (set a variable), or empty

    bool ok() const { return error.isEmpty(); }

    static AccountRequest build(const AccountForm &form, const KindRegistry &kinds);

    /// Writes `secrets` in order; when one fails, removes those already written (best effort)
    /// so that nothing is stored half-way. Blocks (the keychain talks D-Bus): call it on a
    /// worker thread.
    static bool storeSecrets(CredentialStore &store, const QList<Secret> &secrets,
                             BackendError *error);

    /// The keychain entry suggested for an account: "azure-storage/ACCOUNT" or "aws/NAME".
    static QString suggestedKeychainEntry(const AccountForm &form);
    /// The resource name suggested for a preset: azurite, dynalite, the account name, aws.
    static QString suggestedName(const AccountForm &form);
};

} // namespace converge

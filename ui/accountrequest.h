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
    enum class Preset {
        Azurite,
        Dynalite,
        AzureConnectionString,
        AzureKey,
        Aws,
        AzureCli,          ///< a token of the person signed in to the Azure CLI
        AzureTokenCommand, ///< a token printed by a program of the person's own
        AwsProfile,        ///< a named profile of the AWS shared files
        GcpEmulators,      ///< Google's Pub/Sub and Spanner emulators on this machine
        GcpGcloud,         ///< a Google Cloud project, as the Google Cloud CLI's user
    };
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
    /// AzureCli and AzureTokenCommand: the account is accountName, or the one a connection
    /// string without a key names (its endpoints then go to spec.endpoints).
    QString tenant;        ///< AzureCli, optional
    QString subscription;  ///< AzureCli, optional
    QString tokenCommand;  ///< AzureTokenCommand: a command line, split as a shell would
    QString awsProfile;    ///< AwsProfile: the profile's name; region and endpoint as for Aws
    QString gcpProject;    ///< GcpEmulators and GcpGcloud: the project's ID
    QString gcloudAccount; ///< GcpGcloud, optional: the CLI's signed-in account to use

    /// Whether a secret is typed in and kept by Converge; the sign-in presets and profiles
    /// keep nothing (the resource names the source, which holds or makes the secret).
    bool needsSecret() const
    {
        return preset == Preset::AzureConnectionString || preset == Preset::AzureKey ||
               preset == Preset::Aws;
    }
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

    /// A command line split into words as a POSIX shell splits it for quoting only: blanks
    /// separate words, '…' is literal, "…" knows \\ \" \$ \`, a backslash outside quotes
    /// escapes the next character. No variables, globs or operators. An unterminated quote
    /// sets `*error`.
    static QStringList splitCommandLine(const QString &text, QString *error = nullptr);

    /// The keychain entry suggested for an account: "azure-storage/ACCOUNT" or "aws/NAME".
    static QString suggestedKeychainEntry(const AccountForm &form);
    /// The resource name suggested for a preset: azurite, dynalite, the account name, aws,
    /// aws-PROFILE, the Google project's ID.
    static QString suggestedName(const AccountForm &form);
};

} // namespace converge

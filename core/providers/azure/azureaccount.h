// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "azuretokencommand.h"
#include "credentials.h"
#include "outcome.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <memory>
#include <optional>

namespace converge {

class TokenCommandCache;
class CredentialStore;

/// A StorageAccount resolved for use: its endpoints and its credentials, read from the store
/// its spec names. A value handed to one worker's Managers; holds a secret, so never logged
/// (use Credentials::redactedDescription()).
struct AzureAccount
{
    enum class Service { Blob, Queue, Table };

    QString name;
    QUrl blobEndpoint;
    QUrl queueEndpoint;
    QUrl tableEndpoint;
    Credentials credentials; ///< a shared key, an account SAS or a bearer token
    /// For a bearer token: the command that gives it, asked again (through `tokens`) before
    /// each request so that a token about to expire is replaced.
    std::optional<TokenCommand> tokenCommand;
    std::shared_ptr<TokenCommandCache> tokens;
    bool allowInsecureHttp = false;
    QString credentialSource; ///< for messages: "the emulator key", "environment variable X", …

    QUrl endpoint(Service service) const;

    /// "blob", "queue", "table": the spec's endpoint names.
    static QStringList services();
    static QString serviceName(Service service);
    /// The credential field names of a StorageAccount spec, in documentation order.
    static QStringList credentialSources();
    /// https://<account>.<service>.core.windows.net
    static QUrl defaultEndpoint(const QString &account, const QString &service);

    /// Azurite's account and the key Microsoft publishes for it (not a secret).
    static QString emulatorAccountName();
    static QString emulatorKey();

    /// Resolves a validated StorageAccount spec. `keychain` may be null (no keychain in this
    /// process). Credential problems are Unauthorized errors whose messages say what to fix
    /// and never contain a secret; a spec that breaks a rule validation also checks (the
    /// emulator key off loopback) is Invalid. Token commands (azureCli, tokenCommand) run
    /// through `tokens`, on the calling thread; their failures are Terminal.
    static Outcome<AzureAccount> fromSpec(const QJsonObject &spec, CredentialStore *keychain,
                                          std::shared_ptr<TokenCommandCache> tokens = {});
};

} // namespace converge

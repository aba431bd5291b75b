// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

#include <variant>

class QDebug;

namespace converge {

/// The secrets one Manager uses to talk to its backend, as a value handed to worker threads.
///
/// Never printed as is: operator<< and redactedDescription() show which kind and which account
/// or key id, never the secret parts. secrets() lists them for a Redactor.
class Credentials final
{
public:
    struct AzureSharedKey
    {
        QString account;
        QString key; ///< base64, as the portal shows it
        friend bool operator==(const AzureSharedKey &, const AzureSharedKey &) = default;
    };
    struct AzureSas
    {
        QString token; ///< without a leading '?'
        friend bool operator==(const AzureSas &, const AzureSas &) = default;
    };
    /// A Microsoft Entra ID access token for Azure Storage (sent as Authorization: Bearer).
    struct AzureBearer
    {
        QString token;
        QString source; ///< for messages: "the Azure CLI", "the token command …"
        friend bool operator==(const AzureBearer &, const AzureBearer &) = default;
    };
    struct Aws
    {
        QString accessKeyId;
        QString secretAccessKey;
        QString sessionToken; ///< empty for long-term keys
        friend bool operator==(const Aws &, const Aws &) = default;
    };

    enum class Kind { None, AzureSharedKey, AzureSas, Aws, AzureBearer };

    Credentials() = default;
    static Credentials azureSharedKey(const QString &account, const QString &key);
    static Credentials azureSas(const QString &token);
    static Credentials aws(const QString &accessKeyId, const QString &secretAccessKey,
                           const QString &sessionToken = {});
    static Credentials azureBearer(const QString &token, const QString &source);

    Kind kind() const { return Kind(m_value.index()); }
    bool isEmpty() const { return kind() == Kind::None; }

    /// The parts of one kind, or nullptr when the credentials are of another kind.
    const AzureSharedKey *azureSharedKeyValue() const;
    const AzureSas *azureSasValue() const;
    const Aws *awsValue() const;
    const AzureBearer *azureBearerValue() const;

    /// E.g. "azureSharedKey{account=acme, key=<redacted>}"; safe for logs.
    QString redactedDescription() const;
    /// The secret strings (key, SAS or bearer token, secret access key, session token), for a
    /// Redactor.
    QStringList secrets() const;

    friend bool operator==(const Credentials &, const Credentials &) = default;

private:
    // The order matches Kind.
    std::variant<std::monostate, AzureSharedKey, AzureSas, Aws, AzureBearer> m_value;
};

/// Prints redactedDescription(), never a secret.
QDebug operator<<(QDebug debug, const Credentials &credentials);

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "credentials.h"
#include "sastoken.h"

#include <QString>
#include <QUrl>

#include <optional>

namespace converge {

/// An Azure Storage connection string, e.g.
/// `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=...;EndpointSuffix=core.windows.net`
/// or `UseDevelopmentStorage=true` (Azurite's devstoreaccount1 on 127.0.0.1:10000-10002, with the
/// key Microsoft publishes for it). A string without AccountKey or SharedAccessSignature
/// (`AccountName=acme;DefaultEndpointsProtocol=https`, or only `BlobEndpoint=…;QueueEndpoint=…`)
/// is valid too: it names the endpoints of an account whose credential comes from elsewhere (a
/// Microsoft Entra ID token); credentials() is then empty.
///
/// FileEndpoint is accepted and ignored (Converge has no Azure Files support). Keys are matched
/// case-insensitively, whitespace around keys and values is ignored, and values
/// may contain '=' (base64 keys, SAS tokens). Errors name the offending key but never echo a
/// secret value.
class ConnectionString final
{
public:
    QString accountName;
    QString accountKey; ///< base64, as given; empty when absent
    std::optional<SasToken> sas;
    QString protocol = QStringLiteral("https");
    QString endpointSuffix = QStringLiteral("core.windows.net");
    QUrl blobEndpoint; ///< explicit, or derived from protocol, account and suffix
    QUrl queueEndpoint;
    QUrl tableEndpoint;
    bool isDevelopmentStorage = false;

    /// Parses `text`; on failure returns nothing and explains why in `error`.
    static std::optional<ConnectionString> parse(const QString &text, QString *error = nullptr);

    /// What UseDevelopmentStorage=true means.
    static ConnectionString developmentStorage();

    /// accountName, or else the account an explicit endpoint names: the first label of
    /// ACCOUNT.blob.core.windows.net, or the first path segment of a path-style URL
    /// (http://127.0.0.1:10000/ACCOUNT); empty when none does.
    QString accountNameFromEndpoints() const;

    /// The account key if there is one, else the SAS token, else empty credentials.
    Credentials credentials() const;

    /// The connection string with AccountKey and the SAS signature redacted, for logs.
    QString redacted() const;
};

} // namespace converge

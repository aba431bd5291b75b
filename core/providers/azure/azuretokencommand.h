// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "outcome.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QStringList>

namespace converge {

/// A program that prints a Microsoft Entra ID access token for Azure Storage as JSON, in the
/// shape `az account get-access-token -o json` prints: `accessToken`, and `expires_on` (Unix
/// seconds) and/or `expiresOn` (local time "2026-12-01 15:04:05.000000", or ISO 8601). Like
/// kubectl's credential plugins: Converge never stores the token, it asks again when the last
/// one is about to expire (AzureTokenCache).
struct AzureTokenCommand
{
    QStringList argv;
    QString description; ///< for messages: "the Azure CLI", "the token command ./get-token"
    QString remedy;      ///< what the person does when it fails

    /// `az account get-access-token --resource https://storage.azure.com/ -o json`, with
    /// `--tenant` / `--subscription` when given.
    static AzureTokenCommand azureCli(const QString &tenant, const QString &subscription);
    static AzureTokenCommand custom(const QStringList &argv);

    /// Identifies the command in a cache.
    QString key() const { return argv.join(QChar(0)); }
};

/// One token and when it stops working.
struct AzureToken
{
    QString accessToken;
    QDateTime expiresOn; ///< UTC
};

/// Reads the command's standard output; the error says what is missing, never the token.
Outcome<AzureToken> parseAzureTokenOutput(const QByteArray &output);

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "tokencommand.h"

namespace converge {

/// Programs that print a Microsoft Entra ID access token for Azure Storage as JSON, in the
/// shape `az account get-access-token -o json` prints: `accessToken`, and `expires_on` (Unix
/// seconds) and/or `expiresOn` (local time "2026-12-01 15:04:05.000000", or ISO 8601).
struct AzureTokenCommand
{
    /// `az account get-access-token --resource https://storage.azure.com/ -o json`, with
    /// `--tenant` / `--subscription` when given.
    static TokenCommand azureCli(const QString &tenant, const QString &subscription);
    static TokenCommand custom(const QStringList &argv);
};

/// Reads the command's standard output; the error says what is missing, never the token.
Outcome<AccessToken> parseAzureTokenOutput(const QByteArray &output);

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "outcome.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QStringList>

#include <functional>

namespace converge {

/// One access token and when it stops working.
struct AccessToken
{
    QString accessToken;
    QDateTime expiresOn; ///< UTC
};

/// A program that prints an access token (the Azure CLI, the Google Cloud CLI, a person's own
/// script), and how to read what it prints. Like kubectl's credential plugins: Converge never
/// stores the token, it asks again when the last one is about to expire (TokenCommandCache).
struct TokenCommand
{
    QStringList argv;
    QString description; ///< for messages: "the Azure CLI", "the token command ./get-token"
    QString remedy;      ///< what the person does when it fails
    /// Reads the program's standard output; the error says what is missing, never the token.
    std::function<Outcome<AccessToken>(const QByteArray &output)> parse;

    /// Identifies the command in a cache.
    QString key() const { return argv.join(QChar(0)); }

    /// A reader of output that is the token alone (`gcloud auth print-access-token`), which
    /// says nothing of its expiry: it is taken to last `lifetime` from now.
    static std::function<Outcome<AccessToken>(const QByteArray &)> bareToken(qint64 lifetimeSecs);
};

} // namespace converge

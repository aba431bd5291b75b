// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QUrl>

namespace converge::test {

/// Where the CTest fixture started Azurite and dynalite (read from $CONVERGE_EMULATORS).
struct Emulators
{
    QString host;
    int blobPort = 0;
    int queuePort = 0;
    int tablePort = 0;
    int dynamoPort = 0;
    int dynamoDelayMs = 0;
    QString error; ///< non-empty when the fixture's file is missing or incomplete

    static Emulators fromEnvironment();

    bool isValid() const { return error.isEmpty(); }
    /// http://127.0.0.1:PORT/devstoreaccount1 for blob, queue or table.
    QUrl blobEndpoint() const;
    QUrl queueEndpoint() const;
    QUrl tableEndpoint() const;
    QUrl dynamoEndpoint() const;
};

/// The development account and key that Azurite publishes in its documentation (not a secret).
QString devAccountName();
QString devAccountKey();

} // namespace converge::test

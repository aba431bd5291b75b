// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "emulators.h"

#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

namespace converge::test {

/// An Azurite of the calling process's own, on free loopback ports with its own data folder,
/// for tests that freeze it (SIGSTOP) without stopping anybody else's emulator. Resumed and
/// killed when it goes out of scope, whatever happened. With a certificate it speaks https, and
/// with `oauth` it accepts bearer tokens (`--oauth basic`: aud, iss and lifetime are checked,
/// the signature is not).
class PrivateAzurite final
{
    Q_DISABLE_COPY_MOVE(PrivateAzurite)

public:
    /// `sourceDir`: the source tree, whose node_modules holds the pinned Azurite.
    struct Options
    {
        QString certPath; ///< PEM; empty: plain http
        QString keyPath;
        bool oauth = false;
        /// Where Azurite keeps its data; empty: a temporary directory, removed with this. A
        /// benchmark seeds a kept directory once and reuses it.
        QString location;
    };

    explicit PrivateAzurite(const QString &sourceDir);
    PrivateAzurite(const QString &sourceDir, Options options);
    ~PrivateAzurite();

    /// Starts it and waits until every port listens (up to 90 s: a loaded machine starts Node
    /// slowly); false when it does not.
    bool start();
    /// Stops it as a person would (SIGTERM), so that it saves what it holds; false when it
    /// does not end within a minute.
    bool stop();
    /// Sends `sig` (SIGSTOP, SIGCONT) to the emulator process.
    void signal(int sig) const;
    /// A StorageAccount spec's endpoints: {blob, queue, table} URLs with the dev account.
    QJsonObject endpoints() const;
    /// The same ports as the shared emulators' description, for emulatorAccount() and kin.
    Emulators emulators() const;

private:
    QString m_sourceDir;
    Options m_options;
    QProcess m_process;
    QTemporaryDir m_dir;
    quint16 m_blob = 0;
    quint16 m_queue = 0;
    quint16 m_table = 0;
};

} // namespace converge::test

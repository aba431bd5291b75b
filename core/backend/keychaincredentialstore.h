// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "credentialstore.h"

#include <chrono>

namespace converge {

/// Secrets in the OS keychain (Secret Service or KWallet on Linux, Keychain on macOS, Credential
/// Manager on Windows) through qtkeychain, under the service name "Converge".
///
/// qtkeychain's jobs are asynchronous; each call runs one in a local event loop on the calling
/// thread, so call it from a worker thread. Without a reachable keychain (a headless session
/// with no Secret Service or KWallet) calls fail with a Terminal error that names the
/// alternatives. There is no silent plaintext fallback: qtkeychain's insecure fallback is never
/// enabled.
class KeychainCredentialStore final : public CredentialStore
{
public:
    explicit KeychainCredentialStore(std::chrono::milliseconds timeout = std::chrono::seconds(30));

    static QString serviceName() { return QStringLiteral("Converge"); }
    /// The message for an unreachable keychain.
    static QString unavailableMessage();

    QString description() const override;
    std::optional<QString> read(const QString &name, BackendError *error = nullptr) override;
    bool write(const QString &name, const QString &secret, BackendError *error = nullptr) override;
    bool remove(const QString &name, BackendError *error = nullptr) override;

private:
    std::chrono::milliseconds m_timeout;
};

} // namespace converge

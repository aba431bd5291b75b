// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "backenderror.h"

#include <QString>

#include <optional>

namespace converge {

/// Where a named secret (an account key, a secret access key, a SAS token) comes from. Secrets
/// never enter the workspace file: a manifest names a store and an entry, e.g.
/// `credential: {env: VARIABLE}` or `credential: {file: PATH}` or the OS keychain.
///
/// Calls may block (the keychain talks D-Bus): call them on worker threads, never the GUI thread.
/// Errors are BackendErrors: NotFound for a missing entry, Unauthorized for denied access,
/// Invalid for a misconfigured store (a file others can read), Terminal when the store itself is
/// unavailable. Messages never contain the secret.
class CredentialStore
{
public:
    virtual ~CredentialStore() = default;

    /// For messages, e.g. "the OS keychain", "environment variable AZURE_KEY", "file ~/x".
    virtual QString description() const = 0;

    /// The secret stored under `name`, or nothing with `error` set.
    virtual std::optional<QString> read(const QString &name, BackendError *error = nullptr) = 0;
    /// Stores `secret` under `name`, replacing any previous value.
    virtual bool write(const QString &name, const QString &secret,
                       BackendError *error = nullptr) = 0;
    /// Removes `name`; removing a missing entry succeeds.
    virtual bool remove(const QString &name, BackendError *error = nullptr) = 0;

protected:
    CredentialStore() = default;
    Q_DISABLE_COPY_MOVE(CredentialStore)

    /// Sets `*error` (if given) and returns false, for the implementations' failure paths.
    static bool fail(BackendError *error, BackendError::Category category, const QString &code,
                     const QString &message);
};

} // namespace converge

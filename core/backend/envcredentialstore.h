// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "credentialstore.h"

namespace converge {

/// Reads secrets from environment variables: the entry name is the variable's name
/// (`credential: {env: AZURE_STORAGE_KEY}`). Read-only: the environment belongs to whoever
/// started Converge, so write() and remove() refuse.
class EnvCredentialStore final : public CredentialStore
{
public:
    EnvCredentialStore() = default;

    QString description() const override;
    std::optional<QString> read(const QString &name, BackendError *error = nullptr) override;
    bool write(const QString &name, const QString &secret, BackendError *error = nullptr) override;
    bool remove(const QString &name, BackendError *error = nullptr) override;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "manager.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

namespace converge {

class CredentialStore;
class HttpClient;
class KindRegistry;

/// What a worker thread lends the Managers it makes: its own HTTP client and the credential
/// store. Pointers do not own; they live as long as the worker.
struct ManagerEnvironment
{
    HttpClient *http = nullptr;
    CredentialStore *credentials = nullptr;
    std::function<bool()> isCancelled;
};

/// A provider (Azure Storage, DynamoDB): its kinds, and Managers for them.
class Factory
{
public:
    virtual ~Factory() = default;

    /// e.g. "azure", "aws".
    virtual QString provider() const = 0;
    /// Adds this provider's kinds to `registry`.
    virtual void registerKinds(KindRegistry &registry) const = 0;
    /// The kind names this factory makes Managers for.
    virtual QStringList kinds() const = 0;
    /// Root kinds that hold a connection (StorageAccount, AwsAccount).
    virtual QStringList accountKinds() const = 0;

    /// A Manager for `kind` talking to `account` (the root owner, or the resource itself for an
    /// account kind), with the account's credentials resolved through `env.credentials`.
    /// Credential problems come back as Unauthorized errors with a clear message.
    virtual Outcome<std::shared_ptr<Manager>> manager(const QString &kind, const Resource &account,
                                                      const ManagerEnvironment &env) = 0;
};

} // namespace converge

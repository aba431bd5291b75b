// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "azuremanager.h"

namespace converge {

/// The account kind: nothing is created or deleted in Azure. get() is Get Blob Service
/// Properties, which proves that the endpoint answers and accepts the credential (403 is
/// Unauthorized); create() and update() do the same check. While the StorageAccount object is
/// being deleted, get() says NotFound so that the engine's deletion ends without a backend
/// call.
class StorageAccountManager final : public AzureManager
{
public:
    explicit StorageAccountManager(std::shared_ptr<AzureStorageClient> client);

    Outcome<Observation> get(const Target &target) override;
    Outcome<Observation> create(const Target &target) override;
    Outcome<Observation> update(const Target &target, const Observation &latest,
                                const QStringList &delta) override;
    Outcome<std::optional<Observation>> deleteResource(const Target &target,
                                                       const Observation &latest) override;
    Outcome<ListPage> list(const ListScope &scope) override;
    bool listIsComplete() const override;
};

} // namespace converge

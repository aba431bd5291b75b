// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "azuremanager.h"

namespace converge {

/// Blob containers: Get Container Properties (public access from x-ms-blob-public-access),
/// Create Container ("already exists" adopts it), Set Container Metadata and Set Container ACL
/// (keeping the stored access policies), Delete Container, and List Containers with metadata,
/// which observes as fully as get.
class BlobContainerManager final : public AzureManager
{
public:
    explicit BlobContainerManager(std::shared_ptr<AzureStorageClient> client);

    Outcome<Observation> get(const Target &target) override;
    Outcome<Observation> create(const Target &target) override;
    Outcome<Observation> update(const Target &target, const Observation &latest,
                                const QStringList &delta) override;
    Outcome<std::optional<Observation>> deleteResource(const Target &target,
                                                       const Observation &latest) override;
    Outcome<ListPage> list(const ListScope &scope) override;
    bool listIsComplete() const override;
    bool createAdopts() const override;
};

} // namespace converge

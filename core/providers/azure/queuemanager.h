// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "azuremanager.h"

namespace converge {

/// Storage queues: Get Queue Metadata, Create Queue (204 when it exists alike, 409 when it
/// exists with other metadata: adopted), Set Queue Metadata, Delete Queue, List Queues.
class QueueManager final : public AzureManager
{
public:
    explicit QueueManager(std::shared_ptr<AzureStorageClient> client);

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

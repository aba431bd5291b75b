// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "azuremanager.h"

namespace converge {

/// Tables, over the Table service's JSON protocol (odata=nometadata) signed in the Table Shared
/// Key form: GET/POST/DELETE Tables('name') and Query Tables with $top and the
/// x-ms-continuation-NextTableName continuation. A table has nothing to update.
class TableManager final : public AzureManager
{
public:
    explicit TableManager(std::shared_ptr<AzureStorageClient> client);

    Outcome<Observation> get(const Target &target) override;
    Outcome<Observation> create(const Target &target) override;
    Outcome<Observation> update(const Target &target, const Observation &latest,
                                const QStringList &delta) override;
    Outcome<std::optional<Observation>> deleteResource(const Target &target,
                                                       const Observation &latest) override;
    Outcome<ListPage> list(const ListScope &scope) override;
    bool listIsComplete() const override;
    bool createAdopts() const override;

private:
    Observation observe(const QString &owner, const QString &tableName,
                        const QString &desiredName) const;
};

} // namespace converge

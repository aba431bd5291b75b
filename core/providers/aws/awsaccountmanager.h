// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "manager.h"

#include <memory>

namespace converge {

class AwsJsonClient;

/// AwsAccount: a connection, not a backend resource. get, create and update all check that the
/// endpoint answers an authorized ListTables (Limit 1) and observe the spec as given, so Ready
/// says "reachable with these credentials". deleteResource deletes nothing.
class AwsAccountManager final : public Manager
{
public:
    explicit AwsAccountManager(std::shared_ptr<AwsJsonClient> client);

    Outcome<Observation> get(const Target &target) override;
    Outcome<Observation> create(const Target &target) override;
    Outcome<Observation> update(const Target &target, const Observation &latest,
                                const QStringList &delta) override;
    /// Always NotFound ("nothing to delete"), which the engine takes as gone; makes no call.
    Outcome<std::optional<Observation>> deleteResource(const Target &target,
                                                       const Observation &latest) override;
    /// Accounts are not discovered: always an empty page.
    Outcome<ListPage> list(const ListScope &scope) override;

private:
    std::shared_ptr<AwsJsonClient> m_client;
};

} // namespace converge

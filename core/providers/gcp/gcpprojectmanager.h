// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "manager.h"

#include <memory>

namespace converge {

class GcpSession;

/// GcpProject: a connection, not a backend resource. get, create and update all check that
/// Pub/Sub's endpoint answers an authorized list of the project's topics (pageSize 1) and observe
/// the spec as given, so Ready says "reachable with this credential". deleteResource deletes
/// nothing.
class GcpProjectManager final : public Manager
{
public:
    explicit GcpProjectManager(std::shared_ptr<GcpSession> pubsub);

    Outcome<Observation> get(const Target &target) override;
    Outcome<Observation> create(const Target &target) override;
    Outcome<Observation> update(const Target &target, const Observation &latest,
                                const QStringList &delta) override;
    /// Always NotFound ("nothing to delete"), which the engine takes as gone; makes no call.
    Outcome<std::optional<Observation>> deleteResource(const Target &target,
                                                       const Observation &latest) override;
    /// Projects are not discovered: always an empty page.
    Outcome<ListPage> list(const ListScope &scope) override;

private:
    std::shared_ptr<GcpSession> m_pubsub;
};

} // namespace converge

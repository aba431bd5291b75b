// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "manager.h"

#include <memory>

namespace converge {

class GcpSession;

/// GcpProject: a connection, not a backend resource. get, create and update all check that a
/// service's endpoint answers an authorized list of the project's resources (pageSize 1: Pub/Sub's
/// topics, or Spanner's instances for a project on the emulators that runs only Spanner's) and
/// observe the spec as given, so Ready says "reachable with this credential". deleteResource
/// deletes nothing.
class GcpProjectManager final : public Manager
{
public:
    /// What answers "is the project reachable": a list of `service`'s, by `session`.
    enum class Probe { PubSubTopics, SpannerInstances };

    GcpProjectManager(std::shared_ptr<GcpSession> session, Probe probe = Probe::PubSubTopics);
    /// The probe for `projectSpec`: Pub/Sub's, unless a project on the emulators names only
    /// Spanner's endpoint.
    static Probe probeFor(const QJsonObject &projectSpec);
    /// The service (endpoints key) whose endpoint `probe` asks.
    static QString serviceOf(Probe probe);

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
    std::shared_ptr<GcpSession> m_session;
    Probe m_probe;
};

} // namespace converge

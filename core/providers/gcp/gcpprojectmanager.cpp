// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "gcpprojectmanager.h"

#include "gcpkinds.h"
#include "gcpsession.h"

namespace converge {

GcpProjectManager::GcpProjectManager(std::shared_ptr<GcpSession> session, Probe probe)
    : m_session(std::move(session))
    , m_probe(probe)
{}

GcpProjectManager::Probe GcpProjectManager::probeFor(const QJsonObject &projectSpec)
{
    return !GcpKinds::reaches(projectSpec, QStringLiteral("pubsub")) &&
                   GcpKinds::reaches(projectSpec, QStringLiteral("spanner"))
               ? Probe::SpannerInstances
               : Probe::PubSubTopics;
}

QString GcpProjectManager::serviceOf(Probe probe)
{
    return probe == Probe::SpannerInstances ? QStringLiteral("spanner") : QStringLiteral("pubsub");
}

Outcome<Observation> GcpProjectManager::get(const Target &target)
{
    const QString projectId = target.resource.spec.value(QStringLiteral("projectId")).toString();
    const bool spanner = m_probe == Probe::SpannerInstances;
    auto reply = m_session->send(
        QByteArrayLiteral("GET"),
        QStringLiteral("/v1/projects/%1/%2")
            .arg(projectId, spanner ? QStringLiteral("instances") : QStringLiteral("topics")),
        QUrlQuery{{QStringLiteral("pageSize"), QStringLiteral("1")}}, std::nullopt,
        spanner ? QStringLiteral("projects.instances.list")
                : QStringLiteral("projects.topics.list"));
    if (!reply) {
        BackendError error = reply.error();
        // The project itself missing is not "no such GcpProject here": it is the spec's mistake.
        if (error.category == BackendError::Category::NotFound) {
            error.category = BackendError::Category::Invalid;
            error.code = QStringLiteral("ProjectNotFound");
            error.message = QStringLiteral("%1 has no project %2 (%3)")
                                .arg(m_session->endpoint().toString(), projectId, error.message);
        }
        return error;
    }
    Observation o;
    o.spec = target.resource.spec; // nothing of it is observable but reachability
    o.details = QJsonObject{
        {serviceOf(m_probe), m_session->endpoint().toString()},
        {QStringLiteral("projectId"), projectId},
        {QStringLiteral("reachable"), true},
    };
    o.resourceId = QStringLiteral("projects/") + projectId;
    o.name = target.resource.metadata.name;
    o.requestId = reply.value().requestId;
    return o;
}

Outcome<Observation> GcpProjectManager::create(const Target &target)
{
    return get(target);
}

Outcome<Observation> GcpProjectManager::update(const Target &target, const Observation &,
                                               const QStringList &)
{
    return get(target);
}

Outcome<std::optional<Observation>> GcpProjectManager::deleteResource(const Target &target,
                                                                      const Observation &)
{
    // Removing the connection from the workspace leaves Google Cloud as it is.
    return BackendError::make(BackendError::Category::NotFound, QStringLiteral("NothingToDelete"),
                              QStringLiteral("%1 is a connection; nothing is deleted in Google "
                                             "Cloud")
                                  .arg(target.resource.key().toString()));
}

Outcome<ListPage> GcpProjectManager::list(const ListScope &)
{
    return ListPage{};
}

} // namespace converge

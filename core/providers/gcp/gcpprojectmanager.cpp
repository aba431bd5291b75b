// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "gcpprojectmanager.h"

#include "gcpsession.h"

namespace converge {

GcpProjectManager::GcpProjectManager(std::shared_ptr<GcpSession> pubsub)
    : m_pubsub(std::move(pubsub))
{}

Outcome<Observation> GcpProjectManager::get(const Target &target)
{
    const QString projectId = target.resource.spec.value(QStringLiteral("projectId")).toString();
    auto reply = m_pubsub->send(QByteArrayLiteral("GET"),
                                QStringLiteral("/v1/projects/%1/topics").arg(projectId),
                                QUrlQuery{{QStringLiteral("pageSize"), QStringLiteral("1")}},
                                std::nullopt, QStringLiteral("projects.topics.list"));
    if (!reply) {
        BackendError error = reply.error();
        // The project itself missing is not "no such GcpProject here": it is the spec's mistake.
        if (error.category == BackendError::Category::NotFound) {
            error.category = BackendError::Category::Invalid;
            error.code = QStringLiteral("ProjectNotFound");
            error.message = QStringLiteral("%1 has no project %2 (%3)")
                                .arg(m_pubsub->endpoint().toString(), projectId, error.message);
        }
        return error;
    }
    Observation o;
    o.spec = target.resource.spec; // nothing of it is observable but reachability
    o.details = QJsonObject{
        {QStringLiteral("pubsub"), m_pubsub->endpoint().toString()},
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

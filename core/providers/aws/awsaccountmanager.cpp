// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awsaccountmanager.h"

#include "awsjsonclient.h"

namespace converge {

AwsAccountManager::AwsAccountManager(std::shared_ptr<AwsJsonClient> client)
    : m_client(std::move(client))
{}

Outcome<Observation> AwsAccountManager::get(const Target &target)
{
    auto reply =
        m_client->call(QStringLiteral("ListTables"), QJsonObject{{QStringLiteral("Limit"), 1}});
    if (!reply)
        return reply.error();
    Observation o;
    o.spec = target.resource.spec; // nothing of it is observable but reachability
    o.details = QJsonObject{
        {QStringLiteral("endpoint"), m_client->endpoint().toString()},
        {QStringLiteral("region"), m_client->region()},
        {QStringLiteral("reachable"), true},
    };
    o.resourceId = m_client->endpoint().toString();
    o.name = target.resource.metadata.name;
    o.requestId = reply.value().requestId;
    return o;
}

Outcome<Observation> AwsAccountManager::create(const Target &target)
{
    return get(target);
}

Outcome<Observation> AwsAccountManager::update(const Target &target, const Observation &,
                                               const QStringList &)
{
    return get(target);
}

Outcome<std::optional<Observation>> AwsAccountManager::deleteResource(const Target &target,
                                                                      const Observation &)
{
    // Removing the connection from the workspace leaves AWS as it is.
    BackendError gone;
    gone.category = BackendError::Category::NotFound;
    gone.code = QStringLiteral("NothingToDelete");
    gone.message = QStringLiteral("%1 is a connection; nothing is deleted in AWS")
                       .arg(target.resource.key().toString());
    return gone;
}

Outcome<ListPage> AwsAccountManager::list(const ListScope &)
{
    return ListPage{};
}

} // namespace converge

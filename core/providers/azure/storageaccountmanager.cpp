// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "storageaccountmanager.h"

#include "azurekinds.h"

namespace converge {

namespace {

using Service = AzureStorageClient::Service;

} // namespace

StorageAccountManager::StorageAccountManager(std::shared_ptr<AzureStorageClient> client)
    : AzureManager(std::move(client), AzureKinds::storageAccount())
{}

Outcome<Observation> StorageAccountManager::get(const Target &target)
{
    if (target.resource.metadata.isBeingDeleted()) {
        // Nothing in Azure goes away with a StorageAccount object: once it is being deleted
        // there is nothing left to observe, and the engine's deletion ends at once.
        BackendError gone;
        gone.category = BackendError::Category::NotFound;
        gone.code = QStringLiteral("NotManagedInAzure");
        gone.message = QStringLiteral("a StorageAccount is never deleted in Azure");
        return gone;
    }
    // Get Blob Service Properties: cheap, and needs a valid credential for the account.
    const QUrl url = m_client->url(Service::Blob, QString(),
                                   {{QStringLiteral("restype"), QStringLiteral("service")},
                                    {QStringLiteral("comp"), QStringLiteral("properties")}});
    Outcome<HttpResponse> answer =
        m_client->call(Service::Blob, AzureStorageClient::request("GET", url));
    if (!answer)
        return answer.error();

    const AzureAccount &account = m_client->account();
    Observation o;
    o.name = account.name;
    o.resourceId = AzureStorageClient::resourceId(account.blobEndpoint);
    o.requestId = answer.value().requestId;
    // What can be observed of an account is that it answers at these endpoints and accepts
    // the credential: the observed spec is the desired one's compared fields.
    o.spec.insert(QStringLiteral("accountName"), account.name);
    const QJsonObject desiredEndpoints =
        target.resource.spec.value(QStringLiteral("endpoints")).toObject();
    QJsonObject endpoints;
    for (const QString &service : AzureAccount::services()) {
        const QUrl effective = account.endpoint(
            service == QLatin1String("blob")
                ? Service::Blob
                : (service == QLatin1String("queue") ? Service::Queue : Service::Table));
        endpoints.insert(service, desiredEndpoints.contains(service)
                                      ? desiredEndpoints.value(service)
                                      : QJsonValue(effective.toString()));
    }
    o.spec.insert(QStringLiteral("endpoints"), endpoints);
    o.details.insert(QStringLiteral("credential"), account.credentials.redactedDescription());
    o.details.insert(QStringLiteral("credentialSource"), account.credentialSource);
    return o;
}

Outcome<Observation> StorageAccountManager::create(const Target &target)
{
    return get(target); // nothing to create: an account is made in the portal, not here
}

Outcome<Observation> StorageAccountManager::update(const Target &target, const Observation &latest,
                                                   const QStringList &delta)
{
    Q_UNUSED(latest);
    Q_UNUSED(delta);
    return get(target);
}

Outcome<std::optional<Observation>> StorageAccountManager::deleteResource(const Target &target,
                                                                          const Observation &latest)
{
    Q_UNUSED(target);
    Q_UNUSED(latest);
    return std::optional<Observation>();
}

Outcome<ListPage> StorageAccountManager::list(const ListScope &scope)
{
    Q_UNUSED(scope);
    return ListPage{};
}

bool StorageAccountManager::listIsComplete() const
{
    return false;
}

} // namespace converge

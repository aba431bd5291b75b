// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "queuemanager.h"

#include "azureerrormapper.h"
#include "azurekinds.h"

namespace converge {

namespace {

using Service = AzureStorageClient::Service;

const AzureStorageClient::Query metadataQuery{{QStringLiteral("comp"), QStringLiteral("metadata")}};

QJsonObject desiredMetadata(const Target &target)
{
    return target.resource.spec.value(QStringLiteral("metadata")).toObject();
}

} // namespace

QueueManager::QueueManager(std::shared_ptr<AzureStorageClient> client)
    : AzureManager(std::move(client), AzureKinds::queue())
{}

Outcome<Observation> QueueManager::get(const Target &target)
{
    HttpResponse r;
    Outcome<Observation> base = observe(Service::Queue, target, metadataQuery, &r);
    if (!base)
        return base.error();
    Observation o = base.value();
    o.spec.insert(QStringLiteral("metadata"),
                  AzureStorageClient::alignMetadataNames(
                      AzureStorageClient::metadataFromHeaders(r.headers), desiredMetadata(target)));
    o.details.insert(QStringLiteral("approximateMessageCount"),
                     QString::fromLatin1(r.header("x-ms-approximate-messages-count")).toLongLong());
    return o;
}

Outcome<Observation> QueueManager::create(const Target &target)
{
    const Outcome<QString> name = backendName(target.resource);
    if (!name)
        return name.error();
    const QUrl url = m_client->url(Service::Queue, name.value());
    HttpRequest request = AzureStorageClient::request("PUT", url);
    AzureStorageClient::setMetadataHeaders(request, desiredMetadata(target));
    // 201 created, 204 when it exists with the same metadata, 409 QueueAlreadyExists when it
    // exists with other metadata.
    Observation sent = observationOf(target, name.value(), url);
    sent.spec.insert(QStringLiteral("metadata"), desiredMetadata(target));
    return createOrAdopt(Service::Queue, target, request, sent);
}

Outcome<Observation> QueueManager::update(const Target &target, const Observation &latest,
                                          const QStringList &delta)
{
    Q_UNUSED(latest);
    const Outcome<QString> name = backendName(target.resource);
    if (!name)
        return name.error();
    if (touches(delta, QStringLiteral("spec.metadata"))) {
        HttpRequest request = AzureStorageClient::request(
            "PUT", m_client->url(Service::Queue, name.value(), metadataQuery));
        AzureStorageClient::setMetadataHeaders(request, desiredMetadata(target));
        Outcome<HttpResponse> answer = m_client->call(Service::Queue, request);
        if (!answer)
            return answer.error();
    }
    return get(target);
}

Outcome<std::optional<Observation>> QueueManager::deleteResource(const Target &target,
                                                                 const Observation &latest)
{
    Q_UNUSED(latest);
    const Outcome<QString> name = backendName(target.resource);
    if (!name)
        return name.error();
    Outcome<HttpResponse> answer = m_client->call(
        Service::Queue,
        AzureStorageClient::request("DELETE", m_client->url(Service::Queue, name.value())));
    if (!answer && answer.error().category != BackendError::Category::NotFound)
        return answer.error();
    return std::optional<Observation>();
}

Outcome<ListPage> QueueManager::list(const ListScope &scope)
{
    const QString owner = scope.owners.isEmpty() ? QString() : scope.owners.last().metadata.name;
    return listXml(
        Service::Queue, QString(),
        {{QStringLiteral("comp"), QStringLiteral("list")},
         {QStringLiteral("include"), QStringLiteral("metadata")}},
        QStringLiteral("Queue"), scope, [this, owner](const AzureListParser::Item &item) {
            Observation o;
            o.name = item.name;
            o.resourceId = AzureStorageClient::resourceId(m_client->url(Service::Queue, item.name));
            o.spec = specWithOwner(owner);
            o.spec.insert(QStringLiteral("azureName"), item.name);
            o.spec.insert(QStringLiteral("metadata"), item.metadata);
            return o;
        });
}

bool QueueManager::listIsComplete() const
{
    return true;
}

bool QueueManager::createAdopts() const
{
    return true;
}

} // namespace converge

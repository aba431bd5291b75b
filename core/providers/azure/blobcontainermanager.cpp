// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "blobcontainermanager.h"

#include "azureerrormapper.h"
#include "azurekinds.h"
#include "delta.h"

namespace converge {

namespace {

using Service = AzureStorageClient::Service;

const AzureStorageClient::Query containerQuery{
    {QStringLiteral("restype"), QStringLiteral("container")}};

AzureStorageClient::Query withComp(const QString &comp)
{
    AzureStorageClient::Query query = containerQuery;
    query.append({QStringLiteral("comp"), comp});
    return query;
}

/// Azure spells public access "container", "blob" or nothing.
QString publicAccessFromAzure(const QString &value)
{
    if (value.compare(QLatin1String("container"), Qt::CaseInsensitive) == 0)
        return QStringLiteral("Container");
    if (value.compare(QLatin1String("blob"), Qt::CaseInsensitive) == 0)
        return QStringLiteral("Blob");
    return QStringLiteral("None");
}

QByteArray publicAccessToAzure(const QString &value)
{
    if (value == QLatin1String("Container"))
        return QByteArrayLiteral("container");
    if (value == QLatin1String("Blob"))
        return QByteArrayLiteral("blob");
    return {};
}

QString publicAccessOf(const Resource &resource)
{
    return resource.spec.value(QStringLiteral("publicAccess")).toString(QStringLiteral("None"));
}

} // namespace

BlobContainerManager::BlobContainerManager(std::shared_ptr<AzureStorageClient> client)
    : AzureManager(std::move(client), AzureKinds::blobContainer())
{}

Outcome<Observation> BlobContainerManager::get(const Target &target)
{
    HttpResponse r;
    Outcome<Observation> base = observe(Service::Blob, target, containerQuery, &r);
    if (!base)
        return base.error();
    Observation o = base.value();
    o.spec.insert(QStringLiteral("publicAccess"),
                  publicAccessFromAzure(QString::fromLatin1(r.header("x-ms-blob-public-access"))));
    o.spec.insert(QStringLiteral("metadata"),
                  AzureStorageClient::alignMetadataNames(
                      AzureStorageClient::metadataFromHeaders(r.headers),
                      target.resource.spec.value(QStringLiteral("metadata")).toObject()));
    o.details.insert(QStringLiteral("etag"), QString::fromLatin1(r.header("ETag")));
    o.details.insert(QStringLiteral("lastModified"),
                     QString::fromLatin1(r.header("Last-Modified")));
    o.details.insert(QStringLiteral("leaseState"),
                     QString::fromLatin1(r.header("x-ms-lease-state")));
    return o;
}

Outcome<Observation> BlobContainerManager::create(const Target &target)
{
    const Outcome<QString> name = backendName(target.resource);
    if (!name)
        return name.error();
    const QUrl url = m_client->url(Service::Blob, name.value(), containerQuery);
    const QJsonObject metadata = target.resource.spec.value(QStringLiteral("metadata")).toObject();
    HttpRequest request = AzureStorageClient::request("PUT", url);
    AzureStorageClient::setMetadataHeaders(request, metadata);
    if (const QByteArray access = publicAccessToAzure(publicAccessOf(target.resource));
        !access.isEmpty())
        request.setHeader(QByteArrayLiteral("x-ms-blob-public-access"), access);
    Observation sent = observationOf(target, name.value(), url);
    sent.spec.insert(QStringLiteral("publicAccess"), publicAccessOf(target.resource));
    sent.spec.insert(QStringLiteral("metadata"), metadata);
    sent.details.insert(QStringLiteral("leaseState"), QStringLiteral("available"));
    return createOrAdopt(Service::Blob, target, request, sent);
}

Outcome<Observation> BlobContainerManager::update(const Target &target, const Observation &latest,
                                                  const QStringList &delta)
{
    Q_UNUSED(latest);
    const Outcome<QString> name = backendName(target.resource);
    if (!name)
        return name.error();
    if (touches(delta, QStringLiteral("spec.metadata"))) {
        HttpRequest request =
            AzureStorageClient::request("PUT", m_client->url(Service::Blob, name.value(),
                                                             withComp(QStringLiteral("metadata"))));
        AzureStorageClient::setMetadataHeaders(
            request, target.resource.spec.value(QStringLiteral("metadata")).toObject());
        Outcome<HttpResponse> answer = m_client->call(Service::Blob, request);
        if (!answer)
            return answer.error();
    }
    if (touches(delta, QStringLiteral("spec.publicAccess"))) {
        // Set Container ACL replaces the stored access policies too: send back the ones there are.
        const QUrl aclUrl =
            m_client->url(Service::Blob, name.value(), withComp(QStringLiteral("acl")));
        Outcome<HttpResponse> current =
            m_client->call(Service::Blob, AzureStorageClient::request("GET", aclUrl));
        if (!current)
            return current.error();
        HttpRequest request = AzureStorageClient::request("PUT", aclUrl);
        request.body = current.value().body;
        if (!request.body.isEmpty())
            request.setHeader(QByteArrayLiteral("Content-Type"),
                              QByteArrayLiteral("application/xml"));
        if (const QByteArray access = publicAccessToAzure(publicAccessOf(target.resource));
            !access.isEmpty())
            request.setHeader(QByteArrayLiteral("x-ms-blob-public-access"), access);
        Outcome<HttpResponse> answer = m_client->call(Service::Blob, request);
        if (!answer)
            return answer.error();
    }
    return get(target);
}

Outcome<std::optional<Observation>> BlobContainerManager::deleteResource(const Target &target,
                                                                         const Observation &latest)
{
    Q_UNUSED(latest);
    const Outcome<QString> name = backendName(target.resource);
    if (!name)
        return name.error();
    Outcome<HttpResponse> answer = m_client->call(
        Service::Blob, AzureStorageClient::request(
                           "DELETE", m_client->url(Service::Blob, name.value(), containerQuery)));
    if (!answer && answer.error().category != BackendError::Category::NotFound)
        return answer.error();
    // Azure finishes the deletion in the background (the name stays taken for a while), but
    // the container is gone for readers at once.
    return std::optional<Observation>();
}

Outcome<ListPage> BlobContainerManager::list(const ListScope &scope)
{
    const QString owner = scope.owners.isEmpty() ? QString() : scope.owners.last().metadata.name;
    return listXml(
        Service::Blob, QString(),
        {{QStringLiteral("comp"), QStringLiteral("list")},
         {QStringLiteral("include"), QStringLiteral("metadata")}},
        QStringLiteral("Container"), scope, [this, owner](const AzureListParser::Item &item) {
            Observation o;
            o.name = item.name;
            o.resourceId = AzureStorageClient::resourceId(m_client->url(Service::Blob, item.name));
            o.spec = specWithOwner(owner);
            o.spec.insert(QStringLiteral("azureName"), item.name);
            o.spec.insert(
                QStringLiteral("publicAccess"),
                publicAccessFromAzure(item.properties.value(QStringLiteral("PublicAccess"))));
            o.spec.insert(QStringLiteral("metadata"), item.metadata);
            o.details.insert(QStringLiteral("etag"), item.properties.value(QStringLiteral("Etag")));
            o.details.insert(QStringLiteral("lastModified"),
                             item.properties.value(QStringLiteral("Last-Modified")));
            o.details.insert(QStringLiteral("leaseState"),
                             item.properties.value(QStringLiteral("LeaseState")));
            return o;
        });
}

bool BlobContainerManager::listIsComplete() const
{
    return true;
}

bool BlobContainerManager::createAdopts() const
{
    return true;
}

} // namespace converge

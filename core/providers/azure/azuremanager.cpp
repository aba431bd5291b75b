// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "azuremanager.h"

#include "azureerrormapper.h"
#include "azurekinds.h"
#include "delta.h"

#include <algorithm>

namespace converge {

AzureManager::AzureManager(std::shared_ptr<AzureStorageClient> client, const QString &kind)
    : m_client(std::move(client))
    , m_kind(kind)
    , m_spec(AzureKinds::kind(kind).spec)
{}

Outcome<QString> AzureManager::backendName(const Resource &resource) const
{
    const QString name = AzureKinds::azureName(resource);
    const QString error = AzureKinds::nameError(resource.kind, name);
    if (error.isEmpty())
        return name;
    const QString field = resource.spec.contains(QStringLiteral("azureName"))
                              ? QStringLiteral("spec.azureName")
                              : QStringLiteral("metadata.name (used because spec.azureName is "
                                               "not set)");
    return AzureStorageClient::invalid(QStringLiteral("InvalidResourceName"),
                                       QStringLiteral("%1: %2").arg(field, error));
}

Outcome<QString> AzureManager::ownerName(const Target &target, const QString &ownerKind) const
{
    const Resource *owner = target.owner(ownerKind);
    if (!owner) {
        BackendError error = AzureStorageClient::invalid(
            QStringLiteral("OwnerMissing"),
            QStringLiteral("%1 has no %2 owner").arg(target.resource.key().toString(), ownerKind));
        error.category = BackendError::Category::Terminal;
        return error;
    }
    return backendName(*owner);
}

QJsonObject AzureManager::specWithOwner(const QString &ownerName)
{
    return QJsonObject{{QStringLiteral("owner"), QJsonObject{{QStringLiteral("name"), ownerName}}}};
}

bool AzureManager::touches(const QStringList &delta, const QString &path)
{
    return std::any_of(delta.cbegin(), delta.cend(),
                       [&path](const QString &p) { return Delta::onlyWithin({p}, {path}); });
}

Outcome<Observation> AzureManager::adopt(const Target &target)
{
    Outcome<Observation> found = get(target);
    if (!found)
        return found;
    found.value().existed = true;
    if (found.value().inProgress)
        return found;
    const QStringList delta = Delta::between(m_spec, target.resource.spec, found.value().spec);
    if (delta.isEmpty())
        return found;
    Outcome<Observation> updated = update(target, found.value(), delta);
    if (updated)
        updated.value().existed = true;
    return updated;
}

Outcome<ListPage> AzureManager::listXml(AzureStorageClient::Service service, const QString &path,
                                        AzureStorageClient::Query query, const QString &itemElement,
                                        const ListScope &scope, const ItemMapper &map)
{
    const AzureStorageClient::Options &options = m_client->options();
    // A browsed folder's prefix narrows the listing further than the options' own.
    const QString prefix = scope.prefix.isEmpty() ? options.listPrefix : scope.prefix;
    if (!prefix.isEmpty())
        query.append({QStringLiteral("prefix"), prefix});
    if (!scope.delimiter.isEmpty() && service == AzureStorageClient::Service::Blob &&
        !path.isEmpty())
        query.append({QStringLiteral("delimiter"), scope.delimiter});
    if (!scope.continuation.isEmpty())
        query.append({QStringLiteral("marker"), scope.continuation});
    const int pageSize =
        scope.pageSize > 0 ? std::min(scope.pageSize, options.listPageSize) : options.listPageSize;
    query.append({QStringLiteral("maxresults"), QString::number(pageSize)});
    const HttpRequest request =
        AzureStorageClient::request("GET", m_client->url(service, path, query));
    Outcome<HttpResponse> response = m_client->call(service, request);
    if (!response)
        return response.error();
    AzureListParser::Page parsed;
    QString error;
    if (!AzureListParser::parse(response.value().body, itemElement, &parsed, &error)) {
        BackendError e = AzureStorageClient::invalid(QStringLiteral("UnreadableListing"), error);
        e.category = BackendError::Category::Transient; // a proxy's page, a cut-off answer
        e.httpStatus = response.value().status;
        e.requestId = response.value().requestId;
        return e;
    }
    ListPage page;
    page.continuation = parsed.nextMarker;
    page.prefixes = parsed.prefixes;
    for (const AzureListParser::Item &item : std::as_const(parsed.items)) {
        Observation o = map(item);
        o.requestId = response.value().requestId;
        page.items.append(o);
    }
    return page;
}

Outcome<Observation> AzureManager::createOrAdopt(AzureStorageClient::Service service,
                                                 const Target &target, const HttpRequest &request,
                                                 Observation sent)
{
    Outcome<HttpResponse> answer = m_client->call(service, request);
    if (!answer) {
        if (AzureErrorMapper::isAlreadyExists(answer.error()))
            return adopt(target);
        return answer.error();
    }
    const HttpResponse &r = answer.value();
    sent.requestId = r.requestId;
    if (const QByteArray etag = r.header("ETag"); !etag.isEmpty())
        sent.details.insert(QStringLiteral("etag"), QString::fromLatin1(etag));
    if (const QByteArray modified = r.header("Last-Modified"); !modified.isEmpty())
        sent.details.insert(QStringLiteral("lastModified"), QString::fromLatin1(modified));
    return sent;
}

Observation AzureManager::observationOf(const Target &target, const QString &name,
                                        const QUrl &url) const
{
    Observation o;
    o.name = name;
    o.resourceId = AzureStorageClient::resourceId(url);
    o.spec = specWithOwner(target.resource.ownerName());
    o.spec.insert(QStringLiteral("azureName"), name);
    return o;
}

Outcome<Observation> AzureManager::observe(AzureStorageClient::Service service,
                                           const Target &target,
                                           const AzureStorageClient::Query &query,
                                           HttpResponse *response)
{
    const Outcome<QString> name = backendName(target.resource);
    if (!name)
        return name.error();
    const QUrl url = m_client->url(service, name.value(), query);
    Outcome<HttpResponse> answer = m_client->call(service, AzureStorageClient::request("GET", url));
    if (!answer)
        return answer.error();
    *response = answer.value();
    Observation o = observationOf(target, name.value(), url);
    o.requestId = response->requestId;
    return o;
}

} // namespace converge

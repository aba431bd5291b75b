// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "tablemanager.h"

#include "azureerrormapper.h"
#include "azurekinds.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace converge {

namespace {

using Service = AzureStorageClient::Service;

/// The Table service's JSON protocol without OData metadata.
HttpRequest tableRequest(const QByteArray &method, const QUrl &url)
{
    HttpRequest r = AzureStorageClient::request(method, url);
    r.setHeader(QByteArrayLiteral("Accept"),
                QByteArrayLiteral("application/json;odata=nometadata"));
    r.setHeader(QByteArrayLiteral("DataServiceVersion"), QByteArrayLiteral("3.0;NetFx"));
    r.setHeader(QByteArrayLiteral("MaxDataServiceVersion"), QByteArrayLiteral("3.0;NetFx"));
    return r;
}

/// Tables('name'): a quote inside a name is doubled in OData, though valid names have none.
QString tablePath(const QString &name)
{
    QString quoted = name;
    quoted.replace(QLatin1Char('\''), QStringLiteral("''"));
    return QStringLiteral("Tables('%1')").arg(quoted);
}

BackendError unreadable(const HttpResponse &r, const QString &what)
{
    BackendError e = AzureStorageClient::invalid(QStringLiteral("UnreadableResponse"), what);
    e.category = BackendError::Category::Transient;
    e.httpStatus = r.status;
    e.requestId = r.requestId;
    return e;
}

} // namespace

TableManager::TableManager(std::shared_ptr<AzureStorageClient> client)
    : AzureManager(std::move(client), AzureKinds::table())
{}

Observation TableManager::observe(const QString &owner, const QString &tableName,
                                  const QString &desiredName) const
{
    Observation o;
    // Azure compares table names case-insensitively: "customers" is the table "Customers".
    const QString name =
        tableName.compare(desiredName, Qt::CaseInsensitive) == 0 ? desiredName : tableName;
    o.name = tableName;
    o.resourceId =
        AzureStorageClient::resourceId(m_client->url(Service::Table, tablePath(tableName)));
    o.spec = specWithOwner(owner);
    o.spec.insert(QStringLiteral("azureName"), name);
    return o;
}

Outcome<Observation> TableManager::get(const Target &target)
{
    const Outcome<QString> name = backendName(target.resource);
    if (!name)
        return name.error();
    Outcome<HttpResponse> answer =
        m_client->call(Service::Table,
                       tableRequest("GET", m_client->url(Service::Table, tablePath(name.value()))));
    if (!answer)
        return answer.error();
    // Azure answers {"TableName": …}; Azurite answers {"value": []} (an entity query). Either
    // way a 200 means the table exists; its spelling comes from the body when the body has one.
    const QJsonObject json = QJsonDocument::fromJson(answer.value().body).object();
    QString tableName = json.value(QStringLiteral("TableName")).toString();
    if (tableName.isEmpty())
        tableName = name.value();
    Observation o = observe(target.resource.ownerName(), tableName, name.value());
    o.requestId = answer.value().requestId;
    return o;
}

Outcome<Observation> TableManager::create(const Target &target)
{
    const Outcome<QString> name = backendName(target.resource);
    if (!name)
        return name.error();
    HttpRequest request =
        tableRequest("POST", m_client->url(Service::Table, QStringLiteral("Tables")));
    request.setHeader(QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json"));
    request.setHeader(QByteArrayLiteral("Prefer"), QByteArrayLiteral("return-no-content"));
    request.body = QJsonDocument(QJsonObject{{QStringLiteral("TableName"), name.value()}})
                       .toJson(QJsonDocument::Compact);
    return createOrAdopt(Service::Table, target, request,
                         observe(target.resource.ownerName(), name.value(), name.value()));
}

Outcome<Observation> TableManager::update(const Target &target, const Observation &latest,
                                          const QStringList &delta)
{
    Q_UNUSED(delta);
    Q_UNUSED(latest);
    // Nothing of a table can change but its name, which is immutable (the engine stops there).
    return get(target);
}

Outcome<std::optional<Observation>> TableManager::deleteResource(const Target &target,
                                                                 const Observation &latest)
{
    Q_UNUSED(latest);
    const Outcome<QString> name = backendName(target.resource);
    if (!name)
        return name.error();
    Outcome<HttpResponse> answer = m_client->call(
        Service::Table,
        tableRequest("DELETE", m_client->url(Service::Table, tablePath(name.value()))));
    if (!answer && answer.error().category != BackendError::Category::NotFound)
        return answer.error();
    return std::optional<Observation>();
}

Outcome<ListPage> TableManager::list(const ListScope &scope)
{
    const QString owner = scope.owners.isEmpty() ? QString() : scope.owners.last().metadata.name;
    const AzureStorageClient::Options &options = m_client->options();
    AzureStorageClient::Query query{
        {QStringLiteral("$top"), QString::number(std::min(options.listPageSize, 1000))}};
    if (!options.listPrefix.isEmpty()) {
        // Names starting with the prefix: prefix <= name < prefix followed by '{' (after 'z').
        QString escaped = options.listPrefix;
        escaped.replace(QLatin1Char('\''), QStringLiteral("''"));
        query.append({QStringLiteral("$filter"),
                      QStringLiteral("TableName ge '%1' and TableName lt '%1{'").arg(escaped)});
    }
    if (!scope.continuation.isEmpty())
        query.append({QStringLiteral("NextTableName"), scope.continuation});
    Outcome<HttpResponse> answer = m_client->call(
        Service::Table,
        tableRequest("GET", m_client->url(Service::Table, QStringLiteral("Tables"), query)));
    if (!answer)
        return answer.error();
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(answer.value().body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject() ||
        !doc.object().value(QStringLiteral("value")).isArray())
        return unreadable(answer.value(), QStringLiteral("the table listing is not the JSON "
                                                         "expected"));
    ListPage page;
    page.continuation = QString::fromUtf8(answer.value().header("x-ms-continuation-NextTableName"));
    for (const QJsonValue &item : doc.object().value(QStringLiteral("value")).toArray()) {
        const QString tableName = item.toObject().value(QStringLiteral("TableName")).toString();
        if (tableName.isEmpty())
            continue;
        Observation o = observe(owner, tableName, tableName);
        o.requestId = answer.value().requestId;
        page.items.append(o);
    }
    return page;
}

bool TableManager::listIsComplete() const
{
    return true;
}

bool TableManager::createAdopts() const
{
    return true;
}

} // namespace converge

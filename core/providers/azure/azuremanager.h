// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "azurelistparser.h"
#include "azurestorageclient.h"
#include "fieldschema.h"
#include "manager.h"

#include <functional>
#include <memory>

namespace converge {

/// What the Azure Managers have in common: the shared client, the kind's schema, the backend
/// name check that runs before any request, "already exists means found", and XML listings.
class AzureManager : public Manager
{
public:
    const AzureStorageClient &client() const { return *m_client; }

protected:
    AzureManager(std::shared_ptr<AzureStorageClient> client, const QString &kind);

    /// The backend name of `resource` (spec.azureName or metadata.name), or an Invalid error
    /// when it breaks Azure's rules for this kind; checked before any request.
    Outcome<QString> backendName(const Resource &resource) const;
    /// The backend name of the owner of kind `ownerKind` in `target`.
    Outcome<QString> ownerName(const Target &target, const QString &ownerKind) const;

    /// An observation's spec starts with the owner it was looked up under, so that it can serve
    /// as a desired spec (a claim) as it is.
    static QJsonObject specWithOwner(const QString &ownerName);
    /// Whether a path of `delta` is `path` or lies under it.
    static bool touches(const QStringList &delta, const QString &path);

    /// After an "already exists" answer to create: observe, and make the backend match the
    /// spec where it differs (Delta over this kind's schema).
    Outcome<Observation> adopt(const Target &target);
    /// Sends a create request: "already exists" adopts the existing resource; success answers
    /// with `sent` (the resource as the request described it: Azure takes every field of a
    /// create or refuses it) plus the answer's request ID, ETag and time, without a get.
    Outcome<Observation> createOrAdopt(AzureStorageClient::Service service, const Target &target,
                                       const HttpRequest &request, Observation sent);
    /// What observe() starts from, without a request: name, resource ID of `url`, the owner and
    /// azureName of the spec.
    Observation observationOf(const Target &target, const QString &name, const QUrl &url) const;
    /// The start of a get(): the backend name checked, one GET with `query` on it, and an
    /// observation holding the name, resource id, request id and the owner and azureName of
    /// the spec. The answer is left in `response` for the kind's own fields.
    Outcome<Observation> observe(AzureStorageClient::Service service, const Target &target,
                                 const AzureStorageClient::Query &query, HttpResponse *response);

    using ItemMapper = std::function<Observation(const AzureListParser::Item &item)>;
    /// One page of an XML listing (List Containers, Blobs, Queues) at `url` (the query holds
    /// all but marker, maxresults and prefix, which are added here).
    Outcome<ListPage> listXml(AzureStorageClient::Service service, const QString &path,
                              AzureStorageClient::Query query, const QString &itemElement,
                              const ListScope &scope, const ItemMapper &map);

    std::shared_ptr<AzureStorageClient> m_client;
    QString m_kind;
    FieldSchema m_spec;
};

} // namespace converge

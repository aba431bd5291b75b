// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "outcome.h"
#include "resource.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>

namespace converge {

/// What a Manager observed of one backend resource.
struct Observation
{
    QJsonObject spec;        ///< the observed state in the kind's spec shape, compared by Delta
    QJsonObject details;     ///< further facts for people (etag, last modified, table status, …)
    QString resourceId;      ///< the backend's ID (a URL, an ARN)
    QString name;            ///< the backend name (container name, table name), for discovery
    bool inProgress = false; ///< an asynchronous operation still runs (CREATING, copy pending)
    QString progress;        ///< what runs, e.g. "table is CREATING"
    std::optional<std::chrono::milliseconds> pollAfter; ///< the backend's hint for the next look
    QString requestId;    ///< the backend request ID of the call that produced this
    bool existed = false; ///< create() found it already there and adopted it
    /// A step of a write that the next reconcile goes on with (a large upload's next parts): the
    /// engine says its progress, and no Created or Updated event until the step that ends it.
    bool continues = false;
};

/// A resource together with its owners, account first, so that a Manager can address it
/// (a blob needs its container's name and its account's endpoint).
struct Target
{
    Target() = default;
    Target(Resource resource_, QList<Resource> owners_ = {}, QList<Resource> references_ = {})
        : resource(std::move(resource_))
        , owners(std::move(owners_))
        , references(std::move(references_))
    {}

    Resource resource;
    QList<Resource> owners; ///< root (the account) first, direct owner last
    /// The resources its spec's references name (Kind::references), as the workspace holds them.
    QList<Resource> references;
    const Resource *owner(const QString &kind) const
    {
        for (const Resource &o : owners) {
            if (o.kind == kind)
                return &o;
        }
        return nullptr;
    }
    const Resource *referenced(const QString &kind, const QString &name) const
    {
        for (const Resource &r : references) {
            if (r.kind == kind && r.metadata.name == name)
                return &r;
        }
        return nullptr;
    }
};

/// Where list() looks: under one owner (an account, a container).
struct ListScope
{
    QList<Resource> owners; ///< root first; the last one is the direct parent
    QString continuation;   ///< empty for the first page
    /// Only names that start with this (a browsed folder); empty for all.
    QString prefix;
    /// When set, names with this after the prefix are not listed one by one: the page gives
    /// their common prefix once, in ListPage::prefixes (Azure's virtual folders). Managers of
    /// flat kinds ignore it.
    QString delimiter;
    /// At most this many items per page; 0 for the Manager's own page size.
    int pageSize = 0;
};

/// One page of list().
struct ListPage
{
    QList<Observation> items;
    QString continuation; ///< empty when this was the last page
    /// The folders of a listing with a delimiter: each a full prefix ending in the delimiter.
    QStringList prefixes;
};

/// Kubernetes-free management of one kind of backend resource with one set of credentials,
/// after the `types/manager` interfaces. Calls block the calling worker thread (never the GUI
/// thread) and return quickly for asynchronous operations with `inProgress` set.
class Manager
{
public:
    virtual ~Manager() = default;

    /// The observed resource, or a NotFound error when it is absent.
    virtual Outcome<Observation> get(const Target &target) = 0;
    /// Creates it; an "already exists" answer is success (the result of a fresh get). The
    /// observation may be built from the create's answer and what was sent.
    virtual Outcome<Observation> create(const Target &target) = 0;
    /// Makes the backend match `target` where `delta` (field paths) says it differs.
    virtual Outcome<Observation> update(const Target &target, const Observation &latest,
                                        const QStringList &delta) = 0;
    /// Deletes it. Returns the resource still being deleted when deletion is asynchronous, or
    /// nullopt when it is gone. NotFound counts as gone.
    virtual Outcome<std::optional<Observation>> deleteResource(const Target &target,
                                                               const Observation &latest) = 0;
    /// One page of the resources of this kind under `scope`, for discovery and cheap resyncs.
    virtual Outcome<ListPage> list(const ListScope &scope) = 0;
    /// Whether list() observes each item as fully as get(): then a resync may use list pages, and
    /// an item whose page shows it as the last run that changed nothing saw it, with the resource
    /// unchanged, is not reconciled again (its verdict depends on nothing else).
    virtual bool listIsComplete() const { return false; }
    /// What get() would answer for `target`, from its item on a list page (listIsComplete()):
    /// a kind whose observation also compares the desired state (a blob's content against its
    /// MD5) does that here, without a request.
    virtual Outcome<Observation> fromListing(const Target &target, Observation item)
    {
        Q_UNUSED(target);
        return item;
    }
    /// Whether the verdict on `resource` also depends on files outside the workspace (a blob's
    /// contentFile): then a run that changed nothing is no proof that the next one would not.
    virtual bool dependsOnLocalFiles(const Resource &resource) const
    {
        Q_UNUSED(resource);
        return false;
    }
    /// Whether create() leaves an existing resource as it is and answers with its observation
    /// (Azure's 409 AlreadyExists, DynamoDB's ResourceInUseException): then the reconciler
    /// creates a resource it has never observed without a get first, one request instead of
    /// three. False where a create would overwrite (Put Blob replaces the content).
    virtual bool createAdopts() const { return false; }
};

} // namespace converge

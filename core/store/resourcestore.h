// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resource.h"
#include "storeerror.h"
#include "workspacetypes.h"

#include <QLatin1StringView>
#include <QList>
#include <QStringList>

#include <functional>
#include <optional>

class QSqlQuery;

namespace converge {

class BackendIdIndex;
class DiscoveryStore;
class EventStore;
class WorkspaceConnection;

/// The desired state and status of a workspace's resources (the `resources` table and the
/// workspace's resource version). A status write that changes Ready adds the transition to the
/// EventStore's condition history, and a write that records a backend ID drops what the
/// DiscoveryStore listed under that ID, both in the same transaction. A write that would record
/// the backend ID another resource holds is refused (BackendIdIndex). Workspace's desired-state
/// and status calls land here; their contracts are documented there.
class ResourceStore final
{
public:
    /// None of them is owned; all outlive this store.
    ResourceStore(WorkspaceConnection &connection, const BackendIdIndex &backendIds,
                  DiscoveryStore &discovery, EventStore &events);

    bool apply(const QList<Resource> &objects, QList<ApplyOutcome> *outcomes, StoreError *error);
    // Reads answer empty on failure, with `error` (when given) saying why.
    std::optional<Resource> get(const ResourceKey &key, StoreError *error = nullptr) const;
    QList<Resource> get(const QList<ResourceKey> &keys, StoreError *error = nullptr) const;
    std::optional<qint64> resourceVersion(const ResourceKey &key,
                                          StoreError *error = nullptr) const;
    QList<Resource> list(const QString &kind, StoreError *error = nullptr) const;
    QList<Resource> listPage(const QString &kind, const QString &afterName, int limit,
                             StoreError *error = nullptr) const;
    QStringList kinds(StoreError *error = nullptr) const;
    QList<Resource> listChangedSince(qint64 resourceVersion, qint64 *current,
                                     StoreError *error = nullptr) const;
    QList<Resource> listOwnedBy(const QString &kind, const QString &ownerName,
                                StoreError *error = nullptr) const;
    qint64 count(StoreError *error = nullptr) const;
    /// Whether `key` is stored, for writes of other tables about it.
    bool exists(const ResourceKey &key, bool *exists, StoreError *error) const;

    bool update(Resource &resource, StoreError *error);
    bool setFinalizers(Resource &resource, StoreError *error);
    bool updateStatus(const ResourceKey &key, const ResourceStatus &status,
                      const QString &resourceId, StoreError *error);
    bool requestDeletion(const ResourceKey &key, StoreError *error);
    /// Deletes the row of `key` (NotFound when there is none), inside the caller's write: the
    /// rows of other tables that go with it are theirs to drop.
    bool remove(const ResourceKey &key, StoreError *error);

private:
    /// Runs `SELECT columns FROM resources` for one key through a statement prepared once, and
    /// hands the row to `read` when there is one (the engine's most frequent reads).
    void readRow(QLatin1StringView columns, const ResourceKey &key, const char *context,
                 const std::function<void(const QSqlQuery &)> &read, StoreError *error) const;

    WorkspaceConnection &m_connection;
    const BackendIdIndex &m_backendIds;
    DiscoveryStore &m_discovery;
    EventStore &m_events;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "discoveredname.h"
#include "resourcekey.h"
#include "storeerror.h"
#include "workspacetypes.h"

#include <QDateTime>
#include <QList>
#include <QSet>
#include <QStringList>

#include <optional>

namespace converge {

class BackendIdIndex;
class WorkspaceConnection;

/// What lists found that nothing in the workspace manages (the `discovered` table), kept so that
/// the window can show it greyed and a person can claim it. What a resource of the workspace
/// manages through another owner is kept too, naming that resource (managed_by), so that the row
/// says who manages it instead of offering a second manager.
class DiscoveryStore final
{
public:
    /// Neither is owned; both outlive this store.
    DiscoveryStore(WorkspaceConnection &connection, const BackendIdIndex &backendIds);

    bool replaceDiscovered(const ResourceKey &owner, const QString &kind,
                           const QList<DiscoveredResource> &items, StoreError *error);
    bool mergeDiscovered(const ResourceKey &owner, const QString &kind,
                         const QList<DiscoveredResource> &items, StoreError *error);
    bool pruneDiscovered(const ResourceKey &owner, const QString &kind, const QSet<QString> &listed,
                         StoreError *error);
    QList<DiscoveredResource> discovered(const std::optional<ResourceKey> &owner,
                                         const QDateTime &seenSince, StoreError *error) const;
    QList<DiscoveredName> discoveredNames(const ResourceKey &owner, StoreError *error) const;

    /// A claimed resource is no longer "discovered": drops the rows that list the backend
    /// resources with these IDs, inside the caller's write. One ID (the controller's, with a
    /// status) is one keyed DELETE; more (an apply) go as a JSON array.
    bool dropClaimed(const QStringList &ids, StoreError *error);
    /// Drops what was listed under `owner`, inside the caller's write (the owner's removal).
    bool dropOwnedBy(const ResourceKey &owner, StoreError *error);

private:
    bool mergeRows(const ResourceKey &owner, const QString &kind,
                   const QList<DiscoveredResource> &items, StoreError *error);
    bool pruneRows(const ResourceKey &owner, const QString &kind, const QSet<QString> &listed,
                   StoreError *error);

    WorkspaceConnection &m_connection;
    const BackendIdIndex &m_backendIds;
};

} // namespace converge

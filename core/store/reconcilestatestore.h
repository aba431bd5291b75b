// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcekey.h"
#include "storeerror.h"
#include "workspacetypes.h"

#include <QHash>

namespace converge {

class ResourceStore;
class WorkspaceConnection;

/// The controller's bookkeeping per resource (the `reconcile_state` table): attempts, backoff
/// and what a resource waits for, kept so that every process can show it.
class ReconcileStateStore final
{
public:
    /// Neither is owned; both outlive this store.
    ReconcileStateStore(WorkspaceConnection &connection, const ResourceStore &resources);

    /// NotFound when `key` is not a stored resource.
    bool setReconcileState(const ResourceKey &key, const ReconcileState &state, StoreError *error);
    ReconcileState reconcileState(const ResourceKey &key, StoreError *error = nullptr) const;
    QHash<ResourceKey, ReconcileState> reconcileStates(StoreError *error = nullptr) const;
    QHash<ResourceKey, ReconcileState> reconcileStates(const QString &kind,
                                                       const QString &afterName,
                                                       const QString &lastName,
                                                       StoreError *error = nullptr) const;
    /// Drops the state of `key`, inside the caller's write (the resource's removal).
    bool remove(const ResourceKey &key, StoreError *error);

private:
    WorkspaceConnection &m_connection;
    const ResourceStore &m_resources;
};

} // namespace converge

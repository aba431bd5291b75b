// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "storeerror.h"
#include "syncscope.h"
#include "writetransaction.h"

#include <optional>

namespace converge {

class WorkspaceConnection;

/// One write call of the workspace, from the prologue that every writer shares to its commit:
/// clears the caller's error, sets the commit's durability, takes the write lock (a savepoint
/// inside Workspace::writeTogether()), hands out resource versions from the workspace's counter,
/// and at commit stores the counter when it moved. Destroyed before commit(), nothing of it
/// lands. Every writer's failure is `return false` (or its own "nothing") after a call here
/// failed; the error is then set.
class WriteScope final
{
public:
    enum class Sync {
        Default, ///< the connection's own (Workspace::setRelaxedDurability())
        Full,    ///< always synced: desired state that people write
        Normal,  ///< never synced: events and bookkeeping, cheap to lose on power failure
    };

    /// Clears `error`; nothing is written before begin().
    WriteScope(WorkspaceConnection &connection, Sync sync, StoreError *error);
    ~WriteScope();
    Q_DISABLE_COPY_MOVE(WriteScope)

    bool begin();
    /// The next resource version, the workspace's counter read at the first call; nullopt when
    /// it cannot be read.
    std::optional<qint64> nextVersion();
    /// Stores the counter, when nextVersion() moved it, and commits.
    bool commit();

private:
    WorkspaceConnection &m_connection; ///< not owned
    StoreError *m_error;               ///< the caller's, or null
    Sync m_sync;
    // Declared before the transaction so that the mode goes back only after its rollback:
    // SQLite does not change it within a transaction.
    std::optional<SyncScope> m_syncScope;
    WriteTransaction m_transaction;
    bool m_versionRead = false;
    qint64 m_version = 0;
    qint64 m_versionStored = 0;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcekey.h"
#include "storeerror.h"
#include "workspacetypes.h"

#include <QList>

namespace converge {

class WorkspaceConnection;

/// The memo of quiet runs (the `run_memos` table): per resource, what its last run that changed
/// nothing concluded, for the controller's next start. A memo is read back only while the
/// resource is the one that run read (the same resourceVersion: every write raises it, whoever
/// writes), so an edit by another process, a policy change or a removal voids it.
class RunMemoStore final
{
public:
    /// `connection` is not owned and outlives this store.
    explicit RunMemoStore(WorkspaceConnection &connection);

    /// Stores `memos` in one write (the caller's, when inside one); an empty memo drops the row.
    bool storeRunMemos(const QList<RunMemo> &memos, StoreError *error);
    /// The memos still valid: those whose resource has the resourceVersion they were left for.
    QList<RunMemo> runMemos(StoreError *error = nullptr) const;
    /// Drops the memo of `key`, inside the caller's write (the resource's removal).
    bool remove(const ResourceKey &key, StoreError *error);

private:
    WorkspaceConnection &m_connection;
};

} // namespace converge

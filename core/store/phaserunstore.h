// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcekey.h"
#include "storeerror.h"
#include "workspacetypes.h"

#include <QList>

namespace converge {

class WorkspaceConnection;

/// The phase runs of a workspace (the `phase_runs` table): one row per run of a reconcile phase
/// (quiet repeats of the newest one folded into it: PhaseRun::repeats), the newest
/// Workspace::phaseRunsKept per resource, for the window's Timeline.
class PhaseRunStore final
{
public:
    /// `connection` is not owned and outlives this store.
    explicit PhaseRunStore(WorkspaceConnection &connection);

    /// Stores `runs` (setting their IDs; a repeat gets the ID of the row it repeats) and advances
    /// each resource's reconcile state to its last attempt (a run's end), whatever the run changed.
    bool recordPhaseRuns(QList<PhaseRun> &runs, StoreError *error);
    QList<PhaseRun> phaseRuns(const ResourceKey &key, int limit, StoreError *error = nullptr) const;
    /// Drops the runs of `key`, inside the caller's write (the resource's removal).
    bool removeRuns(const ResourceKey &key, StoreError *error);

private:
    WorkspaceConnection &m_connection;
};

} // namespace converge

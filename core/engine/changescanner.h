// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcekey.h"
#include "snapshot.h"

#include <QHash>
#include <QtGlobal>

namespace converge {

class Discovery;
class FactoryRegistry;
class KindRegistry;
class Scheduler;
class Workspace;

/// The scheduler thread's look at the workspace: what changed since the last look is queued (a
/// new or changed spec, a deletion or a policy change as a spec change; a reconcile or refresh
/// another process asked for, the CLI's annotations, as a person's action), owners before their
/// children, which wait for the owner's verdict when it is coming. Every key is grouped by its
/// account, and with more than one account each gets at most half the workers.
///
/// Used by the scheduler thread only; it takes the scheduler's lock to queue.
class ChangeScanner final
{
public:
    /// `workers` and `accountConcurrency` as Controller::Options. None of the references is
    /// owned; all must outlive this object.
    ChangeScanner(const KindRegistry &kinds, const FactoryRegistry &factories, Scheduler &scheduler,
                  Discovery &discovery, int workers, int accountConcurrency);
    Q_DISABLE_COPY_MOVE(ChangeScanner)

    /// Looks at `ws` and queues what changed. The `initial` scan (at start) reads everything and
    /// queues only what is not up to date: the first resync, which it queues after the holds,
    /// observes the rest by list pages.
    void scan(Workspace &ws, bool initial);
    /// What the last scan saw of every resource, for the resync.
    const QHash<ResourceKey, Snapshot> &snapshots() const { return m_snapshots; }

private:
    const KindRegistry &m_kinds;
    const FactoryRegistry &m_factories;
    Scheduler &m_scheduler;
    Discovery &m_discovery;
    int m_workers;
    int m_accountConcurrency;
    QHash<ResourceKey, Snapshot> m_snapshots;
    qint64 m_scanVersion = 0; ///< the workspace's resourceVersion at the last scan
    int m_groupLimit = -1;    ///< keys of one account in flight at once, as last set
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "treerows.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QStringList>

namespace converge {

class KindRegistry;
class Workspace;
struct StoreError;

struct ResourceTreeModel::LoadResult
{
    quint64 epoch = 0;
    bool full = false;
    /// A full load reads the workspace a page at a time, owners' kinds first: the kinds left
    /// to read (the first one from after `nextAfter`), empty once this page was the last.
    /// The last page brings the discovered rows, and what the pages did not bring leaves.
    QStringList nextKinds;
    QString nextAfter;
    bool lastPage() const { return nextKinds.isEmpty(); }
    /// The first page's: how many resources the workspace holds, else -1.
    qint64 total = -1;
    QList<Entry> found;
    QList<ResourceKey> missing; ///< keyed loads: asked for and not in the workspace
    /// The discovered rows under the owners read: every owner in a full load, else those in
    /// `discoveredOwners` (whose rows not listed here are gone).
    QList<Entry> discovered;
    QList<ResourceKey> discoveredOwners;
    /// Keyed loads: per owner in `discoveredOwners`, the discoveredId() of every row stored
    /// under it that the tree shows (only those seen since the tree's last look at the owner
    /// are read whole, into `discovered`).
    QHash<ResourceKey, QSet<QString>> discoveredPresent;
    QString error;
};

/// What the resource tree reads of the workspace, on the runner's thread: values in, values
/// out. Each takes the runner's workspace (null when it could not be opened) and its error.
class TreeLoads final
{
public:
    using LoadResult = ResourceTreeModel::LoadResult;

    /// A page of a full load: `limit` resources of `kindsLeft` (every kind, owners' first, when
    /// empty), the first kind from after `after`; the last page brings the discovered rows.
    static LoadResult fullPage(Workspace *ws, const StoreError &openError,
                               const KindRegistry &kinds, quint64 epoch, QStringList kindsLeft,
                               QString after, int limit);
    /// The rows of `keys`, their owners' and their own discovered children (those stamped since
    /// the owner's mark in `seenMarks` read whole, the rest by name only).
    static LoadResult keys(Workspace *ws, const StoreError &openError, const KindRegistry &kinds,
                           quint64 epoch, const QList<ResourceKey> &keys,
                           const QHash<ResourceKey, QDateTime> &seenMarks);
};

} // namespace converge

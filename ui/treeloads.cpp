// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "treeloads.h"

#include "kindregistry.h"
#include "workspace.h"

#include <algorithm>

namespace converge {

using Entry = ResourceTreeModel::Entry;
using LoadResult = ResourceTreeModel::LoadResult;

namespace {

/// How many owners stand above a resource of `kind` (0 for one without an owner kind).
int depthOf(const KindRegistry &kinds, const QString &kind)
{
    int depth = 0;
    for (const Kind *k = kinds.find(kind); k && !k->ownerKind.isEmpty() && depth < 16;
         k = kinds.find(k->ownerKind))
        ++depth;
    return depth;
}

} // namespace

LoadResult TreeLoads::fullPage(Workspace *ws, const StoreError &openError,
                               const KindRegistry &kinds, quint64 epoch, QStringList kindsLeft,
                               QString after, int limit)
{
    LoadResult result;
    result.epoch = epoch;
    result.full = true;
    if (!ws) {
        result.error = openError.message;
        return result;
    }
    // A failed read keeps the tree as it is (applyResult) instead of emptying it.
    StoreError readError;
    if (kindsLeft.isEmpty()) {
        // The first page: owners' kinds first, so that every row after finds its
        // owner in the tree and goes in under it.
        result.total = ws->count(&readError);
        kindsLeft = ws->kinds(&readError);
        std::stable_sort(kindsLeft.begin(), kindsLeft.end(),
                         [&kinds](const QString &a, const QString &b) {
                             return depthOf(kinds, a) < depthOf(kinds, b);
                         });
    }
    while (!kindsLeft.isEmpty() && result.found.size() < limit && !readError.isError()) {
        const QString kind = kindsLeft.constFirst();
        const QList<Resource> page =
            ws->listPage(kind, after, int(limit - result.found.size()), &readError);
        if (page.isEmpty()) {
            kindsLeft.removeFirst();
            after.clear();
            continue;
        }
        const QHash<ResourceKey, ReconcileState> states =
            ws->reconcileStates(kind, after, page.constLast().metadata.name, &readError);
        for (const Resource &r : page)
            result.found.append(TreeRows::managed(r, states.value(r.key()), kinds));
        after = page.constLast().metadata.name;
    }
    if (!readError.isError() && kindsLeft.isEmpty()) {
        for (DiscoveredResource &d : ws->discovered({}, &readError)) {
            if (!TreeRows::isBrowsedKind(kinds, d.kind))
                result.discovered.append(TreeRows::storedDiscovered(std::move(d)));
        }
    }
    if (readError.isError()) {
        result.error = readError.message;
        return result;
    }
    result.nextKinds = std::move(kindsLeft);
    result.nextAfter = std::move(after);
    return result;
}

LoadResult TreeLoads::keys(Workspace *ws, const StoreError &openError, const KindRegistry &kinds,
                           quint64 epoch, const QList<ResourceKey> &keys,
                           const QHash<ResourceKey, QDateTime> &seenMarks)
{
    LoadResult result;
    result.epoch = epoch;
    if (!ws) {
        result.error = openError.message;
        return result;
    }
    // A resource's discovered children, and its owner's (a claimed resource's discovered
    // row goes when the resource comes), are read with it.
    const QSet<QString> owningKinds = TreeRows::ownerKinds(kinds);
    QSet<ResourceKey> owners;
    StoreError readError;
    for (const ResourceKey &key : keys) {
        std::optional<Resource> r = ws->get(key, &readError);
        if (readError.isError()) {
            // Not "missing": a key whose read failed must not leave the tree.
            result.error = readError.message;
            return result;
        }
        if (r) {
            result.found.append(TreeRows::managed(std::move(*r), ws->reconcileState(key), kinds));
            if (owningKinds.contains(key.kind))
                owners.insert(key);
            if (const std::optional<ResourceKey> &owner = result.found.constLast().owner)
                owners.insert(*owner);
        } else {
            result.missing.append(key);
        }
    }
    result.discoveredOwners = QList<ResourceKey>(owners.cbegin(), owners.cend());
    std::sort(result.discoveredOwners.begin(), result.discoveredOwners.end());
    // A listing stores page by page: what the tree has seen of an owner is not read
    // again, only which rows are still there (names: a cheap read of a large account).
    for (const ResourceKey &owner : std::as_const(result.discoveredOwners)) {
        // The store stamps what it merges later than anything stored under the owner
        // before (DiscoveryStore::mergeRows): rows stored since the tree's last read
        // are those stamped at or after the latest it read, whatever kind or listing
        // stored them and whenever their listing started.
        const QDateTime since = seenMarks.value(owner);
        QSet<QString> &present = result.discoveredPresent[owner];
        for (DiscoveredResource &d : ws->discovered(owner, &readError, since)) {
            if (TreeRows::isBrowsedKind(kinds, d.kind))
                continue;
            Entry e = TreeRows::storedDiscovered(std::move(d));
            present.insert(e.id);
            result.discovered.append(std::move(e));
        }
        if (since.isValid()) {
            for (const DiscoveredName &d : ws->discoveredNames(owner, &readError)) {
                if (!TreeRows::isBrowsedKind(kinds, d.kind))
                    present.insert(TreeRows::discoveredId(owner, d.kind, d.name));
            }
        }
        if (readError.isError()) {
            result.error = readError.message;
            return result;
        }
    }
    return result;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "backendidindex.h"
#include "discoveredname.h"
#include "resource.h"
#include "storeerror.h"
#include "workspacetypes.h"

#include <QDateTime>
#include <QHash>
#include <QSet>
#include <QString>

#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace converge {

/// One connection to a workspace: a single SQLite file holding desired state, status, condition
/// transitions, events, reconcile state and the operation journal.
///
/// Not thread-safe: each thread opens its own Workspace on the same file (WAL mode lets readers
/// and one writer work at once, also across processes). Writers take the write lock up front
/// (BEGIN IMMEDIATE) and desired-state commits are durable (synchronous=FULL). Every failed call
/// leaves the file as it was. A read that fails (the file gone, unreadable, locked, damaged)
/// answers empty and says so in its optional `error`: callers that show or act on a read pass
/// one, so that a failure is never taken for an empty workspace.
class Workspace final
{
public:
    enum class OpenMode { OpenOrCreate, OpenExisting };

    /// Opens (or creates) the workspace at `path`. A file that is not a workspace, comes from a
    /// newer version, or is corrupt gives an error and is not modified.
    static std::unique_ptr<Workspace> open(const QString &path, StoreError *error,
                                           OpenMode mode = OpenMode::OpenOrCreate);
    /// Another connection to this workspace's file, for another thread. open() inspected the
    /// file (its identity and a quick_check that reads every page), so this one does not again:
    /// a controller opens a connection per worker, and a check each cost a read of the whole
    /// file per thread at every start. Its durability and write lock are its own to set. Safe to
    /// call from any thread while this connection lives: it reads only the path.
    std::unique_ptr<Workspace> openAnother(StoreError *error) const;
    ~Workspace();
    Q_DISABLE_COPY_MOVE(Workspace)

    QString path() const;

    /// For the engine's own connections: every commit uses synchronous=NORMAL (no fsync; WAL
    /// stays consistent and survives a crash of the process, not of the machine), except apply(),
    /// which is always durable. Status, events and bookkeeping are written at a high rate by many
    /// workers; an fsync each would hold the write lock long enough to starve people's applies.
    void setRelaxedDurability(bool on);
    /// Connections of one process that write a lot (the controller's workers) share a mutex:
    /// a writer then waits on it instead of in SQLite's busy handler, which sleeps in steps of
    /// up to 100 ms. Other processes are still kept out by SQLite's own lock.
    void shareWriteLock(std::shared_ptr<std::mutex> writers);
    static int schemaVersion(); ///< the version this build writes

    // --- Desired state -------------------------------------------------------------------
    /// Stores validated objects in one transaction: all or nothing. New objects get a uid,
    /// generation 1 and creationTimestamp; a changed spec bumps generation; changed labels or
    /// annotations bump only resourceVersion; status, finalizers and uid are kept from the
    /// stored object (input status is ignored). The same kind/name twice is Invalid.
    bool apply(const QList<Resource> &objects, QList<ApplyOutcome> *outcomes, StoreError *error);

    std::optional<Resource> get(const ResourceKey &key, StoreError *error = nullptr) const;
    /// Those of `keys` that are in the workspace, in one statement (a get per key pays its
    /// statement's overhead each time), ordered by kind then name.
    QList<Resource> get(const QList<ResourceKey> &keys, StoreError *error = nullptr) const;
    /// The resourceVersion of one resource, nullopt when it is not in the workspace: one
    /// integer read, for callers that keep parsed copies (ResourceCache).
    std::optional<qint64> resourceVersion(const ResourceKey &key,
                                          StoreError *error = nullptr) const;
    /// All resources, or those of one kind, ordered by kind then name.
    QList<Resource> list(const QString &kind = {}, StoreError *error = nullptr) const;
    /// At most `limit` resources of `kind` whose names sort after `afterName` (empty: from the
    /// first), ordered by name: a large workspace read a page at a time.
    QList<Resource> listPage(const QString &kind, const QString &afterName, int limit,
                             StoreError *error = nullptr) const;
    /// The kinds the workspace holds resources of, in order.
    QStringList kinds(StoreError *error = nullptr) const;
    /// The resources whose resourceVersion is above `resourceVersion` (created or changed
    /// since), ordered by kind then name; `current` receives the workspace's resourceVersion
    /// as of the same read. Removals do not show here: compare count().
    QList<Resource> listChangedSince(qint64 resourceVersion, qint64 *current = nullptr,
                                     StoreError *error = nullptr) const;
    /// The resources of `kind` whose spec.owner.name is `ownerName`, ordered by name.
    QList<Resource> listOwnedBy(const QString &kind, const QString &ownerName,
                                StoreError *error = nullptr) const;
    qint64 count(StoreError *error = nullptr) const;

    /// Writes metadata and spec when `resource.metadata.resourceVersion` is the stored one, else
    /// Conflict. Bumps generation when the spec changed. On success `resource` holds the stored
    /// generation and resourceVersion.
    bool update(Resource &resource, StoreError *error);
    /// Writes metadata.finalizers alone (the controller's claim), under the same rule as
    /// update(): when `resource.metadata.resourceVersion` (and uid, when set) is the stored one,
    /// else Conflict, or NotFound. Bumps resourceVersion, which `resource` then holds. The
    /// claim's write: no read of the row and no rewrite of the other columns and their indexes.
    bool setFinalizers(Resource &resource, StoreError *error);

    /// Runs `writes` — calls of this connection's write methods — in one transaction: one lock
    /// and one commit instead of one each (the controller's several writes per reconcile). Each
    /// call inside still lands or fails as a whole (a savepoint). False, with `error`, when the
    /// transaction could not begin or commit; then nothing of it landed.
    bool writeTogether(const std::function<void()> &writes, StoreError *error);

    /// Writes status only (the controller's write; no resourceVersion check, but it is bumped).
    /// A changed Ready condition also adds a ConditionTransition row.
    bool updateStatus(const ResourceKey &key, const ResourceStatus &status, StoreError *error);
    /// The same, and records `resourceId` (when not empty) in the converge.dev/resource-id
    /// annotation in the same statement: the controller owns that annotation, so it is set
    /// alone (json_set) without the read-modify-write of update() that a person's concurrent
    /// edit would turn into a conflict.
    bool updateStatus(const ResourceKey &key, const ResourceStatus &status,
                      const QString &resourceId, StoreError *error);

    /// Sets deletionTimestamp (once); the object stays until its finalizers are gone.
    bool requestDeletion(const ResourceKey &key, StoreError *error);
    /// Removes the object for good; its events and condition history stay.
    bool remove(const ResourceKey &key, StoreError *error);

    // --- Controller bookkeeping ----------------------------------------------------------
    bool setReconcileState(const ResourceKey &key, const ReconcileState &state, StoreError *error);
    ReconcileState reconcileState(const ResourceKey &key, StoreError *error = nullptr) const;
    /// Every resource's reconcile state in one read (what a full reload of the window needs).
    QHash<ResourceKey, ReconcileState> reconcileStates(StoreError *error = nullptr) const;
    /// The reconcile states of the resources of `kind` whose names sort after `afterName` and
    /// not after `lastName`: those of a page read with listPage().
    QHash<ResourceKey, ReconcileState> reconcileStates(const QString &kind,
                                                       const QString &afterName,
                                                       const QString &lastName,
                                                       StoreError *error = nullptr) const;
    /// Stores (or, for an empty memo, drops) the memos of quiet runs, in one write: the
    /// caller's when inside writeTogether().
    bool storeRunMemos(const QList<RunMemo> &memos, StoreError *error);
    /// The memos of quiet runs still valid: each for the resourceVersion its resource has.
    QList<RunMemo> runMemos(StoreError *error = nullptr) const;

    // --- Conditions and events -----------------------------------------------------------
    QList<ConditionTransition> conditionHistory(const ResourceKey &key,
                                                StoreError *error = nullptr) const;

    /// Stores events in one transaction. An event whose aggregationKey matches a stored event of
    /// the last 10 minutes increments that event's count and lastTime instead of adding a row.
    /// Assigns ids (written back into `events` when non-null).
    bool recordEvents(QList<Event> &events, StoreError *error);
    QList<Event> events(const EventQuery &query, StoreError *error = nullptr) const;
    qint64 eventCount(StoreError *error = nullptr) const;
    void setRetention(const EventRetention &retention);
    EventRetention retention() const;
    /// Deletes events beyond the retention; returns how many went.
    qint64 pruneEvents(StoreError *error);

    // --- Phase runs (the Timeline) --------------------------------------------------------
    static constexpr int phaseRunsKept = 200;
    /// Stores runs in one transaction (ids written back; a quiet run that repeats the newest one
    /// of its resource is folded into it, PhaseRun::repeats); keeps the newest phaseRunsKept per
    /// resource; advances each one's reconcile state to its last attempt (the run's end).
    bool recordPhaseRuns(QList<PhaseRun> &runs, StoreError *error);
    /// The resource's runs, newest first.
    QList<PhaseRun> phaseRuns(const ResourceKey &key, int limit = phaseRunsKept,
                              StoreError *error = nullptr) const;

    // --- Who manages a backend resource ---------------------------------------------------
    /// The resource that manages the backend resource `id` (any form: it is normalized, see
    /// BackendId), if one does. One backend resource has one manager in a workspace: apply,
    /// update and a status write that would record a held ID fail with AlreadyManaged.
    std::optional<ResourceKey> managerOf(const QString &id, StoreError *error = nullptr) const;
    /// Every resource that records `id`: its manager and the duplicates a file written before
    /// version 9 may hold (two resources claimed one backend resource), the oldest first.
    QList<ResourceKey> recordersOf(const QString &id, StoreError *error = nullptr) const;
    /// The managers of any of `ids` (normalized), by normalized ID, with their owners' names.
    QHash<QString, BackendIdIndex::Holder> managersOf(const QStringList &normalizedIds,
                                                      StoreError *error = nullptr) const;

    // --- Discovery -----------------------------------------------------------------------
    /// Replaces what a complete list of `kind` under `owner` found unmanaged. Items whose
    /// resource ID a workspace resource under `owner` records are left out; those it records
    /// under another owner are kept naming it (DiscoveredResource::managedBy).
    bool replaceDiscovered(const ResourceKey &owner, const QString &kind,
                           const QList<DiscoveredResource> &items, StoreError *error);
    /// Adds or refreshes what one page of a listing of `kind` under `owner` found unmanaged
    /// (a listing stores page by page, so that the window shows the first rows while the rest
    /// is on its way); rows listed before keep their first-seen time. Items are left out or
    /// named as replaceDiscovered() says.
    bool mergeDiscovered(const ResourceKey &owner, const QString &kind,
                         const QList<DiscoveredResource> &items, StoreError *error);
    /// After a complete listing of `kind` under `owner`: drops the rows whose names it did not
    /// show (`listed`).
    bool pruneDiscovered(const ResourceKey &owner, const QString &kind, const QSet<QString> &listed,
                         StoreError *error);
    /// Every discovered resource, ordered by owner, kind and name; or those under `owner`;
    /// with `seenSince`, only those a listing showed at or after that time.
    QList<DiscoveredResource> discovered(const std::optional<ResourceKey> &owner = {},
                                         StoreError *error = nullptr,
                                         const QDateTime &seenSince = {}) const;
    /// Which discovered resources are under `owner` (kind and name only: a cheap read).
    QList<DiscoveredName> discoveredNames(const ResourceKey &owner,
                                          StoreError *error = nullptr) const;

    // --- Journal -------------------------------------------------------------------------
    /// Writes an intent before a mutating backend call; returns its id, or 0 on error.
    qint64 beginIntent(const ResourceKey &key, const QString &operation, const QJsonObject &details,
                       StoreError *error);
    bool finishIntent(qint64 id, const QString &outcome, StoreError *error);
    QList<JournalEntry> unfinishedIntents(StoreError *error = nullptr) const;

    // --- Change notification -------------------------------------------------------------
    /// PRAGMA data_version: changes when another connection (or process) committed.
    qint64 dataVersion() const;

private:
    class Private;
    explicit Workspace(std::unique_ptr<Private> d);
    std::unique_ptr<Private> d;
};

} // namespace converge

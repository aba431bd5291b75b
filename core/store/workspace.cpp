// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "workspace.h"

#include "backendid.h"
#include "discoverystore.h"
#include "eventstore.h"
#include "journalstore.h"
#include "phaserunstore.h"
#include "reconcilestatestore.h"
#include "resourcestore.h"
#include "runmemostore.h"
#include "workspaceconnection.h"
#include "workspaceschema.h"
#include "writescope.h"

namespace converge {

// The facade: each call goes to the store of its concern. The connection comes first so that
// it is destroyed last, after every statement the stores prepared on it.
class Workspace::Private final
{
public:
    explicit Private(std::unique_ptr<WorkspaceConnection> connection)
        : connection(std::move(connection))
        , backendIds(*this->connection)
        , discovery(*this->connection, backendIds)
        , events(*this->connection)
        , resources(*this->connection, backendIds, discovery, events)
        , reconcileStates(*this->connection, resources)
        , phaseRuns(*this->connection)
        , journal(*this->connection)
        , runMemos(*this->connection)
    {}
    Q_DISABLE_COPY_MOVE(Private)

    std::unique_ptr<WorkspaceConnection> connection;
    BackendIdIndex backendIds;
    DiscoveryStore discovery;
    EventStore events;
    ResourceStore resources;
    ReconcileStateStore reconcileStates;
    PhaseRunStore phaseRuns;
    JournalStore journal;
    RunMemoStore runMemos;
};

Workspace::Workspace(std::unique_ptr<Private> d)
    : d(std::move(d))
{}

Workspace::~Workspace() = default;

std::unique_ptr<Workspace> Workspace::open(const QString &path, StoreError *error, OpenMode mode)
{
    std::unique_ptr<WorkspaceConnection> connection = WorkspaceConnection::open(path, mode, error);
    if (!connection)
        return nullptr;
    return std::unique_ptr<Workspace>(
        new Workspace(std::make_unique<Private>(std::move(connection))));
}

std::unique_ptr<Workspace> Workspace::openAnother(StoreError *error) const
{
    std::unique_ptr<WorkspaceConnection> connection = d->connection->openAnother(error);
    if (!connection)
        return nullptr;
    return std::unique_ptr<Workspace>(
        new Workspace(std::make_unique<Private>(std::move(connection))));
}

void Workspace::shareWriteLock(std::shared_ptr<std::mutex> writers)
{
    d->connection->shareWriteLock(std::move(writers));
}

void Workspace::setRelaxedDurability(bool on)
{
    d->connection->setRelaxedDurability(on);
}

QString Workspace::path() const
{
    return d->connection->path();
}

int Workspace::schemaVersion()
{
    return WorkspaceSchema::currentVersion();
}

// --- Desired state ----------------------------------------------------------------------------

bool Workspace::apply(const QList<Resource> &objects, QList<ApplyOutcome> *outcomes,
                      StoreError *error)
{
    return d->resources.apply(objects, outcomes, error);
}

std::optional<Resource> Workspace::get(const ResourceKey &key, StoreError *error) const
{
    return d->resources.get(key, error);
}

QList<Resource> Workspace::get(const QList<ResourceKey> &keys, StoreError *error) const
{
    return d->resources.get(keys, error);
}

std::optional<qint64> Workspace::resourceVersion(const ResourceKey &key, StoreError *error) const
{
    return d->resources.resourceVersion(key, error);
}

QList<Resource> Workspace::list(const QString &kind, StoreError *error) const
{
    return d->resources.list(kind, error);
}

QList<Resource> Workspace::listPage(const QString &kind, const QString &afterName, int limit,
                                    StoreError *error) const
{
    return d->resources.listPage(kind, afterName, limit, error);
}

QStringList Workspace::kinds(StoreError *error) const
{
    return d->resources.kinds(error);
}

QList<Resource> Workspace::listChangedSince(qint64 resourceVersion, qint64 *current,
                                            StoreError *error) const
{
    return d->resources.listChangedSince(resourceVersion, current, error);
}

QList<Resource> Workspace::listOwnedBy(const QString &kind, const QString &ownerName,
                                       StoreError *error) const
{
    return d->resources.listOwnedBy(kind, ownerName, error);
}

qint64 Workspace::count(StoreError *error) const
{
    return d->resources.count(error);
}

bool Workspace::update(Resource &resource, StoreError *error)
{
    return d->resources.update(resource, error);
}

bool Workspace::setFinalizers(Resource &resource, StoreError *error)
{
    return d->resources.setFinalizers(resource, error);
}

bool Workspace::writeTogether(const std::function<void()> &writes, StoreError *error)
{
    WriteScope scope(*d->connection, WriteScope::Sync::Default, error);
    if (!scope.begin())
        return false;
    writes();
    if (scope.commit())
        return true;
    d->events.forgetUncommitted(); // what calls inside learnt was rolled back with them
    return false;
}

bool Workspace::updateStatus(const ResourceKey &key, const ResourceStatus &status,
                             StoreError *error)
{
    return d->resources.updateStatus(key, status, QString(), error);
}

bool Workspace::updateStatus(const ResourceKey &key, const ResourceStatus &status,
                             const QString &resourceId, StoreError *error)
{
    return d->resources.updateStatus(key, status, resourceId, error);
}

bool Workspace::requestDeletion(const ResourceKey &key, StoreError *error)
{
    return d->resources.requestDeletion(key, error);
}

bool Workspace::remove(const ResourceKey &key, StoreError *error)
{
    // The resource's rows in every table go with it, but for its events and condition history.
    WriteScope scope(*d->connection, WriteScope::Sync::Default, error);
    return scope.begin() && d->resources.remove(key, error) &&
           d->reconcileStates.remove(key, error) && d->phaseRuns.removeRuns(key, error) &&
           d->discovery.dropOwnedBy(key, error) && d->runMemos.remove(key, error) && scope.commit();
}

// --- Controller bookkeeping -------------------------------------------------------------------

bool Workspace::setReconcileState(const ResourceKey &key, const ReconcileState &state,
                                  StoreError *error)
{
    return d->reconcileStates.setReconcileState(key, state, error);
}

ReconcileState Workspace::reconcileState(const ResourceKey &key, StoreError *error) const
{
    return d->reconcileStates.reconcileState(key, error);
}

QHash<ResourceKey, ReconcileState> Workspace::reconcileStates(StoreError *error) const
{
    return d->reconcileStates.reconcileStates(error);
}

QHash<ResourceKey, ReconcileState> Workspace::reconcileStates(const QString &kind,
                                                              const QString &afterName,
                                                              const QString &lastName,
                                                              StoreError *error) const
{
    return d->reconcileStates.reconcileStates(kind, afterName, lastName, error);
}

bool Workspace::storeRunMemos(const QList<RunMemo> &memos, StoreError *error)
{
    return d->runMemos.storeRunMemos(memos, error);
}

QList<RunMemo> Workspace::runMemos(StoreError *error) const
{
    return d->runMemos.runMemos(error);
}

// --- Conditions and events --------------------------------------------------------------------

QList<ConditionTransition> Workspace::conditionHistory(const ResourceKey &key,
                                                       StoreError *error) const
{
    return d->events.conditionHistory(key, error);
}

bool Workspace::recordEvents(QList<Event> &events, StoreError *error)
{
    return d->events.recordEvents(events, error);
}

QList<Event> Workspace::events(const EventQuery &query, StoreError *error) const
{
    return d->events.events(query, error);
}

qint64 Workspace::eventCount(StoreError *error) const
{
    return d->events.eventCount(error);
}

void Workspace::setRetention(const EventRetention &retention)
{
    d->events.setRetention(retention);
}

EventRetention Workspace::retention() const
{
    return d->events.retention();
}

qint64 Workspace::pruneEvents(StoreError *error)
{
    return d->events.pruneEvents(error);
}

// --- Phase runs -------------------------------------------------------------------------------

bool Workspace::recordPhaseRuns(QList<PhaseRun> &runs, StoreError *error)
{
    return d->phaseRuns.recordPhaseRuns(runs, error);
}

QList<PhaseRun> Workspace::phaseRuns(const ResourceKey &key, int limit, StoreError *error) const
{
    return d->phaseRuns.phaseRuns(key, limit, error);
}

// --- Discovery --------------------------------------------------------------------------------

bool Workspace::replaceDiscovered(const ResourceKey &owner, const QString &kind,
                                  const QList<DiscoveredResource> &items, StoreError *error)
{
    return d->discovery.replaceDiscovered(owner, kind, items, error);
}

bool Workspace::mergeDiscovered(const ResourceKey &owner, const QString &kind,
                                const QList<DiscoveredResource> &items, StoreError *error)
{
    return d->discovery.mergeDiscovered(owner, kind, items, error);
}

bool Workspace::pruneDiscovered(const ResourceKey &owner, const QString &kind,
                                const QSet<QString> &listed, StoreError *error)
{
    return d->discovery.pruneDiscovered(owner, kind, listed, error);
}

std::optional<ResourceKey> Workspace::managerOf(const QString &id, StoreError *error) const
{
    return d->backendIds.holderOf(BackendId::normalized(id), error);
}

QList<ResourceKey> Workspace::recordersOf(const QString &id, StoreError *error) const
{
    return d->backendIds.recordersOf(id, error);
}

QHash<QString, BackendIdIndex::Holder> Workspace::managersOf(const QStringList &normalizedIds,
                                                             StoreError *error) const
{
    return d->backendIds.holdersOf(normalizedIds, error);
}

QList<DiscoveredResource> Workspace::discovered(const std::optional<ResourceKey> &owner,
                                                StoreError *error, const QDateTime &seenSince) const
{
    return d->discovery.discovered(owner, seenSince, error);
}

QList<DiscoveredName> Workspace::discoveredNames(const ResourceKey &owner, StoreError *error) const
{
    return d->discovery.discoveredNames(owner, error);
}

// --- Journal ----------------------------------------------------------------------------------

qint64 Workspace::beginIntent(const ResourceKey &key, const QString &operation,
                              const QJsonObject &details, StoreError *error)
{
    return d->journal.beginIntent(key, operation, details, error);
}

bool Workspace::finishIntent(qint64 id, const QString &outcome, StoreError *error)
{
    return d->journal.finishIntent(id, outcome, error);
}

QList<JournalEntry> Workspace::unfinishedIntents(StoreError *error) const
{
    return d->journal.unfinishedIntents(error);
}

// --- Change notification ----------------------------------------------------------------------

qint64 Workspace::dataVersion() const
{
    return d->connection->dataVersion();
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "condition.h"
#include "event.h"
#include "resourcekey.h"
#include "storeerror.h"
#include "workspacetypes.h"

#include <QHash>
#include <QList>
#include <QSqlQuery>

#include <memory>

namespace converge {

class WorkspaceConnection;

/// A workspace's history: events with their aggregation and retention (the `events` and
/// `event_objects` tables) and the transitions of each resource's Ready condition
/// (`condition_transitions`). Recording events is the store's hot path, so its statements are
/// prepared once per connection.
class EventStore final
{
public:
    /// `connection` is not owned and outlives this store.
    explicit EventStore(WorkspaceConnection &connection);
    ~EventStore();
    Q_DISABLE_COPY_MOVE(EventStore)

    bool recordEvents(QList<Event> &events, StoreError *error);
    QList<Event> events(const EventQuery &query, StoreError *error = nullptr) const;
    qint64 eventCount(StoreError *error = nullptr) const;
    void setRetention(const EventRetention &retention) { m_retention = retention; }
    EventRetention retention() const { return m_retention; }
    qint64 pruneEvents(StoreError *error);
    /// Forgets what it learnt from writes that were then rolled back with an enclosing
    /// transaction (Workspace::writeTogether()).
    void forgetUncommitted() { m_objectIds.clear(); }

    QList<ConditionTransition> conditionHistory(const ResourceKey &key,
                                                StoreError *error = nullptr) const;
    /// Adds `key`'s new Ready condition to its history, inside the caller's write (the status
    /// write that changed it).
    bool recordTransition(const ResourceKey &key, const Condition &ready, StoreError *error);

private:
    bool prepareEventQueries(StoreError *error);
    /// The event_objects id of each event's object, inserting the missing ones: `created` gets
    /// those, and `fresh` says which events are about one of them.
    bool resolveObjects(const QList<Event> &events, QList<qint64> *ids, QList<bool> *fresh,
                        QHash<ResourceKey, qint64> *created, StoreError *error);

    WorkspaceConnection &m_connection;
    EventRetention m_retention;
    std::unique_ptr<QSqlQuery> m_eventLookup;
    std::unique_ptr<QSqlQuery> m_eventInsert;
    std::unique_ptr<QSqlQuery> m_eventInsertMany; ///< eventRowsPerInsert rows at once
    std::unique_ptr<QSqlQuery> m_eventAggregate;
    std::unique_ptr<QSqlQuery> m_objectSelect;
    std::unique_ptr<QSqlQuery> m_objectInsert;
    /// event_objects ids known to be committed; rows there never change or go away.
    QHash<ResourceKey, qint64> m_objectIds;
};

} // namespace converge

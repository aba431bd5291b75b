// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "reconcilestatestore.h"

#include "resourcestore.h"
#include "storesql.h"
#include "workspaceconnection.h"
#include "writescope.h"

#include <QSqlError>
#include <QSqlQuery>

namespace converge {

using namespace StoreSql;

ReconcileStateStore::ReconcileStateStore(WorkspaceConnection &connection,
                                         const ResourceStore &resources)
    : m_connection(connection)
    , m_resources(resources)
{}

bool ReconcileStateStore::setReconcileState(const ResourceKey &key, const ReconcileState &state,
                                            StoreError *error)
{
    WriteScope scope(m_connection, WriteScope::Sync::Normal, error);
    if (!scope.begin())
        return false;
    bool exists = false;
    if (!m_resources.exists(key, &exists, error))
        return false;
    if (!exists)
        return failMissing(error, key);
    QSqlQuery *statement = m_connection.statement(
        QStringLiteral("INSERT OR REPLACE INTO reconcile_state (kind, name, attempts, last_attempt,"
                       " next_attempt, last_error, waiting_for, last_reconcile_id)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
        error);
    if (!statement)
        return false;
    QSqlQuery &q = *statement;
    q.addBindValue(text(key.kind));
    q.addBindValue(text(key.name));
    q.addBindValue(state.attempts);
    q.addBindValue(msOrNull(state.lastAttempt));
    q.addBindValue(msOrNull(state.nextAttempt));
    q.addBindValue(text(state.lastError));
    q.addBindValue(text(state.waitingFor));
    q.addBindValue(text(state.lastReconcileId));
    if (!q.exec())
        return failSql(
            error, q, QStringLiteral("cannot store the reconcile state of %1").arg(key.toString()));
    return scope.commit();
}

namespace {

ReconcileState reconcileStateFrom(const QSqlQuery &q, int first)
{
    ReconcileState state;
    state.attempts = q.value(first).toInt();
    state.lastAttempt = timeFrom(q.value(first + 1));
    state.nextAttempt = timeFrom(q.value(first + 2));
    state.lastError = q.value(first + 3).toString();
    state.waitingFor = q.value(first + 4).toString();
    state.lastReconcileId = q.value(first + 5).toString();
    return state;
}

} // namespace

ReconcileState ReconcileStateStore::reconcileState(const ResourceKey &key, StoreError *error) const
{
    StoreError prepareError;
    QSqlQuery *statement = m_connection.statement(
        QStringLiteral("SELECT attempts, last_attempt, next_attempt, last_error,"
                       " waiting_for, last_reconcile_id FROM reconcile_state"
                       " WHERE kind = ? AND name = ?"),
        &prepareError);
    if (!statement) {
        qCWarning(lcStore) << "reconcileState:" << prepareError.message;
        if (error)
            *error = prepareError;
        return {};
    }
    QSqlQuery &q = *statement;
    q.addBindValue(text(key.kind));
    q.addBindValue(text(key.name));
    ReconcileState state;
    if (!q.exec()) {
        logSql(q, "reconcileState", error);
        return state;
    }
    if (q.next())
        state = reconcileStateFrom(q, 0);
    q.finish();
    return state;
}

namespace {

QHash<ResourceKey, ReconcileState> selectStates(const QSqlDatabase &db, const QString &tail,
                                                const QVariantList &values, StoreError *error)
{
    QSqlQuery q(db);
    q.setForwardOnly(true);
    QHash<ResourceKey, ReconcileState> states;
    if (!q.prepare(
            QStringLiteral("SELECT kind, name, attempts, last_attempt, next_attempt,"
                           " last_error, waiting_for, last_reconcile_id FROM reconcile_state") +
            tail)) {
        logSql(q, "reconcileStates", error);
        return states;
    }
    for (const QVariant &v : values)
        q.addBindValue(v);
    if (!q.exec()) {
        logSql(q, "reconcileStates", error);
        return states;
    }
    while (q.next())
        states.insert(ResourceKey{q.value(0).toString(), q.value(1).toString()},
                      reconcileStateFrom(q, 2));
    if (q.lastError().isValid()) { // a step failed part way through the rows
        logSql(q, "reconcileStates", error);
        return {};
    }
    return states;
}

} // namespace

QHash<ResourceKey, ReconcileState> ReconcileStateStore::reconcileStates(StoreError *error) const
{
    return selectStates(m_connection.db(), QString(), {}, error);
}

QHash<ResourceKey, ReconcileState> ReconcileStateStore::reconcileStates(const QString &kind,
                                                                        const QString &afterName,
                                                                        const QString &lastName,
                                                                        StoreError *error) const
{
    return selectStates(m_connection.db(),
                        QStringLiteral(" WHERE kind = ? AND name > ? AND name <= ?"),
                        {text(kind), text(afterName), text(lastName)}, error);
}

bool ReconcileStateStore::remove(const ResourceKey &key, StoreError *error)
{
    return deleteKeyedRows(m_connection.db(), "reconcile_state", key, error);
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "phaserunstore.h"

#include "storesql.h"
#include "workspace.h"
#include "workspaceconnection.h"
#include "writescope.h"

#include <QSet>
#include <QSqlError>
#include <QSqlQuery>

namespace converge {

using namespace StoreSql;

namespace {

// What both reads of runs select, in the order runFrom() reads it.
constexpr char runColumns[] =
    "id, reconcile_id, phase, started_at, duration_ms, outcome, reason, message, backend_writes,"
    " backend_code, request_id, repeats, first_started_at";

PhaseRun runFrom(const QSqlQuery &q, const ResourceKey &key)
{
    PhaseRun run;
    run.id = q.value(0).toLongLong();
    run.key = key;
    run.reconcileId = q.value(1).toString();
    run.phase = q.value(2).toString();
    run.startedAt = timeFrom(q.value(3));
    run.durationMs = q.value(4).toLongLong();
    run.outcome = q.value(5).toString();
    run.reason = q.value(6).toString();
    run.message = q.value(7).toString();
    run.backendWrites = q.value(8).toInt();
    run.backendCode = q.value(9).toString();
    run.requestId = q.value(10).toString();
    run.repeats = q.value(11).toInt();
    run.firstStartedAt = q.value(12).isNull() ? run.startedAt : timeFrom(q.value(12));
    return run;
}

} // namespace

PhaseRunStore::PhaseRunStore(WorkspaceConnection &connection)
    : m_connection(connection)
{}

bool PhaseRunStore::recordPhaseRuns(QList<PhaseRun> &runs, StoreError *error)
{
    WriteScope scope(m_connection, WriteScope::Sync::Normal, error);
    if (runs.isEmpty())
        return true;
    if (!scope.begin())
        return false;
    // Prepared once per connection: the controller records a run per reconcile.
    QSqlQuery *insertStatement = m_connection.statement(
        QStringLiteral(
            "INSERT INTO phase_runs (kind, name, reconcile_id, phase, started_at, duration_ms,"
            " outcome, reason, message, backend_writes, backend_code, request_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        error);
    if (!insertStatement)
        return false;
    // A quiet run that says what the newest stored run of its resource said is that run
    // again (PhaseRun::repeats): one row rewritten, and nothing to prune.
    QSqlQuery *newestStatement = m_connection.statement(
        QStringLiteral("SELECT %1 FROM phase_runs WHERE kind = ? AND name = ?"
                       " ORDER BY id DESC LIMIT 1")
            .arg(QLatin1String(runColumns)),
        error);
    QSqlQuery *repeatStatement = m_connection.statement(
        QStringLiteral("UPDATE phase_runs SET repeats = repeats + 1,"
                       " first_started_at = coalesce(first_started_at, started_at),"
                       " started_at = ?, duration_ms = ?, reconcile_id = ?, request_id = ?"
                       " WHERE id = ?"),
        error);
    if (!newestStatement || !repeatStatement)
        return false;
    QSqlQuery &insert = *insertStatement;
    QSqlQuery &newest = *newestStatement;
    QSqlQuery &repeat = *repeatStatement;
    QSet<ResourceKey> keys;
    for (PhaseRun &run : runs) {
        if (run.isQuiet()) {
            newest.addBindValue(text(run.key.kind));
            newest.addBindValue(text(run.key.name));
            if (!newest.exec())
                return failSql(error, newest, QStringLiteral("cannot read phase runs"));
            const PhaseRun stored = newest.next() ? runFrom(newest, run.key) : PhaseRun();
            newest.finish();
            if (stored.id > 0 && stored.repeatedBy(run)) {
                repeat.addBindValue(run.startedAt.toMSecsSinceEpoch());
                repeat.addBindValue(run.durationMs);
                repeat.addBindValue(text(run.reconcileId));
                repeat.addBindValue(text(run.requestId));
                repeat.addBindValue(stored.id);
                if (!repeat.exec())
                    return failSql(error, repeat, QStringLiteral("cannot store a phase run"));
                run.id = stored.id;
                continue;
            }
        }
        insert.addBindValue(text(run.key.kind));
        insert.addBindValue(text(run.key.name));
        insert.addBindValue(text(run.reconcileId));
        insert.addBindValue(text(run.phase));
        insert.addBindValue(run.startedAt.toMSecsSinceEpoch());
        insert.addBindValue(run.durationMs);
        insert.addBindValue(text(run.outcome));
        insert.addBindValue(text(run.reason));
        insert.addBindValue(text(run.message));
        insert.addBindValue(run.backendWrites);
        insert.addBindValue(text(run.backendCode));
        insert.addBindValue(text(run.requestId));
        if (!insert.exec())
            return failSql(error, insert, QStringLiteral("cannot store a phase run"));
        run.id = insert.lastInsertId().toLongLong();
        keys.insert(run.key);
    }
    insert.finish();
    repeat.finish();
    // The reconcile state's last attempt is the last phase run, whatever it changed; a run
    // that changed nothing (a quiet resync) stores no state of its own, so it goes here, in
    // the batch's transaction. Never backwards: the run's own write may have been later.
    QSqlQuery *attemptStatement = m_connection.statement(
        QStringLiteral("UPDATE reconcile_state SET last_attempt = :at, last_reconcile_id = :id"
                       " WHERE kind = :kind AND name = :name AND (last_attempt IS NULL OR"
                       " last_attempt < :at)"),
        error);
    if (!attemptStatement)
        return false;
    QSqlQuery &attempt = *attemptStatement;
    for (const PhaseRun &run : std::as_const(runs)) {
        attempt.bindValue(QStringLiteral(":at"),
                          run.startedAt.toMSecsSinceEpoch() + run.durationMs);
        attempt.bindValue(QStringLiteral(":id"), text(run.reconcileId));
        attempt.bindValue(QStringLiteral(":kind"), text(run.key.kind));
        attempt.bindValue(QStringLiteral(":name"), text(run.key.name));
        if (!attempt.exec())
            return failSql(error, attempt, QStringLiteral("cannot store a last attempt"));
    }
    attempt.finish();
    // The newest runs say why a resource is where it is; older ones are noise.
    QSqlQuery *pruneStatement = m_connection.statement(
        QStringLiteral(
            "DELETE FROM phase_runs WHERE kind = :kind AND name = :name AND id <= (SELECT"
            " id FROM phase_runs WHERE kind = :kind AND name = :name ORDER BY id DESC LIMIT 1"
            " OFFSET %1)")
            .arg(Workspace::phaseRunsKept),
        error);
    if (!pruneStatement)
        return false;
    QSqlQuery &prune = *pruneStatement;
    for (const ResourceKey &key : std::as_const(keys)) {
        prune.bindValue(QStringLiteral(":kind"), text(key.kind));
        prune.bindValue(QStringLiteral(":name"), text(key.name));
        if (!prune.exec())
            return failSql(error, prune, QStringLiteral("cannot prune phase runs"));
    }
    prune.finish();
    return scope.commit();
}

QList<PhaseRun> PhaseRunStore::phaseRuns(const ResourceKey &key, int limit, StoreError *error) const
{
    QSqlQuery q(m_connection.db());
    q.setForwardOnly(true);
    // A failed prepare() would leave exec() with only Qt's own words to say.
    if (!q.prepare(QStringLiteral("SELECT %1 FROM phase_runs WHERE kind = ? AND name = ?"
                                  " ORDER BY id DESC LIMIT ?")
                       .arg(QLatin1String(runColumns)))) {
        logSql(q, "phaseRuns", error);
        return {};
    }
    q.addBindValue(text(key.kind));
    q.addBindValue(text(key.name));
    q.addBindValue(limit > 0 ? limit : -1);
    QList<PhaseRun> result;
    if (!q.exec()) {
        logSql(q, "phaseRuns", error);
        return result;
    }
    while (q.next())
        result.append(runFrom(q, key));
    if (q.lastError().isValid()) { // a step failed part way through the rows
        logSql(q, "phaseRuns", error);
        return {};
    }
    return result;
}

bool PhaseRunStore::removeRuns(const ResourceKey &key, StoreError *error)
{
    return deleteKeyedRows(m_connection.db(), "phase_runs", key, error);
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "journalstore.h"

#include "storesql.h"
#include "workspaceconnection.h"
#include "writescope.h"

#include <QSqlError>
#include <QSqlQuery>

namespace converge {

using namespace StoreSql;

JournalStore::JournalStore(WorkspaceConnection &connection)
    : m_connection(connection)
{}

qint64 JournalStore::beginIntent(const ResourceKey &key, const QString &operation,
                                 const QJsonObject &details, StoreError *error)
{
    WriteScope scope(m_connection, WriteScope::Sync::Default, error);
    if (operation.isEmpty()) {
        fail(error, StoreError::Code::Invalid, QStringLiteral("an intent needs an operation"));
        return 0;
    }
    if (!scope.begin())
        return 0;
    QSqlQuery *statement =
        m_connection.statement(QStringLiteral("INSERT INTO journal (kind, name, operation, details,"
                                              " started_at) VALUES (?, ?, ?, ?, ?)"),
                               error);
    if (!statement)
        return 0;
    QSqlQuery &q = *statement;
    q.addBindValue(text(key.kind));
    q.addBindValue(text(key.name));
    q.addBindValue(operation);
    q.addBindValue(compact(details));
    q.addBindValue(QDateTime::currentMSecsSinceEpoch());
    if (!q.exec()) {
        failSql(error, q, QStringLiteral("cannot write the intent for %1").arg(key.toString()));
        return 0;
    }
    const qint64 id = q.lastInsertId().toLongLong();
    if (!scope.commit())
        return 0;
    return id;
}

bool JournalStore::finishIntent(qint64 id, const QString &outcome, StoreError *error)
{
    WriteScope scope(m_connection, WriteScope::Sync::Default, error);
    if (!scope.begin())
        return false;
    QSqlQuery *statement =
        m_connection.statement(QStringLiteral("UPDATE journal SET finished_at = ?,"
                                              " outcome = ? WHERE id = ? AND"
                                              " finished_at IS NULL"),
                               error);
    if (!statement)
        return false;
    QSqlQuery &q = *statement;
    q.addBindValue(QDateTime::currentMSecsSinceEpoch());
    q.addBindValue(text(outcome));
    q.addBindValue(id);
    if (!q.exec())
        return failSql(error, q, QStringLiteral("cannot finish intent %1").arg(id));
    if (q.numRowsAffected() == 0) {
        QSqlQuery exists(m_connection.db());
        exists.prepare(QStringLiteral("SELECT 1 FROM journal WHERE id = ?"));
        exists.addBindValue(id);
        if (!exists.exec())
            return failSql(error, exists, QStringLiteral("cannot read intent %1").arg(id));
        if (exists.next())
            return fail(error, StoreError::Code::Invalid,
                        QStringLiteral("intent %1 is already finished").arg(id));
        return fail(error, StoreError::Code::NotFound,
                    QStringLiteral("intent %1 does not exist").arg(id));
    }
    return scope.commit();
}

QList<JournalEntry> JournalStore::unfinishedIntents(StoreError *error) const
{
    QSqlQuery q(m_connection.db());
    q.setForwardOnly(true);
    QList<JournalEntry> result;
    if (!q.exec(QStringLiteral("SELECT id, kind, name, operation, details, started_at FROM journal"
                               " WHERE finished_at IS NULL ORDER BY id"))) {
        logSql(q, "unfinishedIntents", error);
        return result;
    }
    while (q.next()) {
        JournalEntry entry;
        entry.id = q.value(0).toLongLong();
        entry.key = {q.value(1).toString(), q.value(2).toString()};
        entry.operation = q.value(3).toString();
        entry.details = parse(q.value(4)).object();
        entry.startedAt = timeFrom(q.value(5));
        result.append(entry);
    }
    if (q.lastError().isValid()) { // a step failed part way through the rows
        logSql(q, "unfinishedIntents", error);
        return {};
    }
    return result;
}

} // namespace converge

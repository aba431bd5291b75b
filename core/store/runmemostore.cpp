// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "runmemostore.h"

#include "storesql.h"
#include "workspaceconnection.h"
#include "writescope.h"

#include <QSqlError>
#include <QSqlQuery>

namespace converge {

using namespace StoreSql;

RunMemoStore::RunMemoStore(WorkspaceConnection &connection)
    : m_connection(connection)
{}

bool RunMemoStore::storeRunMemos(const QList<RunMemo> &memos, StoreError *error)
{
    if (memos.isEmpty())
        return true;
    WriteScope scope(m_connection, WriteScope::Sync::Normal, error);
    if (!scope.begin())
        return false;
    QSqlQuery *insertStatement = m_connection.statement(
        QStringLiteral("INSERT OR REPLACE INTO run_memos (kind, name, resource_version, memo)"
                       " VALUES (?, ?, ?, ?)"),
        error);
    if (!insertStatement)
        return false;
    QSqlQuery &insert = *insertStatement;
    for (const RunMemo &memo : memos) {
        if (memo.memo.isEmpty()) {
            if (!remove(memo.key, error))
                return false;
            continue;
        }
        insert.addBindValue(text(memo.key.kind));
        insert.addBindValue(text(memo.key.name));
        insert.addBindValue(memo.resourceVersion);
        insert.addBindValue(compact(memo.memo));
        if (!insert.exec())
            return failSql(error, insert,
                           QStringLiteral("cannot store the memo of %1").arg(memo.key.toString()));
    }
    insert.finish();
    return scope.commit();
}

QList<RunMemo> RunMemoStore::runMemos(StoreError *error) const
{
    QSqlQuery q(m_connection.db());
    q.setForwardOnly(true);
    QList<RunMemo> memos;
    if (!q.exec(QStringLiteral("SELECT m.kind, m.name, m.resource_version, m.memo FROM run_memos m"
                               " JOIN resources r ON r.kind = m.kind AND r.name = m.name"
                               " AND r.resource_version = m.resource_version"))) {
        logSql(q, "runMemos", error);
        return memos;
    }
    while (q.next()) {
        RunMemo memo;
        memo.key = ResourceKey{q.value(0).toString(), q.value(1).toString()};
        memo.resourceVersion = q.value(2).toLongLong();
        memo.memo = parse(q.value(3)).object();
        if (!memo.memo.isEmpty())
            memos.append(std::move(memo));
    }
    if (q.lastError().isValid()) { // a step failed part way through the rows
        logSql(q, "runMemos", error);
        return {};
    }
    return memos;
}

bool RunMemoStore::remove(const ResourceKey &key, StoreError *error)
{
    return deleteKeyedRows(m_connection.db(), "run_memos", key, error);
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "writescope.h"

#include "storesql.h"
#include "workspaceconnection.h"

namespace converge {

using namespace StoreSql;

WriteScope::WriteScope(WorkspaceConnection &connection, Sync sync, StoreError *error)
    : m_connection(connection)
    , m_error(error)
    , m_sync(sync)
    , m_transaction(connection.transaction())
{
    if (m_error)
        *m_error = {};
}

WriteScope::~WriteScope() = default;

bool WriteScope::begin()
{
    if (m_sync != Sync::Default) {
        const bool relaxed = m_sync == Sync::Normal;
        // Inside writeTogether() the mode cannot change (SQLite refuses within a transaction),
        // so the batch commits with the connection's default.
        const bool current = m_connection.isWriting() ? relaxed : m_connection.isRelaxed();
        m_syncScope.emplace(m_connection.db(), current, relaxed);
    }
    // Once per transaction (a stat), not per statement of writeTogether().
    if (!m_connection.isWriting() && !m_connection.checkFile(m_error))
        return false;
    return m_transaction.begin(m_error);
}

std::optional<qint64> WriteScope::nextVersion()
{
    if (!m_versionRead) {
        QSqlQuery *select = m_connection.statement(
            QStringLiteral("SELECT value FROM workspace_meta WHERE key = 'resource_version'"),
            m_error);
        if (!select)
            return std::nullopt;
        if (!select->exec() || !select->next()) {
            failSql(m_error, *select, QStringLiteral("cannot read the resource version"));
            return std::nullopt;
        }
        m_version = m_versionStored = select->value(0).toLongLong();
        select->finish();
        m_versionRead = true;
    }
    return ++m_version;
}

bool WriteScope::commit()
{
    if (m_version != m_versionStored) {
        QSqlQuery *update = m_connection.statement(
            QStringLiteral("UPDATE workspace_meta SET value = ? WHERE key = 'resource_version'"),
            m_error);
        if (!update)
            return false;
        update->addBindValue(m_version);
        if (!update->exec())
            return failSql(m_error, *update, QStringLiteral("cannot write the resource version"));
    }
    return m_transaction.commit(m_error);
}

} // namespace converge

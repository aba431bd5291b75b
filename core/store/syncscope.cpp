// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "syncscope.h"

#include "storesql.h"

#include <QSqlQuery>

namespace converge {

SyncScope::SyncScope(const QSqlDatabase &db, bool relaxedDefault, bool relaxed)
    : m_db(db)
    , m_changed(relaxedDefault != relaxed)
    , m_default(relaxedDefault)
{
    if (m_changed)
        set(m_db, relaxed);
}

SyncScope::~SyncScope()
{
    if (m_changed)
        set(m_db, m_default);
}

void SyncScope::set(const QSqlDatabase &db, bool relaxed)
{
    QSqlQuery q(db);
    if (!q.exec(relaxed ? QStringLiteral("PRAGMA synchronous = NORMAL")
                        : QStringLiteral("PRAGMA synchronous = FULL")))
        StoreSql::logSql(q, "synchronous");
}

} // namespace converge

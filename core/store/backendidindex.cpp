// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "backendidindex.h"

#include "backendid.h"
#include "storesql.h"
#include "workspaceconnection.h"

#include <QSqlError>
#include <QSqlQuery>

namespace converge {

using namespace StoreSql;

BackendIdIndex::BackendIdIndex(WorkspaceConnection &connection)
    : m_connection(connection)
{}

QString BackendIdIndex::alreadyManaged(const ResourceKey &key, const QString &id,
                                       const ResourceKey &holder)
{
    return QStringLiteral("%1 is managed by %2 already; a backend resource has one manager in a "
                          "workspace, so %3 was not stored (detach or delete %2 first)")
        .arg(id, holder.toString(), key.toString());
}

bool BackendIdIndex::column(const ResourceKey &key, qint64 rowId, const QString &wanted,
                            bool recordedBefore, QVariant *value, StoreError *error) const
{
    *value = QVariant(QMetaType::fromType<QString>());
    if (wanted.isEmpty())
        return true;
    QSqlQuery *q = m_connection.statement(
        QStringLiteral("SELECT id, kind, name FROM resources WHERE backend_id = ?"), error);
    if (!q)
        return false;
    q->addBindValue(wanted);
    if (!q->exec())
        return failSql(error, *q, QStringLiteral("cannot read backend IDs"));
    const bool held = q->next();
    const qint64 holderRow = held ? q->value(0).toLongLong() : 0;
    const ResourceKey holder{held ? q->value(1).toString() : QString(),
                             held ? q->value(2).toString() : QString()};
    q->finish();
    if (!held || holderRow == rowId) {
        *value = wanted;
        return true;
    }
    if (recordedBefore && rowId != 0)
        return true; // a duplicate from before version 9: kept, and known by its NULL
    return fail(error, StoreError::Code::AlreadyManaged, alreadyManaged(key, wanted, holder));
}

bool BackendIdIndex::failRace(const ResourceKey &key, const QString &wanted,
                              const StoreError &sqlError, StoreError *error) const
{
    if (!wanted.isEmpty()) {
        if (const std::optional<ResourceKey> holder = holderOf(wanted); holder && *holder != key)
            return fail(error, StoreError::Code::AlreadyManaged,
                        alreadyManaged(key, wanted, *holder));
    }
    if (error)
        *error = sqlError;
    return false;
}

std::optional<ResourceKey> BackendIdIndex::holderOf(const QString &normalizedId,
                                                    StoreError *error) const
{
    if (normalizedId.isEmpty())
        return std::nullopt;
    const QHash<QString, Holder> holders = holdersOf({normalizedId}, error);
    if (const auto it = holders.constFind(normalizedId); it != holders.cend())
        return it->key;
    return std::nullopt;
}

QHash<QString, BackendIdIndex::Holder> BackendIdIndex::holdersOf(const QStringList &normalizedIds,
                                                                 StoreError *error) const
{
    QHash<QString, Holder> holders;
    if (normalizedIds.isEmpty())
        return holders;
    const bool one = normalizedIds.size() == 1;
    QSqlQuery *q = m_connection.statement(
        one ? QStringLiteral("SELECT backend_id, kind, name, json_extract(spec, '$.owner.name')"
                             " FROM resources WHERE backend_id = ?")
            : QStringLiteral("SELECT backend_id, kind, name, json_extract(spec, '$.owner.name')"
                             " FROM resources WHERE backend_id IN (SELECT value FROM"
                             " json_each(?))"),
        error);
    if (!q)
        return holders;
    q->addBindValue(one ? normalizedIds.first()
                        : compact(QJsonArray::fromStringList(normalizedIds)));
    if (!q->exec()) {
        logSql(*q, "holdersOf", error);
        return holders;
    }
    while (q->next())
        holders.insert(q->value(0).toString(),
                       Holder{ResourceKey{q->value(1).toString(), q->value(2).toString()},
                              q->value(3).toString()});
    q->finish();
    return holders;
}

QList<ResourceKey> BackendIdIndex::recordersOf(const QString &id, StoreError *error) const
{
    QList<ResourceKey> recorders;
    if (id.isEmpty())
        return recorders;
    // resources_id serves the annotation as recorded, resources_backend_id the holder's
    // normalized form (an ARM ID recorded in another case).
    QSqlQuery *q = m_connection.statement(
        QStringLiteral("SELECT kind, name FROM resources WHERE (json_extract(annotations,"
                       " '$.\"converge.dev/resource-id\"') = ? OR backend_id = ?)"
                       " AND json_extract(spec, '$.owner') IS NOT NULL ORDER BY id"),
        error);
    if (!q)
        return recorders;
    q->addBindValue(id);
    q->addBindValue(BackendId::normalized(id));
    if (!q->exec()) {
        logSql(*q, "recordersOf", error);
        return recorders;
    }
    while (q->next())
        recorders.append(ResourceKey{q->value(0).toString(), q->value(1).toString()});
    q->finish();
    return recorders;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "discoverystore.h"

#include "storesql.h"
#include "workspaceconnection.h"
#include "writescope.h"

#include <QHash>
#include <QSqlError>
#include <QSqlQuery>

namespace converge {

using namespace StoreSql;

DiscoveryStore::DiscoveryStore(WorkspaceConnection &connection)
    : m_connection(connection)
{}

bool DiscoveryStore::replaceDiscovered(const ResourceKey &owner, const QString &kind,
                                       const QList<DiscoveredResource> &items, StoreError *error)
{
    WriteScope scope(m_connection, WriteScope::Sync::Normal, error);
    if (!scope.begin())
        return false;
    QSqlQuery q(m_connection.db());
    // What was listed before keeps the time it was first seen.
    QHash<QString, qint64> firstSeen;
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT name, first_seen_at FROM discovered"
                             " WHERE owner_kind = ? AND owner_name = ? AND kind = ?"));
    q.addBindValue(text(owner.kind));
    q.addBindValue(text(owner.name));
    q.addBindValue(text(kind));
    if (!q.exec())
        return failSql(error, q, QStringLiteral("cannot read discovered resources"));
    while (q.next()) {
        if (!q.value(1).isNull())
            firstSeen.insert(q.value(0).toString(), q.value(1).toLongLong());
    }
    q.finish();
    q.prepare(QStringLiteral(
        "DELETE FROM discovered WHERE owner_kind = ? AND owner_name = ? AND kind = ?"));
    q.addBindValue(text(owner.kind));
    q.addBindValue(text(owner.name));
    q.addBindValue(text(kind));
    if (!q.exec())
        return failSql(error, q, QStringLiteral("cannot store discovered resources"));
    // Whether a workspace resource records the item's ID: one seek each in resources_id (an
    // index on the annotation), not a read of every resource per list.
    QSqlQuery managed(m_connection.db());
    managed.setForwardOnly(true);
    if (!managed.prepare(QStringLiteral("SELECT 1 FROM resources WHERE json_extract(annotations,"
                                        " '$.\"converge.dev/resource-id\"') = ? LIMIT 1")) ||
        !q.prepare(QStringLiteral(
            "INSERT OR REPLACE INTO discovered (owner_kind, owner_name, kind, name, resource_id,"
            " spec, details, seen_at, first_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")))
        return failSql(error, q, QStringLiteral("cannot store discovered resources"));
    for (const DiscoveredResource &item : items) {
        if (item.name.isEmpty())
            continue;
        if (!item.resourceId.isEmpty()) {
            managed.addBindValue(item.resourceId);
            if (!managed.exec())
                return failSql(error, managed, QStringLiteral("cannot read resource IDs"));
            const bool isManaged = managed.next();
            managed.finish();
            if (isManaged)
                continue;
        }
        q.addBindValue(text(owner.kind));
        q.addBindValue(text(owner.name));
        q.addBindValue(text(kind));
        q.addBindValue(text(item.name));
        q.addBindValue(text(item.resourceId));
        q.addBindValue(compact(item.spec));
        q.addBindValue(compact(item.details));
        const qint64 seenAt = item.seenAt.isValid() ? item.seenAt.toMSecsSinceEpoch()
                                                    : QDateTime::currentMSecsSinceEpoch();
        q.addBindValue(seenAt);
        const qint64 firstSeenAt =
            item.firstSeenAt.isValid() ? item.firstSeenAt.toMSecsSinceEpoch() : seenAt;
        q.addBindValue(firstSeen.value(item.name, firstSeenAt));
        if (!q.exec())
            return failSql(error, q, QStringLiteral("cannot store discovered resources"));
    }
    return scope.commit();
}

QList<DiscoveredResource> DiscoveryStore::discovered(const std::optional<ResourceKey> &owner,
                                                     StoreError *error) const
{
    QSqlQuery q(m_connection.db());
    q.setForwardOnly(true);
    QString sql = QStringLiteral("SELECT owner_kind, owner_name, kind, name, resource_id, spec,"
                                 " details, seen_at, first_seen_at FROM discovered");
    if (owner)
        sql += QStringLiteral(" WHERE owner_kind = ? AND owner_name = ?");
    sql += QStringLiteral(" ORDER BY owner_kind, owner_name, kind, name");
    // A failed prepare() would leave exec() with only Qt's own words to say.
    if (!q.prepare(sql)) {
        logSql(q, "discovered", error);
        return {};
    }
    if (owner) {
        q.addBindValue(text(owner->kind));
        q.addBindValue(text(owner->name));
    }
    QList<DiscoveredResource> result;
    if (!q.exec()) {
        logSql(q, "discovered", error);
        return result;
    }
    while (q.next()) {
        DiscoveredResource item;
        item.owner = ResourceKey{q.value(0).toString(), q.value(1).toString()};
        item.kind = q.value(2).toString();
        item.name = q.value(3).toString();
        item.resourceId = q.value(4).toString();
        item.spec = parse(q.value(5)).object();
        item.details = parse(q.value(6)).object();
        item.seenAt = timeFrom(q.value(7));
        item.firstSeenAt = q.value(8).isNull() ? item.seenAt : timeFrom(q.value(8));
        result.append(item);
    }
    if (q.lastError().isValid()) { // a step failed part way through the rows
        logSql(q, "discovered", error);
        return {};
    }
    return result;
}

bool DiscoveryStore::dropClaimed(const QStringList &ids, StoreError *error)
{
    if (ids.isEmpty())
        return true;
    const bool one = ids.size() == 1;
    QSqlQuery *q =
        m_connection.statement(one ? QStringLiteral("DELETE FROM discovered WHERE resource_id = ?")
                                   : QStringLiteral("DELETE FROM discovered WHERE resource_id IN"
                                                    " (SELECT value FROM json_each(?))"),
                               error);
    if (!q)
        return false;
    q->addBindValue(one ? ids.first() : compact(QJsonArray::fromStringList(ids)));
    if (!q->exec())
        return failSql(error, *q, QStringLiteral("cannot update discovered resources"));
    return true;
}

bool DiscoveryStore::dropOwnedBy(const ResourceKey &owner, StoreError *error)
{
    QSqlQuery orphans(m_connection.db());
    orphans.prepare(
        QStringLiteral("DELETE FROM discovered WHERE owner_kind = ? AND owner_name = ?"));
    orphans.addBindValue(text(owner.kind));
    orphans.addBindValue(text(owner.name));
    if (!orphans.exec())
        return failSql(error, orphans, QStringLiteral("cannot remove %1").arg(owner.toString()));
    return true;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "discoverystore.h"

#include "backendid.h"
#include "backendidindex.h"
#include "storesql.h"
#include "workspaceconnection.h"
#include "writescope.h"

#include <QHash>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>

#include <algorithm>
#include <limits>

namespace converge {

using namespace StoreSql;

namespace {

QVariant managedByText(const DiscoveredResource &item)
{
    if (!item.isManagedElsewhere())
        return QVariant(QMetaType::fromType<QString>());
    QJsonObject json{{QStringLiteral("resource"), item.managedBy.toString()}};
    if (item.managedByAccount.isValid())
        json.insert(QStringLiteral("account"), item.managedByAccount.toString());
    return compact(json);
}

void readManagedBy(const QVariant &column, DiscoveredResource &item)
{
    if (column.isNull())
        return;
    const QJsonObject json = parse(column).object();
    item.managedBy = ResourceKey::fromString(json.value(QStringLiteral("resource")).toString())
                         .value_or(ResourceKey{});
    item.managedByAccount =
        ResourceKey::fromString(json.value(QStringLiteral("account")).toString())
            .value_or(ResourceKey{});
}

} // namespace

DiscoveryStore::DiscoveryStore(WorkspaceConnection &connection, const BackendIdIndex &backendIds)
    : m_connection(connection)
    , m_backendIds(backendIds)
{}

bool DiscoveryStore::replaceDiscovered(const ResourceKey &owner, const QString &kind,
                                       const QList<DiscoveredResource> &items, StoreError *error)
{
    WriteScope scope(m_connection, WriteScope::Sync::Normal, error);
    if (!scope.begin())
        return false;
    QSet<QString> listed;
    listed.reserve(items.size());
    for (const DiscoveredResource &item : items)
        listed.insert(item.name);
    if (!mergeRows(owner, kind, items, error) || !pruneRows(owner, kind, listed, error))
        return false;
    return scope.commit();
}

bool DiscoveryStore::mergeDiscovered(const ResourceKey &owner, const QString &kind,
                                     const QList<DiscoveredResource> &items, StoreError *error)
{
    WriteScope scope(m_connection, WriteScope::Sync::Normal, error);
    if (!scope.begin())
        return false;
    if (!mergeRows(owner, kind, items, error))
        return false;
    return scope.commit();
}

bool DiscoveryStore::pruneDiscovered(const ResourceKey &owner, const QString &kind,
                                     const QSet<QString> &listed, StoreError *error)
{
    WriteScope scope(m_connection, WriteScope::Sync::Normal, error);
    if (!scope.begin())
        return false;
    if (!pruneRows(owner, kind, listed, error))
        return false;
    return scope.commit();
}

bool DiscoveryStore::mergeRows(const ResourceKey &owner, const QString &kind,
                               const QList<DiscoveredResource> &items, StoreError *error)
{
    // Whether a workspace resource holds the item's ID: one statement for the page
    // (resources_backend_id). Held under this owner, it has its own row; under another, the row
    // names it.
    QStringList ids;
    for (const DiscoveredResource &item : items) {
        if (!item.resourceId.isEmpty())
            ids.append(BackendId::normalized(item.resourceId));
    }
    StoreError readError;
    const QHash<QString, BackendIdIndex::Holder> holders = m_backendIds.holdersOf(ids, &readError);
    if (readError.isError()) {
        if (error)
            *error = readError;
        return false;
    }
    // What was listed before keeps the time it was first seen.
    QSqlQuery *upsert = m_connection.statement(
        QStringLiteral("INSERT INTO discovered (owner_kind, owner_name, kind,"
                       " name, resource_id, spec, details, seen_at,"
                       " first_seen_at, managed_by) VALUES (?, ?, ?, ?, ?,"
                       " ?, ?, ?, ?, ?) ON CONFLICT (owner_kind,"
                       " owner_name, kind, name) DO UPDATE SET"
                       " resource_id = excluded.resource_id, spec ="
                       " excluded.spec, details = excluded.details,"
                       " seen_at = excluded.seen_at, first_seen_at ="
                       " coalesce(discovered.first_seen_at,"
                       " excluded.first_seen_at), managed_by ="
                       " excluded.managed_by"),
        error);
    if (!upsert)
        return false;
    // Stamped later than anything stored under the owner before, whatever the item's own time
    // (a listing's page may be stored after a page another listing stamped later): a reader
    // that has read up to a stamp finds everything stored since by `seen_at >=` that stamp.
    // The write transaction holds the lock, so no other writer stores in between.
    QSqlQuery *latest = m_connection.statement(
        QStringLiteral("SELECT max(seen_at) FROM discovered WHERE owner_kind = ? AND"
                       " owner_name = ?"),
        error);
    if (!latest)
        return false;
    latest->addBindValue(text(owner.kind));
    latest->addBindValue(text(owner.name));
    if (!latest->exec())
        return failSql(error, *latest, QStringLiteral("cannot read discovered resources"));
    const qint64 floor = latest->next() && !latest->value(0).isNull()
                             ? latest->value(0).toLongLong()
                             : std::numeric_limits<qint64>::min();
    latest->finish();
    for (const DiscoveredResource &listed : items) {
        if (listed.name.isEmpty())
            continue;
        DiscoveredResource item = listed;
        if (const auto holder = holders.constFind(BackendId::normalized(item.resourceId));
            !item.resourceId.isEmpty() && holder != holders.cend()) {
            if (holder->key.kind == kind && holder->ownerName == owner.name)
                continue;
            if (item.managedBy != holder->key) {
                item.managedBy = holder->key;
                item.managedByAccount = {};
            }
        }
        upsert->addBindValue(text(owner.kind));
        upsert->addBindValue(text(owner.name));
        upsert->addBindValue(text(kind));
        upsert->addBindValue(text(item.name));
        upsert->addBindValue(text(item.resourceId));
        upsert->addBindValue(compact(item.spec));
        upsert->addBindValue(compact(item.details));
        const qint64 seenAt =
            std::max(item.seenAt.isValid() ? item.seenAt.toMSecsSinceEpoch()
                                           : QDateTime::currentMSecsSinceEpoch(),
                     floor == std::numeric_limits<qint64>::min() ? floor : floor + 1);
        upsert->addBindValue(seenAt);
        upsert->addBindValue(item.firstSeenAt.isValid() ? item.firstSeenAt.toMSecsSinceEpoch()
                                                        : seenAt);
        upsert->addBindValue(managedByText(item));
        if (!upsert->exec())
            return failSql(error, *upsert, QStringLiteral("cannot store discovered resources"));
    }
    return true;
}

bool DiscoveryStore::pruneRows(const ResourceKey &owner, const QString &kind,
                               const QSet<QString> &listed, StoreError *error)
{
    // The stored names against the listing's, in memory: one read and a keyed DELETE per row
    // gone, whatever the clock said when each was seen.
    QSqlQuery q(m_connection.db());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT name FROM discovered"
                             " WHERE owner_kind = ? AND owner_name = ? AND kind = ?"));
    q.addBindValue(text(owner.kind));
    q.addBindValue(text(owner.name));
    q.addBindValue(text(kind));
    if (!q.exec())
        return failSql(error, q, QStringLiteral("cannot read discovered resources"));
    QStringList gone;
    while (q.next()) {
        QString name = q.value(0).toString();
        if (!listed.contains(name))
            gone.append(std::move(name));
    }
    q.finish();
    if (gone.isEmpty())
        return true;
    QSqlQuery *remove = m_connection.statement(
        QStringLiteral("DELETE FROM discovered WHERE owner_kind = ? AND owner_name = ? AND kind ="
                       " ? AND name = ?"),
        error);
    if (!remove)
        return false;
    for (const QString &name : std::as_const(gone)) {
        remove->addBindValue(text(owner.kind));
        remove->addBindValue(text(owner.name));
        remove->addBindValue(text(kind));
        remove->addBindValue(name);
        if (!remove->exec())
            return failSql(error, *remove, QStringLiteral("cannot store discovered resources"));
    }
    return true;
}

QList<DiscoveredResource> DiscoveryStore::discovered(const std::optional<ResourceKey> &owner,
                                                     const QDateTime &seenSince,
                                                     StoreError *error) const
{
    QSqlQuery q(m_connection.db());
    q.setForwardOnly(true);
    QString sql = QStringLiteral("SELECT owner_kind, owner_name, kind, name, resource_id, spec,"
                                 " details, seen_at, first_seen_at, managed_by FROM discovered");
    QStringList where;
    if (owner)
        where.append(QStringLiteral("owner_kind = ? AND owner_name = ?"));
    if (seenSince.isValid())
        where.append(QStringLiteral("seen_at >= ?"));
    if (!where.isEmpty())
        sql += QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND "));
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
    if (seenSince.isValid())
        q.addBindValue(seenSince.toMSecsSinceEpoch());
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
        readManagedBy(q.value(9), item);
        result.append(item);
    }
    if (q.lastError().isValid()) { // a step failed part way through the rows
        logSql(q, "discovered", error);
        return {};
    }
    return result;
}

QList<DiscoveredName> DiscoveryStore::discoveredNames(const ResourceKey &owner,
                                                      StoreError *error) const
{
    QSqlQuery q(m_connection.db());
    q.setForwardOnly(true);
    if (!q.prepare(QStringLiteral("SELECT kind, name FROM discovered WHERE owner_kind = ? AND"
                                  " owner_name = ?"))) {
        logSql(q, "discovered", error);
        return {};
    }
    q.addBindValue(text(owner.kind));
    q.addBindValue(text(owner.name));
    QList<DiscoveredName> result;
    if (!q.exec()) {
        logSql(q, "discovered", error);
        return result;
    }
    while (q.next())
        result.append(DiscoveredName{q.value(0).toString(), q.value(1).toString()});
    if (q.lastError().isValid()) {
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

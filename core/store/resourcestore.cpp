// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "resourcestore.h"

#include "annotations.h"
#include "backendid.h"
#include "backendidindex.h"
#include "discoverystore.h"
#include "eventstore.h"
#include "storesql.h"
#include "workspaceconnection.h"
#include "writescope.h"

#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>

namespace converge {

using namespace StoreSql;

namespace {

const char resourceColumns[] = "kind, name, api_version, uid, generation, resource_version, labels,"
                               " annotations, finalizers, spec, status, creation_time,"
                               " deletion_time";

/// update()'s answer to a copy read before someone else's write (or of another object).
bool failConflict(StoreError *error, const Resource &yours, qint64 storedVersion)
{
    return fail(error, StoreError::Code::Conflict,
                QStringLiteral("%1 was changed by someone else (resourceVersion %2, yours %3); "
                               "read it again and retry")
                    .arg(yours.key().toString())
                    .arg(storedVersion)
                    .arg(yours.metadata.resourceVersion));
}

QString mapText(const QMap<QString, QString> &map)
{
    QJsonObject json;
    for (auto it = map.cbegin(); it != map.cend(); ++it)
        json.insert(it.key(), it.value());
    return compact(json);
}

QMap<QString, QString> mapFrom(const QVariant &text)
{
    QMap<QString, QString> map;
    if (text.toString() == QLatin1String("{}"))
        return map; // most labels: no parse
    const QJsonObject json = parse(text).object();
    for (auto it = json.constBegin(); it != json.constEnd(); ++it)
        map.insert(it.key(), it.value().toString());
    return map;
}

QString statusText(const ResourceStatus &status)
{
    QJsonObject json;
    QJsonArray conditions;
    for (const Condition &c : status.conditions)
        conditions.append(c.toJson());
    if (!conditions.isEmpty())
        json.insert(QStringLiteral("conditions"), conditions);
    if (!status.observed.isEmpty())
        json.insert(QStringLiteral("observed"), status.observed);
    return compact(json);
}

ResourceStatus statusFrom(const QVariant &text)
{
    ResourceStatus status;
    const QJsonObject json = parse(text).object();
    for (const QJsonValue &c : json.value(QStringLiteral("conditions")).toArray())
        status.conditions.append(Condition::fromJson(c.toObject()));
    status.observed = json.value(QStringLiteral("observed")).toObject();
    return status;
}

std::optional<Condition> readyOf(const ResourceStatus &status)
{
    for (const Condition &c : status.conditions) {
        if (c.type == Condition::readyType())
            return c;
    }
    return std::nullopt;
}

/// Reads the columns of `resourceColumns`.
Resource resourceFrom(const QSqlQuery &q)
{
    Resource r;
    r.kind = q.value(0).toString();
    r.metadata.name = q.value(1).toString();
    r.apiVersion = q.value(2).toString();
    r.metadata.uid = q.value(3).toString();
    r.metadata.generation = q.value(4).toLongLong();
    r.metadata.resourceVersion = q.value(5).toLongLong();
    r.metadata.labels = mapFrom(q.value(6));
    r.metadata.annotations = mapFrom(q.value(7));
    // Nearly every resource holds Converge's finalizer and nothing else: no parse for that.
    static const QString onlyOurs =
        compact(QJsonArray{Annotations::finalizer()}); // ["converge.dev/finalizer"]
    const QString finalizers = q.value(8).toString();
    if (finalizers == onlyOurs) {
        r.metadata.finalizers.append(Annotations::finalizer());
    } else if (finalizers != QLatin1String("[]")) {
        for (const QJsonValue &f : parse(finalizers).array())
            r.metadata.finalizers.append(f.toString());
    }
    r.spec = parse(q.value(9)).object();
    r.status = statusFrom(q.value(10));
    r.metadata.creationTimestamp = timeFrom(q.value(11));
    r.metadata.deletionTimestamp = timeFrom(q.value(12));
    return r;
}

/// The resources a `WHERE … ORDER BY …` tail selects (empty tail: all), with `values` bound.
QList<Resource> selectResources(const QSqlDatabase &db, const QString &tail,
                                const QVariantList &values, const char *context, StoreError *error)
{
    QSqlQuery q(db);
    q.setForwardOnly(true);
    QList<Resource> result;
    // A failed prepare() would leave exec() with only "No query" to say.
    if (!q.prepare(QStringLiteral("SELECT %1 FROM resources %2")
                       .arg(QLatin1String(resourceColumns), tail))) {
        logSql(q, context, error);
        return result;
    }
    for (const QVariant &v : values)
        q.addBindValue(v);
    if (!q.exec()) {
        logSql(q, context, error);
        return result;
    }
    while (q.next())
        result.append(resourceFrom(q));
    if (q.lastError().isValid()) { // a step that failed part way ends the loop like the end
        logSql(q, context, error);
        return {};
    }
    return result;
}

/// The backend ID each of `objects` records, where it records one.
QStringList resourceIdsOf(const QList<Resource> &objects)
{
    QStringList ids;
    for (const Resource &object : objects) {
        const QString id = object.metadata.annotations.value(Annotations::resourceId());
        if (!id.isEmpty())
            ids.append(id);
    }
    return ids;
}

} // namespace

ResourceStore::ResourceStore(WorkspaceConnection &connection, const BackendIdIndex &backendIds,
                             DiscoveryStore &discovery, EventStore &events)
    : m_connection(connection)
    , m_backendIds(backendIds)
    , m_discovery(discovery)
    , m_events(events)
{}

bool ResourceStore::exists(const ResourceKey &key, bool *exists, StoreError *error) const
{
    QSqlQuery *q = m_connection.statement(
        QStringLiteral("SELECT 1 FROM resources WHERE kind = ? AND name = ?"), error);
    if (!q)
        return false;
    q->addBindValue(text(key.kind));
    q->addBindValue(text(key.name));
    if (!q->exec())
        return failSql(error, *q, QStringLiteral("cannot read %1").arg(key.toString()));
    *exists = q->next();
    q->finish();
    return true;
}

void ResourceStore::readRow(QLatin1StringView columns, const ResourceKey &key, const char *context,
                            const std::function<void(const QSqlQuery &)> &read,
                            StoreError *error) const
{
    // Prepared once: parsing the SQL each time cost more than running it.
    StoreError prepareError;
    QSqlQuery *q = m_connection.statement(
        QStringLiteral("SELECT %1 FROM resources WHERE kind = ? AND name = ?").arg(columns),
        &prepareError);
    if (!q) {
        qCWarning(lcStore) << context << prepareError.message;
        if (error)
            *error = prepareError;
        return;
    }
    q->addBindValue(text(key.kind));
    q->addBindValue(text(key.name));
    if (!q->exec()) {
        logSql(*q, context, error);
        return;
    }
    if (q->next())
        read(*q);
    else if (q->lastError().isValid())
        logSql(*q, context, error);
    q->finish(); // a statement left open would hold a read snapshot
}

bool ResourceStore::apply(const QList<Resource> &objects, QList<ApplyOutcome> *outcomes,
                          StoreError *error)
{
    WriteScope scope(m_connection, WriteScope::Sync::Full, error); // people's desired state
    if (outcomes)
        outcomes->clear();

    QSet<ResourceKey> seen;
    seen.reserve(objects.size());
    for (qsizetype i = 0; i < objects.size(); ++i) {
        const ResourceKey key = objects.at(i).key();
        if (!key.isValid())
            return fail(error, StoreError::Code::Invalid,
                        QStringLiteral("object %1 has no kind or no name").arg(i + 1));
        if (seen.contains(key))
            return fail(error, StoreError::Code::Invalid,
                        QStringLiteral("%1 appears more than once").arg(key.toString()));
        seen.insert(key);
    }

    if (!scope.begin())
        return false;

    QSqlQuery select(m_connection.db());
    QSqlQuery insert(m_connection.db());
    QSqlQuery update(m_connection.db());
    select.setForwardOnly(true);
    const std::pair<QSqlQuery *, QString> statements[] = {
        {&select, QStringLiteral("SELECT id, api_version, generation, resource_version, labels,"
                                 " annotations, spec, backend_id FROM resources WHERE kind = ?"
                                 " AND name = ?")},
        {&insert,
         QStringLiteral("INSERT INTO resources (kind, name, api_version, uid, generation,"
                        " resource_version, labels, annotations, finalizers, spec, status,"
                        " creation_time, backend_id) VALUES (?, ?, ?, ?, 1, ?, ?, ?, '[]', ?,"
                        " '{}', ?, ?)")},
        {&update, QStringLiteral("UPDATE resources SET api_version = ?, labels = ?,"
                                 " annotations = ?, spec = ?, generation = ?,"
                                 " resource_version = ?, backend_id = ? WHERE id = ?")},
    };
    for (const auto &[query, sql] : statements) {
        if (!query->prepare(sql))
            return failSql(error, *query, QStringLiteral("cannot prepare apply"));
    }

    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QList<ApplyOutcome> result;
    result.reserve(objects.size());
    for (const Resource &object : objects) {
        const ResourceKey key = object.key();
        const QString labels = mapText(object.metadata.labels);
        const QString annotations = mapText(object.metadata.annotations);
        const QString spec = compact(object.spec);
        const QString backendId = BackendId::managedBy(object);

        select.addBindValue(text(key.kind));
        select.addBindValue(text(key.name));
        if (!select.exec())
            return failSql(error, select, QStringLiteral("cannot read %1").arg(key.toString()));
        ApplyOutcome outcome{key, ApplyOutcome::Action::Created, 1, 0};
        if (!select.next()) {
            QVariant backendColumn;
            if (!m_backendIds.column(key, 0, backendId, false, &backendColumn, error))
                return false;
            const std::optional<qint64> version = scope.nextVersion();
            if (!version)
                return false;
            outcome.resourceVersion = *version;
            insert.addBindValue(text(key.kind));
            insert.addBindValue(text(key.name));
            insert.addBindValue(text(object.apiVersion));
            insert.addBindValue(QUuid::createUuid().toString(QUuid::WithoutBraces));
            insert.addBindValue(outcome.resourceVersion);
            insert.addBindValue(labels);
            insert.addBindValue(annotations);
            insert.addBindValue(spec);
            insert.addBindValue(now);
            insert.addBindValue(backendColumn);
            if (!insert.exec())
                return m_backendIds.failRace(
                    key, backendId,
                    sqlError(insert.lastError(),
                             QStringLiteral("cannot store %1").arg(key.toString())),
                    error);
            result.append(outcome);
            continue;
        }

        const qint64 id = select.value(0).toLongLong();
        const bool specChanged = !sameJson(select.value(6).toString(), spec);
        const bool metaChanged = select.value(1).toString() != object.apiVersion ||
                                 !sameJson(select.value(4).toString(), labels) ||
                                 !sameJson(select.value(5).toString(), annotations);
        outcome.generation = select.value(2).toLongLong() + (specChanged ? 1 : 0);
        outcome.resourceVersion = select.value(3).toLongLong();
        const QVariant storedBackendId = select.value(7);
        const QString recordedId = mapFrom(select.value(5)).value(Annotations::resourceId());
        select.finish();
        QVariant backendColumn = storedBackendId;
        if (storedBackendId.toString() != backendId &&
            !m_backendIds.column(key, id, backendId,
                                 !backendId.isEmpty() &&
                                     BackendId::normalized(recordedId) == backendId,
                                 &backendColumn, error))
            return false;
        if (!specChanged && !metaChanged) {
            outcome.action = ApplyOutcome::Action::Unchanged;
            result.append(outcome);
            continue;
        }
        outcome.action = ApplyOutcome::Action::Updated;
        const std::optional<qint64> version = scope.nextVersion();
        if (!version)
            return false;
        outcome.resourceVersion = *version;
        update.addBindValue(text(object.apiVersion));
        update.addBindValue(labels);
        update.addBindValue(annotations);
        update.addBindValue(spec);
        update.addBindValue(outcome.generation);
        update.addBindValue(outcome.resourceVersion);
        update.addBindValue(backendColumn);
        update.addBindValue(id);
        if (!update.exec())
            return m_backendIds.failRace(
                key, backendId,
                sqlError(update.lastError(), QStringLiteral("cannot store %1").arg(key.toString())),
                error);
        result.append(outcome);
    }

    if (!m_discovery.dropClaimed(resourceIdsOf(objects), error) || !scope.commit())
        return false;
    if (outcomes)
        *outcomes = std::move(result);
    return true;
}

std::optional<Resource> ResourceStore::get(const ResourceKey &key, StoreError *error) const
{
    std::optional<Resource> result;
    readRow(
        QLatin1String(resourceColumns), key, "get",
        [&result](const QSqlQuery &q) { result = resourceFrom(q); }, error);
    return result;
}

QList<Resource> ResourceStore::get(const QList<ResourceKey> &keys, StoreError *error) const
{
    if (keys.isEmpty())
        return {};
    QJsonArray wanted;
    for (const ResourceKey &key : keys)
        wanted.append(QJsonArray{key.kind, key.name});
    return selectResources(
        m_connection.db(),
        QStringLiteral("WHERE (kind, name) IN (SELECT json_extract(value, '$[0]'),"
                       " json_extract(value, '$[1]') FROM json_each(?))"
                       " ORDER BY kind, name"),
        {compact(wanted)}, "get", error);
}

std::optional<qint64> ResourceStore::resourceVersion(const ResourceKey &key,
                                                     StoreError *error) const
{
    std::optional<qint64> result;
    readRow(
        QLatin1String("resource_version"), key, "resourceVersion",
        [&result](const QSqlQuery &q) { result = q.value(0).toLongLong(); }, error);
    return result;
}

QList<Resource> ResourceStore::list(const QString &kind, StoreError *error) const
{
    if (kind.isEmpty())
        return selectResources(m_connection.db(), QStringLiteral("ORDER BY kind, name"), {}, "list",
                               error);
    return selectResources(m_connection.db(), QStringLiteral("WHERE kind = ? ORDER BY kind, name"),
                           {text(kind)}, "list", error);
}

QList<Resource> ResourceStore::listPage(const QString &kind, const QString &afterName, int limit,
                                        StoreError *error) const
{
    // The (kind, name) index answers it: a page costs its rows, wherever it starts.
    return selectResources(m_connection.db(),
                           QStringLiteral("WHERE kind = ? AND name > ? ORDER BY name LIMIT ?"),
                           {text(kind), text(afterName), limit}, "listPage", error);
}

QStringList ResourceStore::kinds(StoreError *error) const
{
    QSqlQuery q(m_connection.db());
    q.setForwardOnly(true);
    QStringList kinds;
    if (!q.exec(QStringLiteral("SELECT DISTINCT kind FROM resources ORDER BY kind"))) {
        logSql(q, "kinds", error);
        return kinds;
    }
    while (q.next())
        kinds.append(q.value(0).toString());
    if (q.lastError().isValid()) {
        logSql(q, "kinds", error);
        return {};
    }
    return kinds;
}

QList<Resource> ResourceStore::listChangedSince(qint64 resourceVersion, qint64 *current,
                                                StoreError *error) const
{
    // One read transaction: the counter and the rows are the same snapshot.
    QSqlQuery begin(m_connection.db());
    begin.exec(QStringLiteral("BEGIN"));
    if (current) {
        QSqlQuery q(m_connection.db());
        if (q.exec(QStringLiteral(
                "SELECT value FROM workspace_meta WHERE key = 'resource_version'")) &&
            q.next())
            *current = q.value(0).toLongLong();
        else
            logSql(q, "listChangedSince", error);
    }
    QList<Resource> result = selectResources(
        m_connection.db(), QStringLiteral("WHERE resource_version > ? ORDER BY kind, name"),
        {resourceVersion}, "listChangedSince", error);
    begin.exec(QStringLiteral("COMMIT"));
    return result;
}

QList<Resource> ResourceStore::listOwnedBy(const QString &kind, const QString &ownerName,
                                           StoreError *error) const
{
    return selectResources(
        m_connection.db(),
        QStringLiteral("WHERE kind = ? AND json_extract(spec, '$.owner.name') = ? ORDER BY name"),
        {text(kind), text(ownerName)}, "listOwnedBy", error);
}

qint64 ResourceStore::count(StoreError *error) const
{
    QSqlQuery q(m_connection.db());
    if (!q.exec(QStringLiteral("SELECT count(*) FROM resources")) || !q.next()) {
        logSql(q, "count", error);
        return 0;
    }
    return q.value(0).toLongLong();
}

bool ResourceStore::update(Resource &resource, StoreError *error)
{
    WriteScope scope(m_connection, WriteScope::Sync::Default, error);
    const ResourceKey key = resource.key();
    if (!scope.begin())
        return false;

    QSqlQuery *selectStatement = m_connection.statement(
        QStringLiteral("SELECT id, %1, backend_id FROM resources WHERE kind = ? AND name = ?")
            .arg(QLatin1String(resourceColumns)),
        error);
    if (!selectStatement)
        return false;
    QSqlQuery &select = *selectStatement;
    select.addBindValue(text(key.kind));
    select.addBindValue(text(key.name));
    if (!readKeyedRow(select, key, error))
        return false;
    const qint64 id = select.value(0).toLongLong();
    const QString storedUid = select.value(4).toString();
    const qint64 storedVersion = select.value(6).toLongLong();
    const qint64 storedGeneration = select.value(5).toLongLong();
    const QString storedApiVersion = select.value(3).toString();
    const QString storedLabels = select.value(7).toString();
    const QString storedAnnotations = select.value(8).toString();
    const QString storedFinalizers = select.value(9).toString();
    const QString storedSpec = select.value(10).toString();
    const QDateTime created = timeFrom(select.value(12));
    const QDateTime deleted = timeFrom(select.value(13));
    const QVariant storedBackendId = select.value(14);
    select.finish();

    if (storedVersion != resource.metadata.resourceVersion ||
        (!resource.metadata.uid.isEmpty() && resource.metadata.uid != storedUid))
        return failConflict(error, resource, storedVersion);
    const QString backendId = BackendId::managedBy(resource);
    QVariant backendColumn = storedBackendId;
    if (storedBackendId.toString() != backendId) {
        const QString recordedId = mapFrom(storedAnnotations).value(Annotations::resourceId());
        if (!m_backendIds.column(key, id, backendId,
                                 !backendId.isEmpty() &&
                                     BackendId::normalized(recordedId) == backendId,
                                 &backendColumn, error))
            return false;
    }

    const QString labels = mapText(resource.metadata.labels);
    const QString annotations = mapText(resource.metadata.annotations);
    const QString finalizers = compact(QJsonArray::fromStringList(resource.metadata.finalizers));
    const QString spec = compact(resource.spec);
    const bool specChanged = !sameJson(storedSpec, spec);
    const bool changed =
        specChanged || storedApiVersion != resource.apiVersion || !sameJson(storedLabels, labels) ||
        !sameJson(storedAnnotations, annotations) || !sameJson(storedFinalizers, finalizers);

    const qint64 generation = storedGeneration + (specChanged ? 1 : 0);
    if (!changed) {
        if (!scope.commit())
            return false;
        resource.metadata.uid = storedUid;
        resource.metadata.generation = generation;
        resource.metadata.creationTimestamp = created;
        resource.metadata.deletionTimestamp = deleted;
        return true;
    }

    const std::optional<qint64> newVersion = scope.nextVersion();
    if (!newVersion)
        return false;
    QSqlQuery *writeStatement = m_connection.statement(
        QStringLiteral("UPDATE resources SET api_version = ?, labels = ?, annotations = ?,"
                       " finalizers = ?, spec = ?, generation = ?, resource_version = ?,"
                       " backend_id = ? WHERE id = ?"),
        error);
    if (!writeStatement)
        return false;
    QSqlQuery &write = *writeStatement;
    write.addBindValue(text(resource.apiVersion));
    write.addBindValue(labels);
    write.addBindValue(annotations);
    write.addBindValue(finalizers);
    write.addBindValue(spec);
    write.addBindValue(generation);
    write.addBindValue(*newVersion);
    write.addBindValue(backendColumn);
    write.addBindValue(id);
    if (!write.exec())
        return m_backendIds.failRace(
            key, backendId,
            sqlError(write.lastError(), QStringLiteral("cannot store %1").arg(key.toString())),
            error);
    if (!m_discovery.dropClaimed(resourceIdsOf({resource}), error) || !scope.commit())
        return false;
    resource.metadata.uid = storedUid;
    resource.metadata.generation = generation;
    resource.metadata.resourceVersion = *newVersion;
    resource.metadata.creationTimestamp = created;
    resource.metadata.deletionTimestamp = deleted;
    return true;
}

bool ResourceStore::setFinalizers(Resource &resource, StoreError *error)
{
    WriteScope scope(m_connection, WriteScope::Sync::Default, error);
    const ResourceKey key = resource.key();
    if (!scope.begin())
        return false;
    const std::optional<qint64> newVersion = scope.nextVersion();
    if (!newVersion)
        return false;
    QSqlQuery *writeStatement = m_connection.statement(
        QStringLiteral("UPDATE resources SET finalizers = ?, resource_version = ?"
                       " WHERE kind = ? AND name = ? AND resource_version = ? AND (? OR uid = ?)"),
        error);
    if (!writeStatement)
        return false;
    QSqlQuery &write = *writeStatement;
    write.addBindValue(compact(QJsonArray::fromStringList(resource.metadata.finalizers)));
    write.addBindValue(*newVersion);
    write.addBindValue(text(key.kind));
    write.addBindValue(text(key.name));
    write.addBindValue(resource.metadata.resourceVersion);
    write.addBindValue(resource.metadata.uid.isEmpty());
    write.addBindValue(text(resource.metadata.uid));
    if (!write.exec())
        return failSql(error, write, QStringLiteral("cannot store %1").arg(key.toString()));
    const bool written = write.numRowsAffected() == 1;
    write.finish();
    if (!written) {
        // Gone, or changed since it was read: the same answers as update().
        const std::optional<qint64> stored = resourceVersion(key);
        if (!stored)
            return failMissing(error, key);
        return failConflict(error, resource, *stored);
    }
    if (!scope.commit())
        return false;
    resource.metadata.resourceVersion = *newVersion;
    return true;
}

bool ResourceStore::updateStatus(const ResourceKey &key, const ResourceStatus &status,
                                 const QString &resourceId, StoreError *error)
{
    WriteScope scope(m_connection, WriteScope::Sync::Default, error);
    if (!scope.begin())
        return false;

    const QString idPath = QStringLiteral("$.\"%1\"").arg(Annotations::resourceId());
    QSqlQuery *selectStatement = m_connection.statement(
        QStringLiteral("SELECT id, status, coalesce(json_extract(annotations, ?), ''),"
                       " backend_id, json_extract(spec, '$.owner') IS NOT NULL"
                       " FROM resources WHERE kind = ? AND name = ?"),
        error);
    if (!selectStatement)
        return false;
    QSqlQuery &select = *selectStatement;
    select.addBindValue(idPath);
    select.addBindValue(text(key.kind));
    select.addBindValue(text(key.name));
    if (!readKeyedRow(select, key, error))
        return false;
    const qint64 id = select.value(0).toLongLong();
    const QString storedText = select.value(1).toString();
    const QString recordedId = select.value(2).toString();
    const QVariant heldId = select.value(3);
    const bool holds = !heldId.isNull();
    const bool owned = select.value(4).toBool();
    const bool newId = !resourceId.isEmpty() && recordedId != resourceId;
    select.finish();

    // A new ID is held only where nobody holds it (the engine asks first: SoleManager); a
    // duplicate from before version 9 takes the ID it records once its holder is gone.
    const QString recorded = newId ? resourceId : recordedId;
    QVariant backendColumn = heldId;
    bool setsId = newId;
    if (owned && !recorded.isEmpty() && (newId || !holds)) {
        const QString wanted = BackendId::normalized(recorded);
        if (!m_backendIds.column(key, id, wanted, !newId, &backendColumn, error))
            return false;
        setsId = newId || !backendColumn.isNull();
    } else if (newId) {
        backendColumn = QVariant(QMetaType::fromType<QString>());
    }

    const QString newStatus = statusText(status);
    if (!setsId && sameJson(storedText, newStatus))
        return scope.commit();

    const std::optional<qint64> version = scope.nextVersion();
    if (!version)
        return false;
    QSqlQuery *writeStatement = m_connection.statement(
        setsId
            ? QStringLiteral("UPDATE resources SET status = ?, resource_version = ?,"
                             " annotations = json_set(annotations, ?, ?), backend_id = ?"
                             " WHERE id = ?")
            : QStringLiteral("UPDATE resources SET status = ?, resource_version = ? WHERE id = ?"),
        error);
    if (!writeStatement)
        return false;
    QSqlQuery &write = *writeStatement;
    write.addBindValue(newStatus);
    write.addBindValue(*version);
    if (setsId) {
        write.addBindValue(idPath);
        write.addBindValue(recorded);
        write.addBindValue(backendColumn);
    }
    write.addBindValue(id);
    if (!write.exec())
        return m_backendIds.failRace(
            key, owned ? BackendId::normalized(recorded) : QString(),
            sqlError(write.lastError(),
                     QStringLiteral("cannot store the status of %1").arg(key.toString())),
            error);
    if (newId && !m_discovery.dropClaimed({resourceId}, error))
        return false;

    const std::optional<Condition> before = readyOf(statusFrom(storedText));
    const std::optional<Condition> after = readyOf(status);
    if (after && !(before && before->isEquivalent(*after)) &&
        !m_events.recordTransition(key, *after, error))
        return false;
    return scope.commit();
}

bool ResourceStore::requestDeletion(const ResourceKey &key, StoreError *error)
{
    WriteScope scope(m_connection, WriteScope::Sync::Default, error);
    if (!scope.begin())
        return false;
    QSqlQuery select(m_connection.db());
    select.setForwardOnly(true);
    select.prepare(
        QStringLiteral("SELECT id, deletion_time FROM resources WHERE kind = ? AND name = ?"));
    select.addBindValue(text(key.kind));
    select.addBindValue(text(key.name));
    if (!readKeyedRow(select, key, error))
        return false;
    const qint64 id = select.value(0).toLongLong();
    const bool already = !select.value(1).isNull();
    select.finish();
    if (already)
        return scope.commit();

    const std::optional<qint64> version = scope.nextVersion();
    if (!version)
        return false;
    QSqlQuery write(m_connection.db());
    write.prepare(QStringLiteral(
        "UPDATE resources SET deletion_time = ?, resource_version = ? WHERE id = ?"));
    write.addBindValue(QDateTime::currentMSecsSinceEpoch());
    write.addBindValue(*version);
    write.addBindValue(id);
    if (!write.exec())
        return failSql(error, write, QStringLiteral("cannot delete %1").arg(key.toString()));
    return scope.commit();
}

bool ResourceStore::remove(const ResourceKey &key, StoreError *error)
{
    int removed = 0;
    if (!deleteKeyedRows(m_connection.db(), "resources", key, error, &removed))
        return false;
    return removed > 0 || failMissing(error, key);
}

} // namespace converge

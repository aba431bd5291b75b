// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "workspace.h"

#include "annotations.h"
#include "discoverystore.h"
#include "journalstore.h"
#include "phaserunstore.h"
#include "storesql.h"
#include "workspaceconnection.h"
#include "workspaceschema.h"
#include "writescope.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QSqlQuery>
#include <QUuid>

#include <limits>
#include <mutex>

namespace converge {

using namespace StoreSql;

namespace {

constexpr qint64 aggregationWindowMs = 10 * 60 * 1000;
constexpr qint64 dayMs = 24 * 60 * 60 * 1000;

const char resourceColumns[] = "kind, name, api_version, uid, generation, resource_version, labels,"
                               " annotations, finalizers, spec, status, creation_time,"
                               " deletion_time";
const char eventColumns[] = "e.id, o.kind, o.name, e.type, e.reason, e.message, e.phase,"
                            " e.reconcile_id, e.request_id, e.count, e.first_time, e.last_time";

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

/// Reads the columns of `eventColumns`.
/// The resources a `WHERE … ORDER BY …` tail selects (empty tail: all), with `values` bound.
QList<Resource> selectResources(const QSqlDatabase &db, const QString &tail,
                                const QVariantList &values, const char *context)
{
    QSqlQuery q(db);
    q.setForwardOnly(true);
    q.prepare(
        QStringLiteral("SELECT %1 FROM resources %2").arg(QLatin1String(resourceColumns), tail));
    for (const QVariant &v : values)
        q.addBindValue(v);
    QList<Resource> result;
    if (!q.exec()) {
        logSql(q, context);
        return result;
    }
    while (q.next())
        result.append(resourceFrom(q));
    return result;
}

Event eventFrom(const QSqlQuery &q)
{
    Event e;
    e.id = q.value(0).toLongLong();
    e.involved = {q.value(1).toString(), q.value(2).toString()};
    e.type = q.value(3).toInt() == 1 ? Event::Type::Warning : Event::Type::Normal;
    e.reason = q.value(4).toString();
    e.message = q.value(5).toString();
    e.phase = q.value(6).toString();
    e.reconcileId = q.value(7).toString();
    e.requestId = q.value(8).toString();
    e.count = q.value(9).toInt();
    e.firstTime = timeFrom(q.value(10));
    e.lastTime = timeFrom(q.value(11));
    return e;
}

/// FNV-1a (64-bit, the low 32 bits kept) over Event::aggregationKey()'s UTF-16 units: stored in the
/// file, so it must never depend on the Qt version or a per-process seed (qHash does).
qint64 aggregationHash(const QString &aggregationKey)
{
    quint64 hash = 14695981039346656037ULL;
    for (const QChar c : aggregationKey) {
        hash ^= c.unicode();
        hash *= 1099511628211ULL;
    }
    // 32 bits keep the index small (a collision costs one extra row read, never a wrong merge:
    // the whole key is compared). Schema 3 cut the stored hashes the same way.
    return static_cast<qint64>(hash & 0xffffffffULL);
}

/// New events go in eventRowsPerInsert rows per statement: Qt Sql's cost per executed statement
/// was most of an event's.
constexpr int eventRowsPerInsert = 32;

QByteArray eventInsertManySql()
{
    QByteArray sql = "INSERT INTO events (id, object, type, reason, message, phase, reconcile_id,"
                     " request_id, count, first_time, last_time, aggregation) VALUES ";
    for (int i = 0; i < eventRowsPerInsert; ++i)
        sql += i == 0 ? "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                      : ", (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    return sql;
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

class Workspace::Private final
{
public:
    explicit Private(std::unique_ptr<WorkspaceConnection> connection)
        : connection(std::move(connection))
        , discovery(*this->connection)
        , phaseRuns(*this->connection)
        , journal(*this->connection)
    {}
    ~Private()
    {
        // Before the connection goes: statements must not outlive it.
        eventLookup.reset();
        eventInsert.reset();
        eventInsertMany.reset();
        eventAggregate.reset();
        objectSelect.reset();
        objectInsert.reset();
    }
    Q_DISABLE_COPY_MOVE(Private)

    bool prepareEventQueries(StoreError *error);
    /// The event_objects id of each key, inserting the missing ones; `created` gets those.
    bool resolveObjects(const QList<ResourceKey> &keys, QHash<ResourceKey, qint64> *ids,
                        QHash<ResourceKey, qint64> *created, StoreError *error);
    bool resourceExists(const ResourceKey &key, bool *exists, StoreError *error) const;
    /// Runs `SELECT columns FROM resources` for one key through statement(), and hands the row
    /// to `read` when there is one (the engine's most frequent reads).
    void readRow(QLatin1StringView columns, const ResourceKey &key, const char *context,
                 const std::function<void(const QSqlQuery &)> &read) const;

    std::unique_ptr<WorkspaceConnection> connection;
    DiscoveryStore discovery;
    PhaseRunStore phaseRuns;
    JournalStore journal;
    EventRetention retention;
    // Prepared once per connection: recording events is the hot path.
    std::unique_ptr<QSqlQuery> eventLookup;
    std::unique_ptr<QSqlQuery> eventInsert;
    std::unique_ptr<QSqlQuery> eventInsertMany; ///< eventRowsPerInsert rows at once
    std::unique_ptr<QSqlQuery> eventAggregate;
    std::unique_ptr<QSqlQuery> objectSelect;
    std::unique_ptr<QSqlQuery> objectInsert;
    /// event_objects ids known to be committed; rows there never change or go away.
    QHash<ResourceKey, qint64> objectIds;
};

bool Workspace::Private::prepareEventQueries(StoreError *error)
{
    if (eventLookup)
        return true;
    const auto prepare = [&](std::unique_ptr<QSqlQuery> *query, const char *sql) {
        auto q = std::make_unique<QSqlQuery>(connection->db());
        q->setForwardOnly(true);
        if (!q->prepare(QString::fromLatin1(sql)))
            return failSql(error, *q, QStringLiteral("cannot prepare an event statement"));
        *query = std::move(q);
        return true;
    };
    // One lookup per batch, whatever its size: each distinct object << 32 | hash of the batch
    // seeks events_aggregation directly, so only the events that repeats may belong to come back.
    return prepare(&eventLookup,
                   "SELECT e.id, e.object, e.type, e.reason, e.message, e.phase, e.reconcile_id,"
                   " e.request_id, e.count, e.first_time, e.last_time"
                   " FROM json_each(?) AS j JOIN events AS e"
                   " ON e.object = j.value >> 32 AND e.aggregation = j.value & 4294967295"
                   " AND e.last_time >= ?") &&
           prepare(&eventInsert,
                   "INSERT INTO events (id, object, type, reason, message, phase, reconcile_id,"
                   " request_id, count, first_time, last_time, aggregation)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)") &&
           prepare(&eventInsertMany, eventInsertManySql().constData()) &&
           prepare(&eventAggregate,
                   "UPDATE events SET count = ?, first_time = ?, last_time = ?, phase = ?,"
                   " reconcile_id = ?, request_id = ? WHERE id = ?") &&
           prepare(&objectSelect, "SELECT id FROM event_objects WHERE kind = ? AND name = ?") &&
           prepare(&objectInsert, "INSERT INTO event_objects (kind, name) VALUES (?, ?)");
}

bool Workspace::Private::resolveObjects(const QList<ResourceKey> &keys,
                                        QHash<ResourceKey, qint64> *ids,
                                        QHash<ResourceKey, qint64> *created, StoreError *error)
{
    for (const ResourceKey &key : keys) {
        if (ids->contains(key))
            continue;
        if (const auto it = objectIds.constFind(key); it != objectIds.cend()) {
            ids->insert(key, *it);
            continue;
        }
        objectSelect->addBindValue(text(key.kind));
        objectSelect->addBindValue(text(key.name));
        if (!objectSelect->exec())
            return failSql(error, *objectSelect, QStringLiteral("cannot read events"));
        if (objectSelect->next()) {
            const qint64 id = objectSelect->value(0).toLongLong();
            objectSelect->finish();
            objectIds.insert(key, id); // already committed by someone: safe to remember
            ids->insert(key, id);
            continue;
        }
        objectInsert->addBindValue(text(key.kind));
        objectInsert->addBindValue(text(key.name));
        if (!objectInsert->exec())
            return failSql(error, *objectInsert, QStringLiteral("cannot store an event"));
        const qint64 id = objectInsert->lastInsertId().toLongLong();
        ids->insert(key, id);
        created->insert(key, id);
    }
    return true;
}

bool Workspace::Private::resourceExists(const ResourceKey &key, bool *exists,
                                        StoreError *error) const
{
    QSqlQuery *q = connection->statement(
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

void Workspace::Private::readRow(QLatin1StringView columns, const ResourceKey &key,
                                 const char *context,
                                 const std::function<void(const QSqlQuery &)> &read) const
{
    // Prepared once: parsing the SQL each time cost more than running it.
    StoreError error;
    QSqlQuery *q = connection->statement(
        QStringLiteral("SELECT %1 FROM resources WHERE kind = ? AND name = ?").arg(columns),
        &error);
    if (!q) {
        qCWarning(lcStore) << context << error.message;
        return;
    }
    q->addBindValue(text(key.kind));
    q->addBindValue(text(key.name));
    if (!q->exec()) {
        logSql(*q, context);
        return;
    }
    if (q->next())
        read(*q);
    q->finish(); // a statement left open would hold a read snapshot
}

Workspace::Workspace(std::unique_ptr<Private> d)
    : d(std::move(d))
{}

Workspace::~Workspace() = default;

std::unique_ptr<Workspace> Workspace::open(const QString &path, StoreError *error, OpenMode mode)
{
    std::unique_ptr<WorkspaceConnection> connection = WorkspaceConnection::open(path, mode, error);
    if (!connection)
        return nullptr;
    return std::unique_ptr<Workspace>(
        new Workspace(std::make_unique<Private>(std::move(connection))));
}

std::unique_ptr<Workspace> Workspace::openAnother(StoreError *error) const
{
    std::unique_ptr<WorkspaceConnection> connection = d->connection->openAnother(error);
    if (!connection)
        return nullptr;
    return std::unique_ptr<Workspace>(
        new Workspace(std::make_unique<Private>(std::move(connection))));
}

void Workspace::shareWriteLock(std::shared_ptr<std::mutex> writers)
{
    d->connection->shareWriteLock(std::move(writers));
}

void Workspace::setRelaxedDurability(bool on)
{
    d->connection->setRelaxedDurability(on);
}

QString Workspace::path() const
{
    return d->connection->path();
}

int Workspace::schemaVersion()
{
    return WorkspaceSchema::currentVersion();
}

// --- Desired state ----------------------------------------------------------------------------

bool Workspace::apply(const QList<Resource> &objects, QList<ApplyOutcome> *outcomes,
                      StoreError *error)
{
    WriteScope scope(*d->connection, WriteScope::Sync::Full, error); // people's desired state
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

    QSqlQuery select(d->connection->db());
    QSqlQuery insert(d->connection->db());
    QSqlQuery update(d->connection->db());
    select.setForwardOnly(true);
    const std::pair<QSqlQuery *, QString> statements[] = {
        {&select, QStringLiteral("SELECT id, api_version, generation, resource_version, labels,"
                                 " annotations, spec FROM resources WHERE kind = ? AND name = ?")},
        {&insert,
         QStringLiteral("INSERT INTO resources (kind, name, api_version, uid, generation,"
                        " resource_version, labels, annotations, finalizers, spec, status,"
                        " creation_time) VALUES (?, ?, ?, ?, 1, ?, ?, ?, '[]', ?, '{}', ?)")},
        {&update, QStringLiteral("UPDATE resources SET api_version = ?, labels = ?,"
                                 " annotations = ?, spec = ?, generation = ?,"
                                 " resource_version = ? WHERE id = ?")},
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

        select.addBindValue(text(key.kind));
        select.addBindValue(text(key.name));
        if (!select.exec())
            return failSql(error, select, QStringLiteral("cannot read %1").arg(key.toString()));
        ApplyOutcome outcome{key, ApplyOutcome::Action::Created, 1, 0};
        if (!select.next()) {
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
            if (!insert.exec())
                return failSql(error, insert,
                               QStringLiteral("cannot store %1").arg(key.toString()));
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
        select.finish();
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
        update.addBindValue(id);
        if (!update.exec())
            return failSql(error, update, QStringLiteral("cannot store %1").arg(key.toString()));
        result.append(outcome);
    }

    if (!d->discovery.dropClaimed(resourceIdsOf(objects), error) || !scope.commit())
        return false;
    if (outcomes)
        *outcomes = std::move(result);
    return true;
}

std::optional<Resource> Workspace::get(const ResourceKey &key) const
{
    std::optional<Resource> result;
    d->readRow(QLatin1String(resourceColumns), key, "get",
               [&result](const QSqlQuery &q) { result = resourceFrom(q); });
    return result;
}

QList<Resource> Workspace::get(const QList<ResourceKey> &keys) const
{
    if (keys.isEmpty())
        return {};
    QJsonArray wanted;
    for (const ResourceKey &key : keys)
        wanted.append(QJsonArray{key.kind, key.name});
    return selectResources(
        d->connection->db(),
        QStringLiteral("WHERE (kind, name) IN (SELECT json_extract(value, '$[0]'),"
                       " json_extract(value, '$[1]') FROM json_each(?))"
                       " ORDER BY kind, name"),
        {compact(wanted)}, "get");
}

std::optional<qint64> Workspace::resourceVersion(const ResourceKey &key) const
{
    std::optional<qint64> result;
    d->readRow(QLatin1String("resource_version"), key, "resourceVersion",
               [&result](const QSqlQuery &q) { result = q.value(0).toLongLong(); });
    return result;
}

QList<Resource> Workspace::list(const QString &kind) const
{
    if (kind.isEmpty())
        return selectResources(d->connection->db(), QStringLiteral("ORDER BY kind, name"), {},
                               "list");
    return selectResources(d->connection->db(),
                           QStringLiteral("WHERE kind = ? ORDER BY kind, name"), {text(kind)},
                           "list");
}

QList<Resource> Workspace::listChangedSince(qint64 resourceVersion, qint64 *current) const
{
    // One read transaction: the counter and the rows are the same snapshot.
    QSqlQuery begin(d->connection->db());
    begin.exec(QStringLiteral("BEGIN"));
    if (current) {
        QSqlQuery q(d->connection->db());
        if (q.exec(QStringLiteral(
                "SELECT value FROM workspace_meta WHERE key = 'resource_version'")) &&
            q.next())
            *current = q.value(0).toLongLong();
        else
            logSql(q, "listChangedSince");
    }
    QList<Resource> result = selectResources(
        d->connection->db(), QStringLiteral("WHERE resource_version > ? ORDER BY kind, name"),
        {resourceVersion}, "listChangedSince");
    begin.exec(QStringLiteral("COMMIT"));
    return result;
}

QList<Resource> Workspace::listOwnedBy(const QString &kind, const QString &ownerName) const
{
    return selectResources(
        d->connection->db(),
        QStringLiteral("WHERE kind = ? AND json_extract(spec, '$.owner.name') = ? ORDER BY name"),
        {text(kind), text(ownerName)}, "listOwnedBy");
}

qint64 Workspace::count() const
{
    QSqlQuery q(d->connection->db());
    if (!q.exec(QStringLiteral("SELECT count(*) FROM resources")) || !q.next()) {
        logSql(q, "count");
        return 0;
    }
    return q.value(0).toLongLong();
}

bool Workspace::update(Resource &resource, StoreError *error)
{
    WriteScope scope(*d->connection, WriteScope::Sync::Default, error);
    const ResourceKey key = resource.key();
    if (!scope.begin())
        return false;

    QSqlQuery *selectStatement = d->connection->statement(
        QStringLiteral("SELECT id, %1 FROM resources WHERE kind = ? AND name = ?")
            .arg(QLatin1String(resourceColumns)),
        error);
    if (!selectStatement)
        return false;
    QSqlQuery &select = *selectStatement;
    select.addBindValue(text(key.kind));
    select.addBindValue(text(key.name));
    if (!select.exec())
        return failSql(error, select, QStringLiteral("cannot read %1").arg(key.toString()));
    if (!select.next()) {
        select.finish();
        return fail(error, StoreError::Code::NotFound,
                    QStringLiteral("%1 does not exist").arg(key.toString()));
    }
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
    select.finish();

    if (storedVersion != resource.metadata.resourceVersion ||
        (!resource.metadata.uid.isEmpty() && resource.metadata.uid != storedUid))
        return failConflict(error, resource, storedVersion);

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
    QSqlQuery *writeStatement = d->connection->statement(
        QStringLiteral("UPDATE resources SET api_version = ?, labels = ?, annotations = ?,"
                       " finalizers = ?, spec = ?, generation = ?, resource_version = ?"
                       " WHERE id = ?"),
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
    write.addBindValue(id);
    if (!write.exec())
        return failSql(error, write, QStringLiteral("cannot store %1").arg(key.toString()));
    if (!d->discovery.dropClaimed(resourceIdsOf({resource}), error) || !scope.commit())
        return false;
    resource.metadata.uid = storedUid;
    resource.metadata.generation = generation;
    resource.metadata.resourceVersion = *newVersion;
    resource.metadata.creationTimestamp = created;
    resource.metadata.deletionTimestamp = deleted;
    return true;
}

bool Workspace::setFinalizers(Resource &resource, StoreError *error)
{
    WriteScope scope(*d->connection, WriteScope::Sync::Default, error);
    const ResourceKey key = resource.key();
    if (!scope.begin())
        return false;
    const std::optional<qint64> newVersion = scope.nextVersion();
    if (!newVersion)
        return false;
    QSqlQuery *writeStatement = d->connection->statement(
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
            return fail(error, StoreError::Code::NotFound,
                        QStringLiteral("%1 does not exist").arg(key.toString()));
        return failConflict(error, resource, *stored);
    }
    if (!scope.commit())
        return false;
    resource.metadata.resourceVersion = *newVersion;
    return true;
}

bool Workspace::writeTogether(const std::function<void()> &writes, StoreError *error)
{
    WriteScope scope(*d->connection, WriteScope::Sync::Default, error);
    if (!scope.begin())
        return false;
    writes();
    if (scope.commit())
        return true;
    d->objectIds.clear(); // ids cached by calls inside were rolled back with them
    return false;
}

bool Workspace::updateStatus(const ResourceKey &key, const ResourceStatus &status,
                             StoreError *error)
{
    return updateStatus(key, status, QString(), error);
}

bool Workspace::updateStatus(const ResourceKey &key, const ResourceStatus &status,
                             const QString &resourceId, StoreError *error)
{
    WriteScope scope(*d->connection, WriteScope::Sync::Default, error);
    if (!scope.begin())
        return false;

    const QString idPath = QStringLiteral("$.\"%1\"").arg(Annotations::resourceId());
    QSqlQuery *selectStatement = d->connection->statement(
        QStringLiteral("SELECT id, status, coalesce(json_extract(annotations, ?), '')"
                       " FROM resources WHERE kind = ? AND name = ?"),
        error);
    if (!selectStatement)
        return false;
    QSqlQuery &select = *selectStatement;
    select.addBindValue(idPath);
    select.addBindValue(text(key.kind));
    select.addBindValue(text(key.name));
    if (!select.exec())
        return failSql(error, select, QStringLiteral("cannot read %1").arg(key.toString()));
    if (!select.next()) {
        select.finish();
        return fail(error, StoreError::Code::NotFound,
                    QStringLiteral("%1 does not exist").arg(key.toString()));
    }
    const qint64 id = select.value(0).toLongLong();
    const QString storedText = select.value(1).toString();
    const bool newId = !resourceId.isEmpty() && select.value(2).toString() != resourceId;
    select.finish();

    const QString newStatus = statusText(status);
    if (!newId && sameJson(storedText, newStatus))
        return scope.commit();

    const std::optional<qint64> version = scope.nextVersion();
    if (!version)
        return false;
    QSqlQuery *writeStatement = d->connection->statement(
        newId
            ? QStringLiteral("UPDATE resources SET status = ?, resource_version = ?,"
                             " annotations = json_set(annotations, ?, ?) WHERE id = ?")
            : QStringLiteral("UPDATE resources SET status = ?, resource_version = ? WHERE id = ?"),
        error);
    if (!writeStatement)
        return false;
    QSqlQuery &write = *writeStatement;
    write.addBindValue(newStatus);
    write.addBindValue(*version);
    if (newId) {
        write.addBindValue(idPath);
        write.addBindValue(resourceId);
    }
    write.addBindValue(id);
    if (!write.exec())
        return failSql(error, write,
                       QStringLiteral("cannot store the status of %1").arg(key.toString()));
    if (newId && !d->discovery.dropClaimed({resourceId}, error))
        return false;

    const std::optional<Condition> before = readyOf(statusFrom(storedText));
    const std::optional<Condition> after = readyOf(status);
    if (after && !(before && before->isEquivalent(*after))) {
        QSqlQuery *transitionStatement = d->connection->statement(
            QStringLiteral("INSERT INTO condition_transitions (kind, name, type, status, severity,"
                           " reason, message, observed_generation, transition_time)"
                           " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
            error);
        if (!transitionStatement)
            return false;
        QSqlQuery &transition = *transitionStatement;
        transition.addBindValue(text(key.kind));
        transition.addBindValue(text(key.name));
        transition.addBindValue(text(after->type));
        transition.addBindValue(Condition::statusName(after->status));
        transition.addBindValue(text(Condition::severityName(after->severity)));
        transition.addBindValue(text(after->reason));
        transition.addBindValue(text(after->message));
        transition.addBindValue(after->observedGeneration);
        transition.addBindValue(after->lastTransitionTime.isValid()
                                    ? after->lastTransitionTime.toMSecsSinceEpoch()
                                    : QDateTime::currentMSecsSinceEpoch());
        if (!transition.exec())
            return failSql(error, transition,
                           QStringLiteral("cannot store the condition of %1").arg(key.toString()));
    }
    return scope.commit();
}

bool Workspace::requestDeletion(const ResourceKey &key, StoreError *error)
{
    WriteScope scope(*d->connection, WriteScope::Sync::Default, error);
    if (!scope.begin())
        return false;
    QSqlQuery select(d->connection->db());
    select.setForwardOnly(true);
    select.prepare(
        QStringLiteral("SELECT id, deletion_time FROM resources WHERE kind = ? AND name = ?"));
    select.addBindValue(text(key.kind));
    select.addBindValue(text(key.name));
    if (!select.exec())
        return failSql(error, select, QStringLiteral("cannot read %1").arg(key.toString()));
    if (!select.next())
        return fail(error, StoreError::Code::NotFound,
                    QStringLiteral("%1 does not exist").arg(key.toString()));
    const qint64 id = select.value(0).toLongLong();
    const bool already = !select.value(1).isNull();
    select.finish();
    if (already)
        return scope.commit();

    const std::optional<qint64> version = scope.nextVersion();
    if (!version)
        return false;
    QSqlQuery write(d->connection->db());
    write.prepare(QStringLiteral(
        "UPDATE resources SET deletion_time = ?, resource_version = ? WHERE id = ?"));
    write.addBindValue(QDateTime::currentMSecsSinceEpoch());
    write.addBindValue(*version);
    write.addBindValue(id);
    if (!write.exec())
        return failSql(error, write, QStringLiteral("cannot delete %1").arg(key.toString()));
    return scope.commit();
}

bool Workspace::remove(const ResourceKey &key, StoreError *error)
{
    WriteScope scope(*d->connection, WriteScope::Sync::Default, error);
    if (!scope.begin())
        return false;
    for (const QString &table : {QStringLiteral("resources"), QStringLiteral("reconcile_state")}) {
        QSqlQuery q(d->connection->db());
        q.prepare(QStringLiteral("DELETE FROM %1 WHERE kind = ? AND name = ?").arg(table));
        q.addBindValue(text(key.kind));
        q.addBindValue(text(key.name));
        if (!q.exec())
            return failSql(error, q, QStringLiteral("cannot remove %1").arg(key.toString()));
        if (table == QLatin1String("resources") && q.numRowsAffected() == 0)
            return fail(error, StoreError::Code::NotFound,
                        QStringLiteral("%1 does not exist").arg(key.toString()));
    }
    if (!d->phaseRuns.removeRuns(key, error))
        return false;
    if (!d->discovery.dropOwnedBy(key, error))
        return false;
    return scope.commit();
}

// --- Controller bookkeeping -------------------------------------------------------------------

bool Workspace::setReconcileState(const ResourceKey &key, const ReconcileState &state,
                                  StoreError *error)
{
    WriteScope scope(*d->connection, WriteScope::Sync::Normal, error);
    if (!scope.begin())
        return false;
    bool exists = false;
    if (!d->resourceExists(key, &exists, error))
        return false;
    if (!exists)
        return fail(error, StoreError::Code::NotFound,
                    QStringLiteral("%1 does not exist").arg(key.toString()));
    QSqlQuery *statement = d->connection->statement(
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

ReconcileState Workspace::reconcileState(const ResourceKey &key) const
{
    StoreError error;
    QSqlQuery *statement = d->connection->statement(
        QStringLiteral("SELECT attempts, last_attempt, next_attempt, last_error,"
                       " waiting_for, last_reconcile_id FROM reconcile_state"
                       " WHERE kind = ? AND name = ?"),
        &error);
    if (!statement) {
        qCWarning(lcStore) << "reconcileState:" << error.message;
        return {};
    }
    QSqlQuery &q = *statement;
    q.addBindValue(text(key.kind));
    q.addBindValue(text(key.name));
    ReconcileState state;
    if (!q.exec()) {
        logSql(q, "reconcileState");
        return state;
    }
    if (q.next())
        state = reconcileStateFrom(q, 0);
    q.finish();
    return state;
}

QHash<ResourceKey, ReconcileState> Workspace::reconcileStates() const
{
    QSqlQuery q(d->connection->db());
    q.setForwardOnly(true);
    QHash<ResourceKey, ReconcileState> states;
    if (!q.exec(
            QStringLiteral("SELECT kind, name, attempts, last_attempt, next_attempt,"
                           " last_error, waiting_for, last_reconcile_id FROM reconcile_state"))) {
        logSql(q, "reconcileStates");
        return states;
    }
    while (q.next())
        states.insert(ResourceKey{q.value(0).toString(), q.value(1).toString()},
                      reconcileStateFrom(q, 2));
    return states;
}

// --- Conditions and events --------------------------------------------------------------------

QList<ConditionTransition> Workspace::conditionHistory(const ResourceKey &key) const
{
    QSqlQuery q(d->connection->db());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral(
        "SELECT id, type, status, severity, reason, message, observed_generation,"
        " transition_time FROM condition_transitions WHERE kind = ? AND name = ? ORDER BY id"));
    q.addBindValue(text(key.kind));
    q.addBindValue(text(key.name));
    QList<ConditionTransition> result;
    if (!q.exec()) {
        logSql(q, "conditionHistory");
        return result;
    }
    while (q.next()) {
        ConditionTransition t;
        t.id = q.value(0).toLongLong();
        t.key = key;
        t.condition.type = q.value(1).toString();
        t.condition.status =
            Condition::statusFromName(q.value(2).toString()).value_or(Condition::Status::Unknown);
        t.condition.severity =
            Condition::severityFromName(q.value(3).toString()).value_or(Condition::Severity::None);
        t.condition.reason = q.value(4).toString();
        t.condition.message = q.value(5).toString();
        t.condition.observedGeneration = q.value(6).toLongLong();
        t.condition.lastTransitionTime = timeFrom(q.value(7));
        result.append(t);
    }
    return result;
}

bool Workspace::recordEvents(QList<Event> &events, StoreError *error)
{
    WriteScope scope(*d->connection, WriteScope::Sync::Normal, error);
    if (events.isEmpty())
        return true;

    // Written back only after the commit: ids of a rolled-back batch would be lies.
    QList<Event> incoming = events;
    struct Item
    {
        QString key; ///< Event::aggregationKey()
        qint64 hash = 0;
        qint64 object = 0;
        qsizetype pending = -1; ///< what the event went into
    };
    QList<Item> items(incoming.size());
    QList<ResourceKey> involved;
    involved.reserve(incoming.size());
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (qsizetype i = 0; i < incoming.size(); ++i) {
        Event &e = incoming[i];
        if (!e.lastTime.isValid())
            e.lastTime = e.firstTime.isValid() ? e.firstTime : now;
        if (!e.firstTime.isValid())
            e.firstTime = e.lastTime;
        e.count = std::max(e.count, 1);
        items[i].key = e.aggregationKey();
        items[i].hash = aggregationHash(items.at(i).key);
        involved.append(e.involved);
    }

    if (!scope.begin() || !d->prepareEventQueries(error))
        return false;
    QHash<ResourceKey, qint64> objects;
    QHash<ResourceKey, qint64> created;
    if (!d->resolveObjects(involved, &objects, &created, error))
        return false;

    // The stored events that repeats in this batch may belong to, by aggregation key: comparing
    // the whole key, not the hash, makes a collision harmless. New objects have no events yet.
    QHash<QString, QList<Event>> stored;
    QSet<qint64> probes; // object << 32 | hash, one per distinct pair of the batch
    qint64 since = std::numeric_limits<qint64>::max(); // the earliest window start of the batch
    QHash<qint64, ResourceKey> keyOf;                  // object -> kind/name
    for (qsizetype i = 0; i < incoming.size(); ++i) {
        const Event &e = incoming.at(i);
        Item &item = items[i];
        item.object = objects.value(e.involved);
        if (created.contains(e.involved))
            continue;
        since = std::min(since, e.firstTime.toMSecsSinceEpoch() - aggregationWindowMs);
        probes.insert(item.object << 32 | item.hash);
        keyOf.insert(item.object, e.involved);
    }
    if (!probes.isEmpty()) {
        // One integer per probe: three json_extract() calls per probe were most of the cost of
        // recording a batch. A row older than its own event's window is ruled out below.
        QByteArray json = "[";
        json.reserve(probes.size() * 12 + 2);
        for (const qint64 probe : std::as_const(probes)) {
            if (json.size() > 1)
                json += ',';
            json += QByteArray::number(probe);
        }
        json += ']';
        QSqlQuery &lookup = *d->eventLookup;
        lookup.addBindValue(QString::fromLatin1(json));
        lookup.addBindValue(since);
        if (!lookup.exec())
            return failSql(error, lookup, QStringLiteral("cannot read events"));
        while (lookup.next()) {
            Event e;
            e.id = lookup.value(0).toLongLong();
            e.involved = keyOf.value(lookup.value(1).toLongLong());
            e.type = lookup.value(2).toInt() == 1 ? Event::Type::Warning : Event::Type::Normal;
            e.reason = lookup.value(3).toString();
            e.message = lookup.value(4).toString();
            e.phase = lookup.value(5).toString();
            e.reconcileId = lookup.value(6).toString();
            e.requestId = lookup.value(7).toString();
            e.count = lookup.value(8).toInt();
            e.firstTime = timeFrom(lookup.value(9));
            e.lastTime = timeFrom(lookup.value(10));
            stored[e.aggregationKey()].append(e);
        }
        lookup.finish();
    }

    // What the batch writes: one entry per new row, or per stored row that repeats update.
    struct Pending
    {
        Event event;
        qint64 hash = 0;
        qint64 object = 0;
        bool stored = false; ///< an UPDATE of event.id rather than an INSERT
    };
    QList<Pending> pending;
    QHash<QString, qsizetype> latest; // aggregation key -> index into pending
    const auto inWindow = [](const Event &earlier, const Event &e) {
        return earlier.lastTime.toMSecsSinceEpoch() >=
               e.firstTime.toMSecsSinceEpoch() - aggregationWindowMs;
    };
    for (qsizetype i = 0; i < incoming.size(); ++i) {
        const Event &e = incoming.at(i);
        Item &item = items[i];
        if (const auto it = latest.constFind(item.key); it != latest.cend()) {
            if (inWindow(pending.at(*it).event, e))
                item.pending = *it;
        } else {
            const QList<Event> candidates = stored.value(item.key);
            const Event *best = nullptr;
            for (const Event &candidate : candidates) {
                if (inWindow(candidate, e) && (!best || candidate.id > best->id))
                    best = &candidate;
            }
            if (best) {
                pending.append({*best, item.hash, item.object, true});
                item.pending = pending.size() - 1;
            }
        }
        if (item.pending < 0) {
            pending.append({e, item.hash, item.object, false});
            item.pending = pending.size() - 1;
        } else {
            Event &into = pending[item.pending].event;
            into.count += e.count;
            into.firstTime = std::min(into.firstTime, e.firstTime);
            into.lastTime = std::max(into.lastTime, e.lastTime);
            into.phase = e.phase;
            into.reconcileId = e.reconcileId;
            into.requestId = e.requestId;
        }
        latest.insert(item.key, item.pending);
    }

    qint64 nextId = 0;
    {
        QSqlQuery *q = d->connection->statement(
            QStringLiteral(
                "SELECT max(coalesce((SELECT max(id) FROM events), 0),"
                " coalesce((SELECT value FROM workspace_meta WHERE key = 'event_id'), 0))"),
            error);
        if (!q)
            return false;
        if (!q->exec() || !q->next())
            return failSql(error, *q, QStringLiteral("cannot read events"));
        nextId = q->value(0).toLongLong() + 1;
        q->finish();
    }
    QSqlQuery &aggregate = *d->eventAggregate;
    QList<const Pending *> fresh;
    fresh.reserve(pending.size());
    for (Pending &p : pending) {
        Event &e = p.event;
        if (p.stored) {
            aggregate.addBindValue(e.count);
            aggregate.addBindValue(e.firstTime.toMSecsSinceEpoch());
            aggregate.addBindValue(e.lastTime.toMSecsSinceEpoch());
            aggregate.addBindValue(text(e.phase));
            aggregate.addBindValue(text(e.reconcileId));
            aggregate.addBindValue(text(e.requestId));
            aggregate.addBindValue(e.id);
            if (!aggregate.exec())
                return failSql(error, aggregate, QStringLiteral("cannot store an event"));
            continue;
        }
        e.id = nextId++;
        fresh.append(&p);
    }
    const auto bind = [](QSqlQuery &q, const Pending &p) {
        const Event &e = p.event;
        q.addBindValue(e.id);
        q.addBindValue(p.object);
        q.addBindValue(e.type == Event::Type::Warning ? 1 : 0);
        q.addBindValue(text(e.reason));
        q.addBindValue(text(e.message));
        q.addBindValue(text(e.phase));
        q.addBindValue(text(e.reconcileId));
        q.addBindValue(text(e.requestId));
        q.addBindValue(e.count);
        q.addBindValue(e.firstTime.toMSecsSinceEpoch());
        q.addBindValue(e.lastTime.toMSecsSinceEpoch());
        q.addBindValue(p.hash);
    };
    qsizetype next = 0;
    for (; fresh.size() - next >= eventRowsPerInsert; next += eventRowsPerInsert) {
        QSqlQuery &many = *d->eventInsertMany;
        for (qsizetype i = next; i < next + eventRowsPerInsert; ++i)
            bind(many, *fresh.at(i));
        if (!many.exec())
            return failSql(error, many, QStringLiteral("cannot store events"));
    }
    for (; next < fresh.size(); ++next) {
        QSqlQuery &insert = *d->eventInsert;
        bind(insert, *fresh.at(next));
        if (!insert.exec())
            return failSql(error, insert, QStringLiteral("cannot store an event"));
    }
    if (!scope.commit())
        return false;
    d->objectIds.insert(created);
    for (qsizetype i = 0; i < incoming.size(); ++i)
        events[i] = pending.at(items.at(i).pending).event;
    return true;
}

QList<Event> Workspace::events(const EventQuery &query) const
{
    QStringList where;
    QVariantList values;
    if (query.involved) {
        where.append(QStringLiteral("o.kind = ? AND o.name = ?"));
        values << query.involved->kind << query.involved->name;
    }
    if (query.type) {
        where.append(QStringLiteral("e.type = ?"));
        values << (*query.type == Event::Type::Warning ? 1 : 0);
    }
    if (!query.reason.isEmpty()) {
        where.append(QStringLiteral("e.reason = ?"));
        values << query.reason;
    }
    if (query.since.isValid()) {
        where.append(QStringLiteral("e.last_time >= ?"));
        values << query.since.toMSecsSinceEpoch();
    }
    if (query.until.isValid()) {
        where.append(QStringLiteral("e.last_time < ?"));
        values << query.until.toMSecsSinceEpoch();
    }
    if (query.afterId > 0) {
        where.append(QStringLiteral("e.id > ?"));
        values << query.afterId;
    }
    QString sql =
        QStringLiteral("SELECT %1 FROM events AS e JOIN event_objects AS o ON o.id = e.object")
            .arg(QLatin1String(eventColumns));
    if (!where.isEmpty())
        sql += QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND "));
    sql += query.newestFirst ? QStringLiteral(" ORDER BY e.id DESC")
                             : QStringLiteral(" ORDER BY e.id");
    if (query.limit > 0) {
        sql += QStringLiteral(" LIMIT ?");
        values << query.limit;
    }

    QSqlQuery q(d->connection->db());
    q.setForwardOnly(true);
    q.prepare(sql);
    for (const QVariant &v : std::as_const(values))
        q.addBindValue(v);
    QList<Event> result;
    if (!q.exec()) {
        logSql(q, "events");
        return result;
    }
    while (q.next())
        result.append(eventFrom(q));
    return result;
}

qint64 Workspace::eventCount() const
{
    QSqlQuery q(d->connection->db());
    if (!q.exec(QStringLiteral("SELECT count(*) FROM events")) || !q.next()) {
        logSql(q, "eventCount");
        return 0;
    }
    return q.value(0).toLongLong();
}

void Workspace::setRetention(const EventRetention &retention)
{
    d->retention = retention;
}

EventRetention Workspace::retention() const
{
    return d->retention;
}

qint64 Workspace::pruneEvents(StoreError *error)
{
    WriteScope scope(*d->connection, WriteScope::Sync::Normal, error);
    if (!scope.begin())
        return 0;
    {
        // Ids must not go back once the newest events are gone (see the events table).
        QSqlQuery q(d->connection->db());
        if (!q.exec(QStringLiteral(
                "UPDATE workspace_meta SET value = max(value, coalesce((SELECT max(id) FROM"
                " events), 0)) WHERE key = 'event_id'"))) {
            failSql(error, q, QStringLiteral("cannot prune events"));
            return 0;
        }
    }
    qint64 removed = 0;
    if (d->retention.maxAgeDays > 0) {
        QSqlQuery q(d->connection->db());
        q.prepare(QStringLiteral("DELETE FROM events WHERE last_time < ?"));
        q.addBindValue(QDateTime::currentMSecsSinceEpoch() - d->retention.maxAgeDays * dayMs);
        if (!q.exec()) {
            failSql(error, q, QStringLiteral("cannot prune events"));
            return 0;
        }
        removed += q.numRowsAffected();
    }
    if (d->retention.maxCount > 0) {
        // Everything older than the maxCount newest; no row when there are fewer.
        QSqlQuery q(d->connection->db());
        q.prepare(QStringLiteral("DELETE FROM events WHERE id <= "
                                 "(SELECT id FROM events ORDER BY id DESC LIMIT 1 OFFSET ?)"));
        q.addBindValue(d->retention.maxCount);
        if (!q.exec()) {
            failSql(error, q, QStringLiteral("cannot prune events"));
            return 0;
        }
        removed += q.numRowsAffected();
    }
    if (!scope.commit())
        return 0;
    return removed;
}

// --- Phase runs -------------------------------------------------------------------------------

bool Workspace::recordPhaseRuns(QList<PhaseRun> &runs, StoreError *error)
{
    return d->phaseRuns.recordPhaseRuns(runs, error);
}

QList<PhaseRun> Workspace::phaseRuns(const ResourceKey &key, int limit) const
{
    return d->phaseRuns.phaseRuns(key, limit);
}

// --- Discovery --------------------------------------------------------------------------------

bool Workspace::replaceDiscovered(const ResourceKey &owner, const QString &kind,
                                  const QList<DiscoveredResource> &items, StoreError *error)
{
    return d->discovery.replaceDiscovered(owner, kind, items, error);
}

QList<DiscoveredResource> Workspace::discovered(const std::optional<ResourceKey> &owner) const
{
    return d->discovery.discovered(owner);
}

// --- Journal ----------------------------------------------------------------------------------

qint64 Workspace::beginIntent(const ResourceKey &key, const QString &operation,
                              const QJsonObject &details, StoreError *error)
{
    return d->journal.beginIntent(key, operation, details, error);
}

bool Workspace::finishIntent(qint64 id, const QString &outcome, StoreError *error)
{
    return d->journal.finishIntent(id, outcome, error);
}

QList<JournalEntry> Workspace::unfinishedIntents() const
{
    return d->journal.unfinishedIntents();
}

// --- Change notification ----------------------------------------------------------------------

qint64 Workspace::dataVersion() const
{
    return d->connection->dataVersion();
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "workspace.h"

#include "annotations.h"
#include "discoverystore.h"
#include "eventstore.h"
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
        , events(*this->connection)
        , discovery(*this->connection)
        , phaseRuns(*this->connection)
        , journal(*this->connection)
    {}
    Q_DISABLE_COPY_MOVE(Private)

    bool resourceExists(const ResourceKey &key, bool *exists, StoreError *error) const;
    /// Runs `SELECT columns FROM resources` for one key through statement(), and hands the row
    /// to `read` when there is one (the engine's most frequent reads).
    void readRow(QLatin1StringView columns, const ResourceKey &key, const char *context,
                 const std::function<void(const QSqlQuery &)> &read) const;

    std::unique_ptr<WorkspaceConnection> connection;
    EventStore events;
    DiscoveryStore discovery;
    PhaseRunStore phaseRuns;
    JournalStore journal;
};

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
    d->events.forgetUncommitted(); // what calls inside learnt was rolled back with them
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
    if (after && !(before && before->isEquivalent(*after)) &&
        !d->events.recordTransition(key, *after, error))
        return false;
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
    return d->events.conditionHistory(key);
}

bool Workspace::recordEvents(QList<Event> &events, StoreError *error)
{
    return d->events.recordEvents(events, error);
}

QList<Event> Workspace::events(const EventQuery &query) const
{
    return d->events.events(query);
}

qint64 Workspace::eventCount() const
{
    return d->events.eventCount();
}

void Workspace::setRetention(const EventRetention &retention)
{
    d->events.setRetention(retention);
}

EventRetention Workspace::retention() const
{
    return d->events.retention();
}

qint64 Workspace::pruneEvents(StoreError *error)
{
    return d->events.pruneEvents(error);
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

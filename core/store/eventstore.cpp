// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "eventstore.h"

#include "storesql.h"
#include "workspaceconnection.h"
#include "writescope.h"

#include <QSet>
#include <QSqlError>
#include <QUuid>

#include <limits>

namespace converge {

using namespace StoreSql;

namespace {

constexpr qint64 aggregationWindowMs = 10 * 60 * 1000;
constexpr qint64 dayMs = 24 * 60 * 60 * 1000;

const char eventColumns[] = "e.id, o.kind, o.name, e.type, e.reason, e.message, e.phase,"
                            " e.reconcile_id, e.request_id, e.count, e.last_time - e.span,"
                            " e.last_time";

/// The codes of known phases in the phase column (schema 5); the list only ever grows, and an
/// index, once written, keeps its name. Other phases are stored as text.
const char *const phaseCodes[] = {nullptr,        "claim",    "createOrUpdate", "delete",
                                  "updateStatus", "recovery", "apply"};

QVariant phaseValue(const QString &phase)
{
    for (qint64 code = 1; code < qint64(std::size(phaseCodes)); ++code) {
        if (phase == QLatin1String(phaseCodes[code]))
            return code;
    }
    return text(phase);
}

QString phaseFrom(const QVariant &value)
{
    if (value.typeId() == QMetaType::LongLong || value.typeId() == QMetaType::Int) {
        const qint64 code = value.toLongLong();
        return code > 0 && code < qint64(std::size(phaseCodes))
                   ? QString::fromLatin1(phaseCodes[code])
                   : value.toString();
    }
    return value.toString();
}

/// A lowercase UUID (Azure's request IDs) is stored as its 16 bytes; anything else, or a UUID
/// that would not come back as the same text, as text.
QVariant requestIdValue(const QString &requestId)
{
    if (requestId.size() == 36) {
        const QUuid uuid(requestId);
        if (uuid.toString(QUuid::WithoutBraces) == requestId)
            return uuid.toRfc4122();
    }
    return text(requestId);
}

QString requestIdFrom(const QVariant &value)
{
    if (value.typeId() == QMetaType::QByteArray) {
        const QByteArray bytes = value.toByteArray();
        if (bytes.size() == 16)
            return QUuid::fromRfc4122(bytes).toString(QUuid::WithoutBraces);
    }
    return value.toString();
}

/// Reads the columns of `eventColumns`.
Event eventFrom(const QSqlQuery &q)
{
    Event e;
    e.id = q.value(0).toLongLong();
    e.involved = {q.value(1).toString(), q.value(2).toString()};
    e.type = q.value(3).toInt() == 1 ? Event::Type::Warning : Event::Type::Normal;
    e.reason = q.value(4).toString();
    e.message = q.value(5).toString();
    e.phase = phaseFrom(q.value(6));
    e.reconcileId = q.value(7).toString();
    e.requestId = requestIdFrom(q.value(8));
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
                     " request_id, count, last_time, span, aggregation) VALUES ";
    for (int i = 0; i < eventRowsPerInsert; ++i)
        sql += i == 0 ? "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                      : ", (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    return sql;
}

} // namespace

EventStore::EventStore(WorkspaceConnection &connection)
    : m_connection(connection)
{}

EventStore::~EventStore() = default;

bool EventStore::prepareEventQueries(StoreError *error)
{
    if (m_eventLookup)
        return true;
    const auto prepare = [&](std::unique_ptr<QSqlQuery> *query, const char *sql) {
        auto q = std::make_unique<QSqlQuery>(m_connection.db());
        q->setForwardOnly(true);
        if (!q->prepare(QString::fromLatin1(sql)))
            return failSql(error, *q, QStringLiteral("cannot prepare an event statement"));
        *query = std::move(q);
        return true;
    };
    // One lookup per batch, whatever its size: each distinct object << 32 | hash of the batch
    // seeks events_aggregation directly, so only the events that repeats may belong to come back.
    return prepare(&m_eventLookup,
                   "SELECT e.id, e.object, e.type, e.reason, e.message, e.phase, e.reconcile_id,"
                   " e.request_id, e.count, e.last_time - e.span, e.last_time"
                   " FROM json_each(?) AS j JOIN events AS e"
                   " ON e.object = j.value >> 32 AND e.aggregation = j.value & 4294967295"
                   " AND e.last_time >= ?") &&
           prepare(&m_eventInsert,
                   "INSERT INTO events (id, object, type, reason, message, phase, reconcile_id,"
                   " request_id, count, last_time, span, aggregation)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)") &&
           prepare(&m_eventInsertMany, eventInsertManySql().constData()) &&
           prepare(&m_eventAggregate,
                   "UPDATE events SET count = ?, last_time = ?, span = ?, phase = ?,"
                   " reconcile_id = ?, request_id = ? WHERE id = ?") &&
           prepare(&m_objectSelect, "SELECT id FROM event_objects WHERE kind = ? AND name = ?") &&
           prepare(&m_objectInsert, "INSERT INTO event_objects (kind, name) VALUES (?, ?)");
}

bool EventStore::resolveObjects(const QList<ResourceKey> &keys, QHash<ResourceKey, qint64> *ids,
                                QHash<ResourceKey, qint64> *created, StoreError *error)
{
    for (const ResourceKey &key : keys) {
        if (ids->contains(key))
            continue;
        if (const auto it = m_objectIds.constFind(key); it != m_objectIds.cend()) {
            ids->insert(key, *it);
            continue;
        }
        m_objectSelect->addBindValue(text(key.kind));
        m_objectSelect->addBindValue(text(key.name));
        if (!m_objectSelect->exec())
            return failSql(error, *m_objectSelect, QStringLiteral("cannot read events"));
        if (m_objectSelect->next()) {
            const qint64 id = m_objectSelect->value(0).toLongLong();
            m_objectSelect->finish();
            m_objectIds.insert(key, id); // already committed by someone: safe to remember
            ids->insert(key, id);
            continue;
        }
        m_objectInsert->addBindValue(text(key.kind));
        m_objectInsert->addBindValue(text(key.name));
        if (!m_objectInsert->exec())
            return failSql(error, *m_objectInsert, QStringLiteral("cannot store an event"));
        const qint64 id = m_objectInsert->lastInsertId().toLongLong();
        ids->insert(key, id);
        created->insert(key, id);
    }
    return true;
}

bool EventStore::recordEvents(QList<Event> &events, StoreError *error)
{
    WriteScope scope(m_connection, WriteScope::Sync::Normal, error);
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

    if (!scope.begin() || !prepareEventQueries(error))
        return false;
    QHash<ResourceKey, qint64> objects;
    QHash<ResourceKey, qint64> created;
    if (!resolveObjects(involved, &objects, &created, error))
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
        QSqlQuery &lookup = *m_eventLookup;
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
            e.phase = phaseFrom(lookup.value(5));
            e.reconcileId = lookup.value(6).toString();
            e.requestId = requestIdFrom(lookup.value(7));
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
        QSqlQuery *q = m_connection.statement(
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
    QSqlQuery &aggregate = *m_eventAggregate;
    QList<const Pending *> fresh;
    fresh.reserve(pending.size());
    for (Pending &p : pending) {
        Event &e = p.event;
        if (p.stored) {
            const qint64 last = e.lastTime.toMSecsSinceEpoch();
            aggregate.addBindValue(e.count);
            aggregate.addBindValue(last);
            aggregate.addBindValue(last - e.firstTime.toMSecsSinceEpoch());
            aggregate.addBindValue(phaseValue(e.phase));
            aggregate.addBindValue(text(e.reconcileId));
            aggregate.addBindValue(requestIdValue(e.requestId));
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
        q.addBindValue(phaseValue(e.phase));
        q.addBindValue(text(e.reconcileId));
        q.addBindValue(requestIdValue(e.requestId));
        q.addBindValue(e.count);
        const qint64 last = e.lastTime.toMSecsSinceEpoch();
        q.addBindValue(last);
        q.addBindValue(last - e.firstTime.toMSecsSinceEpoch());
        q.addBindValue(p.hash);
    };
    qsizetype next = 0;
    for (; fresh.size() - next >= eventRowsPerInsert; next += eventRowsPerInsert) {
        QSqlQuery &many = *m_eventInsertMany;
        for (qsizetype i = next; i < next + eventRowsPerInsert; ++i)
            bind(many, *fresh.at(i));
        if (!many.exec())
            return failSql(error, many, QStringLiteral("cannot store events"));
    }
    for (; next < fresh.size(); ++next) {
        QSqlQuery &insert = *m_eventInsert;
        bind(insert, *fresh.at(next));
        if (!insert.exec())
            return failSql(error, insert, QStringLiteral("cannot store an event"));
    }
    if (!scope.commit())
        return false;
    m_objectIds.insert(created);
    for (qsizetype i = 0; i < incoming.size(); ++i)
        events[i] = pending.at(items.at(i).pending).event;
    return true;
}

QList<Event> EventStore::events(const EventQuery &query, StoreError *error) const
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

    QSqlQuery q(m_connection.db());
    q.setForwardOnly(true);
    // A failed prepare() would leave exec() with only Qt's own words to say.
    if (!q.prepare(sql)) {
        logSql(q, "events", error);
        return {};
    }
    for (const QVariant &v : std::as_const(values))
        q.addBindValue(v);
    QList<Event> result;
    if (!q.exec()) {
        logSql(q, "events", error);
        return result;
    }
    while (q.next())
        result.append(eventFrom(q));
    if (q.lastError().isValid()) { // a step failed part way through the rows
        logSql(q, "events", error);
        return {};
    }
    return result;
}

qint64 EventStore::eventCount(StoreError *error) const
{
    QSqlQuery q(m_connection.db());
    if (!q.exec(QStringLiteral("SELECT count(*) FROM events")) || !q.next()) {
        logSql(q, "eventCount", error);
        return 0;
    }
    return q.value(0).toLongLong();
}

qint64 EventStore::pruneEvents(StoreError *error)
{
    WriteScope scope(m_connection, WriteScope::Sync::Normal, error);
    if (!scope.begin())
        return 0;
    {
        // Ids must not go back once the newest events are gone (see the events table).
        QSqlQuery q(m_connection.db());
        if (!q.exec(QStringLiteral(
                "UPDATE workspace_meta SET value = max(value, coalesce((SELECT max(id) FROM"
                " events), 0)) WHERE key = 'event_id'"))) {
            failSql(error, q, QStringLiteral("cannot prune events"));
            return 0;
        }
    }
    qint64 removed = 0;
    if (m_retention.maxAgeDays > 0) {
        QSqlQuery q(m_connection.db());
        q.prepare(QStringLiteral("DELETE FROM events WHERE last_time < ?"));
        q.addBindValue(QDateTime::currentMSecsSinceEpoch() - m_retention.maxAgeDays * dayMs);
        if (!q.exec()) {
            failSql(error, q, QStringLiteral("cannot prune events"));
            return 0;
        }
        removed += q.numRowsAffected();
    }
    if (m_retention.maxCount > 0) {
        // Everything older than the maxCount newest; no row when there are fewer.
        QSqlQuery q(m_connection.db());
        q.prepare(QStringLiteral("DELETE FROM events WHERE id <= "
                                 "(SELECT id FROM events ORDER BY id DESC LIMIT 1 OFFSET ?)"));
        q.addBindValue(m_retention.maxCount);
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

QList<ConditionTransition> EventStore::conditionHistory(const ResourceKey &key,
                                                        StoreError *error) const
{
    QSqlQuery q(m_connection.db());
    q.setForwardOnly(true);
    // A failed prepare() would leave exec() with only Qt's own words to say.
    if (!q.prepare(QStringLiteral(
            "SELECT id, type, status, severity, reason, message, observed_generation,"
            " transition_time FROM condition_transitions WHERE kind = ? AND name = ? ORDER BY "
            "id"))) {
        logSql(q, "conditionHistory", error);
        return {};
    }
    q.addBindValue(text(key.kind));
    q.addBindValue(text(key.name));
    QList<ConditionTransition> result;
    if (!q.exec()) {
        logSql(q, "conditionHistory", error);
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
    if (q.lastError().isValid()) { // a step failed part way through the rows
        logSql(q, "conditionHistory", error);
        return {};
    }
    return result;
}

bool EventStore::recordTransition(const ResourceKey &key, const Condition &ready, StoreError *error)
{
    QSqlQuery *statement = m_connection.statement(
        QStringLiteral("INSERT INTO condition_transitions (kind, name, type, status, severity,"
                       " reason, message, observed_generation, transition_time)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        error);
    if (!statement)
        return false;
    QSqlQuery &transition = *statement;
    transition.addBindValue(text(key.kind));
    transition.addBindValue(text(key.name));
    transition.addBindValue(text(ready.type));
    transition.addBindValue(Condition::statusName(ready.status));
    transition.addBindValue(text(Condition::severityName(ready.severity)));
    transition.addBindValue(text(ready.reason));
    transition.addBindValue(text(ready.message));
    transition.addBindValue(ready.observedGeneration);
    transition.addBindValue(ready.lastTransitionTime.isValid()
                                ? ready.lastTransitionTime.toMSecsSinceEpoch()
                                : QDateTime::currentMSecsSinceEpoch());
    if (!transition.exec())
        return failSql(error, transition,
                       QStringLiteral("cannot store the condition of %1").arg(key.toString()));
    return true;
}

} // namespace converge

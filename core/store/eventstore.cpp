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

/// The codes of known phases in the phase column (schema 6); the list only ever grows, and an
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

/// FNV-1a (64-bit, the low 32 bits kept) over Event::aggregationKey()'s UTF-16 units, fed part by
/// part so that no key is built: stored in the file, so it must never depend on the Qt version or
/// a per-process seed (qHash does).
qint64 aggregationHash(const Event &e)
{
    quint64 hash = 14695981039346656037ULL;
    const auto feed = [&hash](QStringView part) {
        for (const QChar c : part) {
            hash ^= c.unicode();
            hash *= 1099511628211ULL;
        }
    };
    const QChar separator(0x1f);
    feed(e.involved.kind);
    feed(u"/");
    feed(e.involved.name);
    feed(QStringView(&separator, 1));
    feed(e.type == Event::Type::Warning ? u"Warning" : u"Normal");
    feed(QStringView(&separator, 1));
    feed(e.reason);
    feed(QStringView(&separator, 1));
    feed(e.message);
    // 32 bits keep the index small (a collision costs one extra row read, never a wrong merge:
    // the whole key is compared). Schema 3 cut the stored hashes the same way.
    return static_cast<qint64>(hash & 0xffffffffULL);
}

/// What makes two events of a batch, or an event and a stored one, the same event seen again:
/// Event::aggregationKey() with the object's id for its kind/name, and the hash to find it.
struct AggregationKey
{
    qint64 object = 0;
    qint64 hash = 0;
    Event::Type type = Event::Type::Normal;
    QString reason;
    QString message;

    friend bool operator==(const AggregationKey &, const AggregationKey &) = default;
};

size_t qHash(const AggregationKey &key, size_t seed = 0) noexcept
{
    return qHashMulti(seed, key.object, key.hash);
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
                   " e.request_id, e.count, e.last_time - e.span, e.last_time, e.aggregation"
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

bool EventStore::resolveObjects(const QList<Event> &events, QList<qint64> *ids, QList<bool> *fresh,
                                QHash<ResourceKey, qint64> *created, StoreError *error)
{
    ids->resize(events.size());
    fresh->fill(false, events.size());
    for (qsizetype i = 0; i < events.size(); ++i) {
        const ResourceKey &key = events.at(i).involved;
        // A batch often holds several events of one object in a row.
        if (i > 0 && key == events.at(i - 1).involved) {
            (*ids)[i] = ids->at(i - 1);
            (*fresh)[i] = fresh->at(i - 1);
            continue;
        }
        if (const auto it = m_objectIds.constFind(key); it != m_objectIds.cend()) {
            (*ids)[i] = *it;
            continue;
        }
        if (const auto it = created->constFind(key); it != created->cend()) {
            (*ids)[i] = *it;
            (*fresh)[i] = true;
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
            (*ids)[i] = id;
            continue;
        }
        m_objectInsert->addBindValue(text(key.kind));
        m_objectInsert->addBindValue(text(key.name));
        if (!m_objectInsert->exec())
            return failSql(error, *m_objectInsert, QStringLiteral("cannot store an event"));
        const qint64 id = m_objectInsert->lastInsertId().toLongLong();
        created->insert(key, id);
        (*ids)[i] = id;
        (*fresh)[i] = true;
    }
    return true;
}

bool EventStore::recordEvents(QList<Event> &events, StoreError *error)
{
    WriteScope scope(m_connection, WriteScope::Sync::Normal, error);
    if (events.isEmpty())
        return true;

    // What each event is, worked out before the write lock is taken. `events` itself is written
    // back only after the commit: ids of a rolled-back batch would be lies.
    struct Item
    {
        qint64 first = 0; ///< times in ms since the epoch, invalid ones filled in
        qint64 last = 0;
        qint64 hash = 0;
        qsizetype pending = -1; ///< what the event went into
    };
    QList<Item> items(events.size());
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (qsizetype i = 0; i < events.size(); ++i) {
        const Event &e = events.at(i);
        Item &item = items[i];
        item.last = e.lastTime.isValid()    ? e.lastTime.toMSecsSinceEpoch()
                    : e.firstTime.isValid() ? e.firstTime.toMSecsSinceEpoch()
                                            : now;
        item.first = e.firstTime.isValid() ? e.firstTime.toMSecsSinceEpoch() : item.last;
        item.hash = aggregationHash(e);
    }

    if (!scope.begin() || !prepareEventQueries(error))
        return false;
    QList<qint64> objects;
    QList<bool> fresh;
    QHash<ResourceKey, qint64> created;
    if (!resolveObjects(events, &objects, &fresh, &created, error))
        return false;

    // The stored events that repeats in this batch may belong to. New objects have no events yet.
    QHash<AggregationKey, QList<Event>> stored;
    QSet<qint64> probes; // object << 32 | hash, one per distinct pair of the batch
    qint64 since = std::numeric_limits<qint64>::max(); // the earliest window start of the batch
    QHash<qint64, qsizetype> eventOf;                  // object -> an event of the batch about it
    for (qsizetype i = 0; i < events.size(); ++i) {
        if (fresh.at(i))
            continue;
        since = std::min(since, items.at(i).first - aggregationWindowMs);
        probes.insert(objects.at(i) << 32 | items.at(i).hash);
        eventOf.insert(objects.at(i), i);
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
            const qint64 object = lookup.value(1).toLongLong();
            e.id = lookup.value(0).toLongLong();
            e.involved = events.at(eventOf.value(object)).involved;
            e.type = lookup.value(2).toInt() == 1 ? Event::Type::Warning : Event::Type::Normal;
            e.reason = lookup.value(3).toString();
            e.message = lookup.value(4).toString();
            e.phase = phaseFrom(lookup.value(5));
            e.reconcileId = lookup.value(6).toString();
            e.requestId = requestIdFrom(lookup.value(7));
            e.count = lookup.value(8).toInt();
            e.firstTime = timeFrom(lookup.value(9));
            e.lastTime = timeFrom(lookup.value(10));
            const AggregationKey key{object, lookup.value(11).toLongLong(), e.type, e.reason,
                                     e.message};
            stored[key].append(e);
        }
        lookup.finish();
    }

    // What the batch writes: one entry per new row, or per stored row that repeats update.
    struct Pending
    {
        Event event;
        qint64 first = 0;
        qint64 last = 0;
        qint64 hash = 0;
        qint64 object = 0;
        bool stored = false; ///< an UPDATE of event.id rather than an INSERT
    };
    QList<Pending> pending;
    pending.reserve(events.size());
    QHash<AggregationKey, qsizetype> latest; // -> index into pending
    latest.reserve(events.size());
    for (qsizetype i = 0; i < events.size(); ++i) {
        const Event &e = events.at(i);
        Item &item = items[i];
        const qint64 windowStart = item.first - aggregationWindowMs;
        const AggregationKey key{objects.at(i), item.hash, e.type, e.reason, e.message};
        const auto seen = latest.find(key);
        if (seen != latest.end()) {
            if (pending.at(*seen).last >= windowStart)
                item.pending = *seen;
        } else if (const auto found = stored.constFind(key); found != stored.cend()) {
            const Event *best = nullptr;
            for (const Event &candidate : *found) {
                if (candidate.lastTime.toMSecsSinceEpoch() >= windowStart &&
                    (!best || candidate.id > best->id))
                    best = &candidate;
            }
            if (best) {
                pending.append({*best, best->firstTime.toMSecsSinceEpoch(),
                                best->lastTime.toMSecsSinceEpoch(), item.hash, objects.at(i),
                                true});
                item.pending = pending.size() - 1;
            }
        }
        if (item.pending < 0) {
            Pending p{e, item.first, item.last, item.hash, objects.at(i), false};
            p.event.count = std::max(e.count, 1);
            if (!e.lastTime.isValid())
                p.event.lastTime = QDateTime::fromMSecsSinceEpoch(item.last, Qt::UTC);
            if (!e.firstTime.isValid())
                p.event.firstTime = e.lastTime.isValid() ? e.lastTime : p.event.lastTime;
            pending.append(std::move(p));
            item.pending = pending.size() - 1;
        } else {
            Pending &into = pending[item.pending];
            into.event.count += std::max(e.count, 1);
            if (item.first < into.first) {
                into.first = item.first;
                into.event.firstTime = QDateTime::fromMSecsSinceEpoch(item.first, Qt::UTC);
            }
            if (item.last > into.last) {
                into.last = item.last;
                into.event.lastTime = QDateTime::fromMSecsSinceEpoch(item.last, Qt::UTC);
            }
            into.event.phase = e.phase;
            into.event.reconcileId = e.reconcileId;
            into.event.requestId = e.requestId;
        }
        if (seen != latest.end())
            *seen = item.pending;
        else
            latest.insert(key, item.pending);
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
    QList<const Pending *> inserts;
    inserts.reserve(pending.size());
    for (Pending &p : pending) {
        Event &e = p.event;
        if (p.stored) {
            aggregate.addBindValue(e.count);
            aggregate.addBindValue(p.last);
            aggregate.addBindValue(p.last - p.first);
            aggregate.addBindValue(phaseValue(e.phase));
            aggregate.addBindValue(text(e.reconcileId));
            aggregate.addBindValue(requestIdValue(e.requestId));
            aggregate.addBindValue(e.id);
            if (!aggregate.exec())
                return failSql(error, aggregate, QStringLiteral("cannot store an event"));
            continue;
        }
        e.id = nextId++;
        inserts.append(&p);
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
        q.addBindValue(p.last);
        q.addBindValue(p.last - p.first);
        q.addBindValue(p.hash);
    };
    qsizetype next = 0;
    for (; inserts.size() - next >= eventRowsPerInsert; next += eventRowsPerInsert) {
        QSqlQuery &many = *m_eventInsertMany;
        for (qsizetype i = next; i < next + eventRowsPerInsert; ++i)
            bind(many, *inserts.at(i));
        if (!many.exec())
            return failSql(error, many, QStringLiteral("cannot store events"));
    }
    for (; next < inserts.size(); ++next) {
        QSqlQuery &insert = *m_eventInsert;
        bind(insert, *inserts.at(next));
        if (!insert.exec())
            return failSql(error, insert, QStringLiteral("cannot store an event"));
    }
    if (!scope.commit())
        return false;
    m_objectIds.insert(created);
    for (qsizetype i = 0; i < events.size(); ++i)
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

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// The workspace store under load: one apply of many objects, reading them back, and events
// written in batches — against a peer measured in the same run: bare QSqlQuery inserts of the same
// rows into a minimal table with the same batching and pragmas (the floor any store on Qt Sql and
// SQLite can reach).
//
// CONVERGE_BENCH_SCALE (default 0.01, so that the test suite stays fast) multiplies the sizes;
// scale 1 is 10,000 objects and 1,000,000 events. argv[1], when given, receives the figures as
// JSON.

#include "workspace.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTextStream>

#include <cmath>
#include <ctime>

using namespace converge;

namespace {

/// EventQuery with a few fields set (designated initializers warn about the others).
template<typename Set>
EventQuery queryWith(Set set)
{
    EventQuery query;
    set(query);
    return query;
}

constexpr int batchSize = 1000;
constexpr double eventsGoal = 50'000;

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

int fail(const QString &what)
{
    QTextStream(stderr) << "bench_store: " << what << Qt::endl;
    return 1;
}

Resource makeResource(int i)
{
    Resource r;
    r.apiVersion = s("azure.converge.dev/v1");
    r.kind = i % 3 == 0 ? s("Queue") : s("BlobContainer");
    r.metadata.name = QStringLiteral("object-%1").arg(i, 6, 10, QLatin1Char('0'));
    r.metadata.labels = {{s("team"), QStringLiteral("team-%1").arg(i % 17)}, {s("env"), s("dev")}};
    r.metadata.annotations = {{s("converge.dev/reconcile-policy"), s("manage")}};
    r.spec = {{s("owner"), QJsonObject{{s("name"), s("devstore")}}},
              {s("azureName"), r.metadata.name},
              {s("publicAccess"), i % 2 ? s("None") : s("Blob")},
              {s("metadata"), QJsonObject{{s("team"), QStringLiteral("team-%1").arg(i % 17)},
                                          {s("costCenter"), QString::number(1000 + i % 50)}}}};
    return r;
}

const QStringList reasons{s("Created"), s("Updated"), s("Synced"), s("DriftDetected"),
                          s("WaitingForOwner")};

/// Event `i` of the run; every one is distinct (no aggregation), so both sides insert every row.
Event makeEvent(qint64 i, int objects, const QDateTime &base)
{
    Event e;
    const Resource r = makeResource(int(i % objects));
    e.involved = r.key();
    e.type = i % 10 == 0 ? Event::Type::Warning : Event::Type::Normal;
    e.reason = reasons.at(int(i % reasons.size()));
    e.message = QStringLiteral("reconciled %1 in %2 ms (attempt %3)")
                    .arg(r.key().toString())
                    .arg(i % 997)
                    .arg(i);
    e.phase = s("createOrUpdate");
    e.reconcileId = QStringLiteral("rec-%1").arg(i / 4, 8, 16, QLatin1Char('0'));
    e.requestId = QStringLiteral("00000000-0000-4000-8000-%1").arg(i, 12, 16, QLatin1Char('0'));
    e.firstTime = e.lastTime = base.addMSecs(i * 10);
    return e;
}

QList<Event> makeBatch(qint64 first, int count, int objects, const QDateTime &base)
{
    QList<Event> batch;
    batch.reserve(count);
    for (int k = 0; k < count; ++k)
        batch.append(makeEvent(first + k, objects, base));
    return batch;
}

/// Wall and CPU time of the measured parts only. The CPU figure matters on a shared machine,
/// where the wall clock also counts other processes' turns.
class Stopwatch final
{
public:
    void start()
    {
        m_wall.start();
        m_cpu = std::clock();
    }
    void stop()
    {
        wall += m_wall.nsecsElapsed() / 1e9;
        cpu += double(std::clock() - m_cpu) / CLOCKS_PER_SEC;
    }
    double wall = 0;
    double cpu = 0;

private:
    QElapsedTimer m_wall;
    std::clock_t m_cpu = 0;
};

struct Peer
{
    Stopwatch time;
    qint64 bytes = 0;
    QString error;
};

/// The floor: the same rows, the same batching and pragmas, a table with no index and no
/// aggregation lookup, bound and executed with bare QSqlQuery.
Peer runPeer(const QString &path, qint64 events, int objects, const QDateTime &base)
{
    Peer peer;
    const QString name = s("bench.peer");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(s("QSQLITE"), name);
        db.setDatabaseName(path);
        if (!db.open()) {
            peer.error = db.lastError().text();
        } else {
            QSqlQuery q(db);
            q.exec(s("PRAGMA journal_mode = WAL"));
            q.exec(s("PRAGMA synchronous = NORMAL"));
            q.exec(s("CREATE TABLE events (id INTEGER PRIMARY KEY, kind TEXT, name TEXT,"
                     " type INTEGER, reason TEXT, message TEXT, phase TEXT, reconcile_id TEXT,"
                     " request_id TEXT, count INTEGER, first_time INTEGER, last_time INTEGER)"));
            QSqlQuery insert(db);
            insert.prepare(s("INSERT INTO events (kind, name, type, reason, message, phase,"
                             " reconcile_id, request_id, count, first_time, last_time)"
                             " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
            for (qint64 first = 0; first < events && peer.error.isEmpty(); first += batchSize) {
                const QList<Event> batch = makeBatch(
                    first, int(std::min<qint64>(batchSize, events - first)), objects, base);
                peer.time.start();
                q.exec(s("BEGIN IMMEDIATE"));
                for (const Event &e : batch) {
                    insert.addBindValue(e.involved.kind);
                    insert.addBindValue(e.involved.name);
                    insert.addBindValue(e.type == Event::Type::Warning ? 1 : 0);
                    insert.addBindValue(e.reason);
                    insert.addBindValue(e.message);
                    insert.addBindValue(e.phase);
                    insert.addBindValue(e.reconcileId);
                    insert.addBindValue(e.requestId);
                    insert.addBindValue(e.count);
                    insert.addBindValue(e.firstTime.toMSecsSinceEpoch());
                    insert.addBindValue(e.lastTime.toMSecsSinceEpoch());
                    if (!insert.exec()) {
                        peer.error = insert.lastError().text();
                        break;
                    }
                }
                q.exec(s("COMMIT"));
                peer.time.stop();
            }
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    peer.bytes = QFileInfo(path).size();
    return peer;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    bool ok = false;
    double scale = qEnvironmentVariable("CONVERGE_BENCH_SCALE").toDouble(&ok);
    if (!ok || scale <= 0)
        scale = 0.01;
    const int objects = std::max(10, int(std::lround(10'000 * scale)));
    const qint64 events = std::max<qint64>(batchSize, std::llround(1'000'000 * scale));

    QTemporaryDir dir;
    if (!dir.isValid())
        return fail(s("no temporary folder"));
    const QString path = dir.filePath(s("bench.converge"));
    StoreError error;
    QElapsedTimer timer;
    Stopwatch applyTime;
    Stopwatch listTime;
    Stopwatch eventTime;

    // Desired state: one apply, then everything read back.
    QList<Resource> batch;
    batch.reserve(objects);
    for (int i = 0; i < objects; ++i)
        batch.append(makeResource(i));
    auto ws = Workspace::open(path, &error);
    if (!ws)
        return fail(error.message);
    QList<ApplyOutcome> outcomes;
    applyTime.start();
    if (!ws->apply(batch, &outcomes, &error))
        return fail(error.message);
    applyTime.stop();
    listTime.start();
    const QList<Resource> all = ws->list();
    listTime.stop();
    if (all.size() != objects)
        return fail(s("list() returned %1 objects").arg(all.size()));
    ws.reset(); // checkpoints: the file now holds the desired state only
    const qint64 bytesBeforeEvents = QFileInfo(path).size();

    // Events, in batches.
    const QDateTime base = QDateTime::currentDateTimeUtc().addMSecs(-events * 10);
    ws = Workspace::open(path, &error);
    if (!ws)
        return fail(error.message);
    for (qint64 first = 0; first < events; first += batchSize) {
        QList<Event> chunk =
            makeBatch(first, int(std::min<qint64>(batchSize, events - first)), objects, base);
        eventTime.start();
        if (!ws->recordEvents(chunk, &error))
            return fail(error.message);
        eventTime.stop();
    }
    if (ws->eventCount() != events)
        return fail(s("stored %1 events of %2").arg(ws->eventCount()).arg(events));
    timer.start();
    const QList<Event> recent = ws->events(queryWith([&](EventQuery &q) {
        q.involved = batch.at(objects / 2).key();
        q.limit = 100;
        q.newestFirst = true;
    }));
    const double queryMs = timer.nsecsElapsed() / 1e6;
    if (recent.isEmpty())
        return fail(s("no events for one resource"));
    ws.reset();
    const qint64 workspaceBytes = QFileInfo(path).size();
    timer.start();
    ws = Workspace::open(path, &error, Workspace::OpenMode::OpenExisting);
    const double openMs = timer.nsecsElapsed() / 1e6;
    if (!ws)
        return fail(error.message);
    ws.reset();

    const Peer peer = runPeer(dir.filePath(s("peer.sqlite")), events, objects, base);
    if (!peer.error.isEmpty())
        return fail(s("peer: ") + peer.error);

    const double bytesPerEvent = double(workspaceBytes - bytesBeforeEvents) / events;
    const double peerBytesPerEvent = double(peer.bytes) / events;
    const double eventRate = events / eventTime.wall;
    const double peerRate = events / peer.time.wall;
    const double eventCpuRate = events / eventTime.cpu;
    const double peerCpuRate = events / peer.time.cpu;

    out() << QStringLiteral("bench_store: scale %1 (%2 objects, %3 events, batches of %4)\n")
                 .arg(scale)
                 .arg(objects)
                 .arg(events)
                 .arg(batchSize);
    out() << QStringLiteral("  %1 %2 %3\n")
                 .arg(QString(), -36)
                 .arg(s("wall clock"), 16)
                 .arg(s("CPU time"), 16);
    const auto row = [](const QString &what, double wall, double cpu, const QString &unit) {
        const auto number = [](double v) {
            return std::isfinite(v) ? QString::number(v, 'f', v < 100 ? 2 : 0) : s("-");
        };
        out() << QStringLiteral("  %1 %2 %3  %4\n")
                     .arg(what, -36)
                     .arg(number(wall), 16)
                     .arg(number(cpu), 16)
                     .arg(unit);
    };
    row(s("apply, one transaction"), objects / applyTime.wall, objects / applyTime.cpu,
        s("objects/s"));
    row(s("list(), everything back"), objects / listTime.wall, objects / listTime.cpu,
        s("objects/s"));
    row(s("events, Converge"), eventRate, eventCpuRate, s("events/s"));
    row(s("events, peer (bare QSqlQuery)"), peerRate, peerCpuRate, s("events/s"));
    row(s("  ratio Converge/peer"), eventRate / peerRate, eventCpuRate / peerCpuRate, s("x"));
    row(s("bytes on disk per event, Converge"), bytesPerEvent, NAN, s("B"));
    row(s("bytes on disk per event, peer"), peerBytesPerEvent, NAN, s("B"));
    row(s("  ratio Converge/peer"), bytesPerEvent / peerBytesPerEvent, NAN, s("x"));
    row(s("newest 100 events of one resource"), queryMs, NAN, s("ms"));
    row(s("open existing (with quick_check)"), openMs, NAN, s("ms"));
    row(s("workspace file"), workspaceBytes / 1e6, NAN, s("MB"));
    out() << QStringLiteral("  goal >= %1 events/s (wall clock): %2\n")
                 .arg(eventsGoal, 0, 'f', 0)
                 .arg(eventRate >= eventsGoal ? s("met") : s("missed"));
    out().flush();

    if (argc > 1) {
        const QJsonObject json{
            {s("scale"), scale},
            {s("objects"), objects},
            {s("events"), events},
            {s("batchSize"), batchSize},
            {s("applySeconds"), applyTime.wall},
            {s("applyCpuSeconds"), applyTime.cpu},
            {s("listSeconds"), listTime.wall},
            {s("listCpuSeconds"), listTime.cpu},
            {s("eventsPerSecond"), eventRate},
            {s("eventsPerCpuSecond"), eventCpuRate},
            {s("peerEventsPerSecond"), peerRate},
            {s("peerEventsPerCpuSecond"), peerCpuRate},
            {s("eventsRatio"), eventRate / peerRate},
            {s("eventsCpuRatio"), eventCpuRate / peerCpuRate},
            {s("bytesPerEvent"), bytesPerEvent},
            {s("peerBytesPerEvent"), peerBytesPerEvent},
            {s("bytesRatio"), bytesPerEvent / peerBytesPerEvent},
            {s("resourceEventsQueryMs"), queryMs},
            {s("openMs"), openMs},
            {s("workspaceBytes"), workspaceBytes},
        };
        QFile file(QString::fromLocal8Bit(argv[1]));
        if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(json).toJson()) < 0)
            return fail(s("cannot write ") + file.fileName());
    }
    return 0;
}

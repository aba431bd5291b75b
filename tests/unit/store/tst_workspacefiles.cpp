// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "workspace.h"
#include "workspaceschema.h"
#include "workspacewatcher.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>

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

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

const QDateTime oldTime = QDateTime(QDate(2020, 1, 1), QTime(0, 0), Qt::UTC);

/// The crash child's batch: big enough that SQLite spills uncommitted pages into the WAL long
/// before the commit, so the child can be killed with half a transaction on disk.
constexpr int crashBatchSize = 20'000;
constexpr qint64 crashWalThreshold = 1024 * 1024;

Resource makeResource(const QString &name, const QString &value)
{
    Resource r;
    r.apiVersion = s("azure.converge.dev/v1");
    r.kind = s("BlobContainer");
    r.metadata.name = name;
    r.metadata.labels = {{s("team"), s("billing")}};
    r.spec = {{s("publicAccess"), s("None")},
              {s("owner"), QJsonObject{{s("name"), s("devstore")}}},
              {s("value"), value},
              {s("padding"), QString(300, QLatin1Char('x'))}};
    return r;
}

/// A plain SQLite connection, for making and inspecting files the way other programs would.
class RawDb final
{
public:
    explicit RawDb(const QString &path, bool readOnly = false)
        : m_name(QStringLiteral("raw.%1").arg(++counter()))
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(s("QSQLITE"), m_name);
        db.setDatabaseName(path);
        if (readOnly)
            db.setConnectOptions(s("QSQLITE_OPEN_READONLY"));
        m_ok = db.open();
    }
    ~RawDb()
    {
        {
            QSqlDatabase db = QSqlDatabase::database(m_name, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(m_name);
    }
    Q_DISABLE_COPY_MOVE(RawDb)

    bool isOpen() const { return m_ok; }

    bool exec(const QString &sql)
    {
        QSqlQuery q(QSqlDatabase::database(m_name, false));
        if (q.exec(sql))
            return true;
        qWarning("%s: %s", qPrintable(sql), qPrintable(q.lastError().text()));
        return false;
    }

    QVariant scalar(const QString &sql)
    {
        QSqlQuery q(QSqlDatabase::database(m_name, false));
        if (!q.exec(sql) || !q.next()) {
            qWarning("%s: %s", qPrintable(sql), qPrintable(q.lastError().text()));
            return {};
        }
        return q.value(0);
    }

private:
    static int &counter()
    {
        static int n = 0;
        return n;
    }
    QString m_name;
    bool m_ok = false;
};

struct Snapshot
{
    QByteArray bytes;
    QDateTime modified;
    QStringList files; ///< the folder's content, to see sidecar files appear

    friend bool operator==(const Snapshot &, const Snapshot &) = default;
};

Snapshot snapshot(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return {file.readAll(), QFileInfo(path).lastModified().toUTC(),
            QFileInfo(path).dir().entryList(QDir::Files, QDir::Name)};
}

QByteArray fileHash(const QString &path)
{
    QFile file(path);
    QCryptographicHash hash(QCryptographicHash::Sha256);
    return file.open(QIODevice::ReadOnly) && hash.addData(&file) ? hash.result() : QByteArray();
}

bool setOldModificationTime(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadWrite | QIODevice::ExistingOnly) &&
           file.setFileTime(oldTime, QFileDevice::FileModificationTime);
}

bool writeFile(const QString &path, const QByteArray &bytes, qint64 offset = -1)
{
    QFile file(path);
    if (!file.open(offset < 0 ? QIODevice::WriteOnly : QIODevice::ReadWrite))
        return false;
    if (offset >= 0 && !file.seek(offset))
        return false;
    return file.write(bytes) == bytes.size();
}

/// A real workspace with some resources, events and a journal entry, closed (so checkpointed).
bool makeWorkspace(const QString &path, int resources = 50)
{
    StoreError error;
    auto ws = Workspace::open(path, &error);
    if (!ws)
        return false;
    QList<Resource> batch;
    for (int i = 0; i < resources; ++i)
        batch.append(makeResource(QStringLiteral("keep-%1").arg(i), s("before")));
    QList<Event> events;
    for (int i = 0; i < 100; ++i) {
        Event e;
        e.involved = batch.at(i % resources).key();
        e.reason = s("Created");
        e.message = QStringLiteral("event %1").arg(i);
        events.append(e);
    }
    return ws->apply(batch, nullptr, &error) && ws->recordEvents(events, &error) &&
           ws->beginIntent(batch.at(0).key(), s("create"), {}, &error) > 0;
}

// The layout of format version 1, frozen here as files in the wild have it.
const char *const version1Schema[] = {
    "CREATE TABLE workspace_meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID",
    "INSERT INTO workspace_meta (key, value) VALUES ('resource_version', 7)",
    "CREATE TABLE resources (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL,"
    " api_version TEXT NOT NULL, uid TEXT NOT NULL UNIQUE, generation INTEGER NOT NULL,"
    " resource_version INTEGER NOT NULL, labels TEXT NOT NULL, annotations TEXT NOT NULL,"
    " finalizers TEXT NOT NULL, spec TEXT NOT NULL, status TEXT NOT NULL,"
    " creation_time INTEGER NOT NULL, deletion_time INTEGER, UNIQUE (kind, name))",
    "CREATE TABLE condition_transitions (id INTEGER PRIMARY KEY, kind TEXT NOT NULL,"
    " name TEXT NOT NULL, type TEXT NOT NULL, status TEXT NOT NULL, severity TEXT NOT NULL,"
    " reason TEXT NOT NULL, message TEXT NOT NULL, observed_generation INTEGER NOT NULL,"
    " transition_time INTEGER NOT NULL)",
    "CREATE INDEX condition_transitions_resource ON condition_transitions (kind, name, id)",
    "CREATE TABLE reconcile_state (kind TEXT NOT NULL, name TEXT NOT NULL,"
    " attempts INTEGER NOT NULL, last_attempt INTEGER, next_attempt INTEGER,"
    " last_error TEXT NOT NULL, waiting_for TEXT NOT NULL, last_reconcile_id TEXT NOT NULL,"
    " PRIMARY KEY (kind, name)) WITHOUT ROWID",
    "CREATE TABLE event_objects (id INTEGER PRIMARY KEY, kind TEXT NOT NULL,"
    " name TEXT NOT NULL, UNIQUE (kind, name))",
    "INSERT INTO workspace_meta (key, value) VALUES ('event_id', 0)",
    "CREATE TABLE events (id INTEGER PRIMARY KEY, object INTEGER NOT NULL REFERENCES"
    " event_objects (id), type INTEGER NOT NULL, reason TEXT NOT NULL, message TEXT NOT NULL,"
    " phase TEXT NOT NULL, reconcile_id TEXT NOT NULL, request_id TEXT NOT NULL,"
    " count INTEGER NOT NULL, first_time INTEGER NOT NULL, last_time INTEGER NOT NULL,"
    " aggregation INTEGER NOT NULL)",
    "CREATE INDEX events_resource ON events (object, aggregation, last_time)",
    "CREATE TABLE journal (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL,"
    " name TEXT NOT NULL, operation TEXT NOT NULL, details TEXT NOT NULL,"
    " started_at INTEGER NOT NULL, finished_at INTEGER, outcome TEXT NOT NULL DEFAULT '')",
    "CREATE INDEX journal_unfinished ON journal (started_at) WHERE finished_at IS NULL",
    // Some content, as version 1 wrote it. 1714557600000 = 2024-05-01T10:00:00Z.
    "INSERT INTO resources VALUES (1, 'BlobContainer', 'invoices', 'azure.converge.dev/v1',"
    " 'c0ffee00-0000-4000-8000-000000000001', 3, 7, '{\"app\":\"web\"}', '{}',"
    " '[\"converge.dev/finalizer\"]', '{\"publicAccess\":\"None\"}',"
    " '{\"conditions\":[{\"observedGeneration\":3,\"reason\":\"Succeeded\",\"status\":\"True\","
    "\"type\":\"Ready\"}]}', 1714557600000, NULL)",
    "INSERT INTO event_objects VALUES (1, 'BlobContainer', 'invoices')",
    "INSERT INTO events VALUES (1, 1, 0, 'Created', 'created', 'createOrUpdate', 'rec-1',"
    " 'req-1', 2, 1714557600000, 1714557660000, 12345)",
    "INSERT INTO journal (kind, name, operation, details, started_at)"
    " VALUES ('BlobContainer', 'invoices', 'update', '{\"etag\":\"0x1\"}', 1714557600000)",
};

bool makeVersion1(const QString &path)
{
    RawDb db(path);
    if (!db.isOpen() || db.scalar(s("PRAGMA journal_mode = WAL")).toString() != s("wal") ||
        !db.exec(s("BEGIN")))
        return false;
    for (const char *sql : version1Schema) {
        if (!db.exec(QString::fromUtf8(sql)))
            return false;
    }
    return db.exec(
               QStringLiteral("PRAGMA application_id = %1").arg(WorkspaceSchema::applicationId)) &&
           db.exec(s("PRAGMA user_version = 1")) && db.exec(s("COMMIT"));
}

// --- Child processes (the test executable run again with an argument) -------------------------

int crashDuringApply(const QString &path)
{
    StoreError error;
    auto ws = Workspace::open(path, &error);
    if (!ws) {
        std::fprintf(stderr, "%s\n", qPrintable(error.message));
        return 2;
    }
    QList<Resource> batch;
    batch.append(makeResource(s("keep-0"), s("changed by the crashed apply")));
    for (int i = 1; i < crashBatchSize; ++i)
        batch.append(makeResource(QStringLiteral("new-%1").arg(i), s("new")));

    // Watches the WAL grow with uncommitted pages, then freezes the whole process there; the
    // parent sends SIGKILL on reading the line.
    std::atomic<bool> done{false};
    std::thread watcher([&] {
        const QString wal = path + s("-wal");
        while (!done) {
            if (QFileInfo(wal).size() > crashWalThreshold) {
                std::fputs("mid-transaction\n", stdout);
                std::fflush(stdout);
                std::raise(SIGSTOP);
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    });
    std::fputs("applying\n", stdout);
    std::fflush(stdout);
    const bool ok = ws->apply(batch, nullptr, &error);
    done = true;
    watcher.join();
    std::fputs(ok ? "applied\n" : "failed\n", stdout);
    return ok ? 0 : 1;
}

int applyOne(const QString &path, const QString &name)
{
    StoreError error;
    auto ws = Workspace::open(path, &error, Workspace::OpenMode::OpenExisting);
    if (!ws || !ws->apply({makeResource(name, s("from another process"))}, nullptr, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error.message));
        return 1;
    }
    return 0;
}

} // namespace

class tst_WorkspaceFiles final : public QObject
{
    Q_OBJECT

private:
    QString path(const char *name = "test.converge") const
    {
        return m_dir->filePath(QString::fromUtf8(name));
    }

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
    }

    void cleanup() { m_dir.reset(); }

    void createsWorkspace()
    {
        StoreError error;
        QVERIFY(Workspace::open(path(), &error));
        QVERIFY(!error.isError());
        RawDb db(path(), true);
        QVERIFY(db.isOpen());
        QCOMPARE(db.scalar(s("PRAGMA application_id")).toLongLong(),
                 qint64(WorkspaceSchema::applicationId));
        QCOMPARE(db.scalar(s("PRAGMA user_version")).toInt(), Workspace::schemaVersion());
        QCOMPARE(db.scalar(s("PRAGMA journal_mode")).toString(), s("wal"));
        QCOMPARE(Workspace::schemaVersion(), WorkspaceSchema::currentVersion());
    }

    void reopensWithoutWriting()
    {
        QVERIFY(makeWorkspace(path()));
        QVERIFY(setOldModificationTime(path()));
        const Snapshot before = snapshot(path());
        {
            StoreError error;
            auto ws = Workspace::open(path(), &error, Workspace::OpenMode::OpenExisting);
            QVERIFY2(ws, qPrintable(error.message));
            QCOMPARE(ws->count(), 50);
        }
        const Snapshot after = snapshot(path());
        QCOMPARE(after.bytes, before.bytes);
        QCOMPARE(after.modified, before.modified);
    }

    void openExistingNeedsAFile()
    {
        StoreError error;
        QVERIFY(!Workspace::open(path(), &error, Workspace::OpenMode::OpenExisting));
        QCOMPARE(error.code, StoreError::Code::NotFound);
        QVERIFY(error.message.contains(QDir::toNativeSeparators(path())));
        QVERIFY(!QFileInfo::exists(path()));

        QVERIFY(!Workspace::open(m_dir->filePath(s("missing/folder/x.converge")), &error));
        QCOMPARE(error.code, StoreError::Code::Io);
    }

    void emptyFile()
    {
        QVERIFY(writeFile(path(), {}));
        StoreError error;
        QVERIFY(!Workspace::open(path(), &error, Workspace::OpenMode::OpenExisting));
        QCOMPARE(error.code, StoreError::Code::NotAWorkspace);
        QCOMPARE(QFileInfo(path()).size(), 0);
        // Nothing to lose: creating a workspace in it is what the user asked for.
        QVERIFY2(Workspace::open(path(), &error), qPrintable(error.message));
        QVERIFY(Workspace::open(path(), &error, Workspace::OpenMode::OpenExisting));
    }

    void folderIsNotAWorkspace()
    {
        StoreError error;
        QVERIFY(!Workspace::open(m_dir->path(), &error));
        QCOMPARE(error.code, StoreError::Code::NotAWorkspace);
    }

    void refusesFile_data()
    {
        QTest::addColumn<QString>("make");
        QTest::addColumn<StoreError::Code>("code");
        QTest::addColumn<QString>("says");
        QTest::addColumn<bool>("noSidecars");

        using C = StoreError::Code;
        QTest::newRow("text file")
            << s("text") << C::NotAWorkspace << s("not an SQLite database") << true;
        QTest::newRow("SQLite file of another application")
            << s("foreign") << C::NotAWorkspace << s("another application") << true;
        QTest::newRow("SQLite file with another application id")
            << s("foreignId") << C::NotAWorkspace << s("0x12345678") << true;
        QTest::newRow("SQLite file with no tables, another id")
            << s("foreignEmpty") << C::NotAWorkspace << s("another application") << true;
        QTest::newRow("newer version")
            << s("newer") << C::NewerVersion << s("newer version") << false;
        QTest::newRow("garbage in the middle")
            << s("garbage") << C::Corrupt << s("damaged") << false;
        QTest::newRow("garbage in the schema page")
            << s("garbageSchema") << C::Corrupt << s("damaged") << false;
        QTest::newRow("truncated") << s("truncated") << C::Corrupt << s("damaged") << false;
    }

    void refusesFile()
    {
        QFETCH(QString, make);
        QFETCH(StoreError::Code, code);
        QFETCH(QString, says);
        QFETCH(bool, noSidecars);

        const QString file = path();
        if (make == QLatin1String("text")) {
            QVERIFY(writeFile(file, "apiVersion: azure.converge.dev/v1\nkind: BlobContainer\n"));
        } else if (make.startsWith(QLatin1String("foreign"))) {
            RawDb db(file);
            QVERIFY(db.isOpen());
            if (make == QLatin1String("foreignEmpty")) {
                QVERIFY(db.exec(s("PRAGMA application_id = 305419896")));
            } else {
                QVERIFY(db.exec(s("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")));
                QVERIFY(db.exec(s("INSERT INTO notes (text) VALUES ('keep me')")));
                if (make == QLatin1String("foreignId"))
                    QVERIFY(db.exec(s("PRAGMA application_id = 305419896"))); // 0x12345678
            }
        } else if (make == QLatin1String("newer")) {
            QVERIFY(makeWorkspace(file));
            RawDb db(file);
            QVERIFY(db.exec(s("PRAGMA user_version = 99")));
        } else {
            QVERIFY(makeWorkspace(file, 300));
            QVERIFY(!QFileInfo::exists(file + s("-wal"))); // all of it is in the main file
            const qint64 size = QFileInfo(file).size();
            const qint64 page = 4096;
            QVERIFY(size > 20 * page);
            if (make == QLatin1String("garbage")) {
                QVERIFY(writeFile(file, QByteArray(page, '\xa5'), (size / page / 2) * page));
            } else if (make == QLatin1String("garbageSchema")) {
                QVERIFY(writeFile(file, QByteArray(400, '\x5a'), 100));
            } else {
                QFile f(file);
                QVERIFY(f.resize((size / page / 2) * page));
            }
        }
        QVERIFY(setOldModificationTime(file));
        const Snapshot before = snapshot(file);
        QVERIFY(!before.bytes.isEmpty());

        for (const auto mode :
             {Workspace::OpenMode::OpenOrCreate, Workspace::OpenMode::OpenExisting}) {
            StoreError error;
            QVERIFY(!Workspace::open(file, &error, mode));
            QCOMPARE(error.code, code);
            QVERIFY2(error.message.contains(says), qPrintable(error.message));
            QVERIFY2(error.message.contains(QDir::toNativeSeparators(file)),
                     qPrintable(error.message));

            const Snapshot after = snapshot(file);
            QVERIFY(after.bytes == before.bytes);
            QCOMPARE(after.modified, before.modified);
            if (noSidecars)
                QCOMPARE(after.files, before.files);
        }
        // And a watcher, which opens read-only, does not touch it either.
        {
            WorkspaceWatcher watcher(file);
            Q_UNUSED(watcher.isValid());
        }
        QVERIFY(snapshot(file).bytes == before.bytes);
        QCOMPARE(snapshot(file).modified, before.modified);
    }

    void openAnotherTrustsTheFirstCheck()
    {
        QVERIFY(makeWorkspace(path(), 300));
        StoreError error;
        auto first = Workspace::open(path(), &error, Workspace::OpenMode::OpenExisting);
        QVERIFY2(first, qPrintable(error.message));
        auto second = first->openAnother(&error);
        QVERIFY2(second, qPrintable(error.message));
        QCOMPARE(second->count(), 300);
        QVERIFY(second->remove({s("BlobContainer"), s("keep-0")}, &error));
        QCOMPARE(first->count(), 299); // one file

        // The whole-file check ran when the first opened; a page damaged since is no reason
        // for a worker's connection to fail (the call that reads it says Corrupt), where a
        // new open() still refuses the file.
        second.reset();
        first.reset();
        QVERIFY(QFileInfo(path()).size() > 20 * 4096);
        first = Workspace::open(path(), &error);
        QVERIFY2(first, qPrintable(error.message));
        const qint64 middle = (QFileInfo(path()).size() / 4096 / 2) * 4096;
        QVERIFY(writeFile(path(), QByteArray(4096, '\xa5'), middle));
        QVERIFY2(first->openAnother(&error), qPrintable(error.message));
        QVERIFY(!Workspace::open(path(), &error));
        QCOMPARE(error.code, StoreError::Code::Corrupt);
    }

    void openAnotherRefusesWhatReplacedTheFile()
    {
        QVERIFY(makeWorkspace(path()));
        StoreError error;
        auto first = Workspace::open(path(), &error);
        QVERIFY2(first, qPrintable(error.message));

        const QString other = m_dir->filePath(s("other.db"));
        {
            RawDb db(other);
            QVERIFY(db.exec(s("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")));
        }
        QVERIFY(QFile::remove(path()));
        QVERIFY(!first->openAnother(&error));
        QCOMPARE(error.code, StoreError::Code::NotFound);
        QVERIFY(!QFileInfo::exists(path())); // not created empty

        QVERIFY(QFile::rename(other, path()));
        QVERIFY(!first->openAnother(&error));
        QCOMPARE(error.code, StoreError::Code::NotAWorkspace);
    }

    void largeWorkspaceStillChecked()
    {
        // Above 64 MB only the desired state and bookkeeping are checked on open; damage there is
        // still found before anything is written.
        {
            StoreError error;
            auto ws = Workspace::open(path(), &error);
            QVERIFY(ws);
            QList<Resource> big;
            for (int i = 0; i < 70; ++i) {
                Resource r = makeResource(QStringLiteral("big-%1").arg(i), s("x"));
                r.spec.insert(s("padding"), QString(1'000'000, QLatin1Char('p')));
                big.append(r);
            }
            QVERIFY2(ws->apply(big, nullptr, &error), qPrintable(error.message));
        }
        const qint64 size = QFileInfo(path()).size();
        QVERIFY(size > 64 * 1024 * 1024);
        QVERIFY(writeFile(path(), QByteArray(4096, '\xa5'), (size / 4096 / 2) * 4096));
        QVERIFY(setOldModificationTime(path()));
        const QByteArray before = fileHash(path());
        const QDateTime modified = QFileInfo(path()).lastModified();

        StoreError error;
        QVERIFY(!Workspace::open(path(), &error));
        QCOMPARE(error.code, StoreError::Code::Corrupt);
        QVERIFY2(error.message.contains(s("damaged")), qPrintable(error.message));
        QCOMPARE(fileHash(path()), before);
        QCOMPARE(QFileInfo(path()).lastModified(), modified);
    }

    void migratesVersion1()
    {
        QVERIFY(makeVersion1(path()));
        {
            // The stored event's hash as version 1 computed it: 64-bit FNV-1a of its key.
            Event stored;
            stored.involved = ResourceKey{s("BlobContainer"), s("invoices")};
            stored.type = Event::Type::Normal;
            stored.reason = s("Created");
            stored.message = s("created");
            quint64 fnv = 14695981039346656037ULL;
            for (const QChar c : stored.aggregationKey()) {
                fnv ^= c.unicode();
                fnv *= 1099511628211ULL;
            }
            RawDb db(path());
            QVERIFY(db.exec(s("UPDATE events SET aggregation = %1 WHERE id = 1")
                                .arg(static_cast<qint64>(fnv))));
            // A request ID that is a UUID, stored as text before version 6 packed new ones.
            QVERIFY(db.exec(s("INSERT INTO events VALUES (2, 1, 1, 'Throttled', 'slow down',"
                              " 'custom', 'rec-2', '0f8fad5b-d9cb-469f-a165-70867728950e', 1,"
                              " 1714557000000, 1714557000000, 1)")));
        }
        {
            RawDb db(path(), true);
            QCOMPARE(db.scalar(s("SELECT count(*) FROM sqlite_master WHERE name = 'events_time'"))
                         .toInt(),
                     0);
        }

        StoreError error;
        auto ws = Workspace::open(path(), &error, Workspace::OpenMode::OpenExisting);
        QVERIFY2(ws, qPrintable(error.message));

        const ResourceKey key{s("BlobContainer"), s("invoices")};
        const auto r = ws->get(key);
        QVERIFY(r);
        QCOMPARE(r->metadata.uid, s("c0ffee00-0000-4000-8000-000000000001"));
        QCOMPARE(r->metadata.generation, 3);
        QCOMPARE(r->metadata.resourceVersion, 7);
        QCOMPARE(r->metadata.labels.value(s("app")), s("web"));
        QCOMPARE(r->metadata.finalizers, QStringList{s("converge.dev/finalizer")});
        QCOMPARE(r->spec.value(s("publicAccess")).toString(), s("None"));
        QVERIFY(r->status.ready().isReady());
        QCOMPARE(r->metadata.creationTimestamp,
                 QDateTime(QDate(2024, 5, 1), QTime(10, 0), Qt::UTC));

        // The index added by version 2 serves the time query.
        const QList<Event> events = ws->events(queryWith(
            [&](EventQuery &q) { q.since = QDateTime(QDate(2024, 5, 1), QTime(10, 1), Qt::UTC); }));
        QCOMPARE(events.size(), 1);
        QCOMPARE(events.at(0).count, 2);
        QCOMPARE(events.at(0).firstTime, QDateTime(QDate(2024, 5, 1), QTime(10, 0), Qt::UTC));
        QCOMPARE(events.at(0).lastTime, QDateTime(QDate(2024, 5, 1), QTime(10, 1), Qt::UTC));
        QCOMPARE(events.at(0).phase, s("createOrUpdate"));
        QCOMPARE(events.at(0).reconcileId, s("rec-1"));
        QCOMPARE(events.at(0).requestId, s("req-1"));
        {
            const QList<Event> all = ws->events({});
            QCOMPARE(all.size(), 2);
            const Event &older = all.at(1);
            QCOMPARE(older.type, Event::Type::Warning);
            QCOMPARE(older.reason, s("Throttled"));
            QCOMPARE(older.phase, s("custom"));
            QCOMPARE(older.requestId, s("0f8fad5b-d9cb-469f-a165-70867728950e"));
            QCOMPARE(older.firstTime, older.lastTime);
        }
        QCOMPARE(ws->unfinishedIntents().size(), 1);
        QCOMPARE(ws->unfinishedIntents().at(0).details.value(s("etag")).toString(), s("0x1"));

        // A repeat of the version 1 event still aggregates: the upgrade cut the stored 64-bit
        // hash as the hash is cut now.
        {
            Event repeat = events.at(0);
            repeat.id = 0;
            repeat.count = 1;
            repeat.firstTime = repeat.lastTime = repeat.lastTime.addSecs(60);
            QList<Event> batch{repeat};
            QVERIFY2(ws->recordEvents(batch, &error), qPrintable(error.message));
            QCOMPARE(batch.at(0).id, 1);
            QCOMPARE(batch.at(0).count, 3);
            QCOMPARE(batch.at(0).firstTime, QDateTime(QDate(2024, 5, 1), QTime(10, 0), Qt::UTC));
            QCOMPARE(ws->eventCount(), 2);
        }

        // The version 1 counter goes on.
        QList<ApplyOutcome> outcomes;
        QVERIFY(ws->apply({makeResource(s("receipts"), s("v2"))}, &outcomes, &error));
        QCOMPARE(outcomes.at(0).resourceVersion, 8);
        {
            Event fresh = events.at(0);
            fresh.id = 0;
            fresh.message = s("created again");
            fresh.requestId = s("0f8fad5b-d9cb-469f-a165-70867728950e");
            QList<Event> batch{fresh};
            QVERIFY2(ws->recordEvents(batch, &error), qPrintable(error.message));
            QCOMPARE(batch.at(0).id, 3);
        }
        ws.reset();

        RawDb db(path(), true);
        QCOMPARE(db.scalar(s("PRAGMA user_version")).toInt(), WorkspaceSchema::currentVersion());
        QCOMPARE(
            db.scalar(s("SELECT count(*) FROM sqlite_master WHERE name = 'events_time'")).toInt(),
            1);
        QCOMPARE(db.scalar(s("SELECT count(*) FROM pragma_table_info('discovered')"
                             " WHERE name = 'first_seen_at'"))
                     .toInt(),
                 1);
        // Version 5: the first time as a span back from the last, a known phase as its code.
        QCOMPARE(db.scalar(s("SELECT span FROM events WHERE id = 1")).toLongLong(), 120000);
        QCOMPARE(db.scalar(s("SELECT typeof(phase) FROM events WHERE id = 1")).toString(),
                 s("integer"));
        QCOMPARE(db.scalar(s("SELECT length(request_id) FROM events WHERE id = 3"
                             " AND typeof(request_id) = 'blob'"))
                     .toInt(),
                 16);
        QCOMPARE(db.scalar(s("SELECT count(*) FROM sqlite_master WHERE name IN"
                             " ('events_aggregation', 'events_time')"))
                     .toInt(),
                 2);
        QCOMPARE(db.scalar(s("PRAGMA integrity_check")).toString(), s("ok"));
    }

    void failedMigrationChangesNothing()
    {
        QVERIFY(makeVersion1(path()));
        {
            // Something in the way of version 2's index.
            RawDb db(path());
            QVERIFY(db.exec(s("CREATE TABLE events_time (x)")));
        }
        QVERIFY(setOldModificationTime(path()));
        const Snapshot before = snapshot(path());

        StoreError error;
        QVERIFY(!Workspace::open(path(), &error));
        QCOMPARE(error.code, StoreError::Code::Io);
        QVERIFY2(error.message.contains(s("cannot upgrade")), qPrintable(error.message));
        QVERIFY(snapshot(path()).bytes == before.bytes);
        RawDb db(path(), true);
        QCOMPARE(db.scalar(s("PRAGMA user_version")).toInt(), 1);
    }

    void crashDuringApplyKeepsPreviousState()
    {
        QVERIFY(makeWorkspace(path(), 10));
        QList<Resource> previous;
        qint64 previousEvents = 0;
        {
            auto ws = Workspace::open(path(), nullptr);
            QVERIFY(ws);
            previous = ws->list();
            previousEvents = ws->eventCount();
        }
        QCOMPARE(previous.size(), 10);

        QProcess child;
        child.setProcessChannelMode(QProcess::SeparateChannels);
        child.start(QCoreApplication::applicationFilePath(), {s("--crash-apply"), path()});
        QVERIFY(child.waitForStarted());
        QByteArray out;
        while (!out.contains("mid-transaction") && child.waitForReadyRead(60'000))
            out += child.readAllStandardOutput();
        QVERIFY2(out.contains("mid-transaction"),
                 qPrintable(QString::fromUtf8(out + child.readAllStandardError())));
        child.kill(); // SIGKILL
        QVERIFY(child.waitForFinished(30'000));
        out += child.readAllStandardOutput();
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        QVERIFY(!out.contains("applied"));
        // Half a transaction really was on disk when the process died.
        QVERIFY(QFileInfo(path() + s("-wal")).size() > crashWalThreshold);

        {
            RawDb db(path());
            QVERIFY(db.isOpen());
            QCOMPARE(db.scalar(s("PRAGMA integrity_check")).toString(), s("ok"));
        }
        StoreError error;
        auto ws = Workspace::open(path(), &error, Workspace::OpenMode::OpenExisting);
        QVERIFY2(ws, qPrintable(error.message));
        QCOMPARE(ws->count(), 10);
        QCOMPARE(ws->list(), previous);
        QCOMPARE(ws->eventCount(), previousEvents);
        QCOMPARE(ws->get({s("BlobContainer"), s("keep-0")})->spec.value(s("value")).toString(),
                 s("before"));
        // And it is writable again.
        QVERIFY(ws->apply({makeResource(s("after-crash"), s("ok"))}, nullptr, &error));
    }

    void anotherProcessSeesChanges()
    {
        StoreError error;
        auto ws = Workspace::open(path(), &error);
        QVERIFY(ws);
        WorkspaceWatcher watcher(path());
        QVERIFY2(watcher.isValid(), qPrintable(watcher.errorString()));
        QSignalSpy changed{&watcher, &WorkspaceWatcher::changed};
        QVERIFY(changed.isValid());
        const qint64 version = ws->dataVersion();

        QProcess child;
        child.start(QCoreApplication::applicationFilePath(),
                    {s("--apply-one"), path(), s("from-child")});
        QVERIFY(child.waitForFinished(60'000));
        QVERIFY2(child.exitCode() == 0, child.readAllStandardError().constData());

        QVERIFY(ws->dataVersion() != version);
        QVERIFY(ws->get({s("BlobContainer"), s("from-child")}));
        QTRY_VERIFY_WITH_TIMEOUT(changed.count() >= 1, 2000);
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() == 3 && args.at(1) == QLatin1String("--crash-apply"))
        return crashDuringApply(args.at(2));
    if (args.size() == 4 && args.at(1) == QLatin1String("--apply-one"))
        return applyOne(args.at(2), args.at(3));
    tst_WorkspaceFiles test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_workspacefiles.moc"

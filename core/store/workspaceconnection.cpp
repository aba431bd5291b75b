// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "workspaceconnection.h"

#include "storesql.h"
#include "syncscope.h"
#include "workspaceschema.h"

#include <QFile>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>

#include <atomic>

#include <sys/stat.h>

namespace converge {

using namespace StoreSql;

namespace {

constexpr qint64 fullCheckBytes = 64 * 1024 * 1024;

QString nextConnectionName(QLatin1String purpose)
{
    static std::atomic<quint64> counter{0};
    return QStringLiteral("converge.workspace.%1.%2").arg(purpose).arg(++counter);
}

/// What a file's header says it is.
struct Identity
{
    qint64 applicationId = 0;
    int userVersion = 0;
    int schemaObjects = 0;

    bool isBlank() const { return applicationId == 0 && userVersion == 0 && schemaObjects == 0; }
};

bool readIdentity(const QSqlDatabase &db, const QString &path, Identity *identity,
                  StoreError *error)
{
    // One statement, so one snapshot: read one by one, a file that another process was
    // creating could show no application id yet but its tables already ("another
    // application's database", seen by tst_cli under load).
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT (SELECT application_id FROM pragma_application_id()),"
                               " (SELECT user_version FROM pragma_user_version()),"
                               " (SELECT count(*) FROM sqlite_master)")) ||
        !q.next())
        return failSql(error, q, QStringLiteral("cannot read %1").arg(shown(path)));
    // application_id is a signed 32-bit field in SQLite; compare it as the unsigned number.
    identity->applicationId = static_cast<quint32>(q.value(0).toLongLong());
    identity->userVersion = static_cast<int>(q.value(1).toLongLong());
    identity->schemaObjects = static_cast<int>(q.value(2).toLongLong());
    return true;
}

/// Decides from the header alone whether the file may be opened. `blank` is set for an SQLite
/// file that holds nothing yet (a 0-byte file, or a creation that died before its first commit).
bool acceptIdentity(const Identity &id, const QString &path, Workspace::OpenMode mode, bool *blank,
                    StoreError *error)
{
    *blank = false;
    if (id.isBlank()) {
        if (mode == Workspace::OpenMode::OpenExisting)
            return fail(error, StoreError::Code::NotAWorkspace,
                        QStringLiteral("%1 is not a Converge workspace (an empty database)")
                            .arg(shown(path)));
        *blank = true;
        return true;
    }
    if (id.applicationId != WorkspaceSchema::applicationId) {
        const QString which =
            id.applicationId == 0
                ? QStringLiteral("an SQLite database of another application")
                : QStringLiteral("an SQLite database of another application, id 0x%1")
                      .arg(id.applicationId, 8, 16, QLatin1Char('0'));
        return fail(error, StoreError::Code::NotAWorkspace,
                    QStringLiteral("%1 is not a Converge workspace (%2); it was not changed")
                        .arg(shown(path), which));
    }
    if (id.userVersion > WorkspaceSchema::currentVersion())
        return fail(error, StoreError::Code::NewerVersion,
                    QStringLiteral("%1 was written by a newer version of Converge (workspace "
                                   "format %2; this version reads up to %3); it was not changed")
                        .arg(shown(path))
                        .arg(id.userVersion)
                        .arg(WorkspaceSchema::currentVersion()));
    if (id.userVersion < 1)
        return fail(error, StoreError::Code::Corrupt,
                    QStringLiteral("%1 is damaged (a workspace without a format version); it was "
                                   "not changed")
                        .arg(shown(path)));
    return true;
}

/// A connection that is removed when it goes out of scope.
class ScopedConnection final
{
public:
    ScopedConnection(const QString &path, const QString &options)
        : m_name(nextConnectionName(QLatin1String("inspect")))
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
        db.setDatabaseName(path);
        db.setConnectOptions(options);
    }
    ~ScopedConnection()
    {
        {
            QSqlDatabase db = QSqlDatabase::database(m_name, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(m_name);
    }
    Q_DISABLE_COPY_MOVE(ScopedConnection)

    QSqlDatabase db() const { return QSqlDatabase::database(m_name, false); }

private:
    QString m_name;
};

/// SQLite would fail with "unable to open database file" on a file it cannot write: it writes
/// the file and, in WAL mode, its -wal and -shm files beside it (also to read). access() is
/// asked, so a read-only disk counts for root too.
bool checkWritable(const QString &path, StoreError *error)
{
    const QFileInfo file(path);
    if (file.exists() && (!file.isWritable() || !QFileInfo(file.absolutePath()).isWritable()))
        return fail(error, StoreError::Code::Io,
                    QStringLiteral("%1 is read-only (the file, its folder or its disk): Converge "
                                   "writes to it and beside it (its -wal and -shm files); what "
                                   "is stored in it is kept; make it writable and open it again")
                        .arg(shown(path)));
    return true;
}

/// Looks at an existing file without changing a byte of it: the header first, then SQLite on a
/// read-only connection (setting journal_mode=WAL on a foreign file would rewrite its header).
bool inspect(const QString &path, Workspace::OpenMode mode, bool *blank, StoreError *error)
{
    *blank = false;
    const QFileInfo info(path);
    if (info.isDir())
        return fail(error, StoreError::Code::NotAWorkspace,
                    QStringLiteral("%1 is a folder, not a Converge workspace").arg(shown(path)));
    if (!info.isReadable())
        return fail(error, StoreError::Code::Io, QStringLiteral("cannot read %1").arg(shown(path)));
    if (info.size() == 0)
        return acceptIdentity({}, path, mode, blank, error);
    // No QFile on the database here: closing any descriptor of a file drops every POSIX lock
    // this process holds on it, SQLite's included, and another process would then delete the
    // WAL under our live connections. SQLite itself says "not a database" for foreign files.

    const ScopedConnection connection(
        path, QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=%1").arg(busyTimeoutMs));
    QSqlDatabase db = connection.db();
    if (!db.open())
        return fail(
            error, StoreError::Code::Io,
            QStringLiteral("cannot open %1: %2").arg(shown(path), db.lastError().databaseText()));
    Identity id;
    if (!readIdentity(db, path, &id, error)) {
        if (error && error->message.contains(QLatin1String("not a database"))) {
            return fail(error, StoreError::Code::NotAWorkspace,
                        QStringLiteral("%1 is not a Converge workspace (not an SQLite database); "
                                       "it was not changed")
                            .arg(shown(path)));
        }
        if (error && error->code == StoreError::Code::Corrupt)
            error->message = QStringLiteral("%1 is damaged and cannot be read; it was not changed")
                                 .arg(shown(path));
        return false;
    }
    if (!acceptIdentity(id, path, mode, blank, error))
        return false;
    if (*blank)
        return true;

    // Damage found now is a clear message before anything is written, instead of a failure
    // half-way through some later call. quick_check reads every page, which for a workspace
    // holding a million events is most of a second (far more from a cold disk); above
    // fullCheckBytes only the desired state and bookkeeping are checked, and damage among the
    // events shows up as Corrupt from the event calls.
    QStringList targets{QString()};
    if (info.size() > fullCheckBytes) {
        targets.clear();
        QSqlQuery tables(db);
        if (!tables.exec(QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'table'"
                                        " AND name <> 'events'")))
            return fail(error, StoreError::Code::Corrupt,
                        QStringLiteral("%1 is damaged (%2); it was not changed")
                            .arg(shown(path), tables.lastError().databaseText()));
        while (tables.next())
            targets.append(tables.value(0).toString());
    }
    for (const QString &table : std::as_const(targets)) {
        QSqlQuery check(db);
        const QString sql = table.isEmpty()
                                ? QStringLiteral("PRAGMA quick_check")
                                : QStringLiteral("PRAGMA quick_check(\"%1\")").arg(table);
        if (!check.exec(sql)) {
            return fail(error, StoreError::Code::Corrupt,
                        QStringLiteral("%1 is damaged (%2); it was not changed")
                            .arg(shown(path), check.lastError().databaseText()));
        }
        QStringList problems;
        while (check.next() && problems.size() < 3) {
            problems.append(check.value(0)
                                .toString()
                                .remove(QStringLiteral("*** in database main ***"))
                                .simplified());
        }
        if (problems != QStringList{QStringLiteral("ok")}) {
            return fail(error, StoreError::Code::Corrupt,
                        QStringLiteral("%1 is damaged (%2); it was not changed")
                            .arg(shown(path), problems.join(QStringLiteral("; "))));
        }
    }
    return true;
}

} // namespace

WorkspaceConnection::WorkspaceConnection(const QString &path)
    : m_path(path)
    , m_name(nextConnectionName(QLatin1String("rw")))
{}

WorkspaceConnection::~WorkspaceConnection()
{
    m_statements.clear();
    m_transactions = {};
    m_db.close();
    m_db = {};
    // Only once no QSqlDatabase handle refers to the connection any more.
    QSqlDatabase::removeDatabase(m_name);
}

std::unique_ptr<WorkspaceConnection>
WorkspaceConnection::open(const QString &path, Workspace::OpenMode mode, StoreError *error)
{
    StoreError local;
    StoreError *err = error ? error : &local;
    *err = {};

    bool blank = false;
    if (!QFileInfo::exists(path)) {
        if (mode == Workspace::OpenMode::OpenExisting) {
            fail(err, StoreError::Code::NotFound,
                 QStringLiteral("%1 does not exist").arg(shown(path)));
            return nullptr;
        }
        if (!QFileInfo(path).absoluteDir().exists()) {
            fail(err, StoreError::Code::Io,
                 QStringLiteral("cannot create %1: the folder does not exist").arg(shown(path)));
            return nullptr;
        }
        blank = true;
    } else if (!checkWritable(path, err) || !inspect(path, mode, &blank, err)) {
        return nullptr;
    }

    std::unique_ptr<WorkspaceConnection> connection(new WorkspaceConnection(path));
    if (!connection->open(blank, mode, err))
        return nullptr;
    return connection;
}

std::unique_ptr<WorkspaceConnection> WorkspaceConnection::openAnother(StoreError *error) const
{
    StoreError local;
    StoreError *err = error ? error : &local;
    *err = {};
    if (!QFileInfo::exists(m_path)) { // SQLite would create an empty file
        fail(err, StoreError::Code::NotFound,
             QStringLiteral("%1 does not exist any more").arg(shown(m_path)));
        return nullptr;
    }
    // Its identity is read again (a cheap header read): the file may have been replaced since.
    std::unique_ptr<WorkspaceConnection> connection(new WorkspaceConnection(m_path));
    if (!connection->open(false, Workspace::OpenMode::OpenExisting, err))
        return nullptr;
    return connection;
}

bool WorkspaceConnection::open(bool blank, Workspace::OpenMode mode, StoreError *error)
{
    if (!checkWritable(m_path, error))
        return false;
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
    m_db.setDatabaseName(m_path);
    m_db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(busyTimeoutMs));
    if (!m_db.open())
        return fail(error, StoreError::Code::Io,
                    QStringLiteral("cannot open %1: %2")
                        .arg(shown(m_path), m_db.lastError().databaseText()));

    struct stat opened;
    if (::stat(QFile::encodeName(m_path).constData(), &opened) == 0) {
        m_device = opened.st_dev;
        m_inode = opened.st_ino;
    }

    // The file may have changed between the read-only look and now; still nothing is written
    // before it is known to be ours.
    Identity id;
    if (!readIdentity(m_db, m_path, &id, error) || !acceptIdentity(id, m_path, mode, &blank, error))
        return false;

    QSqlQuery pragma(m_db);
    if (!pragma.exec(QStringLiteral("PRAGMA journal_mode")) || !pragma.next())
        return failSql(error, pragma, QStringLiteral("cannot read %1").arg(shown(m_path)));
    if (pragma.value(0).toString() != QLatin1String("wal")) {
        pragma.finish();
        if (!pragma.exec(QStringLiteral("PRAGMA journal_mode = WAL")) || !pragma.next() ||
            pragma.value(0).toString() != QLatin1String("wal"))
            return fail(error, StoreError::Code::Io,
                        QStringLiteral("cannot use write-ahead logging for %1 (is it on a network "
                                       "file system?)")
                            .arg(shown(m_path)));
    }
    pragma.finish();
    // Checkpoints copy the WAL into the file and sync both. At SQLite's default (every 1,000
    // pages) a batch of events that touches many index pages paid one per commit; every 10,000
    // pages (40 MB) lets repeated page writes coalesce. journal_size_limit caps the WAL left on
    // disk afterwards.
    for (const char *sql : {"PRAGMA synchronous = FULL", "PRAGMA wal_autocheckpoint = 10000",
                            "PRAGMA journal_size_limit = 67108864"}) {
        if (!pragma.exec(QString::fromLatin1(sql)))
            return failSql(error, pragma, QStringLiteral("cannot configure %1").arg(shown(m_path)));
        pragma.finish();
    }

    if (!blank && id.userVersion == WorkspaceSchema::currentVersion())
        return true;

    WriteTransaction tx(m_db);
    if (!tx.begin(error))
        return false;
    // Another process may have created or migrated the file while this one waited for the lock.
    if (!readIdentity(m_db, m_path, &id, error) || !acceptIdentity(id, m_path, mode, &blank, error))
        return false;
    if (!blank && id.userVersion == WorkspaceSchema::currentVersion())
        return tx.commit(error);
    QString why;
    if (!WorkspaceSchema::upgrade(m_db, blank ? 0 : id.userVersion, &why))
        return fail(error, StoreError::Code::Io,
                    QStringLiteral("cannot %1 %2: %3")
                        .arg(blank ? QStringLiteral("create") : QStringLiteral("upgrade"),
                             shown(m_path), why));
    return tx.commit(error);
}

QSqlQuery *WorkspaceConnection::statement(const QString &sql, StoreError *error) const
{
    if (const auto it = m_statements.constFind(sql); it != m_statements.cend())
        return it->get();
    auto q = std::make_shared<QSqlQuery>(m_db);
    q->setForwardOnly(true);
    if (!q->prepare(sql)) {
        failSql(error, *q, QStringLiteral("cannot prepare a statement"));
        return nullptr;
    }
    m_statements.insert(sql, q);
    return q.get();
}

void WorkspaceConnection::setRelaxedDurability(bool on)
{
    m_relaxed = on;
    SyncScope::set(m_db, on);
}

bool WorkspaceConnection::checkFile(StoreError *error) const
{
    if (m_inode == 0)
        return true; // not known at open: nothing to compare with
    struct stat now;
    if (::stat(QFile::encodeName(m_path).constData(), &now) != 0)
        return fail(error, StoreError::Code::Io,
                    QStringLiteral("the workspace file %1 was deleted or moved while it was open: "
                                   "nothing more is written until it is back; what was stored is "
                                   "in the file that was moved (put it back, or open it where it "
                                   "is now)")
                        .arg(shown(m_path)));
    if (quint64(now.st_dev) != m_device || quint64(now.st_ino) != m_inode)
        return fail(error, StoreError::Code::Io,
                    QStringLiteral("the workspace file %1 was replaced by another file while it "
                                   "was open: nothing is written to either; open the workspace "
                                   "again to use the new file")
                        .arg(shown(m_path)));
    return true;
}

qint64 WorkspaceConnection::dataVersion() const
{
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("PRAGMA data_version")) || !q.next()) {
        logSql(q, "dataVersion");
        return 0;
    }
    return q.value(0).toLongLong();
}

} // namespace converge

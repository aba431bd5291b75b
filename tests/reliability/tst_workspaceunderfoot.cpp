// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The workspace file changed under an open connection (as under the window's or a controller's):
// moved away, deleted, replaced, locked by another program, on a full disk, made read-only.
// Each gives a clear StoreError, keeps what was stored, never crashes, and writes resume once
// the cause is gone.
//
// A full disk is a 1 MiB tmpfs, mounted when the test may (root), else skipped; a write the
// kernel refuses for any user is simulated with RLIMIT_FSIZE (EFBIG, which SQLite reports as a
// disk I/O error, not SQLITE_FULL).
#include "workspace.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/resource.h>
#include <unistd.h>

using namespace converge;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

Resource container(const QString &name, int padding = 10)
{
    Resource r;
    r.apiVersion = s("azure.converge.dev/v1");
    r.kind = s("BlobContainer");
    r.metadata.name = name;
    r.spec = {{s("owner"), QJsonObject{{s("name"), s("devstore")}}},
              {s("padding"), QString(padding, QLatin1Char('x'))}};
    return r;
}

QStringList names(const QList<Resource> &resources)
{
    QStringList list;
    for (const Resource &r : resources)
        list << r.metadata.name;
    return list;
}

} // namespace

class tst_WorkspaceUnderfoot final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Workspace> m_ws;

    QString path() const { return m_dir->filePath(s("underfoot.converge")); }

    bool apply(const Resource &r, StoreError *error)
    {
        QList<ApplyOutcome> outcomes;
        return m_ws->apply({r}, &outcomes, error);
    }

    /// Moves the workspace and its WAL and shared-memory files (as a file manager moves what
    /// the person sees, the others go with it only if they are moved too; a move of all three
    /// keeps the data together).
    static bool moveAll(const QString &from, const QString &to)
    {
        for (const char *suffix : {"", "-wal", "-shm"}) {
            const QString a = from + QLatin1String(suffix);
            if (QFile::exists(a) && !QFile::rename(a, to + QLatin1String(suffix)))
                return false;
        }
        return true;
    }

    /// A workspace on a tmpfs remounted read-only, then read-write again.
    void readOnlyDisk()
    {
        const QString mountPoint = m_dir->filePath(s("ro-disk"));
        QVERIFY(QDir().mkpath(mountPoint));
        if (QProcess::execute(s("mount"), {s("-t"), s("tmpfs"), s("-o"), s("size=4m"), s("tmpfs"),
                                           mountPoint}) != 0)
            QSKIP("cannot mount a tmpfs here");
        auto unmount = qScopeGuard([&] { QProcess::execute(s("umount"), {mountPoint}); });
        const QString file = mountPoint + s("/ro.converge");
        StoreError error;
        QList<ApplyOutcome> outcomes;
        {
            auto ws = Workspace::open(file, &error);
            QVERIFY2(ws, qPrintable(error.message));
            QVERIFY(ws->apply({container(s("kept"))}, &outcomes, &error));
        }
        auto remount = [&](const char *mode) {
            return QProcess::execute(s("mount"), {s("-o"), s("remount,") + s(mode), mountPoint});
        };
        QCOMPARE(remount("ro"), 0);
        {
            auto ws = Workspace::open(file, &error);
            if (ws) {
                QCOMPARE(names(ws->list()), QStringList{s("kept")});
                QVERIFY(!ws->apply({container(s("lost"))}, &outcomes, &error));
            }
            QVERIFY2(error.message.contains(s("read-only")), qPrintable(error.message));
        }
        QCOMPARE(remount("rw"), 0);
        auto ws = Workspace::open(file, &error);
        QVERIFY2(ws, qPrintable(error.message));
        QVERIFY2(ws->apply({container(s("after"))}, &outcomes, &error), qPrintable(error.message));
        QCOMPARE(names(ws->list()), (QStringList{s("after"), s("kept")}));
    }

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        StoreError error;
        m_ws = Workspace::open(path(), &error);
        QVERIFY2(m_ws, qPrintable(error.message));
        QVERIFY2(apply(container(s("kept")), &error), qPrintable(error.message));
    }

    void cleanup()
    {
        m_ws.reset();
        m_dir.reset();
    }

    void movedAwayThenBack()
    {
        const QString away = m_dir->filePath(s("elsewhere.converge"));
        QVERIFY(moveAll(path(), away));
        StoreError error;
        QVERIFY(!apply(container(s("lost")), &error));
        QCOMPARE(error.code, StoreError::Code::Io);
        QVERIFY2(error.message.contains(s("was deleted or moved while it was open")),
                 qPrintable(error.message));
        QVERIFY(error.message.contains(path()));
        QVERIFY(!QFile::exists(path())); // SQLite did not make a new, empty one
        // What was stored is still there to read.
        QCOMPARE(names(m_ws->list({}, &error)), QStringList{s("kept")});

        QVERIFY(moveAll(away, path()));
        QVERIFY2(apply(container(s("after")), &error), qPrintable(error.message));
        QCOMPARE(names(m_ws->list()), (QStringList{s("after"), s("kept")}));
    }

    void deleted()
    {
        QVERIFY(QFile::remove(path()));
        StoreError error;
        QVERIFY(!apply(container(s("lost")), &error));
        QVERIFY2(error.message.contains(s("was deleted or moved")), qPrintable(error.message));
        QVERIFY(!m_ws->updateStatus(ResourceKey{s("BlobContainer"), s("kept")}, {}, &error));
        QVERIFY(error.message.contains(s("was deleted or moved")));
        QVERIFY(!QFile::exists(path()));
        QCOMPARE(names(m_ws->list()), QStringList{s("kept")}); // the open file still reads
    }

    void replaced()
    {
        QVERIFY(moveAll(path(), m_dir->filePath(s("old.converge"))));
        StoreError error;
        {
            auto other = Workspace::open(path(), &error);
            QVERIFY2(other, qPrintable(error.message));
        }
        QVERIFY(!apply(container(s("lost")), &error));
        QVERIFY2(error.message.contains(s("was replaced by another file")),
                 qPrintable(error.message));
        // Neither file got the write.
        auto fresh = Workspace::open(path(), &error);
        QVERIFY(fresh);
        QVERIFY(fresh->list().isEmpty());
        QCOMPARE(names(m_ws->list()), QStringList{s("kept")});
    }

    void lockedByAnotherProgram()
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(s("QSQLITE"), s("locker"));
        db.setDatabaseName(path());
        QVERIFY(db.open());
        {
            QSqlQuery q(db);
            QVERIFY(q.exec(s("BEGIN EXCLUSIVE")));
        }
        StoreError error;
        QVERIFY(!apply(container(s("waiting")), &error));
        QCOMPARE(error.code, StoreError::Code::Io);
        QVERIFY2(error.message.contains(s("locked by another writer")), qPrintable(error.message));
        error = {};
        QCOMPARE(names(m_ws->list({}, &error)), QStringList{s("kept")}); // WAL readers go on
        QVERIFY(!error.isError());
        {
            QSqlQuery q(db);
            QVERIFY(q.exec(s("COMMIT")));
        }
        db.close();
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(s("locker"));
        QVERIFY2(apply(container(s("waiting")), &error), qPrintable(error.message));
        QCOMPARE(names(m_ws->list()), (QStringList{s("kept"), s("waiting")}));
    }

    void writeFailsPastAFileSizeLimit()
    {
        // A write the kernel refuses (EFBIG past RLIMIT_FSIZE; SQLite says "disk I/O error").
        const QString wal = path() + s("-wal");
        const qint64 limit = qMax(QFile(path()).size(), QFile(wal).size()) + 64 * 1024;
        struct rlimit previous;
        QVERIFY(getrlimit(RLIMIT_FSIZE, &previous) == 0);
        auto oldHandler = std::signal(SIGXFSZ, SIG_IGN); // EFBIG instead of a signal
        struct rlimit small = previous;
        small.rlim_cur = rlim_t(limit);
        QVERIFY(setrlimit(RLIMIT_FSIZE, &small) == 0);

        StoreError error;
        const bool stored = apply(container(s("big"), 512 * 1024), &error);
        setrlimit(RLIMIT_FSIZE, &previous);
        std::signal(SIGXFSZ, oldHandler);
        QVERIFY(!stored);
        QCOMPARE(error.code, StoreError::Code::Io);
        QVERIFY2(error.message.contains(s("cannot be read or written")), qPrintable(error.message));
        error = {};
        QCOMPARE(names(m_ws->list({}, &error)), QStringList{s("kept")});
        QVERIFY(!error.isError());

        // The limit gone, the same connection writes.
        QVERIFY2(apply(container(s("big"), 512 * 1024), &error), qPrintable(error.message));
        QCOMPARE(names(m_ws->list()), (QStringList{s("big"), s("kept")}));
    }

    void diskFull()
    {
        // A real full disk: a 1 MiB tmpfs, which only root may mount.
        const QString mountPoint = m_dir->filePath(s("small-disk"));
        QVERIFY(QDir().mkpath(mountPoint));
        if (QProcess::execute(s("mount"), {s("-t"), s("tmpfs"), s("-o"), s("size=1m"), s("tmpfs"),
                                           mountPoint}) != 0)
            QSKIP("cannot mount a tmpfs here (needs root)");
        auto unmount = qScopeGuard([&] { QProcess::execute(s("umount"), {mountPoint}); });
        StoreError error;
        {
            auto ws = Workspace::open(mountPoint + s("/full.converge"), &error);
            QVERIFY2(ws, qPrintable(error.message));
            QList<ApplyOutcome> outcomes;
            QVERIFY2(ws->apply({container(s("kept"))}, &outcomes, &error),
                     qPrintable(error.message));
            // Fill what is left but a little.
            QFile filler(mountPoint + s("/filler"));
            QVERIFY(filler.open(QIODevice::WriteOnly));
            const QByteArray block(4096, 'f');
            while (filler.write(block) == block.size() && filler.flush()) {
            }
            filler.close();
            QVERIFY(!ws->apply({container(s("big"), 256 * 1024)}, &outcomes, &error));
            QCOMPARE(error.code, StoreError::Code::Io);
            QVERIFY2(error.message.contains(s("the disk is full")), qPrintable(error.message));
            error = {};
            QCOMPARE(names(ws->list({}, &error)), QStringList{s("kept")});
            QVERIFY(!error.isError());

            QVERIFY(QFile::remove(filler.fileName()));
            QVERIFY2(ws->apply({container(s("big"), 256 * 1024)}, &outcomes, &error),
                     qPrintable(error.message));
            QCOMPARE(names(ws->list()), (QStringList{s("big"), s("kept")}));
        }
    }

    void madeReadOnly()
    {
        m_ws.reset();
        QVERIFY(QFile::setPermissions(path(), QFile::ReadOwner | QFile::ReadGroup));
        if (QFile(path()).open(QIODevice::ReadWrite)) {
            // Root writes any file: make the disk read-only instead.
            QVERIFY(QFile::setPermissions(path(), QFile::ReadOwner | QFile::WriteOwner));
            readOnlyDisk();
            return;
        }
        StoreError error;
        m_ws = Workspace::open(path(), &error);
        if (m_ws) {
            QVERIFY(!apply(container(s("lost")), &error));
        }
        QVERIFY2(error.message.contains(s("read-only")), qPrintable(error.message));
        m_ws.reset();
        QVERIFY(QFile::setPermissions(path(), QFile::ReadOwner | QFile::WriteOwner));
        m_ws = Workspace::open(path(), &error);
        QVERIFY2(m_ws, qPrintable(error.message));
        QVERIFY2(apply(container(s("after")), &error), qPrintable(error.message));
        QCOMPARE(names(m_ws->list()), (QStringList{s("after"), s("kept")}));
    }
};

QTEST_GUILESS_MAIN(tst_WorkspaceUnderfoot)
#include "tst_workspaceunderfoot.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "workspacewatcher.h"

#include "workspace.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace converge;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

Resource queue(const QString &name)
{
    Resource r;
    r.apiVersion = s("azure.converge.dev/v1");
    r.kind = s("Queue");
    r.metadata.name = name;
    r.spec = {{s("owner"), QJsonObject{{s("name"), s("devstore")}}}};
    return r;
}

} // namespace

class tst_WorkspaceWatcher final : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_path = m_dir->filePath(s("watched.converge"));
        StoreError error;
        m_ws = Workspace::open(m_path, &error);
        QVERIFY2(m_ws, qPrintable(error.message));
    }

    void cleanup()
    {
        m_ws.reset();
        m_dir.reset();
    }

    void signalsCommitsOfOtherConnections()
    {
        WorkspaceWatcher watcher(m_path);
        QVERIFY2(watcher.isValid(), qPrintable(watcher.errorString()));
        QCOMPARE(watcher.interval(), std::chrono::milliseconds(250));
        QSignalSpy changed{&watcher, &WorkspaceWatcher::changed};
        QVERIFY(changed.isValid());

        StoreError error;
        QVERIFY(m_ws->apply({queue(s("orders"))}, nullptr, &error));
        // Within a second, by the timer alone.
        QVERIFY(changed.wait(2000));
        QCOMPARE(changed.count(), 1);

        QList<Event> events(1);
        events[0].involved = {s("Queue"), s("orders")};
        events[0].reason = s("Created");
        QVERIFY(m_ws->recordEvents(events, &error));
        QVERIFY(changed.wait(2000));
        QCOMPARE(changed.count(), 2);
    }

    void quietWithoutCommits()
    {
        WorkspaceWatcher watcher(m_path);
        QSignalSpy changed{&watcher, &WorkspaceWatcher::changed};
        // Reads and no-op writes commit nothing that changes the file.
        QCOMPARE(m_ws->count(), 0);
        QVERIFY(m_ws->list().isEmpty());
        watcher.check();
        watcher.check();
        QCOMPARE(changed.count(), 0);

        StoreError error;
        QVERIFY(m_ws->apply({queue(s("orders"))}, nullptr, &error));
        watcher.check();
        QCOMPARE(changed.count(), 1);
        watcher.check(); // once per change, not once per poll
        QCOMPARE(changed.count(), 1);
    }

    void intervalIsAdjustable()
    {
        WorkspaceWatcher watcher(m_path);
        watcher.setInterval(std::chrono::milliseconds(20));
        QCOMPARE(watcher.interval(), std::chrono::milliseconds(20));
        QSignalSpy changed{&watcher, &WorkspaceWatcher::changed};
        StoreError error;
        QVERIFY(m_ws->apply({queue(s("orders"))}, nullptr, &error));
        QVERIFY(changed.wait(500));
    }

    void invalidForAMissingFile()
    {
        WorkspaceWatcher watcher(m_dir->filePath(s("missing.converge")));
        QVERIFY(!watcher.isValid());
        QVERIFY(!watcher.errorString().isEmpty());
        QVERIFY(!QFileInfo::exists(m_dir->filePath(s("missing.converge"))));
        watcher.check(); // harmless
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
    std::unique_ptr<Workspace> m_ws;
};

QTEST_GUILESS_MAIN(tst_WorkspaceWatcher)
#include "tst_workspacewatcher.moc"

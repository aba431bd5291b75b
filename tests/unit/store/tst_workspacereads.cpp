// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Every read of the workspace reports a failed read as an error, never as an empty answer: a
// second connection renames the table a read needs, the read must say so, and once the table
// is back the same connection reads again.
#include "workspace.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

using namespace converge;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

const ResourceKey key{s("BlobContainer"), s("invoices")};

/// A read, answering how many items it found.
using Read = std::function<qsizetype(const Workspace &, StoreError *)>;

} // namespace

Q_DECLARE_METATYPE(Read)

class tst_WorkspaceReads final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Workspace> m_ws;

    QString path() const { return m_dir.filePath(s("reads.converge")); }

    /// Runs `sql` on a connection of its own, as another program would.
    bool exec(const QString &sql)
    {
        bool ok = false;
        {
            QSqlDatabase db =
                QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("other"));
            db.setDatabaseName(path());
            if (db.open()) {
                QSqlQuery q(db);
                ok = q.exec(sql);
                if (!ok)
                    qWarning() << sql << q.lastError().text();
            }
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("other"));
        return ok;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        StoreError error;
        m_ws = Workspace::open(path(), &error);
        QVERIFY2(m_ws, qPrintable(error.message));
        Resource r;
        r.apiVersion = s("azure.converge.dev/v1");
        r.kind = key.kind;
        r.metadata.name = key.name;
        r.spec = {{s("owner"), QJsonObject{{s("name"), s("devstore")}}}};
        QList<ApplyOutcome> outcomes;
        QVERIFY(m_ws->apply({r}, &outcomes, &error));
        ResourceStatus status;
        status.conditions = {Condition::ready(1, QDateTime::currentDateTimeUtc())};
        QVERIFY(m_ws->updateStatus(key, status, &error));
        Event e;
        e.involved = key;
        e.reason = s("Created");
        e.message = s("created");
        QList<Event> events{e};
        QVERIFY(m_ws->recordEvents(events, &error));
        ReconcileState state;
        state.attempts = 1;
        QVERIFY(m_ws->setReconcileState(key, state, &error));
        PhaseRun run;
        run.key = key;
        run.phase = s("claim");
        run.startedAt = QDateTime::currentDateTimeUtc();
        QList<PhaseRun> runs{run};
        QVERIFY(m_ws->recordPhaseRuns(runs, &error));
        QVERIFY(m_ws->beginIntent(key, s("create"), {}, &error) > 0);
        DiscoveredResource d;
        d.owner = ResourceKey{s("StorageAccount"), s("devstore")};
        d.kind = key.kind;
        d.name = s("found");
        d.resourceId = s("/found");
        QVERIFY(m_ws->replaceDiscovered(d.owner, d.kind, {d}, &error));
    }

    void failedReadIsAnError_data()
    {
        QTest::addColumn<QString>("table");
        QTest::addColumn<Read>("read");

        auto row = [](const char *name, const char *table, Read read) {
            QTest::newRow(name) << s(table) << read;
        };
        row("list", "resources",
            [](const Workspace &ws, StoreError *e) { return ws.list({}, e).size(); });
        row("list of a kind", "resources",
            [](const Workspace &ws, StoreError *e) { return ws.list(key.kind, e).size(); });
        row("listPage", "resources", [](const Workspace &ws, StoreError *e) {
            return ws.listPage(key.kind, QString(), 10, e).size();
        });
        row("kinds", "resources",
            [](const Workspace &ws, StoreError *e) { return ws.kinds(e).size(); });
        row("get", "resources",
            [](const Workspace &ws, StoreError *e) { return qsizetype(ws.get(key, e) ? 1 : 0); });
        row("get many", "resources",
            [](const Workspace &ws, StoreError *e) { return ws.get(QList{key}, e).size(); });
        row("resourceVersion", "resources", [](const Workspace &ws, StoreError *e) {
            return qsizetype(ws.resourceVersion(key, e) ? 1 : 0);
        });
        row("listChangedSince", "resources", [](const Workspace &ws, StoreError *e) {
            return ws.listChangedSince(0, nullptr, e).size();
        });
        row("listOwnedBy", "resources", [](const Workspace &ws, StoreError *e) {
            return ws.listOwnedBy(key.kind, s("devstore"), e).size();
        });
        row("count", "resources",
            [](const Workspace &ws, StoreError *e) { return qsizetype(ws.count(e)); });
        row("events", "events",
            [](const Workspace &ws, StoreError *e) { return ws.events(EventQuery{}, e).size(); });
        row("eventCount", "events",
            [](const Workspace &ws, StoreError *e) { return qsizetype(ws.eventCount(e)); });
        row("conditionHistory", "condition_transitions",
            [](const Workspace &ws, StoreError *e) { return ws.conditionHistory(key, e).size(); });
        row("reconcileState", "reconcile_state", [](const Workspace &ws, StoreError *e) {
            return qsizetype(ws.reconcileState(key, e).attempts);
        });
        row("reconcileStates", "reconcile_state",
            [](const Workspace &ws, StoreError *e) { return ws.reconcileStates(e).size(); });
        row("reconcileStates of a page", "reconcile_state", [](const Workspace &ws, StoreError *e) {
            return ws.reconcileStates(key.kind, QString(), key.name, e).size();
        });
        row("phaseRuns", "phase_runs", [](const Workspace &ws, StoreError *e) {
            return ws.phaseRuns(key, Workspace::phaseRunsKept, e).size();
        });
        row("discovered", "discovered",
            [](const Workspace &ws, StoreError *e) { return ws.discovered({}, e).size(); });
        row("unfinishedIntents", "journal",
            [](const Workspace &ws, StoreError *e) { return ws.unfinishedIntents(e).size(); });
    }

    void failedReadIsAnError()
    {
        QFETCH(QString, table);
        QFETCH(Read, read);

        StoreError error;
        QCOMPARE(read(*m_ws, &error), 1);
        QVERIFY(!error.isError());

        QVERIFY(exec(QStringLiteral("ALTER TABLE %1 RENAME TO %1_away").arg(table)));
        const qsizetype found = read(*m_ws, &error);
        QVERIFY(exec(QStringLiteral("ALTER TABLE %1_away RENAME TO %1").arg(table)));
        QCOMPARE(found, 0);
        QVERIFY2(error.isError(), "a failed read answered as if the workspace were empty");
        QCOMPARE(error.code, StoreError::Code::Io);
        QVERIFY2(error.message.startsWith(s("cannot read the workspace")),
                 qPrintable(error.message));
        QVERIFY2(error.message.contains(s("no such table: ") + table), qPrintable(error.message));

        // The cause gone, the same connection reads again.
        error = {};
        QCOMPARE(read(*m_ws, &error), 1);
        QVERIFY2(!error.isError(), qPrintable(error.message));
    }

    void readWithoutAnErrorArgumentStillAnswersEmpty()
    {
        QVERIFY(exec(s("ALTER TABLE resources RENAME TO resources_away")));
        const QList<Resource> all = m_ws->list();
        QVERIFY(exec(s("ALTER TABLE resources_away RENAME TO resources")));
        QVERIFY(all.isEmpty());
    }
};

QTEST_GUILESS_MAIN(tst_WorkspaceReads)
#include "tst_workspacereads.moc"

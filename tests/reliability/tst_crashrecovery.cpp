// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// The real `converge apply --wait` killed with SIGKILL at random points while it applies and
// reconciles M containers and queues against Azurite, again and again. After every kill the
// workspace passes PRAGMA integrity_check and holds every applied object (an apply is all or
// nothing); a final clean run converges; and every container or queue in Azurite with the
// test's prefix is in the workspace (none leaked), none created twice.

#include "reliability.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTest>

using namespace converge;
using namespace converge::test;

namespace {

/// Opens the workspace read-only, runs `sql` and returns the rows (columns joined by '|').
QStringList query(const QString &path, const QString &sql, QString *error)
{
    QStringList rows;
    const QString name = QStringLiteral("crashcheck");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=5000"));
        if (!db.open()) {
            *error = db.lastError().text();
        } else {
            QSqlQuery q(db);
            if (!q.exec(sql))
                *error = q.lastError().text();
            while (q.next()) {
                QStringList columns;
                for (int i = 0; i < q.record().count(); ++i)
                    columns << q.value(i).toString();
                rows << columns.join(QLatin1Char('|'));
            }
        }
    }
    QSqlDatabase::removeDatabase(name);
    return rows;
}

} // namespace

class tst_CrashRecovery final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void killDuringApplyAndReconcile();
    void cleanupTestCase();

private:
    /// Writes the manifest of round `round`: the account and every child, with the round in
    /// each child's metadata (a spec change: every round has backend writes to do).
    bool writeManifest(int round);
    std::unique_ptr<QProcess> startApply();
    /// Milliseconds from the start of an apply to its round being stored, here and now (then
    /// the process is killed); -1 when it was not stored within a minute.
    int timeToStore(int round);

    Emulators m_emulators;
    QTemporaryDir m_dir;
    QString m_workspace;
    QString m_manifest;
    QString m_prefix;
    int m_count = 0;
    QList<Resource> m_children;
};

void tst_CrashRecovery::initTestCase()
{
    m_emulators = Emulators::fromEnvironment();
    QVERIFY2(m_emulators.isValid(), qPrintable(m_emulators.error));
    QVERIFY(m_dir.isValid());
    m_workspace = m_dir.filePath(QStringLiteral("crash.converge"));
    m_manifest = m_dir.filePath(QStringLiteral("manifest.json"));
    m_prefix = uniqueStem() + QStringLiteral("k");
    m_count = pick(100, 500);
    m_children = containersAndQueues(QStringLiteral("crashstore"), m_prefix, m_count);
}

bool tst_CrashRecovery::writeManifest(int round)
{
    Resource account = emulatorAccount(m_emulators, QStringLiteral("crashstore"));
    QJsonArray items{account.toJson(false)};
    for (Resource r : std::as_const(m_children)) {
        r.spec.insert(QStringLiteral("metadata"),
                      QJsonObject{{QStringLiteral("round"), QString::number(round)}});
        items.append(r.toJson(false));
    }
    QFile file(m_manifest);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    const QJsonObject list{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                           {QStringLiteral("kind"), QStringLiteral("List")},
                           {QStringLiteral("items"), items}};
    return file.write(QJsonDocument(list).toJson()) > 0;
}

std::unique_ptr<QProcess> tst_CrashRecovery::startApply()
{
    auto p = std::make_unique<QProcess>();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("CONVERGE_WORKSPACE"));
    env.remove(QStringLiteral("DISPLAY"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.filePath(QStringLiteral("data")));
    p->setProcessEnvironment(env);
    p->setProgram(QString::fromUtf8(CONVERGE_EXECUTABLE));
    p->setArguments({QStringLiteral("apply"), QStringLiteral("--workspace"), m_workspace,
                     QStringLiteral("-f"), m_manifest, QStringLiteral("--wait=3m")});
    p->start();
    return p;
}

int tst_CrashRecovery::timeToStore(int round)
{
    if (!writeManifest(round))
        return -1;
    QElapsedTimer timer;
    timer.start();
    std::unique_ptr<QProcess> p = startApply();
    if (!p->waitForStarted(10000))
        return -1;
    const QString stored =
        QStringLiteral("SELECT count(*) FROM resources WHERE json_extract(spec, '$.metadata.round')"
                       " = '%1'")
            .arg(round);
    int elapsed = -1;
    while (timer.elapsed() < 60000 && p->state() != QProcess::NotRunning) {
        QString error;
        if (QFile::exists(m_workspace) &&
            query(m_workspace, stored, &error).value(0).toInt() == m_count) {
            elapsed = int(timer.elapsed());
            break;
        }
        QTest::qWait(10);
    }
    p->kill();
    p->waitForFinished(10000);
    return elapsed;
}

void tst_CrashRecovery::killDuringApplyAndReconcile()
{
    const int kills = pick(10, 50);
    QRandomGenerator random(quint32(qEnvironmentVariableIntValue("CONVERGE_FAULT_SEED")) + 7u);
    // Kills at fixed times missed every stored apply on a loaded machine (the suite runs tests
    // in parallel, beside other builds): the kills spread over twice the time an apply takes
    // to be stored here and now, at least over the usual span.
    const int storedAfter = timeToStore(0);
    QVERIFY2(storedAfter >= 0, "an apply was not stored within a minute");
    const int latest = std::max(pick(700, 3000), 2 * storedAfter);
    int storedRounds = 0;
    int finishedBeforeKill = 0;
    int interruptedWrites = 0;
    QList<int> delays;
    for (int round = 1; round <= kills; ++round) {
        QVERIFY(writeManifest(round));
        // From process start to well into the reconcile of every resource.
        const int delay = int(random.bounded(20u, quint32(latest)));
        delays << delay;
        std::unique_ptr<QProcess> p = startApply();
        QVERIFY(p->waitForStarted(10000));
        if (p->waitForFinished(delay)) {
            ++finishedBeforeKill; // nothing to kill this time; the checks hold all the same
        } else {
            p->kill(); // SIGKILL
            QVERIFY(p->waitForFinished(10000));
            // It can end on its own between the wait's timeout and the signal.
            if (p->exitStatus() == QProcess::NormalExit)
                ++finishedBeforeKill;
        }
        if (!QFile::exists(m_workspace))
            continue; // killed before it made the workspace

        QString error;
        const QStringList integrity =
            query(m_workspace, QStringLiteral("PRAGMA integrity_check"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(integrity, QStringList{QStringLiteral("ok")});

        // An apply is one transaction: this round's objects are all there or none is; and what
        // an earlier round stored is never lost.
        const QStringList specs = query(
            m_workspace, QStringLiteral("SELECT kind || '/' || name, spec FROM resources"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        int thisRound = 0;
        for (const QString &row : specs) {
            const QJsonObject spec =
                QJsonDocument::fromJson(row.section(QLatin1Char('|'), 1).toUtf8()).object();
            const QString seen = spec.value(QStringLiteral("metadata"))
                                     .toObject()
                                     .value(QStringLiteral("round"))
                                     .toString();
            thisRound += seen == QString::number(round) ? 1 : 0;
        }
        QVERIFY2(thisRound == 0 || thisRound == m_count,
                 qPrintable(QStringLiteral("round %1: %2 of %3 objects stored")
                                .arg(round)
                                .arg(thisRound)
                                .arg(m_count)));
        if (thisRound > 0)
            ++storedRounds;
        // A kill between an intent and its outcome: the next start must resolve it.
        const QStringList open =
            query(m_workspace,
                  QStringLiteral("SELECT count(*) FROM journal WHERE finished_at IS NULL"), &error);
        interruptedWrites += open.value(0).toInt() > 0 ? 1 : 0;
        if (storedRounds > 0)
            QCOMPARE(specs.size(), m_count + 1);
    }
    qInfo("an apply was stored after %d ms; %d kills at %s ms; %d rounds had stored their "
          "apply, %d finished before the kill, %d kills interrupted a backend write",
          storedAfter, kills - finishedBeforeKill, qPrintable([&] {
              QStringList parts;
              for (int d : std::as_const(delays))
                  parts << QString::number(d);
              return parts.join(QLatin1Char(','));
          }()),
          storedRounds, finishedBeforeKill, interruptedWrites);
    QVERIFY2(storedRounds > 0, "no kill came after an apply was stored: the delays are too short");

    // A clean run converges everything.
    QVERIFY(writeManifest(kills + 1));
    std::unique_ptr<QProcess> p = startApply();
    QVERIFY(p->waitForStarted(10000));
    QVERIFY(p->waitForFinished(200000));
    QVERIFY2(p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0,
             p->readAllStandardError().right(2000).constData());

    QString error;
    QCOMPARE(query(m_workspace, QStringLiteral("PRAGMA integrity_check"), &error),
             QStringList{QStringLiteral("ok")});
    // Every intent was resolved; no create succeeded twice; no resource has two Created events.
    QCOMPARE(query(m_workspace,
                   QStringLiteral("SELECT count(*) FROM journal WHERE finished_at IS NULL"),
                   &error),
             QStringList{QStringLiteral("0")});
    QCOMPARE(query(m_workspace,
                   QStringLiteral("SELECT kind, name FROM journal WHERE operation = 'create' AND "
                                  "outcome = 'succeeded' GROUP BY kind, name HAVING count(*) > 1"),
                   &error),
             QStringList());
    QCOMPARE(query(m_workspace,
                   QStringLiteral("SELECT o.kind, o.name FROM events e JOIN event_objects o ON "
                                  "e.object = o.id WHERE e.reason = 'Created' GROUP BY o.kind, "
                                  "o.name HAVING sum(e.count) > 1"),
                   &error),
             QStringList());
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QStringList stored =
        query(m_workspace, QStringLiteral("SELECT kind || '/' || name FROM resources"), &error);
    QCOMPARE(stored.size(), m_count + 1);

    // Nothing leaked: what Azurite has under the prefix is exactly what the workspace holds.
    AzureFactory::Options listOptions;
    listOptions.listPrefix = m_prefix;
    DirectAccess direct(m_emulators, listOptions);
    QStringList inBackend;
    for (const QString &kind : {AzureKinds::blobContainer(), AzureKinds::queue()}) {
        const auto manager = direct.manager(kind);
        QVERIFY(manager);
        ListScope scope;
        scope.owners = {direct.account};
        do {
            const Outcome<ListPage> page = manager->list(scope);
            QVERIFY2(page, qPrintable(page ? QString() : page.error().toString()));
            for (const Observation &item : page.value().items)
                inBackend << kind.toLower() + QLatin1Char('/') + item.name;
            scope.continuation = page.value().continuation;
        } while (!scope.continuation.isEmpty());
    }
    QStringList expected;
    for (const Resource &r : std::as_const(m_children))
        expected << r.kind.toLower() + QLatin1Char('/') + r.metadata.name;
    inBackend.sort();
    expected.sort();
    QCOMPARE(inBackend, expected);
    for (const Resource &r : std::as_const(m_children))
        QVERIFY(stored.contains(r.kind + QLatin1Char('/') + r.metadata.name));
}

void tst_CrashRecovery::cleanupTestCase()
{
    if (!m_emulators.isValid())
        return;
    DirectAccess direct(m_emulators);
    for (const Resource &r : std::as_const(m_children)) {
        const auto manager = direct.manager(r.kind);
        const Target t = direct.target(r);
        if (const Outcome<Observation> seen = manager->get(t))
            manager->deleteResource(t, seen.value());
    }
}

QTEST_GUILESS_MAIN(tst_CrashRecovery)
#include "tst_crashrecovery.moc"

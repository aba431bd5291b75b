// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "buildinfo.h"
#include "clirunner.h"
#include "controllerlock.h"
#include "workspace.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace converge;
using namespace converge::test;

namespace {

// A StorageAccount on a loopback port where nothing listens: valid, never Ready.
const char *accountYaml = R"(apiVersion: azure.converge.dev/v1
kind: StorageAccount
metadata:
  name: devstore
spec:
  accountName: devstoreaccount1
  endpoints:
    blob: http://127.0.0.1:9/devstoreaccount1
    queue: http://127.0.0.1:9/devstoreaccount1
    table: http://127.0.0.1:9/devstoreaccount1
  credential:
    emulator: true
)";

const char *containerYaml = R"(apiVersion: azure.converge.dev/v1
kind: BlobContainer
metadata:
  name: invoices
spec:
  owner: {name: devstore}
  publicAccess: None
)";

QJsonObject jsonOf(const CliResult &r)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("not JSON (%s): %s", qPrintable(error.errorString()), r.out.constData());
    return doc.object();
}

} // namespace

class tst_Cli final : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_cli = std::make_unique<CliRunner>(m_dir->filePath(QStringLiteral("ws.converge")));
    }

    void cleanup()
    {
        m_cli.reset();
        m_dir.reset();
    }

    void version()
    {
        const CliResult r = m_cli->run({s("--version")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.outText(), s("converge ") + BuildInfo::version() + QLatin1Char('\n'));
    }

    void generalHelp()
    {
        const CliResult r = m_cli->run({s("--help")});
        QCOMPARE(r.exitCode, 0);
        for (const char *command : {"apply", "diff", "get", "describe", "explain", "delete",
                                    "claim", "reconcile", "refresh", "events", "export", "run"})
            QVERIFY2(r.outText().contains(s("\n  ") + s(command) + QLatin1Char(' ')), command);
        QVERIFY(r.outText().contains(s("Exit codes")));
        // No command at all: the same help, as a usage error.
        m_cli->setPassWorkspace(false);
        const CliResult bare = m_cli->run({s("--quiet")});
        QCOMPARE(bare.exitCode, 2);
        QVERIFY(bare.errText().contains(s("Commands:")));
    }

    void commandHelp_data()
    {
        QTest::addColumn<QString>("command");
        for (const char *c : {"apply", "diff", "get", "describe", "explain", "delete", "claim",
                              "reconcile", "refresh", "events", "export", "run"})
            QTest::newRow(c) << s(c);
    }

    void commandHelp()
    {
        QFETCH(QString, command);
        for (const QStringList &args :
             {QStringList{command, s("--help")}, QStringList{s("help"), command}}) {
            const CliResult r = m_cli->run(args);
            QVERIFY2(r.exitCode == 0, r.describe());
            QVERIFY2(r.outText().startsWith(s("Usage: converge ") + command), r.describe());
            QVERIFY(r.outText().contains(s("Examples:\n  # ")));
            QVERIFY(r.outText().contains(s("--workspace FILE")));
        }
        // Help changes nothing: not even the workspace file is created.
        QVERIFY(!QFile::exists(m_cli->workspace()));
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown command")
            << QStringList{s("aply")} << s("unknown command \"aply\"; did you mean \"apply\"?");
        QTest::newRow("unknown option") << QStringList{s("get"), s("--bogus")} << s("bogus");
        QTest::newRow("apply without -f") << QStringList{s("apply")} << s("apply needs -f PATH");
        QTest::newRow("bad duration")
            << QStringList{s("apply"), s("-f"), s("x.yaml"), s("--wait=soon")}
            << s("\"soon\" is not a duration");
        QTest::newRow("unknown kind")
            << QStringList{s("get"), s("blobcontaners")}
            << s("unknown kind \"blobcontaners\"; did you mean \"BlobContainer\"?");
        QTest::newRow("unknown kind in KIND/NAME")
            << QStringList{s("describe"), s("qeue/x")} << s("did you mean \"Queue\"?");
        QTest::newRow("not KIND/NAME")
            << QStringList{s("reconcile"), s("queue")} << s("\"queue\" is not KIND/NAME");
        QTest::newRow("bad output")
            << QStringList{s("get"), s("-o"), s("xml")} << s("unknown output format \"xml\"");
        QTest::newRow("bad event type") << QStringList{s("events"), s("--type"), s("Error")}
                                        << s("--type is Warning or Normal");
        QTest::newRow("delete without keys") << QStringList{s("delete")} << s("delete needs");
        QTest::newRow("explain: unknown kind")
            << QStringList{s("explain"), s("sqsqeue.queueName")} << s("did you mean \"SQSQueue\"?");
        QTest::newRow("explain: unknown field")
            << QStringList{s("explain"), s("cloudwatchloggroup.retentionDay")}
            << s("field \"retentionDay\" does not exist in CloudWatchLogGroup; did you mean "
                 "\"retentionDays\"?");
    }

    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const CliResult r = m_cli->run(args);
        QVERIFY2(r.exitCode == 2, r.describe());
        QVERIFY2(r.errText().contains(message), r.describe());
        QVERIFY(r.out.isEmpty());
    }

    void applyOfAnInvalidManifestStoresNothing()
    {
        // A valid object first: the read is all or nothing, so it must not land either.
        const QString path = write("bad.yaml", QByteArray(accountYaml) + "---\n" +
                                                   "apiVersion: azure.converge.dev/v1\n"
                                                   "kind: BlobContainer\n"
                                                   "metadata:\n"
                                                   "  name: invoices\n"
                                                   "spec:\n"
                                                   "  owner: {name: devstore}\n"
                                                   "  publicAccess: Public\n"
                                                   "  colour: blue\n");
        const CliResult r = m_cli->run({s("apply"), s("-f"), path, s("--wait")});
        QVERIFY2(r.exitCode == 2, r.describe());
        QVERIFY(r.out.isEmpty());
        // One line per error: file:line:column: field: message.
        const QRegularExpression located(QRegularExpression::anchoredPattern(
            QRegularExpression::escape(path) + s(":(\\d+):\\d+: (spec\\.\\w+): .+")));
        QStringList fields;
        for (const QString &line : r.errText().split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            const QRegularExpressionMatch m = located.match(line);
            if (m.hasMatch())
                fields << m.captured(1) + QLatin1Char(' ') + m.captured(2);
        }
        QCOMPARE(fields, QStringList({s("20 spec.publicAccess"), s("21 spec.colour")}));
        QCOMPARE(countStored(), 0);

        // A syntax error: the same, with the place of the error.
        const QString broken = write("broken.yaml", "kind: [\n");
        const CliResult b = m_cli->run({s("apply"), s("-f"), broken});
        QCOMPARE(b.exitCode, 2);
        QVERIFY2(b.errText().startsWith(broken + s(":")), b.describe());
        QCOMPARE(countStored(), 0);
    }

    void applyReportsWhatChanged()
    {
        const QString path = write("m.yaml", QByteArray(accountYaml) + "---\n" + containerYaml);
        CliResult r = m_cli->run({s("apply"), s("-f"), path});
        QVERIFY2(r.exitCode == 0, r.describe());
        QCOMPARE(r.outText(),
                 s("storageaccount/devstore created\nblobcontainer/invoices created\n"));

        r = m_cli->run({s("apply"), s("-f"), path});
        QCOMPARE(r.outText(),
                 s("storageaccount/devstore unchanged\nblobcontainer/invoices unchanged\n"));

        // A spec change bumps the generation; a label alone does not.
        QByteArray changed = QByteArray(containerYaml).replace("None", "Blob");
        r = m_cli->run({s("apply"), s("-f"), write("c.yaml", changed)});
        QCOMPARE(r.outText(), s("blobcontainer/invoices configured\n"));
        QCOMPARE(stored(s("BlobContainer"), s("invoices")).metadata.generation, 2);
        changed.replace("  name: invoices\n", "  name: invoices\n  labels: {team: billing}\n");
        r = m_cli->run({s("apply"), s("-f"), write("c.yaml", changed)});
        QCOMPARE(r.outText(), s("blobcontainer/invoices configured\n"));
        QCOMPARE(stored(s("BlobContainer"), s("invoices")).metadata.generation, 2);

        // --quiet: no per-object lines.
        r = m_cli->run({s("apply"), s("-q"), s("-f"), path});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.isEmpty());
    }

    void applyFromStandardInput()
    {
        const CliResult r = m_cli->run({s("apply"), s("-f"), s("-")}, accountYaml);
        QVERIFY2(r.exitCode == 0, r.describe());
        QCOMPARE(r.outText(), s("storageaccount/devstore created\n"));
        QCOMPARE(countStored(), 1);
    }

    void applyKeepsWhatTheEngineWrote()
    {
        const QString path = write("a.yaml", accountYaml);
        QCOMPARE(m_cli->run({s("apply"), s("-f"), path}).exitCode, 0);
        {
            std::unique_ptr<Workspace> ws = open();
            Resource r = *ws->get({s("StorageAccount"), s("devstore")});
            r.metadata.annotations.insert(s("converge.dev/resource-id"), s("http://id"));
            StoreError error;
            QVERIFY(ws->update(r, &error));
        }
        const CliResult r = m_cli->run({s("apply"), s("-f"), path});
        QCOMPARE(r.outText(), s("storageaccount/devstore unchanged\n"));
        QCOMPARE(stored(s("StorageAccount"), s("devstore"))
                     .metadata.annotations.value(s("converge.dev/resource-id")),
                 s("http://id"));
    }

    void workspaceFromOptionOrEnvironment()
    {
        const QString path = write("a.yaml", accountYaml);
        m_cli->setPassWorkspace(false);
        // Before the command, after it, and with '='.
        const QString other = m_dir->filePath(s("other.converge"));
        QCOMPARE(m_cli->run({s("--workspace"), other, s("apply"), s("-f"), path}).exitCode, 0);
        QVERIFY(QFile::exists(other));
        CliResult r = m_cli->run({s("get"), s("-o"), s("name"), s("--workspace=") + other});
        QCOMPARE(r.outText(), s("storageaccount/devstore\n"));
        // CONVERGE_WORKSPACE when there is no option.
        m_cli->environment().insert(s("CONVERGE_WORKSPACE"), other);
        r = m_cli->run({s("get"), s("-o"), s("name")});
        QCOMPARE(r.outText(), s("storageaccount/devstore\n"));
        QVERIFY(!QFile::exists(m_cli->workspace()));
    }

    void getFormats()
    {
        QCOMPARE(m_cli
                     ->run({s("apply"), s("-f"),
                            write("m.yaml", QByteArray(accountYaml) + "---\n" + containerYaml)})
                     .exitCode,
                 0);
        CliResult r = m_cli->run({s("get")});
        QCOMPARE(r.exitCode, 0);
        QStringList lines = r.outText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines.at(0).split(QLatin1Char(' '), Qt::SkipEmptyParts),
                 QStringList({s("KIND/NAME"), s("READY"), s("REASON"), s("AGE")}));
        QCOMPARE(lines.at(1).split(QLatin1Char(' '), Qt::SkipEmptyParts).mid(0, 2),
                 QStringList({s("blobcontainer/invoices"), s("Unknown")}));
        QVERIFY(!r.out.contains("\x1b[")); // not a terminal: no colour

        // Kinds as people type them. The AGE column is left out of the comparison: a second
        // may pass between two runs (under load it did, 0s against 1s).
        const auto withoutAge = [](const QByteArray &out) {
            QStringList rows;
            for (const QString &line : QString::fromUtf8(out).split(QLatin1Char('\n'))) {
                QStringList cells = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
                if (!cells.isEmpty())
                    cells.removeLast();
                rows << cells.join(QLatin1Char(' '));
            }
            return rows;
        };
        const QByteArray expected = m_cli->run({s("get"), s("BlobContainer")}).out;
        QVERIFY(expected.startsWith("KIND/NAME"));
        for (const char *kind : {"blobcontainer", "blobcontainers", "BLOBCONTAINERS"})
            QCOMPARE(withoutAge(m_cli->run({s("get"), s(kind)}).out), withoutAge(expected));

        r = m_cli->run({s("get"), s("-o"), s("wide")});
        QVERIFY(r.outText().startsWith(s("KIND/NAME")));
        QVERIFY(r.outText().contains(s("POLICY   GENERATION   OBSERVED   MESSAGE")));

        // JSON: one object by name, a List otherwise. Reconciled once, so that it has a status.
        QCOMPARE(m_cli->run({s("reconcile"), s("blobcontainer/invoices")}).exitCode, 0);
        r = m_cli->run({s("get"), s("blobcontainer/invoices"), s("-o"), s("json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject one = jsonOf(r);
        QCOMPARE(one.value(s("kind")).toString(), s("BlobContainer"));
        QCOMPARE(one.value(s("apiVersion")).toString(), s("azure.converge.dev/v1"));
        const QJsonObject meta = one.value(s("metadata")).toObject();
        QCOMPARE(meta.value(s("name")).toString(), s("invoices"));
        QCOMPARE(meta.value(s("generation")).toInteger(), 1);
        QVERIFY(!meta.value(s("uid")).toString().isEmpty());
        QVERIFY(meta.value(s("resourceVersion")).isString());
        QVERIFY(meta.value(s("creationTimestamp")).toString().endsWith(QLatin1Char('Z')));
        QCOMPARE(one.value(s("spec")).toObject().value(s("publicAccess")).toString(), s("None"));
        const QJsonObject ready =
            one.value(s("status")).toObject().value(s("conditions")).toArray().at(0).toObject();
        QCOMPARE(ready.value(s("type")).toString(), s("Ready"));
        QCOMPARE(ready.value(s("status")).toString(), s("False"));
        QCOMPARE(ready.value(s("severity")).toString(), s("Warning"));
        QCOMPARE(ready.value(s("reason")).toString(), s("WaitingForOwner"));
        QCOMPARE(ready.value(s("observedGeneration")).toInteger(), 1);
        QVERIFY(ready.value(s("lastTransitionTime")).toString().endsWith(QLatin1Char('Z')));

        r = m_cli->run({s("get"), s("blobcontainers"), s("-o"), s("json")});
        const QJsonObject list = jsonOf(r);
        QCOMPARE(list.value(s("kind")).toString(), s("List"));
        QCOMPARE(list.value(s("items")).toArray().size(), 1);
        QCOMPARE(
            jsonOf(m_cli->run({s("get"), s("-o"), s("json")})).value(s("items")).toArray().size(),
            2);

        r = m_cli->run({s("get"), s("storageaccount/devstore"), s("-o"), s("yaml")});
        QVERIFY(r.outText().startsWith(s("apiVersion: azure.converge.dev/v1\nkind: "
                                         "StorageAccount\n")));
        QVERIFY(r.outText().contains(s("\nstatus:\n")));

        // A missing object is an error after the others are printed.
        r = m_cli->run(
            {s("get"), s("blobcontainer/nope"), s("storageaccount/devstore"), s("-o"), s("name")});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.outText(), s("storageaccount/devstore\n"));
        QVERIFY(r.errText().contains(s("blobcontainer/nope not found")));
    }

    void describe()
    {
        QCOMPARE(m_cli->run({s("apply"), s("-f"), write("a.yaml", accountYaml)}).exitCode, 0);
        CliResult r = m_cli->run({s("describe"), s("storageaccounts/devstore")});
        QVERIFY2(r.exitCode == 0, r.describe());
        const QString text = r.outText();
        for (const char *part :
             {"Name:", "Kind:", "StorageAccount", "Generation:", "Spec:\n",
              "  accountName: devstoreaccount1\n", "Status:\n", "Ready:", "Condition History:\n",
              "Reconcile:\n", "Attempts:", "Next Attempt:", "Waiting For:", "Events:\n"})
            QVERIFY2(text.contains(s(part)), part);
        r = m_cli->run({s("describe"), s("queue/nope")});
        QCOMPARE(r.exitCode, 1);
    }

    // explain reads the kinds only: no workspace is made.
    void explain()
    {
        CliResult r = m_cli->run({s("explain"), s("sqsqueues")});
        QVERIFY2(r.exitCode == 0, r.describe());
        for (const char *part :
             {"KIND:     SQSQueue\n", "VERSION:  aws.converge.dev/v1\n",
              "DESCRIPTION:\n    An Amazon SQS queue", "FIELDS:\n",
              "  owner\t<object> -required- -immutable-\n", "  queueName\t<string> -immutable-\n",
              "  tags\t<map[string]string>\n"})
            QVERIFY2(r.outText().contains(s(part)), r.describe());

        r = m_cli->run({s("explain"), s("dynamodbtable.keySchema.keyType")});
        QVERIFY2(r.exitCode == 0, r.describe());
        QVERIFY2(r.outText().contains(s("FIELD: keySchema.keyType <enum> -required-\n")),
                 r.describe());
        QVERIFY2(r.outText().contains(s("CONSTRAINTS:\n    enum: HASH, RANGE\n")), r.describe());

        r = m_cli->run({s("explain"), s("dynamodbtable"), s("--recursive")});
        QVERIFY2(r.outText().contains(s("  keySchema\t<[]object> -required- -immutable-\n"
                                        "    attributeName\t<string> -required-\n")),
                 r.describe());

        r = m_cli->run({s("explain")});
        QVERIFY2(r.exitCode == 0, r.describe());
        QVERIFY2(r.outText().startsWith(s("Azure Storage\n")), r.describe());
        QVERIFY2(r.outText().contains(s("\nAWS SQS\n  SQSQueue")), r.describe());
        QVERIFY(!QFile::exists(m_cli->workspace()));
    }

    void failedReadsExitNonZero()
    {
        // A read that fails is an error with its reason, never an empty list.
        QCOMPARE(m_cli->run({s("apply"), s("-f"), write("a.yaml", accountYaml)}).exitCode, 0);
        auto sql = [this](const char *statement) {
            bool ok = false;
            {
                QSqlDatabase db = QSqlDatabase::addDatabase(s("QSQLITE"), s("other"));
                db.setDatabaseName(m_cli->workspace());
                ok = db.open() && QSqlQuery(db).exec(s(statement));
            }
            QSqlDatabase::removeDatabase(s("other"));
            return ok;
        };
        QVERIFY(sql("ALTER TABLE resources RENAME TO resources_away"));
        for (const QStringList &args :
             {QStringList{s("get")}, QStringList{s("get"), s("storageaccount")},
              QStringList{s("export"), s("--for"), s("aso")}}) {
            const CliResult r = m_cli->run(args);
            QVERIFY2(r.exitCode == 1, r.describe());
            QVERIFY2(r.errText().contains(s("cannot read the workspace")), r.describe());
            QVERIFY2(r.errText().contains(s("no such table: resources")), r.describe());
            QVERIFY2(!r.errText().contains(s("No resources")), r.describe());
        }
        QVERIFY(sql("ALTER TABLE resources_away RENAME TO resources"));
        QVERIFY(sql("ALTER TABLE events RENAME TO events_away"));
        CliResult r = m_cli->run({s("events")});
        QVERIFY2(r.exitCode == 1, r.describe());
        QVERIFY2(r.errText().contains(s("no such table: events")), r.describe());
        QVERIFY2(!r.errText().contains(s("No events found")), r.describe());
        QVERIFY(sql("ALTER TABLE events_away RENAME TO events"));
        r = m_cli->run({s("get")});
        QVERIFY2(r.exitCode == 0, r.describe());
    }

    void deleteWithoutAController()
    {
        QCOMPARE(m_cli
                     ->run({s("apply"), s("-f"),
                            write("m.yaml", QByteArray(accountYaml) + "---\n" + containerYaml)})
                     .exitCode,
                 0);
        CliResult r = m_cli->run({s("delete"), s("blobcontainer/invoices")});
        QVERIFY2(r.exitCode == 0, r.describe());
        QCOMPARE(r.outText(), s("blobcontainer/invoices marked for deletion\n"));
        QVERIFY(stored(s("BlobContainer"), s("invoices")).metadata.isBeingDeleted());
        r = m_cli->run({s("get"), s("blobcontainer/invoices")});
        QCOMPARE(r.outText()
                     .split(QLatin1Char('\n'))
                     .value(1)
                     .split(QLatin1Char(' '), Qt::SkipEmptyParts)
                     .mid(0, 3),
                 QStringList({s("blobcontainer/invoices"), s("Unknown"), s("Deleting")}));

        r = m_cli->run({s("delete"), s("--detach"), s("storageaccount/devstore")});
        QCOMPARE(r.exitCode, 0);
        const Resource account = stored(s("StorageAccount"), s("devstore"));
        QVERIFY(account.metadata.isBeingDeleted());
        QCOMPARE(account.policy(), Annotations::ReconcilePolicy::DetachOnDelete);

        r = m_cli->run({s("delete"), s("queue/nope")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.errText().contains(s("queue/nope not found")));
        QCOMPARE(m_cli->run({s("delete"), s("queue/nope"), s("--ignore-not-found")}).exitCode, 0);
    }

    void deleteWaitRunsTheController()
    {
        // Never claimed (no finalizer): the controller removes it without a backend call.
        const QString path = write("c.yaml", containerYaml);
        QCOMPARE(m_cli->run({s("apply"), s("-f"), path}).exitCode, 0);
        const CliResult r = m_cli->run({s("delete"), s("-f"), path, s("--wait=30s")});
        QVERIFY2(r.exitCode == 0, r.describe());
        QCOMPARE(r.outText(), s("blobcontainer/invoices marked for deletion\n"
                                "blobcontainer/invoices deleted\n"));
        QCOMPARE(countStored(), 0);
        QVERIFY(!QFile::exists(ControllerLock::lockPath(m_cli->workspace())));
    }

    void eventsByType()
    {
        // Its owner does not exist: the reconcile records a WaitingForOwner warning.
        QCOMPARE(m_cli->run({s("apply"), s("-f"), write("c.yaml", containerYaml)}).exitCode, 0);
        CliResult r = m_cli->run({s("reconcile"), s("blobcontainer/invoices")});
        QVERIFY2(r.exitCode == 0, r.describe()); // a Warning is retried, not a failure
        QCOMPARE(r.outText(), s("blobcontainer/invoices reconciled\n"));

        r = m_cli->run({s("events"), s("--type"), s("Warning")});
        QCOMPARE(r.exitCode, 0);
        QStringList lines = r.outText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY2(lines.size() >= 2, r.describe());
        QCOMPARE(lines.at(0).split(QLatin1Char(' '), Qt::SkipEmptyParts).mid(0, 3),
                 QStringList({s("LAST"), s("SEEN"), s("TYPE")}));
        for (const QString &line : lines.mid(1))
            QVERIFY2(line.contains(s(" Warning ")), qPrintable(line));
        QVERIFY(r.outText().contains(s("WaitingForOwner")));

        r = m_cli->run({s("events"), s("--type"), s("normal")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(!r.outText().contains(s("WaitingForOwner")));

        r = m_cli->run(
            {s("events"), s("blobcontainer/invoices"), s("--since"), s("1h"), s("-o"), s("json")});
        const QJsonObject doc = jsonOf(r);
        QCOMPARE(doc.value(s("kind")).toString(), s("EventList"));
        const QJsonObject e = doc.value(s("items")).toArray().at(0).toObject();
        QCOMPARE(e.value(s("involvedObject")).toString(), s("BlobContainer/invoices"));
        QCOMPARE(e.value(s("type")).toString(), s("Warning"));
        QCOMPARE(e.value(s("reason")).toString(), s("WaitingForOwner"));
        QCOMPARE(e.value(s("phase")).toString(), s("claim"));
        for (const char *key :
             {"id", "message", "count", "firstTimestamp", "lastTimestamp", "reconcileId"})
            QVERIFY2(e.contains(s(key)), key);

        // Nothing older than a second ago... once a second has passed.
        QTest::qWait(1100);
        r = m_cli->run({s("events"), s("--since"), s("1s"), s("-o"), s("json")});
        QCOMPARE(jsonOf(r).value(s("items")).toArray().size(), 0);
    }

    void eventsFollow()
    {
        QCOMPARE(m_cli->run({s("apply"), s("-f"), write("c.yaml", containerYaml)}).exitCode, 0);
        std::unique_ptr<QProcess> follow =
            m_cli->spawn({s("events"), s("--follow"), s("-o"), s("json")});
        QTRY_VERIFY(QFile::exists(m_cli->workspace()));
        QCOMPARE(m_cli->run({s("reconcile"), s("blobcontainer/invoices")}).exitCode, 0);
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += follow->readAllStandardOutput()).contains("\n"), 10000);
        const QJsonObject e = QJsonDocument::fromJson(out.left(out.indexOf('\n'))).object();
        QCOMPARE(e.value(s("reason")).toString(), s("WaitingForOwner"));
        ::kill(pid_t(follow->processId()), SIGINT);
        QVERIFY(follow->waitForFinished(5000));
        QCOMPARE(follow->exitStatus(), QProcess::NormalExit);
        QCOMPARE(follow->exitCode(), 0);
    }

    void applyWaitFailsForGood()
    {
        // A credential that cannot be resolved is Unauthorized: an Error, not retried.
        QByteArray yaml = QByteArray(accountYaml)
                              .replace("    emulator: true\n",
                                       "    env: CONVERGE_TEST_VARIABLE_THAT_IS_NOT_SET\n");
        m_cli->environment().remove(s("CONVERGE_TEST_VARIABLE_THAT_IS_NOT_SET"));
        QElapsedTimer timer;
        timer.start();
        const CliResult r =
            m_cli->run({s("apply"), s("-f"), write("a.yaml", yaml), s("--wait=2m")});
        QVERIFY2(r.exitCode == 1, r.describe());
        QVERIFY2(timer.elapsed() < 60000, "waited for the timeout instead of the failure");
        QCOMPARE(r.outText(), s("storageaccount/devstore created\n"));
        QVERIFY2(r.errText().contains(s("error: storageaccount/devstore failed: ")), r.describe());
        const Condition ready = stored(s("StorageAccount"), s("devstore")).status.ready();
        QVERIFY(ready.isFatal());
    }

    void applyWaitTimesOut()
    {
        const CliResult r = m_cli->run(
            {s("apply"), s("-f"), write("c.yaml", containerYaml), s("--wait"), s("--timeout=2s")});
        QVERIFY2(r.exitCode == 1, r.describe());
        QVERIFY2(
            r.errText().contains(s("error: timed out after 2s waiting for blobcontainer/invoices "
                                   "(WaitingForOwner: ")),
            r.describe());
    }

    void applyWaitFollowsTheProcessThatHoldsTheLock()
    {
        // This test process "runs the controller": the CLI must only watch the status.
        ControllerLock lock(m_cli->workspace());
        QVERIFY(lock.tryLock());
        std::unique_ptr<QProcess> apply = m_cli->spawn(
            {s("apply"), s("-f"), write("a.yaml", accountYaml), s("--wait=30s"), s("--verbose")});
        std::optional<Resource> r;
        QTRY_VERIFY_WITH_TIMEOUT((r = storedIfAny(s("StorageAccount"), s("devstore"))), 10000);
        QTest::qWait(300); // a poll or two see it not Ready
        QCOMPARE(apply->state(), QProcess::Running);
        {
            std::unique_ptr<Workspace> ws = open();
            ResourceStatus status;
            status.conditions = {Condition::ready(1, QDateTime::currentDateTimeUtc())};
            StoreError error;
            QVERIFY(ws->updateStatus(r->key(), status, &error));
        }
        QVERIFY(apply->waitForFinished(10000));
        const QString err = QString::fromUtf8(apply->readAllStandardError());
        QVERIFY2(apply->exitCode() == 0, qPrintable(err));
        QVERIFY2(err.contains(
                     s("controller: process %1 runs it").arg(QCoreApplication::applicationPid())),
                 qPrintable(err));
        QVERIFY(!err.contains(s("running in this process")));
    }

    void reconcileWhileAnotherProcessHoldsTheLock()
    {
        QCOMPARE(m_cli->run({s("apply"), s("-f"), write("a.yaml", accountYaml)}).exitCode, 0);
        ControllerLock lock(m_cli->workspace());
        QVERIFY(lock.tryLock());
        const qint64 before = stored(s("StorageAccount"), s("devstore")).metadata.generation;
        for (const char *command : {"reconcile", "refresh"}) {
            const CliResult r = m_cli->run({s(command), s("storageaccount/devstore")});
            QVERIFY2(r.exitCode == 0, r.describe());
            QCOMPARE(r.outText(),
                     s("storageaccount/devstore %1 requested from the controller in process %2\n")
                         .arg(s(command))
                         .arg(QCoreApplication::applicationPid()));
            const QString at =
                stored(s("StorageAccount"), s("devstore"))
                    .metadata.annotations.value(s("converge.dev/%1-requested-at").arg(s(command)));
            QVERIFY(QDateTime::fromString(at, Qt::ISODateWithMs).isValid());
        }
        QCOMPARE(stored(s("StorageAccount"), s("devstore")).metadata.generation, before);
    }

    void runRefusesWhenTheLockIsHeld()
    {
        ControllerLock lock(m_cli->workspace());
        QVERIFY(lock.tryLock());
        const CliResult r = m_cli->run({s("run")});
        QVERIFY2(r.exitCode == 2, r.describe());
        QVERIFY2(r.errText().contains(s("already runs elsewhere (held by process %1")
                                          .arg(QCoreApplication::applicationPid())),
                 r.describe());
    }

    void runStopsCleanly_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGINT") << int(SIGINT);
    }

    void runStopsCleanly()
    {
        QFETCH(int, signal);
        QCOMPARE(m_cli->run({s("apply"), s("-f"), write("a.yaml", accountYaml)}).exitCode, 0);
        std::unique_ptr<QProcess> run = m_cli->spawn({s("run"), s("--verbose")});
        QByteArray err;
        QTRY_VERIFY_WITH_TIMEOUT(
            (err += run->readAllStandardError()).contains("controller running"), 10000);
        // While it runs, it holds the lock: nobody else runs a controller.
        ControllerLock other(m_cli->workspace());
        QVERIFY(!other.tryLock());
        QCOMPARE(other.ownerPid(), run->processId());

        QElapsedTimer timer;
        timer.start();
        ::kill(pid_t(run->processId()), signal);
        QVERIFY(run->waitForFinished(10000));
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        err += run->readAllStandardError();
        QCOMPARE(run->exitStatus(), QProcess::NormalExit);
        QVERIFY2(run->exitCode() == 0, err.constData());
        QVERIFY(err.contains(QByteArray("stopping (signal " + QByteArray::number(signal) + ")")));
        QVERIFY(other.tryLock());
    }

    void exportThenApplyChangesNothing()
    {
        QCOMPARE(m_cli
                     ->run({s("apply"), s("-f"),
                            write("m.yaml", QByteArray(accountYaml) + "---\n" + containerYaml)})
                     .exitCode,
                 0);
        const CliResult exported = m_cli->run({s("export")});
        QCOMPARE(exported.exitCode, 0);
        QVERIFY(!exported.out.contains("status:"));
        QVERIFY(!exported.out.contains("uid:"));
        const qint64 version = stored(s("BlobContainer"), s("invoices")).metadata.resourceVersion;
        CliResult r = m_cli->run({s("apply"), s("-f"), write("exported.yaml", exported.out)});
        QCOMPARE(r.outText(), s("blobcontainer/invoices unchanged\nstorageaccount/devstore "
                                "unchanged\n"));
        QCOMPARE(stored(s("BlobContainer"), s("invoices")).metadata.resourceVersion, version);

        // JSON too, and it applies to a new workspace as the same desired state.
        r = m_cli->run({s("export"), s("blobcontainer/invoices"), s("-o"), s("json")});
        QCOMPARE(jsonOf(r).value(s("kind")).toString(), s("BlobContainer"));
        CliRunner fresh(m_dir->filePath(s("fresh.converge")));
        QCOMPARE(fresh.run({s("apply"), s("-f"), write("one.json", r.out)}).outText(),
                 s("blobcontainer/invoices created\n"));
    }

    void diffExitCodes()
    {
        const QString path = write("m.yaml", QByteArray(accountYaml) + "---\n" + containerYaml);
        // No workspace yet: everything would be created, and diff does not create the file.
        CliResult r = m_cli->run({s("diff"), s("-f"), path});
        QVERIFY2(r.exitCode == 1, r.describe());
        QVERIFY2(r.outText().startsWith(s("storageaccount/devstore create\n  backend: create\n"
                                          "blobcontainer/invoices create\n")),
                 r.describe());
        QVERIFY(!QFile::exists(m_cli->workspace()));

        QCOMPARE(m_cli->run({s("apply"), s("-f"), path}).exitCode, 0);
        const QByteArray before = fileBytes(m_cli->workspace());
        r = m_cli->run({s("diff"), s("-f"), path});
        QVERIFY2(r.exitCode == 0, r.describe());
        QVERIFY2(r.outText().contains(s("blobcontainer/invoices unchanged\n")), r.describe());

        // One field: old → new, and the exit code says something would change.
        const QString changed =
            write("c.yaml",
                  QByteArray(containerYaml).replace("publicAccess: None", "publicAccess: Blob"));
        r = m_cli->run({s("diff"), s("-f"), changed});
        QVERIFY2(r.exitCode == 1, r.describe());
        QVERIFY2(r.outText().startsWith(s("blobcontainer/invoices update\n"
                                          "    spec.publicAccess: \"None\" → \"Blob\"\n")),
                 r.describe());

        // Invalid input: located as apply locates it, exit 2, nothing printed as a plan.
        const QString bad =
            write("bad.yaml",
                  QByteArray(containerYaml).replace("publicAccess: None", "publicAccess: Public"));
        r = m_cli->run({s("diff"), s("-f"), bad});
        QVERIFY2(r.exitCode == 2, r.describe());
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.errText().startsWith(bad + s(":7:3: spec.publicAccess: ")), r.describe());

        QCOMPARE(fileBytes(m_cli->workspace()), before);
        QCOMPARE(stored(s("BlobContainer"), s("invoices")).metadata.generation, 1);

        // The backend was last seen otherwise: the next reconcile would write, so exit 1.
        {
            std::unique_ptr<Workspace> ws = open();
            ResourceStatus status;
            status.observed = QJsonObject{{s("spec"), QJsonObject{{s("publicAccess"), s("Blob")}}}};
            QVERIFY(ws->updateStatus({s("BlobContainer"), s("invoices")}, status, nullptr));
        }
        r = m_cli->run({s("diff"), s("-f"), path});
        QVERIFY2(r.exitCode == 1, r.describe());
        QVERIFY2(r.outText().contains(s("blobcontainer/invoices unchanged\n"
                                        "  backend: update spec.publicAccess\n"
                                        "    spec.publicAccess: \"Blob\" → \"None\"\n")),
                 r.describe());
    }

    void applyDryRunStoresNothing()
    {
        const QString path = write("m.yaml", QByteArray(accountYaml) + "---\n" + containerYaml);
        CliResult r = m_cli->run({s("apply"), s("--dry-run"), s("-f"), path});
        QVERIFY2(r.exitCode == 0, r.describe());
        QVERIFY2(r.outText().startsWith(s("storageaccount/devstore create (dry run)\n")),
                 r.describe());
        QVERIFY(!QFile::exists(m_cli->workspace()));

        QCOMPARE(m_cli->run({s("apply"), s("-f"), path}).exitCode, 0);
        const QByteArray before = fileBytes(m_cli->workspace());
        const QString changed =
            write("c.yaml",
                  QByteArray(containerYaml).replace("publicAccess: None", "publicAccess: Blob"));
        r = m_cli->run({s("apply"), s("--dry-run"), s("-f"), changed});
        QVERIFY2(r.exitCode == 0, r.describe());
        QVERIFY2(r.outText().contains(s("blobcontainer/invoices update (dry run)\n"
                                        "    spec.publicAccess: \"None\" → \"Blob\"\n")),
                 r.describe());
        QCOMPARE(fileBytes(m_cli->workspace()), before);
        QCOMPARE(stored(s("BlobContainer"), s("invoices")).spec.value(s("publicAccess")),
                 QJsonValue(s("None")));

        // Invalid: exit 2, as apply.
        r = m_cli->run({s("apply"), s("--dry-run"), s("-f"),
                        write("bad.yaml", QByteArray(containerYaml).replace("None", "Public"))});
        QVERIFY2(r.exitCode == 2, r.describe());
        QCOMPARE(fileBytes(m_cli->workspace()), before);
    }

    void diffOfAsoAndAckExports_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<QString>("changeLine");
        QTest::newRow("aso") << s("aso") << QByteArray("publicAccess: Blob")
                             << QByteArray("publicAccess: Container")
                             << s("blobcontainer/invoices update\n"
                                  "    spec.publicAccess: \"Blob\" → \"Container\"\n");
        QTest::newRow("ack") << s("ack") << QByteArray("readCapacityUnits: 5")
                             << QByteArray("readCapacityUnits: 7")
                             << s("dynamodbtable/orders update\n"
                                  "    spec.provisionedThroughput.readCapacityUnits: 5 → 7\n");
    }

    void diffOfAsoAndAckExports()
    {
        QFETCH(QString, target);
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(QString, changeLine);
        const QString workspace =
            qEnvironmentVariable("CONVERGE_TEST_DATA") + s("/interop/workspace.yaml");
        QVERIFY2(QFile::exists(workspace), qPrintable(workspace));
        QCOMPARE(m_cli->run({s("apply"), s("-f"), workspace}).exitCode, 0);
        const CliResult exported = m_cli->run({s("export"), s("--for"), target});
        QVERIFY2(!exported.out.isEmpty(), exported.describe());
        const QByteArray before = fileBytes(m_cli->workspace());

        // Back to the workspace it came from: nothing would change.
        CliResult r = m_cli->run({s("diff"), s("-f"), write("export.yaml", exported.out)});
        QVERIFY2(r.exitCode == 0, r.describe());
        const QRegularExpression changes(s("^\\S+ (update|create)$"),
                                         QRegularExpression::MultilineOption);
        QVERIFY2(!changes.match(r.outText()).hasMatch(), r.describe());
        QVERIFY2(r.outText().contains(s("; backend: 0 to create, 0 to update\n")), r.describe());

        QByteArray edited = exported.out;
        QVERIFY(edited.contains(from));
        edited.replace(from, to);
        r = m_cli->run({s("diff"), s("-f"), write("edited.yaml", edited)});
        QVERIFY2(r.exitCode == 1, r.describe());
        QVERIFY2(r.outText().contains(changeLine), r.describe());
        r = m_cli->run({s("apply"), s("--dry-run"), s("-f"), write("edited.yaml", edited)});
        QVERIFY2(r.exitCode == 0, r.describe());
        QCOMPARE(fileBytes(m_cli->workspace()), before);
    }

private:
    static QByteArray fileBytes(const QString &path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    QString write(const char *name, const QByteArray &content)
    {
        const QString path = m_dir->filePath(s(name));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            qFatal("cannot write %s", qPrintable(path));
        file.write(content);
        return path;
    }

    std::unique_ptr<Workspace> open() const
    {
        StoreError error;
        std::unique_ptr<Workspace> ws = Workspace::open(m_cli->workspace(), &error);
        if (!ws)
            qWarning("cannot open the workspace: %s", qPrintable(error.message));
        return ws;
    }

    qint64 countStored() const
    {
        if (!QFile::exists(m_cli->workspace()))
            return 0;
        return open()->count();
    }

    std::optional<Resource> storedIfAny(const QString &kind, const QString &name) const
    {
        if (!QFile::exists(m_cli->workspace()))
            return std::nullopt;
        const std::unique_ptr<Workspace> ws = open();
        return ws ? ws->get({kind, name}) : std::nullopt;
    }

    Resource stored(const QString &kind, const QString &name) const
    {
        return storedIfAny(kind, name).value_or(Resource{});
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<CliRunner> m_cli;
};

QTEST_GUILESS_MAIN(tst_Cli)
#include "tst_cli.moc"

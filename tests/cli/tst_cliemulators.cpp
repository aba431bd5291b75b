// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "clirunner.h"
#include "emulators.h"
#include "workspace.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace converge;
using namespace converge::test;

/// `converge` against the Azurite and dynalite of the CTest fixture. Names carry a random stem:
/// the tests share the emulators with other tests.
class tst_CliEmulators final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        m_emulators = Emulators::fromEnvironment();
        QVERIFY2(m_emulators.isValid(), qPrintable(m_emulators.error));
        m_stem = QStringLiteral("c%1").arg(QRandomGenerator::global()->generate() % 0xFFFFFF, 6, 16,
                                           QLatin1Char('0'));
        QVERIFY(m_dir.isValid());
        m_cli = std::make_unique<CliRunner>(m_dir.filePath(s("emulators.converge")));
    }

    void applyWaitConverges()
    {
        const CliResult r =
            m_cli->run({s("apply"), s("-f"), write("all.yaml", manifests()), s("--wait=2m")});
        QVERIFY2(r.exitCode == 0, r.describe());
        QCOMPARE(r.outText().count(s(" created\n")), 6);

        const QJsonObject list = json(m_cli->run({s("get"), s("-o"), s("json")}));
        const QJsonArray items = list.value(s("items")).toArray();
        QCOMPARE(items.size(), 6);
        for (const QJsonValue &item : items) {
            const QJsonObject o = item.toObject();
            const QJsonObject ready =
                o.value(s("status")).toObject().value(s("conditions")).toArray().at(0).toObject();
            QCOMPARE(ready.value(s("status")).toString(), s("True"));
            QCOMPARE(ready.value(s("observedGeneration")).toInteger(),
                     o.value(s("metadata")).toObject().value(s("generation")).toInteger());
            QVERIFY(o.value(s("metadata"))
                        .toObject()
                        .value(s("finalizers"))
                        .toArray()
                        .contains(s("converge.dev/finalizer")));
        }
        // The controller ran in the apply and stopped with it.
        QVERIFY(!QFile::exists(m_cli->workspace() + s(".lock")));
    }

    void exportThenApplyWritesNothing()
    {
        const qint64 lastEvent = newestEventId();
        const QList<Resource> before = open()->list();
        QCOMPARE(before.size(), 6);

        const CliResult exported = m_cli->run({s("export")});
        QCOMPARE(exported.exitCode, 0);
        CliResult r = m_cli->run({s("apply"), s("-f"), write("exported.yaml", exported.out),
                                  s("--wait=1m"), s("--verbose")});
        QVERIFY2(r.exitCode == 0, r.describe());
        QCOMPARE(r.outText().count(s(" unchanged\n")), 6);
        QVERIFY(!r.outText().contains(s(" configured")));

        // Reconciling all of it against the backend: observed, and nothing written.
        QStringList keys;
        for (const Resource &res : before)
            keys << res.kind.toLower() + QLatin1Char('/') + res.metadata.name;
        r = m_cli->run(QStringList{s("reconcile")} + keys + QStringList{s("--verbose")});
        QVERIFY2(r.exitCode == 0, r.describe());
        QVERIFY2(r.errText().contains(s(" 0 backend writes")), r.describe());

        const QList<Resource> after = open()->list();
        QCOMPARE(after.size(), before.size());
        for (qsizetype i = 0; i < after.size(); ++i) {
            QCOMPARE(after.at(i).metadata.generation, before.at(i).metadata.generation);
            QCOMPARE(after.at(i).spec, before.at(i).spec);
        }
        EventQuery query;
        query.afterId = lastEvent;
        for (const Event &e : open()->events(query)) {
            QVERIFY2(e.reason != s("Created") && e.reason != s("Updated"),
                     qPrintable(e.involved.toString() + s(": ") + e.reason));
        }
    }

    void aRenameIsRefusedAndStoresNothing()
    {
        // The table of applyWaitConverges exists in Azurite as its metadata.name; a new azureName
        // would create a second table and leave this one unmanaged.
        const ResourceKey key{s("Table"), name("customers")};
        const std::optional<Resource> before = open()->get(key);
        QVERIFY(before);
        const QString renamed =
            write("renamed.yaml", s("apiVersion: azure.converge.dev/v1\n"
                                    "kind: Table\n"
                                    "metadata: {name: %1}\n"
                                    "spec:\n"
                                    "  owner: {name: %2}\n"
                                    "  azureName: %3\n")
                                      .arg(key.name, name("account"), name("clients"))
                                      .toUtf8());
        for (const QStringList &args : {QStringList{s("apply"), s("--wait=1m")}, {s("diff")}}) {
            const CliResult r = m_cli->run(args + QStringList{s("-f"), renamed});
            QVERIFY2(r.exitCode == 2, r.describe());
            QVERIFY2(r.errText().startsWith(
                         renamed + s(":6:3: spec.azureName: cannot change after creation (\"") +
                         key.name + s("\" → \"") + name("clients") + s("\")")),
                     r.describe());
            QVERIFY2(r.errText().contains(s("delete it and apply the new spec")), r.describe());
        }
        const std::optional<Resource> after = open()->get(key);
        QCOMPARE(after->metadata.generation, before->metadata.generation);
        QCOMPARE(after->spec, before->spec);

        // The backend holds the table as before and nothing new: a reconcile writes nothing, and
        // the account's listing shows no second table.
        CliResult r = m_cli->run({s("reconcile"), s("table/") + key.name, s("--verbose")});
        QVERIFY2(r.exitCode == 0, r.describe());
        QVERIFY2(r.errText().contains(s(" 0 backend writes")), r.describe());
        r = m_cli->run({s("refresh"), s("storageaccount/") + name("account")});
        QVERIFY2(r.exitCode == 0, r.describe());
        r = m_cli->run({s("get"), s("tables"), s("--unmanaged"), s("-o"), s("name")});
        QVERIFY2(!r.outText().contains(name("clients")), r.describe());
    }

    void applyWhileAnotherProcessRunsTheController()
    {
        std::unique_ptr<QProcess> run = m_cli->spawn({s("run"), s("--verbose")});
        QByteArray runErr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (runErr += run->readAllStandardError()).contains("controller running"), 10000);

        const QByteArray queue = "apiVersion: azure.converge.dev/v1\n"
                                 "kind: Queue\n"
                                 "metadata:\n"
                                 "  name: " +
                                 name("late").toUtf8() +
                                 "\n"
                                 "spec:\n"
                                 "  owner: {name: " +
                                 name("account").toUtf8() + "}\n";
        const CliResult r = m_cli->run(
            {s("apply"), s("-f"), write("late.yaml", queue), s("--wait=30s"), s("--verbose")});
        QVERIFY2(r.exitCode == 0, r.describe());
        QVERIFY2(r.errText().contains(s("controller: process %1 runs it").arg(run->processId())),
                 r.describe());
        QVERIFY2(!r.errText().contains(s("running in this process")), r.describe());
        QVERIFY(open()->get({s("Queue"), name("late")})->status.ready().isReady());

        run->terminate();
        QVERIFY(run->waitForFinished(10000));
        QCOMPARE(run->exitCode(), 0);
        // `run` printed the events of the reconcile it did for the other process.
        QVERIFY(run->readAllStandardOutput().contains("Created"));
    }

    void deleteWait()
    {
        const QString container = s("blobcontainer/") + name("box");
        const CliResult r = m_cli->run({s("delete"), container, s("--wait=1m")});
        QVERIFY2(r.exitCode == 0, r.describe());
        QCOMPARE(r.outText(),
                 container + s(" marked for deletion\n") + container + s(" deleted\n"));
        QVERIFY(!open()->get({s("BlobContainer"), name("box")}));
        EventQuery query;
        query.involved = ResourceKey{s("BlobContainer"), name("box")};
        query.reason = s("Deleted");
        QCOMPARE(open()->events(query).size(), 1);
        QCOMPARE(m_cli->run({s("get"), container}).exitCode, 1);
    }

    void unmanagedAreListedDescribedAndClaimed()
    {
        // Another workspace makes a container under the same Azurite account: to this one it
        // was made outside.
        const QString outside = name("outside");
        CliRunner other(m_dir.filePath(s("other.converge")));
        const QString manifest =
            QString::fromUtf8(manifests()).section(s("---\n"), 0, 0) +
            s("---\napiVersion: azure.converge.dev/v1\nkind: BlobContainer\nmetadata: {name: "
              "%1}\nspec: {owner: {name: %2}}\n")
                .arg(outside, name("account"));
        CliResult r = other.run(
            {s("apply"), s("-f"), write("outside.yaml", manifest.toUtf8()), s("--wait=1m")});
        QVERIFY2(r.exitCode == 0, r.describe());

        const QString account = s("storageaccount/") + name("account");
        r = m_cli->run({s("refresh"), account});
        QVERIFY2(r.exitCode == 0, r.describe());
        r = m_cli->run({s("get"), s("blobcontainers"), s("--unmanaged"), s("-o"), s("json")});
        QVERIFY2(r.exitCode == 0, r.describe());
        QJsonObject found;
        for (const QJsonValue &item : json(r).value(s("items")).toArray()) {
            if (item[s("status")][s("backendName")].toString() == outside)
                found = item.toObject();
        }
        QVERIFY2(!found.isEmpty(), r.out.constData());
        QCOMPARE(found[s("status")][s("unmanaged")].toBool(), true);
        QCOMPARE(found[s("status")][s("owner")].toString(), s("StorageAccount/") + name("account"));
        QVERIFY(!found[s("status")][s("firstSeen")].toString().isEmpty());
        QCOMPARE(found[s("spec")][s("owner")][s("name")].toString(), name("account"));
        // The managed ones are not in that list; --all has both.
        r = m_cli->run({s("get"), s("--all"), s("-o"), s("name")});
        QVERIFY2(r.outText().contains(s("queue/") + name("events") + s("\n")), r.out.constData());
        QVERIFY(r.outText().contains(s("blobcontainer/") + outside + s("\n")));

        r = m_cli->run({s("describe"), s("blobcontainer/") + outside});
        QVERIFY2(r.exitCode == 0, r.describe());
        QVERIFY2(r.outText().contains(s("Managed:")) && r.outText().contains(s("First Seen:")),
                 r.out.constData());

        r = m_cli->run({s("claim"), s("blobcontainer/") + outside, s("--wait=1m")});
        QVERIFY2(r.exitCode == 0, r.describe());
        const QJsonObject claimed =
            json(m_cli->run({s("get"), s("blobcontainer/") + outside, s("-o"), s("json")}));
        QCOMPARE(claimed[s("status")][s("conditions")][0][s("status")].toString(), s("True"));
        QVERIFY(!claimed[s("metadata")][s("annotations")][s("converge.dev/resource-id")]
                     .toString()
                     .isEmpty());
        r = m_cli->run({s("get"), s("blobcontainer/") + outside, s("--unmanaged")});
        QCOMPARE(r.exitCode, 1); // no longer unmanaged
    }

    // A declared kind made outside (by another workspace) is listed unmanaged, claimed with what
    // was observed as its spec, and Ready without a write.
    void declaredKindMadeElsewhereIsClaimed()
    {
        if (!m_emulators.hasMoto())
            QSKIP(
                qPrintable(s("skipped: moto_server not found (%1)").arg(m_emulators.motoMissing)));
        const QString account = name("moto");
        const QString queue = name("elsewhere");
        const QByteArray accountManifest =
            s("apiVersion: aws.converge.dev/v1\nkind: AwsAccount\nmetadata: {name: %1}\n"
              "spec: {region: us-east-1, endpoint: '%2', credential: {emulator: true}}\n")
                .arg(account, m_emulators.motoEndpoint().toString())
                .toUtf8();
        CliResult r =
            m_cli->run({s("apply"), s("-f"), write("moto.yaml", accountManifest), s("--wait=1m")});
        QVERIFY2(r.exitCode == 0, r.describe());
        CliRunner other(m_dir.filePath(s("other-moto.converge")));
        r = other.run(
            {s("apply"), s("-f"),
             write("queue.yaml",
                   accountManifest + s("---\napiVersion: aws.converge.dev/v1\nkind: SQSQueue\n"
                                       "metadata: {name: %1}\nspec: {owner: {name: %2}, "
                                       "visibilityTimeout: '45', tags: {team: ops}}\n")
                                         .arg(queue, account)
                                         .toUtf8()),
             s("--wait=1m")});
        QVERIFY2(r.exitCode == 0, r.describe());

        r = m_cli->run({s("refresh"), s("awsaccount/") + account});
        QVERIFY2(r.exitCode == 0, r.describe());
        r = m_cli->run({s("get"), s("sqsqueues"), s("--unmanaged"), s("-o"), s("name")});
        QVERIFY2(r.outText().contains(s("sqsqueue/") + queue + s("\n")), r.out.constData());
        r = m_cli->run({s("claim"), s("sqsqueue/") + queue, s("--wait=1m")});
        QVERIFY2(r.exitCode == 0, r.describe());
        const QJsonObject claimed =
            json(m_cli->run({s("get"), s("sqsqueue/") + queue, s("-o"), s("json")}));
        QCOMPARE(claimed[s("status")][s("conditions")][0][s("status")].toString(), s("True"));
        QCOMPARE(claimed[s("spec")][s("visibilityTimeout")].toString(), s("45"));
        QCOMPARE(claimed[s("spec")][s("tags")][s("team")].toString(), s("ops"));
        QVERIFY(claimed[s("metadata")][s("annotations")][s("converge.dev/resource-id")]
                    .toString()
                    .endsWith(s("/") + queue));
        r = m_cli->run({s("delete"), s("sqsqueue/") + queue, s("--wait=1m")});
        QVERIFY2(r.exitCode == 0, r.describe());
    }

    // Two accounts on one dynalite endpoint reach one table: the second lists it as the first's,
    // and neither a claim nor an apply makes it a second manager's (issue 58, point 1).
    void oneTableHasOneManager()
    {
        const QString a = name("sa");
        const QString b = name("sb");
        const QString table = name("Shared");
        const auto account = [this](const QString &account) {
            return s("apiVersion: aws.converge.dev/v1\nkind: AwsAccount\nmetadata: {name: %1}\n"
                     "spec: {region: us-east-1, endpoint: '%2', credential: {emulator: true}}\n")
                .arg(account, m_emulators.dynamoEndpoint().toString());
        };
        const QString manifest =
            account(a) + s("---\n") + account(b) +
            s("---\napiVersion: aws.converge.dev/v1\nkind: DynamoDBTable\nmetadata: {name: "
              "%1}\nspec:\n  owner: {name: %2}\n  tableName: %3\n  attributeDefinitions: "
              "[{attributeName: id, attributeType: S}]\n  keySchema: [{attributeName: id, "
              "keyType: HASH}]\n")
                .arg(name("solo"), a, table);
        CliResult r = m_cli->run(
            {s("apply"), s("-f"), write("one-manager.yaml", manifest.toUtf8()), s("--wait=1m")});
        QVERIFY2(r.exitCode == 0, r.describe());

        // Listed under b, the table is a's: not unmanaged, and said so.
        r = m_cli->run({s("refresh"), s("awsaccount/") + b});
        QVERIFY2(r.exitCode == 0, r.describe());
        r = m_cli->run({s("get"), s("dynamodbtables"), s("--unmanaged"), s("-o"), s("name")});
        QVERIFY2(!r.outText().contains(s("dynamodbtable/") + table + s("\n")), r.describe());
        QVERIFY2(r.errText().contains(s("dynamodbtable/%1 under awsaccount/%2 is "
                                        "dynamodbtable/%3's (account %4), not unmanaged")
                                          .arg(table, b, name("solo"), a)),
                 r.describe());

        // Claim refuses, naming the manager; nothing is stored.
        r = m_cli->run({s("claim"), s("dynamodbtable/") + table});
        QVERIFY2(r.exitCode == 2, r.describe());
        QVERIFY2(r.errText().contains(
                     s("managed by DynamoDBTable/%1 (account %2)").arg(name("solo"), a)),
                 r.describe());
        const QList<Resource> tables = open()->list(s("DynamoDBTable"));
        qsizetype managers = 0;
        for (const Resource &t : tables)
            managers += t.spec.value(s("tableName")).toString() == table ? 1 : 0;
        QCOMPARE(managers, 1);
    }

    // Two processes that claim one backend resource at once (an apply of resources recording
    // the same backend ID, which is what a claim stores): one stores it, the other is refused
    // with exit 2, every round, whichever is first.
    void twoProcessesClaimingAtOnceMakeOneManager()
    {
        const QString a = name("ra");
        const QString b = name("rb");
        const auto account = [](const QString &account) {
            return s("apiVersion: aws.converge.dev/v1\nkind: AwsAccount\nmetadata: {name: %1}\n"
                     "spec: {region: us-east-1, endpoint: 'http://127.0.0.1:9', credential: "
                     "{emulator: true}}\n")
                .arg(account);
        };
        CliResult r = m_cli->run(
            {s("apply"), s("-f"),
             write("race-accounts.yaml", (account(a) + s("---\n") + account(b)).toUtf8())});
        QVERIFY2(r.exitCode == 0, r.describe());
        const auto claimed = [this](const QString &name, const QString &owner, int round) {
            return s("apiVersion: aws.converge.dev/v1\nkind: DynamoDBTable\nmetadata:\n  name: "
                     "%1\n  annotations: {converge.dev/resource-id: "
                     "'arn:aws:dynamodb:us-east-1:000000000000:table/%4-race-%3'}\nspec:\n  "
                     "owner: {name: %2}\n  tableName: %4-race-%3\n  attributeDefinitions: "
                     "[{attributeName: id, attributeType: S}]\n  keySchema: [{attributeName: id, "
                     "keyType: HASH}]\n")
                .arg(name, owner)
                .arg(round)
                .arg(m_stem)
                .toUtf8();
        };
        for (int round = 0; round < 6; ++round) {
            const QString first = write("race-a.yaml", claimed(name("ta%1").arg(round), a, round));
            const QString second = write("race-b.yaml", claimed(name("tb%1").arg(round), b, round));
            std::unique_ptr<QProcess> pa = m_cli->spawn({s("apply"), s("-f"), first});
            std::unique_ptr<QProcess> pb = m_cli->spawn({s("apply"), s("-f"), second});
            QVERIFY(pa->waitForFinished(60000) && pb->waitForFinished(60000));
            const QList<int> codes{pa->exitCode(), pb->exitCode()};
            const QByteArray said = QByteArray::number(codes.at(0)) + ' ' +
                                    QByteArray::number(codes.at(1)) + '\n' +
                                    pa->readAllStandardError() + pb->readAllStandardError();
            QVERIFY2(codes.count(0) == 1 && codes.count(2) == 1, said.constData());
            const QString arn = s("arn:aws:dynamodb:us-east-1:000000000000:table/%1-race-%2")
                                    .arg(m_stem)
                                    .arg(round);
            QCOMPARE(open()->recordersOf(arn).size(), 1);
        }
    }

    void applyWaitOfManyConverges()
    {
        // Many targets, read by the waiter in batches of one statement each; its own
        // workspace, so that the earlier tests' resources do not count.
        CliRunner cli(m_dir.filePath(s("many.converge")));
        const Emulators &e = m_emulators;
        QString text = s("apiVersion: azure.converge.dev/v1\n"
                         "kind: StorageAccount\n"
                         "metadata: {name: %1}\n"
                         "spec:\n"
                         "  accountName: devstoreaccount1\n"
                         "  endpoints: {blob: '%2', queue: '%3', table: '%4'}\n"
                         "  credential: {emulator: true}\n")
                           .arg(name("many"), e.blobEndpoint().toString(),
                                e.queueEndpoint().toString(), e.tableEndpoint().toString());
        constexpr int queues = 48;
        for (int i = 0; i < queues; ++i)
            text += s("---\napiVersion: azure.converge.dev/v1\nkind: Queue\nmetadata: {name: "
                      "%1-%2}\nspec: {owner: {name: %3}}\n")
                        .arg(name("bulk"))
                        .arg(i)
                        .arg(name("many"));
        CliResult r = cli.run({s("apply"), s("-f"), write("many.yaml", text.toUtf8()),
                               s("--wait=2m"), s("--verbose")});
        QVERIFY2(r.exitCode == 0, r.describe());
        QCOMPARE(r.errText().count(s(": Ready\n")), queues + 1);

        // Reconciling them all again changes no row: each is judged by its processing.
        QStringList keys;
        for (int i = 0; i < queues; ++i)
            keys << s("queue/%1-%2").arg(name("bulk")).arg(i);
        r = cli.run(QStringList{s("reconcile")} + keys + QStringList{s("--verbose")});
        QVERIFY2(r.exitCode == 0, r.describe());
        QVERIFY2(r.errText().contains(s(" 0 backend writes")), r.describe());
    }

private:
    QString name(const char *base) const { return m_stem + s(base); }

    QByteArray manifests() const
    {
        const Emulators &e = m_emulators;
        const QString text =
            s("apiVersion: azure.converge.dev/v1\n"
              "kind: StorageAccount\n"
              "metadata: {name: %1}\n"
              "spec:\n"
              "  accountName: devstoreaccount1\n"
              "  endpoints: {blob: '%2', queue: '%3', table: '%4'}\n"
              "  credential: {emulator: true}\n"
              "---\n"
              "apiVersion: azure.converge.dev/v1\n"
              "kind: BlobContainer\n"
              "metadata: {name: %5}\n"
              "spec: {owner: {name: %1}, publicAccess: None, metadata: {team: billing}}\n"
              "---\n"
              "apiVersion: azure.converge.dev/v1\n"
              "kind: Queue\n"
              "metadata: {name: %6}\n"
              "spec: {owner: {name: %1}}\n"
              "---\n"
              "apiVersion: azure.converge.dev/v1\n"
              "kind: Table\n"
              "metadata: {name: %7}\n"
              "spec: {owner: {name: %1}}\n"
              "---\n"
              "apiVersion: aws.converge.dev/v1\n"
              "kind: AwsAccount\n"
              "metadata: {name: %8}\n"
              "spec: {region: us-east-1, endpoint: '%9', credential: {emulator: true}}\n"
              "---\n"
              "apiVersion: aws.converge.dev/v1\n"
              "kind: DynamoDBTable\n"
              "metadata: {name: %10}\n"
              "spec:\n"
              "  owner: {name: %8}\n"
              "  tableName: %10\n"
              "  attributeDefinitions: [{attributeName: id, attributeType: S}]\n"
              "  keySchema: [{attributeName: id, keyType: HASH}]\n"
              "  billingMode: PAY_PER_REQUEST\n")
                .arg(name("account"), e.blobEndpoint().toString(), e.queueEndpoint().toString(),
                     e.tableEndpoint().toString(), name("box"), name("events"), name("customers"),
                     name("aws"), e.dynamoEndpoint().toString().chopped(1))
                .arg(name("orders"));
        return text.toUtf8();
    }

    QString write(const char *file, const QByteArray &content)
    {
        const QString path = m_dir.filePath(s(file));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            qFatal("cannot write %s", qPrintable(path));
        f.write(content);
        return path;
    }

    std::unique_ptr<Workspace> open() const
    {
        StoreError error;
        std::unique_ptr<Workspace> ws = Workspace::open(m_cli->workspace(), &error);
        if (!ws)
            qFatal("cannot open the workspace: %s", qPrintable(error.message));
        return ws;
    }

    qint64 newestEventId() const
    {
        EventQuery query;
        query.newestFirst = true;
        query.limit = 1;
        const QList<Event> events = open()->events(query);
        return events.isEmpty() ? 0 : events.constFirst().id;
    }

    static QJsonObject json(const CliResult &r) { return QJsonDocument::fromJson(r.out).object(); }

    Emulators m_emulators;
    QString m_stem;
    QTemporaryDir m_dir;
    std::unique_ptr<CliRunner> m_cli;
};

QTEST_GUILESS_MAIN(tst_CliEmulators)
#include "tst_cliemulators.moc"

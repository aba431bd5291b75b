// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "annotations.h"
#include "backendid.h"
#include "workspace.h"
#include "workspaceschema.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

using namespace converge;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

const QString arn = s("arn:aws:dynamodb:us-east-1:000000000000:table/Orders");

Resource account(const QString &name)
{
    Resource r;
    r.apiVersion = s("aws.converge.dev/v1");
    r.kind = s("AwsAccount");
    r.metadata.name = name;
    r.spec = QJsonObject{{s("region"), s("us-east-1")}};
    return r;
}

Resource table(const QString &name, const QString &owner, const QString &id = arn)
{
    Resource r;
    r.apiVersion = s("aws.converge.dev/v1");
    r.kind = s("DynamoDBTable");
    r.metadata.name = name;
    r.spec =
        QJsonObject{{s("owner"), QJsonObject{{s("name"), owner}}}, {s("tableName"), s("Orders")}};
    if (!id.isEmpty())
        r.metadata.annotations.insert(Annotations::resourceId(), id);
    return r;
}

} // namespace

/// One backend resource has one manager in a workspace (BackendIdIndex, schema version 9).
class tst_BackendIds final : public QObject
{
    Q_OBJECT

private slots:
    void init() { m_dir = std::make_unique<QTemporaryDir>(); }

    void idsAreNormalizedAsTheirCloudComparesThem_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("normalized");
        QTest::newRow("ARN: exactly") << arn << arn;
        QTest::newRow("ARM ID: case-insensitively")
            << s("/subscriptions/ABC/resourceGroups/Prod/providers/Microsoft.Storage/"
                 "storageAccounts/Data")
            << s("/subscriptions/abc/resourcegroups/prod/providers/microsoft.storage/"
                 "storageaccounts/data");
        QTest::newRow("URL: the host, not the path")
            << s("HTTP://Example.COM:10000/devstoreaccount1/Invoices/A.txt")
            << s("http://example.com:10000/devstoreaccount1/Invoices/A.txt");
        QTest::newRow("Google name: exactly")
            << s("projects/p/topics/Orders") << s("projects/p/topics/Orders");
    }

    void idsAreNormalizedAsTheirCloudComparesThem()
    {
        QFETCH(QString, id);
        QFETCH(QString, normalized);
        QCOMPARE(BackendId::normalized(id), normalized);
    }

    void aSecondManagerIsRefusedAndNothingIsStored()
    {
        auto ws = open();
        QVERIFY(store(*ws, {account(s("a")), account(s("b")), table(s("orders"), s("a"))}));
        StoreError error;
        QVERIFY(!ws->apply({table(s("orders-2"), s("b"))}, nullptr, &error));
        QCOMPARE(error.code, StoreError::Code::AlreadyManaged);
        QVERIFY2(error.message.contains(s("is managed by DynamoDBTable/orders already")),
                 qPrintable(error.message));
        QVERIFY(!ws->get({s("DynamoDBTable"), s("orders-2")}));
        // Two at once in one apply: neither is stored.
        QVERIFY(!ws->apply({table(s("x"), s("a"), s("arn:x")), table(s("y"), s("b"), s("arn:x"))},
                           nullptr, &error));
        QCOMPARE(error.code, StoreError::Code::AlreadyManaged);
        QVERIFY(!ws->get({s("DynamoDBTable"), s("x")}));
        // Nor by a later edit of another resource.
        QVERIFY(store(*ws, {table(s("other"), s("b"), s("arn:other"))}));
        Resource other = *ws->get({s("DynamoDBTable"), s("other")});
        other.metadata.annotations.insert(Annotations::resourceId(), arn);
        QVERIFY(!ws->update(other, &error));
        QCOMPARE(error.code, StoreError::Code::AlreadyManaged);
        QCOMPARE(ws->managerOf(arn), (ResourceKey{s("DynamoDBTable"), s("orders")}));
        // The manager itself writes on as before.
        QVERIFY(store(*ws, {table(s("orders"), s("a"))}));
    }

    void aStatusWriteCannotRecordAHeldId()
    {
        auto ws = open();
        QVERIFY(store(*ws, {table(s("orders"), s("a")), table(s("orders-2"), s("b"), {})}));
        StoreError error;
        QVERIFY(
            !ws->updateStatus({s("DynamoDBTable"), s("orders-2")}, ResourceStatus{}, arn, &error));
        QCOMPARE(error.code, StoreError::Code::AlreadyManaged);
        QVERIFY(!ws->get({s("DynamoDBTable"), s("orders-2")})
                     ->metadata.annotations.contains(Annotations::resourceId()));
        // Once the manager is gone, the ID is free.
        QVERIFY(ws->remove({s("DynamoDBTable"), s("orders")}, &error));
        QVERIFY2(
            ws->updateStatus({s("DynamoDBTable"), s("orders-2")}, ResourceStatus{}, arn, &error),
            qPrintable(error.message));
        QCOMPARE(ws->managerOf(arn), (ResourceKey{s("DynamoDBTable"), s("orders-2")}));
    }

    void accountsMayReachOneAccount()
    {
        // Connections manage nothing in the backend: two may reach the same endpoint.
        auto ws = open();
        Resource a = account(s("a"));
        Resource b = account(s("b"));
        for (Resource *r : {&a, &b})
            r->metadata.annotations.insert(Annotations::resourceId(), s("http://127.0.0.1:8000/"));
        QVERIFY(store(*ws, {a, b}));
        QVERIFY(!ws->managerOf(s("http://127.0.0.1:8000/")));
    }

    void armIdsCollideWhateverTheirCase()
    {
        auto ws = open();
        const QString id = s("/subscriptions/s/resourceGroups/Prod");
        QVERIFY(store(*ws, {table(s("one"), s("a"), id)}));
        StoreError error;
        QVERIFY(!ws->apply({table(s("two"), s("b"), id.toUpper())}, nullptr, &error));
        QCOMPARE(error.code, StoreError::Code::AlreadyManaged);
        // ARNs are compared exactly: these are two tables.
        QVERIFY(
            store(*ws, {table(s("three"), s("a"), arn), table(s("four"), s("b"), arn + s("2"))}));
    }

    void theIndexRefusesWhatNoCheckSaw()
    {
        // Two processes that both passed the check cannot both write: the unique index decides.
        auto ws = open();
        QVERIFY(store(*ws, {table(s("orders"), s("a")), table(s("orders-2"), s("b"), {})}));
        QSqlDatabase db = QSqlDatabase::addDatabase(s("QSQLITE"), s("raw"));
        db.setDatabaseName(path());
        QVERIFY(db.open());
        {
            QSqlQuery q(db);
            QVERIFY(!q.exec(
                s("UPDATE resources SET backend_id = '%1' WHERE name = 'orders-2'").arg(arn)));
            QVERIFY2(q.lastError().databaseText().contains(s("UNIQUE")),
                     qPrintable(q.lastError().databaseText()));
        }
        db.close();
        db = {};
        QSqlDatabase::removeDatabase(s("raw"));
    }

    void duplicatesAnEarlierVersionStoredOpenAndAreKnown()
    {
        // What version 8 wrote after two claims of one table: both record its ARN.
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(s("QSQLITE"), s("v8"));
            db.setDatabaseName(path());
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(s("BEGIN")));
            QString error;
            QVERIFY2(WorkspaceSchema::upgrade(db, 0, 8, &error), qPrintable(error));
            const QString annotations = s("{\"converge.dev/resource-id\":\"%1\"}").arg(arn);
            int version = 0;
            const auto insert = [&](const QString &kind, const QString &name,
                                    const QString &annotation, const QString &spec) {
                QSqlQuery row(db);
                row.prepare(s("INSERT INTO resources (kind, name, api_version, uid, generation,"
                              " resource_version, labels, annotations, finalizers, spec, status,"
                              " creation_time) VALUES (?, ?, 'aws.converge.dev/v1', ?, 1, ?,"
                              " '{}', ?, '[\"converge.dev/finalizer\"]', ?, '{}', 0)"));
                row.addBindValue(kind);
                row.addBindValue(name);
                row.addBindValue(QUuid::createUuid().toString(QUuid::WithoutBraces));
                row.addBindValue(++version);
                row.addBindValue(annotation);
                row.addBindValue(spec);
                return row.exec();
            };
            QVERIFY(insert(s("AwsAccount"), s("a"), s("{}"), s("{}")));
            QVERIFY(insert(s("AwsAccount"), s("b"), s("{}"), s("{}")));
            QVERIFY(insert(s("DynamoDBTable"), s("orders"), annotations,
                           s("{\"owner\":{\"name\":\"a\"},\"tableName\":\"Orders\"}")));
            QVERIFY(insert(s("DynamoDBTable"), s("orders-2"), annotations,
                           s("{\"owner\":{\"name\":\"b\"},\"tableName\":\"Orders\"}")));
            QVERIFY(q.exec(s("UPDATE workspace_meta SET value = 4 WHERE key ="
                             " 'resource_version'")));
            QVERIFY(q.exec(s("COMMIT")));
            q = QSqlQuery();
            db.close();
        }
        QSqlDatabase::removeDatabase(s("v8"));

        auto ws = open();
        const ResourceKey orders{s("DynamoDBTable"), s("orders")};
        const ResourceKey second{s("DynamoDBTable"), s("orders-2")};
        QCOMPARE(ws->list().size(), 4);       // nothing lost
        QCOMPARE(ws->managerOf(arn), orders); // the oldest keeps it
        QCOMPARE(ws->recordersOf(arn), (QList<ResourceKey>{orders, second}));
        // The duplicate stays editable (its recorded ID is kept), and still manages nothing.
        Resource dup = *ws->get(second);
        dup.metadata.labels.insert(s("team"), s("ops"));
        StoreError error;
        QVERIFY2(ws->update(dup, &error), qPrintable(error.message));
        QVERIFY2(ws->updateStatus(second, ResourceStatus{}, QString(), &error),
                 qPrintable(error.message));
        QCOMPARE(ws->managerOf(arn), orders);
        // Once the first leaves the workspace, the duplicate's next status write holds the ID.
        QVERIFY(ws->remove(orders, &error));
        QVERIFY(ws->updateStatus(second, ResourceStatus{}, QString(), &error));
        QCOMPARE(ws->managerOf(arn), second);
    }

private:
    QString path() const { return m_dir->filePath(s("ids.converge")); }

    std::unique_ptr<Workspace> open() const
    {
        StoreError error;
        auto ws = Workspace::open(path(), &error);
        if (!ws)
            qFatal("cannot open the workspace: %s", qPrintable(error.message));
        return ws;
    }

    static bool store(Workspace &ws, const QList<Resource> &objects)
    {
        StoreError error;
        if (ws.apply(objects, nullptr, &error))
            return true;
        qWarning() << error.message;
        return false;
    }

    std::unique_ptr<QTemporaryDir> m_dir;
};

QTEST_GUILESS_MAIN(tst_BackendIds)
#include "tst_backendids.moc"

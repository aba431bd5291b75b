// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// DynamoDB tables through the whole engine: the real Controller, GenericReconciler,
// FactoryRegistry and AwsFactory, a temporary workspace, and the fixture's dynalite with its
// CREATING / UPDATING / DELETING delays.
#include "awstestsupport.h"

#include "clock.h"
#include "controller.h"
#include "factoryregistry.h"
#include "genericreconciler.h"
#include "kindregistry.h"
#include "schemavalidator.h"
#include "workspace.h"

#include <QElapsedTimer>
#include <QTcpServer>
#include <QTemporaryDir>

using namespace converge;
using namespace converge::test;
using namespace std::chrono_literals;

namespace {

constexpr int timeout = 20000;

/// One workspace and one engine on it; the engine can be stopped and another started.
struct Fixture
{
    Fixture()
        : emulators(Emulators::fromEnvironment())
    {
        AwsKinds::registerKinds(kinds);
        path = dir.filePath(QStringLiteral("aws.converge"));
        ws = Workspace::open(path, nullptr);
        http = std::make_unique<HttpClient>();
        direct = directClient(emulators, *http);
        AwsFactory::Options options;
        options.declared.pollAfter = 100ms;
        factories.add(countingAwsFactory(counts, options));
    }
    ~Fixture()
    {
        controller.reset();
        for (const QString &name : std::as_const(tables))
            direct->call(QStringLiteral("DeleteTable"),
                         QJsonObject{{QStringLiteral("TableName"), name}});
    }

    bool start()
    {
        Controller::Options o;
        o.workers = 2;
        o.pollInterval = 20ms;
        o.backoff.fastBase = 50ms;
        o.backoff.fastCap = 200ms;
        o.backoff.slowBase = 100ms;
        o.backoff.slowCap = 400ms;
        controller =
            std::make_unique<Controller>(path, kinds, factories, reconciler, clock, nullptr, o);
        return controller->start();
    }

    /// The emulator account, Ready before anything else is applied (a table that first waited
    /// for its owner keeps WaitingForOwner through CREATING: a Warning outranks Reconciling).
    bool startWithAccount()
    {
        if (!apply({dynaliteAccount(emulators)}) || !start())
            return false;
        QElapsedTimer timer;
        timer.start();
        while (!stored(AwsKinds::accountKind(), QStringLiteral("local")).status.ready().isReady()) {
            if (timer.elapsed() > timeout)
                return false;
            QTest::qWait(20);
        }
        return true;
    }

    bool apply(QList<Resource> resources)
    {
        SchemaValidator validator(kinds);
        for (Resource &r : resources) {
            const auto errors = validator.validate(r);
            if (!errors.isEmpty()) {
                qWarning() << "invalid test resource" << errors.first().toString();
                return false;
            }
            if (r.kind == AwsKinds::tableKind() && !tables.contains(r.metadata.name))
                tables << r.spec.value(QStringLiteral("tableName")).toString(r.metadata.name);
        }
        QList<ApplyOutcome> outcomes;
        StoreError error;
        const bool ok = ws->apply(resources, &outcomes, &error);
        if (!ok)
            qWarning() << "apply failed:" << error.message;
        return ok;
    }

    Resource stored(const QString &kind, const QString &name) const
    {
        return ws->get(ResourceKey{kind, name}).value_or(Resource{});
    }
    Condition ready(const QString &name) const
    {
        return stored(AwsKinds::tableKind(), name).status.ready();
    }
    /// Ready True for the current generation.
    bool converged(const QString &name) const
    {
        const Resource r = stored(AwsKinds::tableKind(), name);
        return r.status.ready().isReady() &&
               r.status.ready().observedGeneration == r.metadata.generation;
    }
    bool sawReason(const QString &name, const QString &reason) const
    {
        for (const ConditionTransition &t :
             ws->conditionHistory(ResourceKey{AwsKinds::tableKind(), name})) {
            if (t.condition.reason == reason)
                return true;
        }
        return false;
    }
    QJsonObject describe(const QString &name) const
    {
        const auto reply = direct->call(QStringLiteral("DescribeTable"),
                                        QJsonObject{{QStringLiteral("TableName"), name}});
        return reply ? reply.value().body.value(QStringLiteral("Table")).toObject() : QJsonObject();
    }
    QMap<QString, QString> tags(const QString &name) const
    {
        QMap<QString, QString> out;
        const auto reply =
            direct->call(QStringLiteral("ListTagsOfResource"),
                         QJsonObject{{QStringLiteral("ResourceArn"),
                                      describe(name).value(QStringLiteral("TableArn"))}});
        for (const QJsonValue &t : reply.value().body.value(QStringLiteral("Tags")).toArray())
            out.insert(t[QStringLiteral("Key")].toString(), t[QStringLiteral("Value")].toString());
        return out;
    }

    Emulators emulators;
    QTemporaryDir dir;
    QString path;
    KindRegistry kinds;
    std::unique_ptr<Workspace> ws;
    std::unique_ptr<HttpClient> http;
    std::unique_ptr<AwsJsonClient> direct;
    CallCounts counts;
    FactoryRegistry factories;
    GenericReconciler reconciler{kinds};
    SystemClock clock;
    std::unique_ptr<Controller> controller;
    QStringList tables; // dropped at the end
};

QJsonObject provisioned(int read, int write)
{
    QJsonObject spec = simpleSpec();
    spec.insert(QStringLiteral("billingMode"), QStringLiteral("PROVISIONED"));
    spec.insert(QStringLiteral("provisionedThroughput"),
                QJsonObject{{QStringLiteral("readCapacityUnits"), read},
                            {QStringLiteral("writeCapacityUnits"), write}});
    return spec;
}

QJsonObject withTags(QJsonObject spec, const char *tags)
{
    spec.insert(QStringLiteral("tags"), json(tags).value(QStringLiteral("t")));
    return spec;
}

} // namespace

class tst_DynamoDbReconcile final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const Emulators emulators = Emulators::fromEnvironment();
        QVERIFY2(emulators.isValid(), qPrintable(emulators.error));
        QVERIFY(emulators.dynamoDelayMs > 0);
    }

    void createsThroughReconcilingThenResyncWritesNothing()
    {
        Fixture f;
        const QString name = uniqueName(QStringLiteral("create"));
        QVERIFY(f.startWithAccount());
        QVERIFY(f.apply(
            {table(name, withTags(simpleSpec(), "{'t': [{'key': 'team', 'value': 'billing'}]}"))}));
        QTRY_VERIFY_WITH_TIMEOUT(f.converged(name), timeout);
        QVERIFY(f.sawReason(name, QStringLiteral("Reconciling")));
        QCOMPARE(f.counts.creates.load(), 1);
        QCOMPARE(f.describe(name).value(QStringLiteral("TableStatus")).toString(),
                 QStringLiteral("ACTIVE"));
        // The tags go with CreateTable (AWS keeps them, so the create's answer counts them as
        // set); dynalite drops them, and the first read of the settled table tags it.
        QCOMPARE(f.tags(name),
                 (QMap<QString, QString>{{QStringLiteral("team"), QStringLiteral("billing")}}));
        const Resource stored = f.stored(AwsKinds::tableKind(), name);
        QVERIFY(stored.metadata.annotations.value(Annotations::resourceId())
                    .endsWith(QStringLiteral(":table/") + name));
        QCOMPARE(stored.status.observed.value(QStringLiteral("TableStatus")).toString(),
                 QStringLiteral("ACTIVE"));
        QVERIFY(
            f.stored(AwsKinds::accountKind(), QStringLiteral("local")).status.ready().isReady());

        QTRY_VERIFY_WITH_TIMEOUT(f.controller->isIdle(), timeout);
        const int writes = f.counts.writes();
        const int gets = f.counts.gets;
        f.controller->resyncNow();
        QTRY_VERIFY_WITH_TIMEOUT(f.counts.gets > gets, timeout);
        QTRY_VERIFY_WITH_TIMEOUT(f.controller->isIdle(), timeout);
        QCOMPARE(f.counts.writes(), writes); // a no-op pass: no backend write at all
        QVERIFY(f.converged(name));
    }

    void capacityAndBillingModeUpdates()
    {
        Fixture f;
        const QString name = uniqueName(QStringLiteral("capacity"));
        QVERIFY(f.startWithAccount());
        QVERIFY(f.apply({table(name, provisioned(1, 1))}));
        QTRY_VERIFY_WITH_TIMEOUT(f.converged(name), timeout);

        QVERIFY(f.apply({table(name, provisioned(5, 2))}));
        QTRY_VERIFY_WITH_TIMEOUT(f.converged(name) &&
                                     f.stored(AwsKinds::tableKind(), name).metadata.generation == 2,
                                 timeout);
        QJsonObject pt = f.describe(name).value(QStringLiteral("ProvisionedThroughput")).toObject();
        QCOMPARE(pt.value(QStringLiteral("ReadCapacityUnits")).toInt(), 5);
        QCOMPARE(pt.value(QStringLiteral("WriteCapacityUnits")).toInt(), 2);
        QVERIFY(f.sawReason(name, QStringLiteral("Reconciling"))); // while UPDATING

        QVERIFY(f.apply({table(name, simpleSpec())})); // on demand, the kind's default
        QTRY_VERIFY_WITH_TIMEOUT(f.converged(name) &&
                                     f.stored(AwsKinds::tableKind(), name).metadata.generation == 3,
                                 timeout);
        QCOMPARE(
            f.describe(name)[QStringLiteral("BillingModeSummary")][QStringLiteral("BillingMode")]
                .toString(),
            QStringLiteral("PAY_PER_REQUEST"));

        QVERIFY(f.apply({table(name, provisioned(3, 4))}));
        QTRY_VERIFY_WITH_TIMEOUT(f.converged(name) &&
                                     f.stored(AwsKinds::tableKind(), name).metadata.generation == 4,
                                 timeout);
        pt = f.describe(name).value(QStringLiteral("ProvisionedThroughput")).toObject();
        QCOMPARE(pt.value(QStringLiteral("ReadCapacityUnits")).toInt(), 3);
        QCOMPARE(pt.value(QStringLiteral("WriteCapacityUnits")).toInt(), 4);
        QCOMPARE(f.counts.creates.load(), 1);
    }

    void tagChanges()
    {
        Fixture f;
        const QString name = uniqueName(QStringLiteral("tags"));
        QVERIFY(f.startWithAccount());
        QVERIFY(f.apply({table(name, withTags(simpleSpec(), "{'t': [{'key': 'a', 'value': '1'},"
                                                            " {'key': 'b', 'value': '2'}]}"))}));
        QTRY_VERIFY_WITH_TIMEOUT(f.converged(name), timeout);
        QCOMPARE(f.tags(name).size(), 2);

        QVERIFY(f.apply({table(name, withTags(simpleSpec(), "{'t': [{'key': 'b', 'value': '3'},"
                                                            " {'key': 'c', 'value': '4'}]}"))}));
        QTRY_VERIFY_WITH_TIMEOUT(f.converged(name) &&
                                     f.stored(AwsKinds::tableKind(), name).metadata.generation == 2,
                                 timeout);
        QCOMPARE(f.tags(name),
                 (QMap<QString, QString>{{QStringLiteral("b"), QStringLiteral("3")},
                                         {QStringLiteral("c"), QStringLiteral("4")}}));

        QVERIFY(f.apply({table(name, withTags(simpleSpec(), "{'t': []}"))}));
        QTRY_VERIFY_WITH_TIMEOUT(f.tags(name).isEmpty() && f.converged(name), timeout);
    }

    void indexes()
    {
        Fixture f;
        const QString name = uniqueName(QStringLiteral("index"));
        const QJsonObject indexed = json(
            "{'attributeDefinitions': [{'attributeName': 'pk', 'attributeType': 'S'},"
            "   {'attributeName': 'st', 'attributeType': 'S'}],"
            " 'keySchema': [{'attributeName': 'pk', 'keyType': 'HASH'}],"
            " 'globalSecondaryIndexes': [{'indexName': 'byStatus',"
            "   'keySchema': [{'attributeName': 'st', 'keyType': 'HASH'}],"
            "   'projection': {'projectionType': 'INCLUDE', 'nonKeyAttributes': ['b', 'a']}}]}");
        QVERIFY(f.startWithAccount());
        QVERIFY(f.apply({table(name, indexed)}));
        QTRY_VERIFY_WITH_TIMEOUT(f.converged(name), timeout);
        QCOMPARE(f.describe(name).value(QStringLiteral("GlobalSecondaryIndexes")).toArray().size(),
                 1);
        // The index as DynamoDB describes it (capacity 0/0 on demand, its ARN, status, sizes)
        // is no drift.
        QTRY_VERIFY_WITH_TIMEOUT(f.controller->isIdle(), timeout);
        const int writes = f.counts.writes();
        const int gets = f.counts.gets;
        f.controller->resyncNow();
        QTRY_VERIFY_WITH_TIMEOUT(f.counts.gets > gets, timeout);
        QTRY_VERIFY_WITH_TIMEOUT(f.controller->isIdle(), timeout);
        QCOMPARE(f.counts.writes(), writes);

        // Removing it: one UpdateTable with one Delete. dynalite 4 accepts it and changes
        // nothing (it implements no index changes after creation); the engine must say so once
        // rather than send it again and again.
        QVERIFY(f.apply({table(name, simpleSpec())}));
        QTRY_COMPARE_WITH_TIMEOUT(f.ready(name).reason, QStringLiteral("ChangeNotApplied"),
                                  timeout);
        QCOMPARE(f.ready(name).severity, Condition::Severity::Error);
        QVERIFY(f.ready(name).message.contains(QStringLiteral("delete index byStatus")));
        const int updates = f.counts.updates;
        QTest::qWait(500);
        QCOMPARE(f.counts.updates.load(), updates);
    }

    void immutableFieldsWriteNothing_data()
    {
        // A row for every immutable field of the kind's schema: a field made immutable later
        // gets its row or fails here.
        QTest::addColumn<QString>("field");
        QTest::addColumn<QJsonValue>("value");
        KindRegistry kinds;
        AwsKinds::registerKinds(kinds);
        for (const FieldSchema &field : kinds.find(AwsKinds::tableKind())->spec.fields) {
            if (!field.immutable)
                continue;
            QJsonValue value;
            if (field.name == QLatin1String("keySchema"))
                value = json("{'k': [{'attributeName': 'id', 'keyType': 'HASH'}]}")
                            .value(QStringLiteral("k"));
            else if (field.name == QLatin1String("tableName"))
                value = uniqueName(QStringLiteral("renamed"));
            else if (field.name == QLatin1String("owner"))
                value = QJsonObject{{QStringLiteral("name"), QStringLiteral("other")}};
            else if (field.name == QLatin1String("localSecondaryIndexes"))
                value = json("{'l': [{'indexName': 'bySk', 'keySchema': ["
                             "{'attributeName': 'pk', 'keyType': 'HASH'},"
                             "{'attributeName': 'sk', 'keyType': 'RANGE'}],"
                             "'projection': {'projectionType': 'KEYS_ONLY'}}]}")
                            .value(QStringLiteral("l"));
            else
                QFAIL(qPrintable(QStringLiteral("no changed value for spec.%1").arg(field.name)));
            QTest::addRow("%s", qPrintable(field.name)) << field.name << value;
        }
    }

    void immutableFieldsWriteNothing()
    {
        // Stored as a workspace of an older version or an edit by hand would have it (apply
        // refuses it since): the reconcile says ImmutableFieldChanged and writes nothing.
        QFETCH(QString, field);
        QFETCH(QJsonValue, value);
        Fixture f;
        const QString name = uniqueName(QStringLiteral("keys"));
        QVERIFY(f.apply({dynaliteAccount(f.emulators, QStringLiteral("other"))}));
        QVERIFY(f.startWithAccount());
        QVERIFY(f.apply({table(name, simpleSpec())}));
        QTRY_VERIFY_WITH_TIMEOUT(f.converged(name), timeout);
        QTRY_VERIFY(f.controller->isIdle());
        const int writes = f.counts.writes();

        QJsonObject changed = simpleSpec();
        if (field == QLatin1String("keySchema"))
            changed.insert(QStringLiteral("attributeDefinitions"),
                           json("{'a': [{'attributeName': 'id', 'attributeType': 'S'}]}")
                               .value(QStringLiteral("a")));
        if (field == QLatin1String("localSecondaryIndexes"))
            changed.insert(QStringLiteral("attributeDefinitions"),
                           json("{'a': [{'attributeName': 'pk', 'attributeType': 'S'},"
                                "{'attributeName': 'sk', 'attributeType': 'S'}]}")
                               .value(QStringLiteral("a")));
        Resource renamed = table(name, changed);
        renamed.spec.insert(field, value); // after table(), which sets the owner
        QVERIFY(f.apply({renamed}));
        QTRY_VERIFY2_WITH_TIMEOUT(
            f.ready(name).reason == QLatin1String("ImmutableFieldChanged"),
            QJsonDocument(f.stored(AwsKinds::tableKind(), name).toJson()).toJson().constData(),
            timeout);
        QCOMPARE(f.ready(name).severity, Condition::Severity::Error);
        QVERIFY2(f.ready(name).message.startsWith(QStringLiteral("spec.") + field),
                 qPrintable(f.ready(name).message));
        QTRY_VERIFY(f.controller->isIdle());
        QCOMPARE(f.counts.writes(), writes);
        QVERIFY(!f.describe(name).isEmpty()); // the table made first is still there
        if (field == QLatin1String("tableName"))
            QVERIFY(f.describe(value.toString()).isEmpty());

        // The spec restored: Ready again, still without a write.
        QVERIFY(f.apply({table(name, simpleSpec())}));
        QTRY_VERIFY_WITH_TIMEOUT(f.converged(name), timeout);
        QCOMPARE(f.counts.writes(), writes);
    }

    void outOfBandDeleteIsRecreated()
    {
        Fixture f;
        const QString name = uniqueName(QStringLiteral("oob"));
        QVERIFY(f.startWithAccount());
        QVERIFY(f.apply({table(name, simpleSpec())}));
        QTRY_VERIFY_WITH_TIMEOUT(f.converged(name), timeout);
        QCOMPARE(f.counts.creates.load(), 1);

        QVERIFY(f.direct
                    ->call(QStringLiteral("DeleteTable"),
                           QJsonObject{{QStringLiteral("TableName"), name}})
                    .ok());
        QTRY_COMPARE_WITH_TIMEOUT(tableStatus(*f.direct, name), QString(), timeout);
        f.controller->resyncNow();
        QTRY_COMPARE_WITH_TIMEOUT(f.counts.creates.load(), 2, timeout);
        QTRY_COMPARE_WITH_TIMEOUT(tableStatus(*f.direct, name), QStringLiteral("ACTIVE"), timeout);
        QTRY_VERIFY_WITH_TIMEOUT(f.controller->isIdle() && f.converged(name), timeout);
    }

    void tableMadeElsewhereIsDiscoveredAfterARefresh()
    {
        Fixture f;
        const QString name = uniqueName(QStringLiteral("found"));
        QVERIFY(f.startWithAccount());
        QTRY_VERIFY_WITH_TIMEOUT(f.controller->isIdle(), timeout);
        const ResourceKey account{AwsKinds::accountKind(), QStringLiteral("local")};
        const auto listed = [&] {
            for (const DiscoveredResource &item : f.ws->discovered(account)) {
                if (item.name == name)
                    return true;
            }
            return false;
        };
        QVERIFY(!listed());
        QVERIFY(f.direct
                    ->call(QStringLiteral("CreateTable"),
                           [&] {
                               QJsonObject o =
                                   json("{'AttributeDefinitions': [{'AttributeName': 'pk',"
                                        " 'AttributeType': 'S'}], 'KeySchema': [{'AttributeName':"
                                        " 'pk', 'KeyType': 'HASH'}], 'BillingMode':"
                                        " 'PAY_PER_REQUEST'}");
                               o.insert(QStringLiteral("TableName"), name);
                               return o;
                           }())
                    .ok());
        f.controller->refresh({account});
        QTRY_VERIFY_WITH_TIMEOUT(listed(), timeout);
        QVERIFY(!f.ws->get(ResourceKey{AwsKinds::tableKind(), name})); // found, not managed
        QTRY_COMPARE_WITH_TIMEOUT(tableStatus(*f.direct, name), QStringLiteral("ACTIVE"), timeout);

        QVERIFY(f.direct
                    ->call(QStringLiteral("DeleteTable"),
                           QJsonObject{{QStringLiteral("TableName"), name}})
                    .ok());
        QTRY_COMPARE_WITH_TIMEOUT(tableStatus(*f.direct, name), QString(), timeout);
        f.controller->refresh({account});
        QTRY_VERIFY_WITH_TIMEOUT(!listed(), timeout);
    }

    void deleteWaitsUntilTheTableIsGone()
    {
        Fixture f;
        const QString name = uniqueName(QStringLiteral("delete"));
        QVERIFY(f.startWithAccount());
        QVERIFY(f.apply({table(name, simpleSpec())}));
        QTRY_VERIFY_WITH_TIMEOUT(f.converged(name), timeout);

        const ResourceKey key{AwsKinds::tableKind(), name};
        QVERIFY(f.ws->requestDeletion(key, nullptr));
        QTRY_VERIFY_WITH_TIMEOUT(!f.ws->get(key), timeout);
        // The finalizer went only once DescribeTable said the table is gone, not at DELETING.
        QCOMPARE(tableStatus(*f.direct, name), QString());
        QCOMPARE(f.counts.deletes.load(), 1);

        // The account is a connection: removing it deletes nothing.
        const ResourceKey account{AwsKinds::accountKind(), QStringLiteral("local")};
        QVERIFY(f.ws->requestDeletion(account, nullptr));
        QTRY_VERIFY_WITH_TIMEOUT(!f.ws->get(account), timeout);
    }

    void restartWhileCreatingResumes()
    {
        Fixture f;
        const QString name = uniqueName(QStringLiteral("restart"));
        QVERIFY(f.startWithAccount());
        QVERIFY(f.apply({table(name, simpleSpec())}));
        QTRY_COMPARE_WITH_TIMEOUT(f.ready(name).reason, QStringLiteral("Reconciling"), timeout);
        f.controller->stop();
        f.controller.reset();
        QCOMPARE(f.counts.creates.load(), 1);
        // Stopped while the table was still being created (the fixture's delay is the window).
        const QString status = tableStatus(*f.direct, name);
        if (status != QLatin1String("CREATING"))
            qWarning("the table was %s by the time the engine stopped", qPrintable(status));

        QVERIFY(f.start());
        QTRY_VERIFY_WITH_TIMEOUT(f.converged(name), timeout);
        QCOMPARE(f.counts.creates.load(), 1); // resumed by observing, never created twice
        QVERIFY(f.ws->unfinishedIntents().isEmpty());
    }

    void accountThatDoesNotAnswerHoldsItsTables()
    {
        Fixture f;
        Resource account = dynaliteAccount(f.emulators, QStringLiteral("broken"));
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        account.spec.insert(QStringLiteral("endpoint"),
                            QStringLiteral("http://127.0.0.1:%1").arg(probe.serverPort()));
        probe.close();
        const QString name = uniqueName(QStringLiteral("orphan"));
        QVERIFY(f.apply({account, table(name, simpleSpec(), QStringLiteral("broken"))}));
        QVERIFY(f.start());
        QTRY_COMPARE_WITH_TIMEOUT(f.ready(name).reason, QStringLiteral("WaitingForOwner"), timeout);
        const Condition accountReady =
            f.stored(AwsKinds::accountKind(), QStringLiteral("broken")).status.ready();
        QVERIFY(!accountReady.isReady());
        QCOMPARE(f.counts.creates.load(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_DynamoDbReconcile)
#include "tst_dynamodbreconcile.moc"

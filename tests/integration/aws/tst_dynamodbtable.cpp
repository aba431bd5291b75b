// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// DynamoDBTable's Manager (the declared kind's, with its dynamoDbTable hook) and AwsAccount's,
// called directly on the test thread against the fixture's dynalite (tables are CREATING,
// UPDATING and DELETING for its configured delay).
#include "awstestsupport.h"

#include "delta.h"
#include "kindregistry.h"
#include "schemavalidator.h"

#include <QElapsedTimer>
#include <QTcpServer>

using namespace converge;
using namespace converge::test;
using namespace std::chrono_literals;

class tst_DynamoDbTable final : public QObject
{
    Q_OBJECT

private:
    Emulators m_emulators;
    KindRegistry m_kinds;
    std::unique_ptr<HttpClient> m_http;
    std::unique_ptr<AwsJsonClient> m_direct;
    std::shared_ptr<Manager> m_tables;
    std::shared_ptr<Manager> m_account;
    QStringList m_created; // dropped in cleanupTestCase

    std::shared_ptr<Manager> manager(const QString &kind, const Resource &account,
                                     AwsFactory::Options options = {})
    {
        AwsFactory factory(options);
        ManagerEnvironment env;
        env.http = m_http.get();
        auto made = factory.manager(kind, account, env);
        if (!made)
            qFatal("no manager: %s", qPrintable(made.error().toString()));
        return made.value();
    }

    Target target(const Resource &resource)
    {
        return Target{resource, {dynaliteAccount(m_emulators)}};
    }

    /// Validated, with defaults, as the workspace would hold it.
    Resource validated(Resource r)
    {
        SchemaValidator validator(m_kinds);
        const auto errors = validator.validate(r);
        if (!errors.isEmpty())
            qFatal("invalid test resource: %s", qPrintable(errors.first().toString()));
        return r;
    }

    /// Observes until no operation runs; the last observation.
    Outcome<Observation> settle(const Target &t)
    {
        QElapsedTimer timer;
        timer.start();
        for (;;) {
            Outcome<Observation> o = m_tables->get(t);
            if (!o || !o.value().inProgress || timer.elapsed() > 20000)
                return o;
            QTest::qWait(50);
        }
    }

    bool createDirectly(const QJsonObject &request)
    {
        const auto reply = m_direct->call(QStringLiteral("CreateTable"), request);
        if (reply)
            m_created << request.value(QStringLiteral("TableName")).toString();
        return reply.ok();
    }

private slots:
    void initTestCase()
    {
        m_emulators = Emulators::fromEnvironment();
        QVERIFY2(m_emulators.isValid(), qPrintable(m_emulators.error));
        QVERIFY(m_emulators.dynamoDelayMs > 0); // the in-progress states are what we test
        AwsKinds::registerKinds(m_kinds);
        m_http = std::make_unique<HttpClient>();
        m_direct = directClient(m_emulators, *m_http);
        AwsFactory::Options options;
        options.declared.pollAfter = 100ms;
        m_tables = manager(AwsKinds::tableKind(), dynaliteAccount(m_emulators), options);
        m_account = manager(AwsKinds::accountKind(), dynaliteAccount(m_emulators));
    }

    void cleanupTestCase()
    {
        for (const QString &name : std::as_const(m_created))
            m_direct->call(QStringLiteral("DeleteTable"),
                           QJsonObject{{QStringLiteral("TableName"), name}});
    }

    void accountIsReadyWhenListTablesAnswers()
    {
        const Resource account = dynaliteAccount(m_emulators);
        const auto seen = m_account->get(Target{account, {}});
        QVERIFY2(seen.ok(), qPrintable(seen.ok() ? QString() : seen.error().toString()));
        QCOMPARE(seen.value().spec, account.spec); // no drift: nothing else is observable
        QVERIFY(!seen.value().requestId.isEmpty());
        QVERIFY(!seen.value().inProgress);
        QVERIFY(m_account->create(Target{account, {}}).ok());

        // Removing the connection deletes nothing and needs no network.
        const auto removed = m_account->deleteResource(Target{account, {}}, seen.value());
        QVERIFY(!removed.ok());
        QCOMPARE(removed.error().category, BackendError::Category::NotFound);
        QVERIFY(!m_account->listIsComplete());
    }

    void unreachableAccountIsTransient()
    {
        Resource account = dynaliteAccount(m_emulators);
        // A loopback port nobody listens on: the fixture's own port plus a large offset is not
        // guaranteed free, so take a port just released by a server.
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const quint16 port = probe.serverPort();
        probe.close();
        account.spec.insert(QStringLiteral("endpoint"),
                            QStringLiteral("http://127.0.0.1:%1").arg(port));
        HttpClient::Options options;
        options.retry.maxRetries = 0;
        HttpClient quick(options);
        AwsFactory factory;
        ManagerEnvironment env;
        env.http = &quick;
        auto manager = factory.manager(AwsKinds::accountKind(), account, env);
        QVERIFY(manager.ok());
        const auto seen = manager.value()->get(Target{account, {}});
        QVERIFY(!seen.ok());
        QCOMPARE(seen.error().category, BackendError::Category::Transient);
        QCOMPARE(seen.error().httpStatus, 0);
    }

    void createObserveDelete()
    {
        const QString name = uniqueName(QStringLiteral("life"));
        QJsonObject spec = simpleSpec();
        spec.insert(
            QStringLiteral("tags"),
            json("{'t': [{'key': 'team', 'value': 'billing'}]}").value(QStringLiteral("t")));
        const Target t = target(validated(table(name, spec)));

        const auto missing = m_tables->get(t);
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().category, BackendError::Category::NotFound);
        QCOMPARE(missing.error().code, QStringLiteral("ResourceNotFoundException"));
        QVERIFY(!missing.error().requestId.isEmpty());

        const auto created = m_tables->create(t);
        QVERIFY2(created.ok(), qPrintable(created.ok() ? QString() : created.error().toString()));
        m_created << name;
        QVERIFY(created.value().inProgress);
        QCOMPARE(created.value().progress, QStringLiteral("TableStatus is CREATING"));
        QCOMPARE(created.value().pollAfter, std::optional(std::chrono::milliseconds(100ms)));
        QVERIFY(created.value().resourceId.endsWith(QStringLiteral(":table/") + name));
        QCOMPARE(created.value().name, name);
        QVERIFY(!created.value().requestId.isEmpty());

        // An "already exists" answer is the table found, not an error.
        const auto again = m_tables->create(t);
        QVERIFY(again.ok());
        QCOMPARE(again.value().resourceId, created.value().resourceId);

        const auto active = settle(t);
        QVERIFY(active.ok());
        QVERIFY(!active.value().inProgress);
        QCOMPARE(active.value().details.value(QStringLiteral("TableStatus")).toString(),
                 QStringLiteral("ACTIVE"));
        // An instant as people read it, not DynamoDB's seconds since 1970.
        QVERIFY(active.value()
                    .details.value(QStringLiteral("CreationDateTime"))
                    .toString()
                    .endsWith(QLatin1Char('Z')));

        const auto deleting = m_tables->deleteResource(t, active.value());
        QVERIFY(deleting.ok());
        QVERIFY(deleting.value().has_value());
        QVERIFY(deleting.value()->inProgress);
        QCOMPARE(deleting.value()->progress, QStringLiteral("TableStatus is DELETING"));
        const auto gone = settle(t);
        QVERIFY(!gone.ok());
        QCOMPARE(gone.error().category, BackendError::Category::NotFound);
        // Deleting what is gone succeeds with nothing left.
        const auto twice = m_tables->deleteResource(t, active.value());
        QVERIFY(twice.ok());
        QVERIFY(!twice.value().has_value());
        m_created.removeAll(name);
    }

    void claimATableCreatedOutside()
    {
        // A provisioned table with an index and tags, made without Converge.
        const QString name = uniqueName(QStringLiteral("Claim_Me"));
        QJsonObject request = json(
            "{'AttributeDefinitions': [{'AttributeName': 'sk', 'AttributeType': 'N'},"
            "   {'AttributeName': 'pk', 'AttributeType': 'S'},"
            "   {'AttributeName': 'st', 'AttributeType': 'S'}],"
            " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'},"
            "   {'AttributeName': 'sk', 'KeyType': 'RANGE'}],"
            " 'ProvisionedThroughput': {'ReadCapacityUnits': 3, 'WriteCapacityUnits': 2},"
            " 'GlobalSecondaryIndexes': [{'IndexName': 'byStatus',"
            "   'KeySchema': [{'AttributeName': 'st', 'KeyType': 'HASH'}],"
            "   'Projection': {'ProjectionType': 'INCLUDE', 'NonKeyAttributes': ['b', 'a']},"
            "   'ProvisionedThroughput': {'ReadCapacityUnits': 1, 'WriteCapacityUnits': 1}}]}");
        request.insert(QStringLiteral("TableName"), name);
        QVERIFY(createDirectly(request));
        // More tables, so that listing takes several pages of 2.
        for (int i = 0; i < 3; ++i) {
            QJsonObject other = json("{'AttributeDefinitions': [{'AttributeName': 'pk', "
                                     "'AttributeType': 'S'}], 'KeySchema': [{'AttributeName': "
                                     "'pk', 'KeyType': 'HASH'}], 'BillingMode': "
                                     "'PAY_PER_REQUEST'}");
            other.insert(QStringLiteral("TableName"), uniqueName(QStringLiteral("filler")));
            QVERIFY(createDirectly(other));
        }
        QTRY_COMPARE_WITH_TIMEOUT(tableStatus(*m_direct, name), QStringLiteral("ACTIVE"), 10000);
        const QString arn = QStringLiteral("arn:aws:dynamodb:us-east-1:000000000000:table/") + name;
        QVERIFY(m_direct
                    ->call(QStringLiteral("TagResource"),
                           QJsonObject{{QStringLiteral("ResourceArn"), arn},
                                       {QStringLiteral("Tags"),
                                        json("{'t': [{'Key': 'team', 'Value': 'ops'}]}")
                                            .value(QStringLiteral("t"))}})
                    .ok());

        // Discovery: list() pages through names only.
        QVERIFY(!m_tables->listIsComplete());
        ListScope scope;
        scope.owners = {dynaliteAccount(m_emulators)};
        scope.pageSize = 2;
        int pages = 0;
        bool found = false;
        do {
            const auto page = m_tables->list(scope);
            QVERIFY(page.ok());
            QVERIFY(page.value().items.size() <= 2);
            ++pages;
            for (const Observation &o : page.value().items) {
                if (o.name == name) {
                    found = true;
                    QCOMPARE(o.spec.value(QStringLiteral("tableName")).toString(), name);
                }
            }
            scope.continuation = page.value().continuation;
        } while (!scope.continuation.isEmpty() && pages < 1000);
        QVERIFY(found);
        QVERIFY(pages >= 2);

        // Claim: get observes a spec that, as desired state, is valid and has no delta.
        Resource claim =
            table(QStringLiteral("claimed"), QJsonObject{{QStringLiteral("tableName"), name}});
        const auto seen = m_tables->get(target(claim));
        QVERIFY2(seen.ok(), qPrintable(seen.ok() ? QString() : seen.error().toString()));
        QVERIFY(!seen.value().inProgress);
        claim.spec = seen.value().spec;
        claim = validated(claim);
        const auto again = m_tables->get(target(claim));
        QVERIFY(again.ok());
        const Kind *kind = m_kinds.find(AwsKinds::tableKind());
        QCOMPARE(Delta::between(kind->spec, claim.spec, again.value().spec), QStringList());
        QCOMPARE(claim.spec.value(QStringLiteral("billingMode")).toString(),
                 QStringLiteral("PROVISIONED"));
        QCOMPARE(claim.spec.value(QStringLiteral("tags")).toArray().size(), 1);
        QCOMPARE(claim.spec.value(QStringLiteral("globalSecondaryIndexes")).toArray().size(), 1);
        // update() with no delta has nothing to send.
        const auto unchanged = m_tables->update(target(claim), again.value(), {});
        QVERIFY(unchanged.ok());
        QVERIFY(!unchanged.value().inProgress);
    }

    void dynaliteIgnoresIndexChangesAndWeSaySo()
    {
        // Provisioned: dynalite insists on a capacity for index creations, even on demand.
        const QString name = uniqueName(QStringLiteral("index"));
        QJsonObject spec = simpleSpec();
        spec.insert(QStringLiteral("billingMode"), QStringLiteral("PROVISIONED"));
        spec.insert(QStringLiteral("provisionedThroughput"),
                    json("{'readCapacityUnits': 1, 'writeCapacityUnits': 1}"));
        const Target before = target(validated(table(name, spec)));
        QVERIFY(m_tables->create(before).ok());
        m_created << name;
        const auto active = settle(before);
        QVERIFY(active.ok());

        spec.insert(QStringLiteral("attributeDefinitions"),
                    json("{'a': [{'attributeName': 'pk', 'attributeType': 'S'},"
                         "       {'attributeName': 'st', 'attributeType': 'S'}]}")
                        .value(QStringLiteral("a")));
        spec.insert(QStringLiteral("globalSecondaryIndexes"),
                    json("{'a': [{'indexName': 'byStatus',"
                         "  'keySchema': [{'attributeName': 'st', 'keyType': 'HASH'}],"
                         "  'provisionedThroughput': {'readCapacityUnits': 1,"
                         "                            'writeCapacityUnits': 1}}]}")
                        .value(QStringLiteral("a")));
        Target after = target(validated(table(name, spec)));
        // As the engine does: what it observed is recorded before it asks for the update.
        after.resource.status.observed = QJsonObject{{QStringLiteral("spec"), active.value().spec}};
        const QStringList delta = Delta::between(m_kinds.find(AwsKinds::tableKind())->spec,
                                                 after.resource.spec, active.value().spec);
        QVERIFY(!delta.isEmpty());
        const auto updated = m_tables->update(after, active.value(), delta);
        QVERIFY(!updated.ok());
        QCOMPARE(updated.error().code, QStringLiteral("ChangeNotApplied"));
        QCOMPARE(updated.error().category, BackendError::Category::Terminal);
        QVERIFY(updated.error().message.contains(QStringLiteral("create index byStatus")));
    }

    void backendValidationIsInvalid()
    {
        // Past the schema (built in code): dynalite's own validation answers.
        Resource bad = table(uniqueName(QStringLiteral("bad")), simpleSpec());
        bad.spec.insert(QStringLiteral("keySchema"),
                        json("{'k': [{'attributeName': 'nope', 'keyType': 'HASH'}]}")
                            .value(QStringLiteral("k")));
        const auto created = m_tables->create(target(bad));
        QVERIFY(!created.ok());
        QCOMPARE(created.error().category, BackendError::Category::Invalid);
        QCOMPARE(created.error().code, QStringLiteral("ValidationException"));
        QVERIFY(!created.error().requestId.isEmpty());
        QVERIFY(!created.error().message.isEmpty());
    }
};

QTEST_GUILESS_MAIN(tst_DynamoDbTable)
#include "tst_dynamodbtable.moc"

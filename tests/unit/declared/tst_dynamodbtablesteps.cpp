// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
// DynamoDbTableSteps, and the CreateTable request the declared layer makes with the hook:
// DescribeTable's answers for tables made from a spec observe as that spec, and UpdateTable's
// steps reach any spec from any other one change a call.
#include "dynamodbtablesteps.h"

#include "apifield.h"
#include "awskinds.h"
#include "declaredsubresources.h"
#include "delta.h"
#include "dynamodbtablehook.h"
#include "kindregistry.h"
#include "resource.h"
#include "schemavalidator.h"

#include <QJsonDocument>
#include <QTest>

#include <algorithm>

using namespace converge;
using Step = DynamoDbTableSteps::Step;

Q_DECLARE_METATYPE(DynamoDbTableSteps::Step::Kind)

namespace {

QJsonObject json(const char *text)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray(text), &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("bad test JSON: %s", qPrintable(error.errorString()));
    return document.object();
}

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

QJsonArray reversed(const QJsonArray &list)
{
    QJsonArray out;
    for (qsizetype i = list.size() - 1; i >= 0; --i)
        out.append(list.at(i));
    return out;
}

/// What DynamoDB answers to DescribeTable for a table made by `request`, with the server-added
/// fields and none of the promised order: lists reversed, capacity 0/0 on demand, no billing
/// mode summary for PROVISIONED, no stream specification when none was asked for.
QJsonObject describeAsAws(const QJsonObject &request)
{
    QJsonObject table = request;
    table.remove(s("Tags"));
    table.remove(s("BillingMode"));
    const bool onDemand = request.value(s("BillingMode")).toString() == s("PAY_PER_REQUEST");
    const QJsonObject zero{{s("ReadCapacityUnits"), 0},
                           {s("WriteCapacityUnits"), 0},
                           {s("NumberOfDecreasesToday"), 0}};
    if (onDemand) {
        table.insert(s("BillingModeSummary"),
                     QJsonObject{{s("BillingMode"), s("PAY_PER_REQUEST")}});
        table.insert(s("ProvisionedThroughput"), zero);
    } else {
        QJsonObject pt = table.value(s("ProvisionedThroughput")).toObject();
        pt.insert(s("NumberOfDecreasesToday"), 0);
        table.insert(s("ProvisionedThroughput"), pt);
    }
    table.insert(s("AttributeDefinitions"),
                 reversed(table.value(s("AttributeDefinitions")).toArray()));
    QJsonArray indexes;
    for (const QJsonValue &v : table.value(s("GlobalSecondaryIndexes")).toArray()) {
        QJsonObject index = v.toObject();
        index.insert(s("IndexStatus"), s("ACTIVE"));
        index.insert(s("IndexArn"), QString(s("arn:aws:dynamodb:us-east-1:1:table/t/index/") +
                                            index.value(s("IndexName")).toString()));
        if (onDemand)
            index.insert(s("ProvisionedThroughput"), zero);
        QJsonObject projection = index.value(s("Projection")).toObject();
        if (projection.contains(s("NonKeyAttributes")))
            projection.insert(s("NonKeyAttributes"),
                              reversed(projection.value(s("NonKeyAttributes")).toArray()));
        index.insert(s("Projection"), projection);
        indexes.append(index);
    }
    if (!indexes.isEmpty())
        table.insert(s("GlobalSecondaryIndexes"), reversed(indexes));
    table.insert(s("TableStatus"), s("ACTIVE"));
    table.insert(s("TableArn"), QString(s("arn:aws:dynamodb:us-east-1:123456789012:table/") +
                                        request.value(s("TableName")).toString()));
    table.insert(s("ItemCount"), 0);
    table.insert(s("TableSizeBytes"), 0);
    table.insert(s("CreationDateTime"), 1796014697.464);
    return table;
}

/// A small DynamoDB: applies an UpdateTable request to a description, refusing what AWS
/// refuses (more than one index creation or deletion per call).
QJsonObject applyUpdate(QJsonObject table, const QJsonObject &request)
{
    int indexChanges = 0;
    if (request.contains(s("BillingMode"))) {
        const QString mode = request.value(s("BillingMode")).toString();
        table.insert(s("BillingModeSummary"), QJsonObject{{s("BillingMode"), mode}});
        if (mode == s("PAY_PER_REQUEST"))
            table.insert(s("ProvisionedThroughput"),
                         QJsonObject{{s("ReadCapacityUnits"), 0}, {s("WriteCapacityUnits"), 0}});
    }
    if (request.contains(s("ProvisionedThroughput")))
        table.insert(s("ProvisionedThroughput"), request.value(s("ProvisionedThroughput")));
    if (request.contains(s("StreamSpecification")))
        table.insert(s("StreamSpecification"), request.value(s("StreamSpecification")));
    QJsonArray indexes = table.value(s("GlobalSecondaryIndexes")).toArray();
    for (const QJsonValue &u : request.value(s("GlobalSecondaryIndexUpdates")).toArray()) {
        if (u.toObject().contains(s("Create"))) {
            ++indexChanges;
            QJsonObject index = u[s("Create")].toObject();
            index.insert(s("IndexStatus"), s("ACTIVE"));
            indexes.append(index);
            QJsonArray attributes = table.value(s("AttributeDefinitions")).toArray();
            for (const QJsonValue &a : request.value(s("AttributeDefinitions")).toArray()) {
                if (!attributes.contains(a))
                    attributes.append(a);
            }
            table.insert(s("AttributeDefinitions"), attributes);
        } else if (u.toObject().contains(s("Delete"))) {
            ++indexChanges;
            const QString name = u[s("Delete")][s("IndexName")].toString();
            for (qsizetype i = indexes.size() - 1; i >= 0; --i) {
                if (indexes.at(i)[s("IndexName")].toString() == name)
                    indexes.removeAt(i);
            }
        } else {
            const QString name = u[s("Update")][s("IndexName")].toString();
            for (QJsonValueRef i : indexes) {
                QJsonObject index = i.toObject();
                if (index.value(s("IndexName")).toString() == name) {
                    index.insert(s("ProvisionedThroughput"),
                                 u[s("Update")][s("ProvisionedThroughput")]);
                    i = index;
                }
            }
        }
    }
    if (indexChanges > 1)
        qFatal("more than one index created or deleted in one UpdateTable call");
    table.insert(s("GlobalSecondaryIndexes"), indexes);
    return table;
}

} // namespace

class tst_DynamoDbTableSteps final : public QObject
{
    Q_OBJECT

private:
    KindRegistry m_kinds;

    /// A valid spec with defaults filled in, as the workspace stores it.
    QJsonObject validated(const QJsonObject &spec)
    {
        SchemaValidator validator(m_kinds);
        const auto result =
            validator.validate(QJsonObject{{s("apiVersion"), AwsKinds::apiVersion()},
                                           {s("kind"), s("DynamoDBTable")},
                                           {s("metadata"), QJsonObject{{s("name"), s("orders")}}},
                                           {s("spec"), spec}});
        if (!result.ok())
            qFatal("invalid test spec: %s", qPrintable(result.errors.first().toString()));
        return result.resource.spec;
    }

    const FieldSchema &schema() { return m_kinds.find(s("DynamoDBTable"))->spec; }

    /// What the declared layer observes of `table` with `tags` (TagResource's {Key, Value}).
    QJsonObject observe(const QJsonObject &table, const QJsonObject &desired,
                        const QJsonArray &tags = {})
    {
        QJsonObject observed = DynamoDbTableSteps::observedSpec(table, desired);
        if (desired.contains(s("owner"))) // the workspace's, as the declared layer keeps it
            observed.insert(s("owner"), desired.value(s("owner")));
        QJsonArray spelled;
        for (const QJsonValue &tag : tags)
            spelled.append(QJsonObject{{s("key"), tag[s("Key")]}, {s("value"), tag[s("Value")]}});
        if (desired.contains(s("tags"))) {
            observed.insert(s("tags"), spelled);
            DeclaredSubResources::orderAsDesired(observed, desired, {s("tags")});
        }
        return observed;
    }

    /// The CreateTable request the declared layer sends for `spec`: the declaration's members,
    /// completed by the hook.
    static QJsonObject createRequest(const QJsonObject &spec, const QString &name)
    {
        const KindDeclaration *d = AwsKinds::declaration(AwsKinds::tableKind());
        QJsonObject withName = spec;
        withName.insert(s("tableName"), name);
        DynamoDbTableHook hook;
        QStringList secrets;
        const auto input =
            hook.completeInput(d->create, ApiField::toApi(d->fields, withName, d->create.fields),
                               withName, nullptr, &secrets);
        if (!input)
            qFatal("no request: %s", qPrintable(input.error().toString()));
        return input.value();
    }

    static QJsonObject onDemandWithIndex()
    {
        return json(R"({"owner": {"name": "acct"},
            "attributeDefinitions": [{"attributeName": "pk", "attributeType": "S"},
                                     {"attributeName": "st", "attributeType": "S"}],
            "keySchema": [{"attributeName": "pk", "keyType": "HASH"}],
            "globalSecondaryIndexes": [{"indexName": "byStatus",
                "keySchema": [{"attributeName": "st", "keyType": "HASH"}]}]})");
    }

private slots:
    void initTestCase() { AwsKinds::registerKinds(m_kinds); }

    void createRequest()
    {
        const QJsonObject spec = validated(json(R"({"owner": {"name": "acct"},
            "attributeDefinitions": [{"attributeName": "pk", "attributeType": "S"},
                                     {"attributeName": "st", "attributeType": "N"}],
            "keySchema": [{"attributeName": "pk", "keyType": "HASH"}],
            "billingMode": "PROVISIONED",
            "provisionedThroughput": {"readCapacityUnits": 5, "writeCapacityUnits": 2},
            "globalSecondaryIndexes": [{"indexName": "bySt",
                "keySchema": [{"attributeName": "st", "keyType": "HASH"}],
                "projection": {"projectionType": "INCLUDE", "nonKeyAttributes": ["a", "b"]},
                "provisionedThroughput": {"readCapacityUnits": 1, "writeCapacityUnits": 1}}],
            "streamSpecification": {"streamEnabled": true, "streamViewType": "NEW_IMAGE"},
            "tags": [{"key": "team", "value": "billing"}]})"));
        const QJsonObject expected = json(R"({"TableName": "Orders",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                     {"AttributeName": "st", "AttributeType": "N"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "BillingMode": "PROVISIONED",
            "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 2},
            "GlobalSecondaryIndexes": [{"IndexName": "bySt",
                "KeySchema": [{"AttributeName": "st", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a", "b"]},
                "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}],
            "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_IMAGE"},
            "Tags": [{"Key": "team", "Value": "billing"}]})");
        QCOMPARE(createRequest(spec, s("Orders")), expected);

        // On demand: no capacity anywhere, no empty Tags, no disabled stream.
        QJsonObject onDemand = onDemandWithIndex();
        onDemand.insert(s("tags"), QJsonArray());
        onDemand.insert(s("streamSpecification"), QJsonObject{{s("streamEnabled"), false}});
        const QJsonObject request = createRequest(validated(onDemand), s("orders"));
        QCOMPARE(request.value(s("BillingMode")).toString(), s("PAY_PER_REQUEST"));
        QVERIFY(!request.contains(s("ProvisionedThroughput")));
        QVERIFY(!request[s("GlobalSecondaryIndexes")][0].toObject().contains(
            s("ProvisionedThroughput")));
        QCOMPARE(request[s("GlobalSecondaryIndexes")][0][s("Projection")].toObject(),
                 json(R"({"ProjectionType": "ALL"})"));
        QVERIFY(!request.contains(s("Tags")));
        QVERIFY(!request.contains(s("StreamSpecification")));
    }

    void roundTripHasNoDelta_data()
    {
        QTest::addColumn<QJsonObject>("spec");
        QTest::newRow("minimal on demand") << json(R"({"owner": {"name": "acct"},
            "attributeDefinitions": [{"attributeName": "pk", "attributeType": "S"}],
            "keySchema": [{"attributeName": "pk", "keyType": "HASH"}]})");
        QTest::newRow("hash and range, tags, stream") << json(R"({"owner": {"name": "acct"},
            "tableName": "Orders",
            "attributeDefinitions": [{"attributeName": "pk", "attributeType": "S"},
                                     {"attributeName": "sk", "attributeType": "N"}],
            "keySchema": [{"attributeName": "pk", "keyType": "HASH"},
                          {"attributeName": "sk", "keyType": "RANGE"}],
            "streamSpecification": {"streamEnabled": true, "streamViewType": "KEYS_ONLY"},
            "tags": [{"key": "b", "value": "2"}, {"key": "a", "value": "1"}, {"key": "c"}]})");
        QTest::newRow("on demand with indexes") << json(R"({"owner": {"name": "acct"},
            "attributeDefinitions": [{"attributeName": "pk", "attributeType": "S"},
                                     {"attributeName": "st", "attributeType": "S"},
                                     {"attributeName": "at", "attributeType": "N"}],
            "keySchema": [{"attributeName": "pk", "keyType": "HASH"}],
            "globalSecondaryIndexes": [
                {"indexName": "byStatus", "keySchema": [{"attributeName": "st", "keyType": "HASH"},
                                                       {"attributeName": "at", "keyType": "RANGE"}],
                 "projection": {"projectionType": "INCLUDE", "nonKeyAttributes": ["z", "y", "x"]}},
                {"indexName": "byTime", "keySchema": [{"attributeName": "at", "keyType": "HASH"}],
                 "projection": {"projectionType": "KEYS_ONLY"}}],
            "streamSpecification": {"streamEnabled": false}})");
        QTest::newRow("provisioned with an index") << json(R"({"owner": {"name": "acct"},
            "attributeDefinitions": [{"attributeName": "pk", "attributeType": "B"},
                                     {"attributeName": "st", "attributeType": "S"}],
            "keySchema": [{"attributeName": "pk", "keyType": "HASH"}],
            "billingMode": "PROVISIONED",
            "provisionedThroughput": {"readCapacityUnits": 10, "writeCapacityUnits": 3},
            "globalSecondaryIndexes": [{"indexName": "byStatus",
                "keySchema": [{"attributeName": "st", "keyType": "HASH"}],
                "provisionedThroughput": {"readCapacityUnits": 4, "writeCapacityUnits": 2}}],
            "tags": []})");
    }
    void roundTripHasNoDelta()
    {
        QFETCH(QJsonObject, spec);
        const QJsonObject desired = validated(spec);
        const QJsonObject request = createRequest(desired, s("Orders"));
        const QJsonObject table = describeAsAws(request);
        const QJsonArray tags = reversed(request.value(s("Tags")).toArray());
        const QJsonObject observed = observe(table, desired, tags);
        QCOMPARE(Delta::between(schema(), desired, observed).join(u' '), QString());
        QCOMPARE(DynamoDbTableSteps::nextStep(desired, observed, s("Orders")).kind,
                 Step::Kind::None);
        QVERIFY(DynamoDbTableSteps::indexProgress(table).isEmpty());

        // The observed spec is itself a valid desired spec (a claim) with no delta.
        const QJsonObject claimed = validated(observed);
        QCOMPARE(Delta::between(schema(), claimed, observed), QStringList());
    }

    void observedNormalisations()
    {
        // A provisioned table made before billing mode summaries existed, with a local index,
        // an attribute defined that no key uses, and no stream, class or encryption said.
        const QJsonObject table = json(R"({"TableName": "legacy", "TableStatus": "ACTIVE",
            "AttributeDefinitions": [{"AttributeName": "lsk", "AttributeType": "S"},
                                     {"AttributeName": "pk", "AttributeType": "S"},
                                     {"AttributeName": "old", "AttributeType": "N"},
                                     {"AttributeName": "sk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "sk", "KeyType": "RANGE"},
                          {"AttributeName": "pk", "KeyType": "HASH"}],
            "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5,
                                      "NumberOfDecreasesToday": 0},
            "LocalSecondaryIndexes": [{"IndexName": "byLsk", "IndexSizeBytes": 0,
                "KeySchema": [{"AttributeName": "lsk", "KeyType": "RANGE"},
                              {"AttributeName": "pk", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "KEYS_ONLY"}}]})");
        const QJsonObject spec = DynamoDbTableSteps::observedSpec(table, {});
        const QJsonObject expected = json(R"({"tableName": "legacy",
            "attributeDefinitions": [{"attributeName": "lsk", "attributeType": "S"},
                                     {"attributeName": "pk", "attributeType": "S"},
                                     {"attributeName": "sk", "attributeType": "S"}],
            "keySchema": [{"attributeName": "pk", "keyType": "HASH"},
                          {"attributeName": "sk", "keyType": "RANGE"}],
            "localSecondaryIndexes": [{"indexName": "byLsk",
                "keySchema": [{"attributeName": "pk", "keyType": "HASH"},
                              {"attributeName": "lsk", "keyType": "RANGE"}],
                "projection": {"projectionType": "KEYS_ONLY"}}],
            "billingMode": "PROVISIONED",
            "provisionedThroughput": {"readCapacityUnits": 5, "writeCapacityUnits": 5},
            "streamSpecification": {"streamEnabled": false},
            "tableClass": "STANDARD", "deletionProtectionEnabled": false,
            "sseSpecification": {"enabled": false}})");
        QCOMPARE(spec, expected);
        // The observed spec is a valid desired spec (a claim).
        QJsonObject claimed = spec;
        claimed.insert(s("owner"), json(R"({"name": "acct"})"));
        QCOMPARE(Delta::between(schema(), validated(claimed), claimed), QStringList());
    }

    // What DescribeTable, DescribeTimeToLive and DescribeContinuousBackups answer as statuses
    // and summaries, as the spec writes it.
    void observedSettings_data()
    {
        QTest::addColumn<QJsonObject>("table");
        QTest::addColumn<QJsonObject>("desired");
        QTest::addColumn<QJsonObject>("expected"); // these fields of the observed spec
        QTest::newRow("class, protection")
            << json(R"({"TableClassSummary": {"TableClass": "STANDARD_INFREQUENT_ACCESS"},
                        "DeletionProtectionEnabled": true})")
            << QJsonObject() << json(R"({"tableClass": "STANDARD_INFREQUENT_ACCESS",
                        "deletionProtectionEnabled": true})");
        QTest::newRow("a KMS key given by ID")
            << json(R"({"SSEDescription": {"Status": "ENABLED", "SSEType": "KMS",
                        "KMSMasterKeyArn": "arn:aws:kms:us-east-1:1:key/k-1"}})")
            << json(R"({"sseSpecification": {"enabled": true, "kmsMasterKeyID": "k-1"}})")
            << json(R"({"sseSpecification": {"enabled": true, "sseType": "KMS",
                        "kmsMasterKeyID": "k-1"}})");
        QTest::newRow("another KMS key")
            << json(R"({"SSEDescription": {"Status": "ENABLED", "SSEType": "KMS",
                        "KMSMasterKeyArn": "arn:aws:kms:us-east-1:1:key/k-2"}})")
            << json(R"({"sseSpecification": {"enabled": true, "kmsMasterKeyID": "k-1"}})")
            << json(R"({"sseSpecification": {"enabled": true, "sseType": "KMS",
                        "kmsMasterKeyID": "arn:aws:kms:us-east-1:1:key/k-2"}})");
        QTest::newRow("a KMS key given by alias")
            << json(R"({"SSEDescription": {"Status": "UPDATING", "SSEType": "KMS",
                        "KMSMasterKeyArn": "arn:aws:kms:us-east-1:1:key/k-2"}})")
            << json(R"({"sseSpecification": {"enabled": true, "kmsMasterKeyID": "alias/a"}})")
            << json(R"({"sseSpecification": {"enabled": true, "sseType": "KMS",
                        "kmsMasterKeyID": "alias/a"}})");
        QTest::newRow("time to live enabling, backups on")
            << json(R"({"TimeToLiveDescription": {"TimeToLiveStatus": "ENABLING",
                                                  "AttributeName": "exp"},
                        "ContinuousBackupsDescription": {"ContinuousBackupsStatus": "ENABLED",
                            "PointInTimeRecoveryDescription":
                                {"PointInTimeRecoveryStatus": "ENABLED"}}})")
            << QJsonObject() << json(R"({"timeToLive": {"enabled": true, "attributeName": "exp"},
                        "continuousBackups": {"pointInTimeRecoveryEnabled": true}})");
        QTest::newRow("time to live off: any attribute is as good")
            << json(R"({"TimeToLiveDescription": {"TimeToLiveStatus": "DISABLED"}})")
            << json(R"({"timeToLive": {"enabled": false, "attributeName": "exp"}})")
            << json(R"({"timeToLive": {"enabled": false, "attributeName": "exp"}})");
        QTest::newRow("on-demand limits; -1 is none")
            << json(R"({"BillingModeSummary": {"BillingMode": "PAY_PER_REQUEST"},
                        "OnDemandThroughput": {"MaxReadRequestUnits": 100,
                                               "MaxWriteRequestUnits": -1}})")
            << QJsonObject() << json(R"({"onDemandThroughput": {"maxReadRequestUnits": 100}})");
    }
    void observedSettings()
    {
        QFETCH(QJsonObject, table);
        QFETCH(QJsonObject, desired);
        QFETCH(QJsonObject, expected);
        const QJsonObject observed = DynamoDbTableSteps::observedSpec(table, desired);
        for (auto it = expected.begin(); it != expected.end(); ++it)
            QCOMPARE(observed.value(it.key()), it.value());
    }

    void progress_data()
    {
        QTest::addColumn<QJsonObject>("table");
        QTest::addColumn<QString>("progress");
        // The table's own status is the declaration's states.
        QTest::newRow("active") << json(R"({"TableStatus": "ACTIVE"})") << "";
        QTest::newRow("updating") << json(R"({"TableStatus": "UPDATING"})") << "";
        QTest::newRow("index creating")
            << json(R"({"TableStatus": "ACTIVE", "GlobalSecondaryIndexes": [
                {"IndexName": "a", "IndexStatus": "ACTIVE"},
                {"IndexName": "b", "IndexStatus": "CREATING"}]})")
            << "index b is CREATING";
        QTest::newRow("index deleting")
            << json(R"({"TableStatus": "ACTIVE", "GlobalSecondaryIndexes": [
                {"IndexName": "a", "IndexStatus": "DELETING"}]})")
            << "index a is DELETING";
    }
    void progress()
    {
        QFETCH(QJsonObject, table);
        QFETCH(QString, progress);
        QCOMPARE(DynamoDbTableSteps::indexProgress(table), progress);
    }

    void nextStep_data()
    {
        QTest::addColumn<QJsonObject>("from"); // desired spec the table was created with
        QTest::addColumn<QJsonObject>("to");   // changes to the desired spec (null removes)
        QTest::addColumn<Step::Kind>("kind");
        QTest::addColumn<QJsonObject>("request");

        const QJsonObject index = onDemandWithIndex();
        QTest::newRow("nothing") << index << QJsonObject() << Step::Kind::None << QJsonObject();
        QTest::newRow("index removed") << index << json(R"({"globalSecondaryIndexes": [],
                "attributeDefinitions": [{"attributeName": "pk", "attributeType": "S"}]})")
                                       << Step::Kind::DeleteIndex << json(R"({"TableName": "orders",
                "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "byStatus"}}]})");
        QTest::newRow("no indexes given means none")
            << index << json(R"({"globalSecondaryIndexes": null,
                "attributeDefinitions": [{"attributeName": "pk", "attributeType": "S"}]})")
            << Step::Kind::DeleteIndex << json(R"({"TableName": "orders",
                "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "byStatus"}}]})");
        QTest::newRow("index added")
            << index
            << json(R"({"attributeDefinitions": [{"attributeName": "pk", "attributeType": "S"},
                                                 {"attributeName": "st", "attributeType": "S"},
                                                 {"attributeName": "n", "attributeType": "N"}],
                "globalSecondaryIndexes": [
                    {"indexName": "byStatus", "keySchema": [{"attributeName": "st", "keyType": "HASH"}]},
                    {"indexName": "byN", "keySchema": [{"attributeName": "n", "keyType": "HASH"}],
                     "projection": {"projectionType": "KEYS_ONLY"}}]})")
            << Step::Kind::CreateIndex << json(R"({"TableName": "orders",
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                         {"AttributeName": "st", "AttributeType": "S"},
                                         {"AttributeName": "n", "AttributeType": "N"}],
                "GlobalSecondaryIndexUpdates": [{"Create": {"IndexName": "byN",
                    "KeySchema": [{"AttributeName": "n", "KeyType": "HASH"}],
                    "Projection": {"ProjectionType": "KEYS_ONLY"}}}]})");
        QTest::newRow("index projection changed: delete first")
            << index << json(R"({"globalSecondaryIndexes": [{"indexName": "byStatus",
                    "keySchema": [{"attributeName": "st", "keyType": "HASH"}],
                    "projection": {"projectionType": "KEYS_ONLY"}}]})")
            << Step::Kind::DeleteIndex << json(R"({"TableName": "orders",
                "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "byStatus"}}]})");
        QTest::newRow("to provisioned, with the index's capacity")
            << index << json(R"({"billingMode": "PROVISIONED",
                "provisionedThroughput": {"readCapacityUnits": 5, "writeCapacityUnits": 5},
                "globalSecondaryIndexes": [{"indexName": "byStatus",
                    "keySchema": [{"attributeName": "st", "keyType": "HASH"}],
                    "provisionedThroughput": {"readCapacityUnits": 2, "writeCapacityUnits": 1}}]})")
            << Step::Kind::Capacity << json(R"({"TableName": "orders", "BillingMode": "PROVISIONED",
                "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
                "GlobalSecondaryIndexUpdates": [{"Update": {"IndexName": "byStatus",
                    "ProvisionedThroughput": {"ReadCapacityUnits": 2, "WriteCapacityUnits": 1}}}]})");

        QJsonObject provisioned = index;
        provisioned.insert(s("billingMode"), s("PROVISIONED"));
        provisioned.insert(s("provisionedThroughput"),
                           json(R"({"readCapacityUnits": 5, "writeCapacityUnits": 5})"));
        provisioned.insert(s("globalSecondaryIndexes"), json(R"({"a": [{"indexName": "byStatus",
                    "keySchema": [{"attributeName": "st", "keyType": "HASH"}],
                    "provisionedThroughput": {"readCapacityUnits": 2, "writeCapacityUnits": 1}}]})")
                                                            .value(s("a")));
        QTest::newRow("to on demand")
            << provisioned
            << json(R"({"billingMode": "PAY_PER_REQUEST", "provisionedThroughput": null,
                "globalSecondaryIndexes": [{"indexName": "byStatus",
                    "keySchema": [{"attributeName": "st", "keyType": "HASH"}]}]})")
            << Step::Kind::Capacity
            << json(R"({"TableName": "orders", "BillingMode": "PAY_PER_REQUEST"})");
        QTest::newRow("table capacity")
            << provisioned
            << json(
                   R"({"provisionedThroughput": {"readCapacityUnits": 7, "writeCapacityUnits": 5}})")
            << Step::Kind::Capacity << json(R"({"TableName": "orders",
                "ProvisionedThroughput": {"ReadCapacityUnits": 7, "WriteCapacityUnits": 5}})");
        QTest::newRow("index capacity only")
            << provisioned << json(R"({"globalSecondaryIndexes": [{"indexName": "byStatus",
                    "keySchema": [{"attributeName": "st", "keyType": "HASH"}],
                    "provisionedThroughput": {"readCapacityUnits": 9, "writeCapacityUnits": 1}}]})")
            << Step::Kind::Capacity << json(R"({"TableName": "orders",
                "GlobalSecondaryIndexUpdates": [{"Update": {"IndexName": "byStatus",
                    "ProvisionedThroughput": {"ReadCapacityUnits": 9, "WriteCapacityUnits": 1}}}]})");
        QTest::newRow("deletion before capacity")
            << provisioned
            << json(R"({"provisionedThroughput": {"readCapacityUnits": 7, "writeCapacityUnits": 5},
                "globalSecondaryIndexes": [],
                "attributeDefinitions": [{"attributeName": "pk", "attributeType": "S"}]})")
            << Step::Kind::DeleteIndex << json(R"({"TableName": "orders",
                "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "byStatus"}}]})");
        QTest::newRow("stream on")
            << index
            << json(
                   R"({"streamSpecification": {"streamEnabled": true, "streamViewType": "NEW_IMAGE"}})")
            << Step::Kind::Stream << json(R"({"TableName": "orders",
                "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_IMAGE"}})");

        QJsonObject streaming = index;
        streaming.insert(s("streamSpecification"),
                         json(R"({"streamEnabled": true, "streamViewType": "KEYS_ONLY"})"));
        QTest::newRow("stream off")
            << streaming << json(R"({"streamSpecification": {"streamEnabled": false}})")
            << Step::Kind::Stream << json(R"({"TableName": "orders",
                "StreamSpecification": {"StreamEnabled": false}})");
        QTest::newRow("stream view type: off first")
            << streaming
            << json(
                   R"({"streamSpecification": {"streamEnabled": true, "streamViewType": "NEW_IMAGE"}})")
            << Step::Kind::Stream
            << json(R"({"TableName": "orders", "StreamSpecification": {"StreamEnabled": false}})");
        QTest::newRow("stream not managed") << streaming << json(R"({"streamSpecification": null})")
                                            << Step::Kind::None << QJsonObject();
        // The table's settings, one a call, after the stream and before index creations.
        QTest::newRow("table class")
            << index << json(R"({"tableClass": "STANDARD_INFREQUENT_ACCESS"})")
            << Step::Kind::Settings
            << json(R"({"TableName": "orders", "TableClass": "STANDARD_INFREQUENT_ACCESS"})");
        QTest::newRow("class, then protection")
            << index << json(R"({"tableClass": "STANDARD_INFREQUENT_ACCESS",
                        "deletionProtectionEnabled": true})")
            << Step::Kind::Settings
            << json(R"({"TableName": "orders", "TableClass": "STANDARD_INFREQUENT_ACCESS"})");
        QTest::newRow("protection")
            << index << json(R"({"deletionProtectionEnabled": true})") << Step::Kind::Settings
            << json(R"({"TableName": "orders", "DeletionProtectionEnabled": true})");
        QTest::newRow("encryption")
            << index << json(R"({"sseSpecification": {"enabled": true, "sseType": "KMS"}})")
            << Step::Kind::Settings << json(R"({"TableName": "orders",
                        "SSESpecification": {"Enabled": true, "SSEType": "KMS"}})");
        QTest::newRow("stream before settings")
            << index << json(R"({"tableClass": "STANDARD_INFREQUENT_ACCESS", "streamSpecification":
                        {"streamEnabled": true, "streamViewType": "NEW_IMAGE"}})")
            << Step::Kind::Stream << json(R"({"TableName": "orders",
                "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_IMAGE"}})");
    }
    void nextStep()
    {
        QFETCH(QJsonObject, from);
        QFETCH(QJsonObject, to);
        QFETCH(Step::Kind, kind);
        QFETCH(QJsonObject, request);
        const QJsonObject before = validated(from);
        QJsonObject after = from;
        for (auto it = to.constBegin(); it != to.constEnd(); ++it) {
            if (it.value().isNull())
                after.remove(it.key());
            else
                after.insert(it.key(), it.value());
        }
        const QJsonObject desired = validated(after);
        const QJsonObject table = describeAsAws(createRequest(before, s("orders")));
        const Step step =
            DynamoDbTableSteps::nextStep(desired, observe(table, desired), s("orders"));
        QCOMPARE(step.kind, kind);
        QCOMPARE(step.request, request);
        QCOMPARE(step.description.isEmpty(), kind == Step::Kind::None);
    }

    // Whatever the change, one step at a time reaches the desired spec with at most one index
    // created or deleted per call (applyUpdate refuses more).
    void stepsConverge_data()
    {
        QTest::addColumn<QJsonObject>("from");
        QTest::addColumn<QJsonObject>("to");
        QTest::addColumn<int>("steps");
        const QJsonObject a = json(R"({"owner": {"name": "acct"},
            "attributeDefinitions": [{"attributeName": "pk", "attributeType": "S"},
                                     {"attributeName": "x", "attributeType": "S"},
                                     {"attributeName": "y", "attributeType": "S"}],
            "keySchema": [{"attributeName": "pk", "keyType": "HASH"}],
            "globalSecondaryIndexes": [
                {"indexName": "byX", "keySchema": [{"attributeName": "x", "keyType": "HASH"}]},
                {"indexName": "byY", "keySchema": [{"attributeName": "y", "keyType": "HASH"}]}]})");
        const QJsonObject b = json(R"({"owner": {"name": "acct"},
            "attributeDefinitions": [{"attributeName": "pk", "attributeType": "S"},
                                     {"attributeName": "x", "attributeType": "S"},
                                     {"attributeName": "z", "attributeType": "N"},
                                     {"attributeName": "w", "attributeType": "N"}],
            "keySchema": [{"attributeName": "pk", "keyType": "HASH"}],
            "billingMode": "PROVISIONED",
            "provisionedThroughput": {"readCapacityUnits": 3, "writeCapacityUnits": 4},
            "globalSecondaryIndexes": [
                {"indexName": "byX", "keySchema": [{"attributeName": "x", "keyType": "HASH"}],
                 "projection": {"projectionType": "KEYS_ONLY"},
                 "provisionedThroughput": {"readCapacityUnits": 1, "writeCapacityUnits": 1}},
                {"indexName": "byZ", "keySchema": [{"attributeName": "z", "keyType": "HASH"}],
                 "provisionedThroughput": {"readCapacityUnits": 1, "writeCapacityUnits": 1}},
                {"indexName": "byW", "keySchema": [{"attributeName": "w", "keyType": "HASH"}],
                 "provisionedThroughput": {"readCapacityUnits": 1, "writeCapacityUnits": 1}}],
            "streamSpecification": {"streamEnabled": true, "streamViewType": "NEW_IMAGE"}})");
        // Delete byX (new projection) and byY, billing, stream, create byX, byZ, byW: 7.
        QTest::newRow("a to b") << a << b << 7;
        // Delete byX, byZ, byW, billing, create byX, byY (a does not manage the stream): 6.
        QTest::newRow("b to a") << b << a << 6;
    }
    void stepsConverge()
    {
        QFETCH(QJsonObject, from);
        QFETCH(QJsonObject, to);
        QFETCH(int, steps);
        const QJsonObject desired = validated(to);
        QJsonObject table = describeAsAws(createRequest(validated(from), s("t1")));
        int taken = 0;
        for (; taken < 20; ++taken) {
            const Step step =
                DynamoDbTableSteps::nextStep(desired, observe(table, desired), s("t1"));
            if (step.kind == Step::Kind::None)
                break;
            table = applyUpdate(table, step.request);
        }
        QCOMPARE(taken, steps);
        QCOMPARE(Delta::between(schema(), desired, observe(table, desired)), QStringList());
    }
};

QTEST_GUILESS_MAIN(tst_DynamoDbTableSteps)
#include "tst_dynamodbtablesteps.moc"

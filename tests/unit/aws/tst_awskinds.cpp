// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awskinds.h"

#include "delta.h"
#include "kindregistry.h"
#include "manifestreader.h"
#include "schemavalidator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace converge;

namespace {

// JSON with single quotes, so that rows read without escapes (and moc, which takes "//" in a raw
// string for a comment, can read this file).
QJsonObject json(const char *text)
{
    QJsonParseError error;
    const QJsonDocument document =
        QJsonDocument::fromJson(QByteArray(text).replace('\'', '"'), &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("bad test JSON: %s", qPrintable(error.errorString()));
    return document.object();
}

QJsonObject document(const QString &kind, const QString &name, const QJsonObject &spec)
{
    return {{QStringLiteral("apiVersion"), AwsKinds::apiVersion()},
            {QStringLiteral("kind"), kind},
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}},
            {QStringLiteral("spec"), spec}};
}

// A valid table spec to start each row from.
QJsonObject baseTable()
{
    return json("{'owner': {'name': 'acct'},"
                "'attributeDefinitions': [{'attributeName': 'pk', 'attributeType': 'S'},"
                "{'attributeName': 'sk', 'attributeType': 'N'}],"
                "'keySchema': [{'attributeName': 'pk', 'keyType': 'HASH'},"
                "{'attributeName': 'sk', 'keyType': 'RANGE'}]}");
}

} // namespace

class tst_AwsKinds final : public QObject
{
    Q_OBJECT

private:
    KindRegistry m_kinds;

    QStringList errorsOf(const QJsonObject &doc)
    {
        SchemaValidator validator(m_kinds);
        QStringList out;
        for (const ValidationError &e : validator.validate(doc).errors)
            out << e.toString();
        return out;
    }

private slots:
    void initTestCase() { AwsKinds::registerKinds(m_kinds); }

    void kindsAreRegistered()
    {
        const Kind *account = m_kinds.find(AwsKinds::apiVersion(), QStringLiteral("AwsAccount"));
        const Kind *table = m_kinds.find(AwsKinds::apiVersion(), QStringLiteral("DynamoDBTable"));
        QVERIFY(account && table);
        QVERIFY(account->ownerKind.isEmpty());
        QCOMPARE(table->ownerKind, QStringLiteral("AwsAccount"));
        QCOMPARE(AwsKinds::apiVersion(), QStringLiteral("aws.converge.dev/v1"));
        // Every top-level field says what it is for (the window shows these).
        for (const Kind *kind : {account, table}) {
            for (const FieldSchema &f : kind->spec.fields)
                QVERIFY2(!f.description.isEmpty(),
                         qPrintable(kind->name + QLatin1Char('.') + f.name));
        }
    }

    void account_data()
    {
        QTest::addColumn<QJsonObject>("spec");
        QTest::addColumn<QString>("error"); // empty: valid
        QTest::newRow("emulator on loopback")
            << json("{'region': 'us-east-1', 'endpoint': 'http://127.0.0.1:8000',"
                    "'credential': {'emulator': true}}")
            << "";
        QTest::newRow("emulator on localhost")
            << json("{'region': 'local', 'endpoint': 'http://localhost:8000/',"
                    "'credential': {'emulator': true}}")
            << "";
        QTest::newRow("env on AWS")
            << json("{'region': 'eu-west-1', 'credential': {'env': true}}") << "";
        QTest::newRow("file") << json("{'region': 'eu-west-1', 'credential': {'file': '~/k'}}")
                              << "";
        QTest::newRow("keychain")
            << json(
                   "{'region': 'eu-west-1', 'endpoint': 'https://dynamodb.eu-west-1.amazonaws.com',"
                   "'credential': {'keychain': 'prod'}}")
            << "";
        QTest::newRow("region missing")
            << json("{'credential': {'keychain': 'prod'}}")
            << "spec: region is required unless the credential is a profile";
        QTest::newRow("region from a profile") << json("{'credential': {'profile': 'dev'}}") << "";
        QTest::newRow("region from AWS_PROFILE") << json("{'credential': {'env': true}}") << "";
        QTest::newRow("profile")
            << json("{'region': 'eu-west-1', 'credential': {'profile': 'team/dev one'}}") << "";
        QTest::newRow("profile and file")
            << json("{'region': 'eu-west-1', 'credential': {'profile': 'dev', 'file': '/k'}}")
            << "spec.credential: give exactly one of";
        QTest::newRow("empty profile")
            << json("{'region': 'eu-west-1', 'credential': {'profile': ''}}")
            << "spec.credential.profile:";
        QTest::newRow("region with capitals")
            << json("{'region': 'EU-West-1', 'credential': {'env': true}}")
            << "spec.region: \"EU-West-1\" is not valid";
        QTest::newRow("credential missing")
            << json("{'region': 'eu-west-1'}") << "spec.credential: is required";
        QTest::newRow("two credentials")
            << json("{'region': 'eu-west-1', 'credential': {'env': true, 'file': '/k'}}")
            << "spec.credential: give exactly one of";
        // An account an ACK import created: valid, Ready False until it is connected.
        QTest::newRow("not connected yet")
            << json("{'region': 'eu-west-1', 'credential': {}}") << "";
        QTest::newRow("env false") << json("{'region': 'eu-west-1', 'credential': {'env': false}}")
                                   << "spec.credential: env: false means nothing";
        QTest::newRow("emulator on AWS")
            << json("{'region': 'eu-west-1', 'credential': {'emulator': true}}")
            << "spec: credential emulator: true is only for a local emulator";
        QTest::newRow("emulator on a remote host")
            << json("{'region': 'eu-west-1', 'endpoint': 'https://dynamo.example.com',"
                    "'credential': {'emulator': true}}")
            << "spec: credential emulator: true is only for a local emulator";
        QTest::newRow("plain http to a remote host")
            << json("{'region': 'eu-west-1', 'endpoint': 'http://10.1.2.3:8000',"
                    "'credential': {'env': true}}")
            << "spec: a plain http endpoint on another host";
        QTest::newRow("plain http to a remote host, allowed")
            << json("{'region': 'eu-west-1', 'endpoint': 'http://10.1.2.3:8000',"
                    "'allowInsecureHttp': true, 'credential': {'env': true}}")
            << "";
        QTest::newRow("endpoint not a URL")
            << json("{'region': 'eu-west-1', 'endpoint': 'dynamodb', 'credential': {'env': true}}")
            << "spec.endpoint: must be an http or https URL";
        QTest::newRow("endpoint ftp")
            << json("{'region': 'eu-west-1', 'endpoint': 'ftp://x', 'credential': {'env': true}}")
            << "spec.endpoint: must be an http or https URL";
        QTest::newRow("endpoint with a query")
            << json("{'region': 'eu-west-1', 'endpoint': 'https://x/?a=b',"
                    "'credential': {'env': true}}")
            << "spec.endpoint: must not contain";
        QTest::newRow("secret inline is an unknown field")
            << json("{'region': 'eu-west-1', 'credential': {'secretAccessKey': 'abc'}}")
            << "spec.credential.secretAccessKey: unknown field";
    }
    void account()
    {
        QFETCH(QJsonObject, spec);
        QFETCH(QString, error);
        const QStringList errors =
            errorsOf(document(QStringLiteral("AwsAccount"), QStringLiteral("acct"), spec));
        if (error.isEmpty()) {
            QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
        } else {
            QVERIFY2(!errors.isEmpty() && errors.first().startsWith(error),
                     qPrintable(errors.join(QLatin1Char('\n'))));
        }
    }

    void table_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QJsonObject>("changes"); // merged into baseTable(); null removes
        QTest::addColumn<QString>("error");

        QTest::newRow("minimal") << "orders" << QJsonObject() << "";
        QTest::newRow("table name") << "orders" << json("{'tableName': 'Orders_v2.x-1'}") << "";
        QTest::newRow("table name too short") << "orders" << json("{'tableName': 'ab'}")
                                              << "spec.tableName: must be at least 3 characters";
        QTest::newRow("table name with a space")
            << "orders" << json("{'tableName': 'my table'}") << "spec.tableName: \"my table\"";
        QTest::newRow("metadata.name of two characters")
            << "ab" << QJsonObject() << "metadata.name: \"ab\" is not valid";
        QTest::newRow("metadata.name upper case")
            << "Orders" << QJsonObject() << "metadata.name: \"Orders\" is not valid";
        QTest::newRow("owner missing")
            << "orders" << json("{'owner': null}") << "spec.owner: is required";
        QTest::newRow("key schema missing")
            << "orders" << json("{'keySchema': null}") << "spec.keySchema: is required";
        QTest::newRow("range first")
            << "orders"
            << json("{'keySchema': [{'attributeName': 'sk', 'keyType': 'RANGE'},"
                    "{'attributeName': 'pk', 'keyType': 'HASH'}]}")
            << "spec.keySchema: the first key must be the HASH key";
        QTest::newRow("two hash keys")
            << "orders"
            << json("{'keySchema': [{'attributeName': 'pk', 'keyType': 'HASH'},"
                    "{'attributeName': 'sk', 'keyType': 'HASH'}]}")
            << "spec.keySchema: the second key must be the RANGE key";
        QTest::newRow("three keys")
            << "orders"
            << json("{'keySchema': [{'attributeName': 'pk', 'keyType': 'HASH'},"
                    "{'attributeName': 'sk', 'keyType': 'RANGE'},"
                    "{'attributeName': 'x', 'keyType': 'RANGE'}]}")
            << "spec.keySchema: must have at most 2 items";
        QTest::newRow("key type unknown")
            << "orders" << json("{'keySchema': [{'attributeName': 'pk', 'keyType': 'PRIMARY'}]}")
            << "spec.keySchema[0].keyType: \"PRIMARY\" is not one of HASH, RANGE";
        QTest::newRow("attribute type unknown")
            << "orders"
            << json("{'attributeDefinitions': [{'attributeName': 'pk', 'attributeType': 'X'},"
                    "{'attributeName': 'sk', 'attributeType': 'N'}]}")
            << "spec.attributeDefinitions[0].attributeType: \"X\" is not one of S, N, B";
        QTest::newRow("key attribute undefined")
            << "orders"
            << json("{'attributeDefinitions': [{'attributeName': 'pk', 'attributeType': 'S'}]}")
            << "spec: attributeDefinitions must define the key attribute(s) sk";
        QTest::newRow("attribute defined but unused")
            << "orders"
            << json("{'attributeDefinitions': [{'attributeName': 'pk', 'attributeType': 'S'},"
                    "{'attributeName': 'sk', 'attributeType': 'N'},"
                    "{'attributeName': 'x', 'attributeType': 'S'}]}")
            << "spec: attributeDefinitions may only define key attributes";
        QTest::newRow("attribute defined twice")
            << "orders"
            << json("{'attributeDefinitions': [{'attributeName': 'pk', 'attributeType': 'S'},"
                    "{'attributeName': 'pk', 'attributeType': 'N'}]}")
            << "spec.attributeDefinitions: attribute \"pk\" appears twice";
        QTest::newRow("provisioned needs throughput")
            << "orders" << json("{'billingMode': 'PROVISIONED'}")
            << "spec: billingMode PROVISIONED needs provisionedThroughput";
        QTest::newRow("provisioned with throughput")
            << "orders"
            << json("{'billingMode': 'PROVISIONED',"
                    "'provisionedThroughput': {'readCapacityUnits': 5, 'writeCapacityUnits': 1}}")
            << "";
        QTest::newRow("throughput on demand")
            << "orders"
            << json("{'provisionedThroughput': {'readCapacityUnits': 5, 'writeCapacityUnits': 1}}")
            << "spec: provisionedThroughput is only for billingMode PROVISIONED";
        QTest::newRow("zero capacity")
            << "orders"
            << json("{'billingMode': 'PROVISIONED',"
                    "'provisionedThroughput': {'readCapacityUnits': 0, 'writeCapacityUnits': 1}}")
            << "spec.provisionedThroughput.readCapacityUnits: must be at least 1";
        QTest::newRow("billing mode unknown")
            << "orders" << json("{'billingMode': 'ON_DEMAND'}")
            << "spec.billingMode: \"ON_DEMAND\" is not one of PROVISIONED, PAY_PER_REQUEST";
        QTest::newRow("index")
            << "orders"
            << json("{'attributeDefinitions': [{'attributeName': 'pk', 'attributeType': 'S'},"
                    "{'attributeName': 'sk', 'attributeType': 'N'},"
                    "{'attributeName': 'st', 'attributeType': 'S'}],"
                    "'globalSecondaryIndexes': [{'indexName': 'byStatus',"
                    "'keySchema': [{'attributeName': 'st', 'keyType': 'HASH'}]}]}")
            << "";
        QTest::newRow("index key undefined")
            << "orders"
            << json("{'globalSecondaryIndexes': [{'indexName': 'byStatus',"
                    "'keySchema': [{'attributeName': 'st', 'keyType': 'HASH'}]}]}")
            << "spec: attributeDefinitions must define the key attribute(s) st";
        QTest::newRow("index without throughput under PROVISIONED")
            << "orders"
            << json("{'billingMode': 'PROVISIONED',"
                    "'provisionedThroughput': {'readCapacityUnits': 1, 'writeCapacityUnits': 1},"
                    "'globalSecondaryIndexes': [{'indexName': 'bySk',"
                    "'keySchema': [{'attributeName': 'sk', 'keyType': 'HASH'}]}]}")
            << "spec: index bySk needs provisionedThroughput";
        QTest::newRow("index names twice")
            << "orders"
            << json("{'globalSecondaryIndexes': ["
                    "{'indexName': 'bySk', 'keySchema': [{'attributeName': 'sk', 'keyType': "
                    "'HASH'}]},"
                    "{'indexName': 'bySk', 'keySchema': [{'attributeName': 'sk', 'keyType': "
                    "'HASH'}]}]}")
            << "spec.globalSecondaryIndexes: index \"bySk\" appears twice";
        QTest::newRow("include without attributes")
            << "orders"
            << json("{'globalSecondaryIndexes': [{'indexName': 'bySk',"
                    "'keySchema': [{'attributeName': 'sk', 'keyType': 'HASH'}],"
                    "'projection': {'projectionType': 'INCLUDE'}}]}")
            << "spec.globalSecondaryIndexes[0].projection: projectionType INCLUDE needs";
        QTest::newRow("attributes without include")
            << "orders"
            << json("{'globalSecondaryIndexes': [{'indexName': 'bySk',"
                    "'keySchema': [{'attributeName': 'sk', 'keyType': 'HASH'}],"
                    "'projection': {'projectionType': 'ALL', 'nonKeyAttributes': ['a']}}]}")
            << "spec.globalSecondaryIndexes[0].projection: nonKeyAttributes are only for";
        QTest::newRow("index name too short")
            << "orders"
            << json("{'globalSecondaryIndexes': [{'indexName': 'ix',"
                    "'keySchema': [{'attributeName': 'sk', 'keyType': 'HASH'}]}]}")
            << "spec.globalSecondaryIndexes[0].indexName: must be at least 3 characters";
        QTest::newRow("stream") << "orders"
                                << json("{'streamSpecification': {'streamEnabled': true,"
                                        "'streamViewType': 'NEW_IMAGE'}}")
                                << "";
        QTest::newRow("stream without view type")
            << "orders" << json("{'streamSpecification': {'streamEnabled': true}}")
            << "spec.streamSpecification: an enabled stream needs a streamViewType";
        QTest::newRow("disabled stream with view type")
            << "orders"
            << json("{'streamSpecification': {'streamEnabled': false, 'streamViewType': "
                    "'NEW_IMAGE'}}")
            << "spec.streamSpecification: streamViewType is only for an enabled stream";
        QTest::newRow("tags") << "orders"
                              << json("{'tags': [{'key': 'team', 'value': 'billing'},"
                                      "{'key': 'empty'}]}")
                              << "";
        QTest::newRow("tag twice")
            << "orders"
            << json("{'tags': [{'key': 'team', 'value': 'a'}, {'key': 'team', 'value': 'b'}]}")
            << "spec.tags: tag key \"team\" appears twice";
        // The model's fields beyond the hand-written kind's, and the rules that tie them.
        QTest::newRow("local index")
            << "orders"
            << json("{'localSecondaryIndexes': [{'indexName': 'bySk', 'keySchema': ["
                    "{'attributeName': 'pk', 'keyType': 'HASH'},"
                    "{'attributeName': 'sk', 'keyType': 'RANGE'}],"
                    "'projection': {'projectionType': 'KEYS_ONLY'}}],"
                    "'tableClass': 'STANDARD_INFREQUENT_ACCESS',"
                    "'deletionProtectionEnabled': true,"
                    "'sseSpecification': {'enabled': true, 'sseType': 'KMS'},"
                    "'timeToLive': {'enabled': true, 'attributeName': 'expiresAt'},"
                    "'continuousBackups': {'pointInTimeRecoveryEnabled': true}}")
            << "";
        QTest::newRow("local index under another partition key")
            << "orders"
            << json("{'localSecondaryIndexes': [{'indexName': 'bySk', 'keySchema': ["
                    "{'attributeName': 'sk', 'keyType': 'HASH'},"
                    "{'attributeName': 'pk', 'keyType': 'RANGE'}],"
                    "'projection': {'projectionType': 'ALL'}}]}")
            << "spec: local index bySk needs the table's HASH key (pk) and a RANGE key";
        QTest::newRow("time to live without its attribute")
            << "orders" << json("{'timeToLive': {'enabled': true}}")
            << "spec.timeToLive.attributeName: is required";
        QTest::newRow("on-demand limits under PROVISIONED")
            << "orders"
            << json("{'billingMode': 'PROVISIONED', 'provisionedThroughput': "
                    "{'readCapacityUnits': 1, 'writeCapacityUnits': 1}, "
                    "'onDemandThroughput': {'maxReadRequestUnits': 10}}")
            << "spec: onDemandThroughput is only for billingMode PAY_PER_REQUEST";
        QTest::newRow("table class unknown")
            << "orders" << json("{'tableClass': 'COLD'}") << "spec.tableClass: \"COLD\"";
        QTest::newRow("unknown field with a hint")
            << "orders" << json("{'billingMod': 'PROVISIONED'}")
            << "spec.billingMod: unknown field";
    }
    void table()
    {
        QFETCH(QString, name);
        QFETCH(QJsonObject, changes);
        QFETCH(QString, error);
        QJsonObject spec = baseTable();
        for (auto it = changes.constBegin(); it != changes.constEnd(); ++it) {
            if (it.value().isNull())
                spec.remove(it.key());
            else
                spec.insert(it.key(), it.value());
        }
        const QStringList errors = errorsOf(document(QStringLiteral("DynamoDBTable"), name, spec));
        if (error.isEmpty()) {
            QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
        } else {
            QVERIFY2(!errors.isEmpty() && errors.first().startsWith(error),
                     qPrintable(errors.join(QLatin1Char('\n'))));
        }
    }

    void defaultsAreFilledIn()
    {
        QJsonObject spec = baseTable();
        spec.insert(QStringLiteral("attributeDefinitions"),
                    json("{'a': [{'attributeName': 'pk', 'attributeType': 'S'},"
                         "{'attributeName': 'sk', 'attributeType': 'N'}]}")
                        .value(QStringLiteral("a")));
        spec.insert(QStringLiteral("globalSecondaryIndexes"),
                    json("{'a': [{'indexName': 'bySk',"
                         "'keySchema': [{'attributeName': 'sk', 'keyType': 'HASH'}]}]}")
                        .value(QStringLiteral("a")));
        spec.insert(QStringLiteral("tags"),
                    json("{'a': [{'key': 'k'}]}").value(QStringLiteral("a")));
        SchemaValidator validator(m_kinds);
        const auto result = validator.validate(
            document(QStringLiteral("DynamoDBTable"), QStringLiteral("t-1"), spec));
        QVERIFY(result.ok());
        const QJsonObject filled = result.resource.spec;
        QCOMPARE(filled.value(QStringLiteral("billingMode")).toString(),
                 QStringLiteral("PAY_PER_REQUEST"));
        QCOMPARE(filled[QStringLiteral("globalSecondaryIndexes")][0][QStringLiteral("projection")]
                       [QStringLiteral("projectionType")]
                           .toString(),
                 QStringLiteral("ALL"));
        QCOMPARE(filled[QStringLiteral("tags")][0][QStringLiteral("value")].toString(), QString());
        QVERIFY(!filled.contains(QStringLiteral("tableName"))); // metadata.name, in code
    }

    void immutableFields()
    {
        const Kind *table = m_kinds.find(QStringLiteral("DynamoDBTable"));
        QVERIFY(table);
        const QStringList delta{QStringLiteral("spec.keySchema[0].attributeName"),
                                QStringLiteral("spec.tableName"), QStringLiteral("spec.owner.name"),
                                QStringLiteral("spec.billingMode"),
                                QStringLiteral("spec.globalSecondaryIndexes")};
        QCOMPARE(
            Delta::immutablePaths(table->spec, delta),
            (QStringList{QStringLiteral("spec.keySchema[0].attributeName"),
                         QStringLiteral("spec.tableName"), QStringLiteral("spec.owner.name")}));
    }

    void sampleManifestIsValid()
    {
        const QString path = qEnvironmentVariable("CONVERGE_SOURCE_DIR") +
                             QStringLiteral("/resources/samples/local-emulators/dynamodb.yaml");
        ManifestReader reader(m_kinds);
        const ManifestReader::Result result = reader.readFile(path);
        QStringList errors;
        for (const ManifestError &e : result.errors)
            errors << e.toString();
        QVERIFY2(result.ok(), qPrintable(errors.join(QLatin1Char('\n'))));
        QVERIFY(result.objects.size() >= 2);
        QCOMPARE(result.objects.first().resource.kind, QStringLiteral("AwsAccount"));

        // The declared kinds beside it, owned by that account (an object by its bucket).
        const auto services =
            reader.readFile(qEnvironmentVariable("CONVERGE_SOURCE_DIR") +
                            QStringLiteral("/resources/samples/local-emulators/aws-services.yaml"));
        QVERIFY(services.ok());
        QVERIFY(services.objects.size() >= 4);
        for (const ManifestObject &o : services.objects) {
            if (o.resource.kind == QLatin1String("S3Object"))
                QCOMPARE(o.resource.ownerName(), QStringLiteral("order-invoices"));
            else
                QCOMPARE(o.resource.ownerName(), result.objects.first().resource.metadata.name);
        }
    }
};

QTEST_GUILESS_MAIN(tst_AwsKinds)
#include "tst_awskinds.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The DynamoDBTable declaration (resources/kinds/aws/generated/dynamodb.json, from
// corrections/dynamodb.yaml) that replaced the hand-written kind: it says DynamoDB's calls, it
// has the model's fields beyond the hand-written kind's, and the manifests written for the
// hand-written kind (the sample workspace, the interop workspace, the refused ones) read as they
// did: with the same defaults, refused at the same file:line:column with the same words.
#include "declarationreader.h"

#include "awskinds.h"
#include "azurekinds.h"
#include "gcpkinds.h"
#include "kindregistry.h"
#include "manifestreader.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace converge;

namespace {

QString dynamoSourceFile(const QString &relative)
{
    return qEnvironmentVariable("CONVERGE_SOURCE_DIR") + QLatin1Char('/') + relative;
}

DeclarationReader::Result readDynamoDeclaration()
{
    QFile file(dynamoSourceFile(QStringLiteral("resources/kinds/aws/generated/dynamodb.json")));
    if (!file.open(QIODevice::ReadOnly))
        return {{}, {file.fileName() + QStringLiteral(": ") + file.errorString()}};
    return DeclarationReader::read(file.readAll(), QStringLiteral("dynamodb.json"),
                                   AwsKinds::group(), AwsKinds::version(), AwsKinds::accountKind());
}

const FieldSchema *dynamoFieldNamed(const QList<FieldSchema> &fields, const QString &name)
{
    for (const FieldSchema &f : fields) {
        if (f.name == name)
            return &f;
    }
    return nullptr;
}

// Azure's, AWS's and Google Cloud's kinds as the program registers them.
void registerDynamoKinds(KindRegistry &kinds)
{
    AzureKinds::registerAll(kinds);
    GcpKinds::registerKinds(kinds);
    AwsKinds::registerKinds(kinds);
}

} // namespace

class tst_DynamoDbDeclaration final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (qEnvironmentVariableIsEmpty("CONVERGE_SOURCE_DIR"))
            QSKIP("skipped: CONVERGE_SOURCE_DIR not set (ctest sets it)");
        const DeclarationReader::Result result = readDynamoDeclaration();
        QVERIFY2(result.errors.isEmpty(), qPrintable(result.errors.join(QLatin1Char('\n'))));
        QCOMPARE(result.service.kinds.size(), 1);
        m_declaration = result.service.kinds.first();
    }

    void theDeclarationSaysDynamoDbsCalls()
    {
        const KindDeclaration &d = m_declaration;
        QCOMPARE(d.kind.name, AwsKinds::tableKind());
        QCOMPARE(d.kind.backendNameField, QStringLiteral("tableName"));
        QCOMPARE(d.nameMember, QStringLiteral("TableName"));
        QCOMPARE(d.idMember, QStringLiteral("TableArn"));
        QCOMPARE(d.ack.kind, QStringLiteral("Table"));
        QCOMPARE(d.ack.apiVersion, QStringLiteral("dynamodb.services.k8s.aws/v1alpha1"));
        QCOMPARE(d.create.operation, QStringLiteral("CreateTable"));
        QCOMPARE(d.read.operation, QStringLiteral("DescribeTable"));
        QCOMPARE(d.remove.operation, QStringLiteral("DeleteTable"));
        QCOMPARE(d.list.operation, QStringLiteral("ListTables"));
        QCOMPARE(d.alreadyExists, QStringList{QStringLiteral("ResourceInUseException")});
        QVERIFY(d.notFound.contains(QStringLiteral("ResourceNotFoundException")));
        // The table's status as the hand-written kind shows it: CREATING and UPDATING are
        // Reconciling, ACTIVE Ready, DELETING a delete under way.
        QCOMPARE(d.states.member, QStringLiteral("TableStatus"));
        QCOMPARE(d.states.ready, QStringList{QStringLiteral("ACTIVE")});
        QVERIFY(d.states.progress.contains(QStringLiteral("CREATING")));
        QVERIFY(d.states.progress.contains(QStringLiteral("UPDATING")));
        QCOMPARE(d.states.deleting, QStringList{QStringLiteral("DELETING")});
        // Tags by the table's ARN, spelled [{key, value}] as ACK and the hand-written kind do.
        QCOMPARE(d.tags.field, QStringLiteral("tags"));
        QVERIFY(d.tags.spec.isList);
        QCOMPARE(d.tags.read.operation, QStringLiteral("ListTagsOfResource"));
        QCOMPARE(d.tags.add.operation, QStringLiteral("TagResource"));
        QCOMPARE(d.tags.remove.operation, QStringLiteral("UntagResource"));
        QCOMPARE(d.tags.read.input.value(QStringLiteral("ResourceArn")).toString(),
                 QStringLiteral("$id"));
        // Each update call carries its own fields.
        QStringList updates;
        for (const DeclaredCall &u : d.updates)
            updates << u.operation + QLatin1Char(':') + u.fields.join(QLatin1Char(','));
        QVERIFY2(updates.contains(QStringLiteral("UpdateTimeToLive:timeToLive")),
                 qPrintable(updates.join(QLatin1Char(' '))));
        QVERIFY2(updates.contains(QStringLiteral("UpdateContinuousBackups:continuousBackups")),
                 qPrintable(updates.join(QLatin1Char(' '))));
        QVERIFY2(updates.first().startsWith(QStringLiteral("UpdateTable:")),
                 qPrintable(updates.join(QLatin1Char(' '))));
        for (const char *field : {"tableClass", "deletionProtectionEnabled", "sseSpecification",
                                  "billingMode", "provisionedThroughput", "streamSpecification"})
            QVERIFY2(d.updates.first().fields.contains(QLatin1String(field)), field);
    }

    // The program serves the kind from this declaration, with DynamoDB's rules added.
    void theProgramServesIt()
    {
        const KindDeclaration *served = AwsKinds::declaration(AwsKinds::tableKind());
        QVERIFY(served);
        QCOMPARE(served->hook, QStringLiteral("dynamoDbTable"));
        QCOMPARE(served->kind.spec.fields.size(), m_declaration.kind.spec.fields.size());
        QVERIFY(served->kind.spec.check); // DynamoDbTableRules
        KindRegistry kinds;
        registerDynamoKinds(kinds);
        QCOMPARE(kinds.find(AwsKinds::tableKind())->namePattern,
                 QStringLiteral("^[a-z0-9][-a-z0-9.]+[a-z0-9]$"));
    }

    void theModelsOtherFieldsAreDeclared()
    {
        const QList<FieldSchema> &fields = m_declaration.kind.spec.fields;
        for (const char *name :
             {"localSecondaryIndexes", "sseSpecification", "tableClass",
              "deletionProtectionEnabled", "onDemandThroughput", "timeToLive", "continuousBackups"})
            QVERIFY2(dynamoFieldNamed(fields, QLatin1String(name)), name);
        QVERIFY(dynamoFieldNamed(fields, QStringLiteral("localSecondaryIndexes"))->immutable);
        const FieldSchema *sse = dynamoFieldNamed(fields, QStringLiteral("sseSpecification"));
        QVERIFY(dynamoFieldNamed(sse->fields, QStringLiteral("kmsMasterKeyID")));
        QVERIFY(dynamoFieldNamed(sse->fields, QStringLiteral("sseType")));
        const FieldSchema *backups = dynamoFieldNamed(fields, QStringLiteral("continuousBackups"));
        QCOMPARE(backups->fields.size(), 1);
        QCOMPARE(backups->fields.first().name, QStringLiteral("pointInTimeRecoveryEnabled"));
        const FieldSchema *ttl = dynamoFieldNamed(fields, QStringLiteral("timeToLive"));
        QVERIFY(dynamoFieldNamed(ttl->fields, QStringLiteral("attributeName")));
        QVERIFY(dynamoFieldNamed(ttl->fields, QStringLiteral("enabled")));
    }

    // The tables of the sample workspace and of the interop workspace read through the
    // declaration as they read through the hand-written kind: the same specs, defaults included.
    void existingManifestsReadTheSame_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("sample") << QStringLiteral("resources/samples/local-emulators/dynamodb.yaml")
                                << QByteArray();
        QTest::newRow("interop") << QStringLiteral("tests/data/interop/workspace.yaml")
                                 << QByteArray();
        // (No raw string literal: the project's moc step reads this file without Qt's headers
        // and gives up on one.)
        // What the kind fills: an index's projection (ALL), a tag's value (""), billing mode,
        // no indexes.
        QTest::newRow("defaults")
            << QString()
            << QByteArray("apiVersion: aws.converge.dev/v1\n"
                          "kind: AwsAccount\n"
                          "metadata: {name: local}\n"
                          "spec: {region: eu-west-1, endpoint: \"http://127.0.0.1:8000\", "
                          "credential: {emulator: true}}\n"
                          "---\n"
                          "apiVersion: aws.converge.dev/v1\n"
                          "kind: DynamoDBTable\n"
                          "metadata: {name: plain}\n"
                          "spec:\n"
                          "  owner: {name: local}\n"
                          "  attributeDefinitions: [{attributeName: id, attributeType: S}]\n"
                          "  keySchema: [{attributeName: id, keyType: HASH}]\n"
                          "  tags: [{key: team}]\n"
                          "---\n"
                          "apiVersion: aws.converge.dev/v1\n"
                          "kind: DynamoDBTable\n"
                          "metadata: {name: indexed}\n"
                          "spec:\n"
                          "  owner: {name: local}\n"
                          "  attributeDefinitions:\n"
                          "  - {attributeName: id, attributeType: S}\n"
                          "  - {attributeName: status, attributeType: S}\n"
                          "  keySchema: [{attributeName: id, keyType: HASH}]\n"
                          "  globalSecondaryIndexes:\n"
                          "  - indexName: byStatus\n"
                          "    keySchema: [{attributeName: status, keyType: HASH}]\n");
    }

    void existingManifestsReadTheSame()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, text);
        QTemporaryDir dir;
        QString path = dynamoSourceFile(file);
        if (file.isEmpty()) {
            path = dir.filePath(QStringLiteral("tables.yaml"));
            QFile out(path);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(text);
        }
        KindRegistry kinds;
        registerDynamoKinds(kinds);
        const auto result = ManifestReader(kinds).readFile(path);
        QStringList errors;
        for (const ManifestError &e : result.errors)
            errors << e.toString();
        QVERIFY2(result.ok(), qPrintable(errors.join(QLatin1Char('\n'))));
        int tables = 0;
        for (const auto &object : result.objects) {
            const Resource &r = object.resource;
            if (r.kind != AwsKinds::tableKind())
                continue;
            ++tables;
            // What the hand-written kind filled in, the declaration fills in.
            QCOMPARE(r.spec.value(QStringLiteral("billingMode")).isString(), true);
            QVERIFY(r.spec.value(QStringLiteral("globalSecondaryIndexes")).isArray());
            for (const QJsonValue &index :
                 r.spec.value(QStringLiteral("globalSecondaryIndexes")).toArray())
                QVERIFY(!index[QStringLiteral("projection")][QStringLiteral("projectionType")]
                             .toString()
                             .isEmpty());
            for (const QJsonValue &tag : r.spec.value(QStringLiteral("tags")).toArray())
                QVERIFY(tag[QStringLiteral("value")].isString());
        }
        QVERIFY(tables > 0);
    }

    // The fields of ACK's sample tables that the hand-written kind refused (tableClass, ACK's
    // own samples' first) validate, and their constraints hold.
    void theModelsOtherFieldsValidate()
    {
        const QByteArray text(
            "apiVersion: aws.converge.dev/v1\n"
            "kind: AwsAccount\n"
            "metadata: {name: local}\n"
            "spec: {region: eu-west-1, endpoint: \"http://127.0.0.1:8000\", "
            "credential: {emulator: true}}\n"
            "---\n"
            "apiVersion: aws.converge.dev/v1\n"
            "kind: DynamoDBTable\n"
            "metadata: {name: orders}\n"
            "spec:\n"
            "  owner: {name: local}\n"
            "  attributeDefinitions:\n"
            "  - {attributeName: pk, attributeType: S}\n"
            "  - {attributeName: sk, attributeType: S}\n"
            "  keySchema: [{attributeName: pk, keyType: HASH}]\n"
            "  localSecondaryIndexes:\n"
            "  - indexName: bySk\n"
            "    keySchema: [{attributeName: pk, keyType: HASH}, {attributeName: sk, keyType: "
            "RANGE}]\n"
            "    projection: {projectionType: KEYS_ONLY}\n"
            "  tableClass: STANDARD_INFREQUENT_ACCESS\n"
            "  deletionProtectionEnabled: true\n"
            "  sseSpecification: {enabled: true, sseType: KMS, kmsMasterKeyID: alias/orders}\n"
            "  timeToLive: {enabled: true, attributeName: expiresAt}\n"
            "  continuousBackups: {pointInTimeRecoveryEnabled: true}\n");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ack.yaml"));
        KindRegistry declared;
        registerDynamoKinds(declared);
        const auto write = [&path](const QByteArray &bytes) {
            QFile out(path);
            return out.open(QIODevice::WriteOnly) && out.write(bytes) == bytes.size();
        };
        QVERIFY(write(text));
        const auto result = ManifestReader(declared).readFile(path);
        QStringList errors;
        for (const ManifestError &e : result.errors)
            errors << e.toString();
        QVERIFY2(result.ok(), qPrintable(errors.join(QLatin1Char('\n'))));
        const QJsonObject spec = result.objects.last().resource.spec;
        QCOMPARE(spec.value(QStringLiteral("tableClass")).toString(),
                 QStringLiteral("STANDARD_INFREQUENT_ACCESS"));
        QCOMPARE(spec.value(QStringLiteral("timeToLive"))[QStringLiteral("attributeName")],
                 QJsonValue(QStringLiteral("expiresAt")));

        // An enum the model does not have is refused at its line and column.
        QByteArray bad = text;
        bad.replace("STANDARD_INFREQUENT_ACCESS", "COLD");
        QVERIFY(write(bad));
        const auto refused = ManifestReader(declared).readFile(path);
        QVERIFY(!refused.ok());
        QVERIFY(refused.objects.isEmpty());
        const QString message = refused.errors.first().toString();
        QVERIFY2(message.contains(
                     QStringLiteral("ack.yaml:19:3: spec.tableClass: \"COLD\" is not one of")),
                 qPrintable(message));
    }

    // The manifests the hand-written kind refuses for a model constraint are refused through the
    // declaration at the same file:line:column, with the same field and words.
    void constraintsAreRefusedAtTheirPlace_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("range") << QStringLiteral("range-capacity.yaml");
        QTest::newRow("type") << QStringLiteral("type-string-for-integer.yaml");
        QTest::newRow("list") << QStringLiteral("type-map-for-list.yaml");
    }

    void constraintsAreRefusedAtTheirPlace()
    {
        QFETCH(QString, name);
        const QString path =
            dynamoSourceFile(QStringLiteral("tests/data/manifests/invalid/cli/") + name);
        QFile expected(path + QStringLiteral(".expected"));
        QVERIFY(expected.open(QIODevice::ReadOnly));
        const QString message = QString::fromUtf8(expected.readAll()).trimmed();
        KindRegistry declared;
        registerDynamoKinds(declared);
        const auto result = ManifestReader(declared).readFile(path);
        QVERIFY(!result.ok());
        QVERIFY(result.objects.isEmpty());
        QStringList errors;
        for (const ManifestError &e : result.errors) {
            QString text = e.toString();
            text.replace(QFileInfo(path).absoluteFilePath(), name).replace(path, name);
            errors << text;
        }
        QVERIFY2(errors.contains(message), qPrintable(errors.join(QLatin1Char('\n'))));
    }

private:
    KindDeclaration m_declaration;
};

QTEST_GUILESS_MAIN(tst_DynamoDbDeclaration)
#include "tst_dynamodbdeclaration.moc"

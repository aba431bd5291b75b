// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "ackimporter.h"

#include "ackexporter.h"
#include "awskinds.h"
#include "azurekinds.h"
#include "gcpkinds.h"
#include "kindregistry.h"
#include "manifestreader.h"
#include "manifestwriter.h"

#include <QtTest>

using namespace converge;

class tst_AckImporter final : public QObject
{
    Q_OBJECT

private:
    KindRegistry m_kinds;
    QList<Resource> m_workspace;

    ManifestReader::Result read(const QByteArray &text, const QList<Resource> &accounts,
                                const QString &account = {}) const
    {
        const AckImporter importer(accounts, account);
        ManifestReader::Options options;
        options.translators = {&importer};
        return ManifestReader(m_kinds, options).read(text, QStringLiteral("ack.yaml"));
    }

    static const Resource *find(const ManifestReader::Result &result, const QString &kind,
                                const QString &name)
    {
        for (const ManifestObject &o : result.objects) {
            if (o.resource.kind == kind && o.resource.metadata.name == name)
                return &o.resource;
        }
        return nullptr;
    }

    QList<Resource> accounts() const
    {
        QList<Resource> list;
        for (const Resource &r : m_workspace) {
            if (r.kind == AwsKinds::accountKind())
                list.append(r);
        }
        return list;
    }

    static QByteArray table(const QString &annotations, const QString &extra = {})
    {
        return QStringLiteral("apiVersion: dynamodb.services.k8s.aws/v1alpha1\n"
                              "kind: Table\n"
                              "metadata:\n"
                              "  name: carts\n"
                              "  annotations: {%1}\n"
                              "spec:\n"
                              "  tableName: carts\n"
                              "  attributeDefinitions: [{attributeName: id, attributeType: S}]\n"
                              "  keySchema: [{attributeName: id, keyType: HASH}]\n%2")
            .arg(annotations, extra)
            .toUtf8();
    }

private slots:
    void initTestCase()
    {
        AzureKinds::registerAll(m_kinds);
        AwsKinds::registerKinds(m_kinds);
        GcpKinds::registerKinds(m_kinds);
        const auto result = ManifestReader(m_kinds).readFile(
            qEnvironmentVariable("CONVERGE_TEST_DATA") + QStringLiteral("/interop/workspace.yaml"));
        QVERIFY(result.ok());
        for (const ManifestObject &o : result.objects)
            m_workspace.append(o.resource);
    }

    void roundTripIntoANewWorkspace()
    {
        const ExportResult first = AckExporter({}).exportResources(m_workspace, m_workspace);
        const QByteArray text = ManifestWriter::documentsToYaml(first.documents);
        const ManifestReader::Result imported = read(text, {});
        QVERIFY2(imported.ok(),
                 qPrintable(imported.ok() ? QString() : imported.errors.first().toString()));
        // One AwsAccount for the region, created unconnected.
        const Resource *account =
            find(imported, AwsKinds::accountKind(), QStringLiteral("aws-eu-west-1"));
        QVERIFY(account);
        QCOMPARE(account->spec[QStringLiteral("credential")], QJsonObject());
        QCOMPARE(imported.objects.size(), first.documents.size() + 1);
        QList<Resource> second;
        for (const ManifestObject &o : imported.objects)
            second.append(o.resource);
        const ExportResult again = AckExporter({}).exportResources(second, second);
        QCOMPARE(QString::fromUtf8(ManifestWriter::documentsToYaml(again.documents)),
                 QString::fromUtf8(text));
    }

    void intoItsOwnWorkspace()
    {
        const ExportResult first = AckExporter({}).exportResources(m_workspace, m_workspace);
        const ManifestReader::Result imported =
            read(ManifestWriter::documentsToYaml(first.documents), accounts());
        QVERIFY(imported.ok());
        QCOMPARE(imported.objects.size(), first.documents.size());
        for (const ManifestObject &o : imported.objects) {
            const auto same =
                std::find_if(m_workspace.cbegin(), m_workspace.cend(),
                             [&o](const Resource &r) { return r.key() == o.resource.key(); });
            QVERIFY2(same != m_workspace.cend(), qPrintable(o.resource.key().toString()));
            QCOMPARE(o.resource.spec, same->spec);
            QCOMPARE(o.resource.metadata, same->metadata);
        }
    }

    void policiesAndAccounts()
    {
        ManifestReader::Result r =
            read(table(QStringLiteral("services.k8s.aws/region: eu-west-1, "
                                      "services.k8s.aws/read-only: \"true\"")),
                 accounts());
        QVERIFY(r.ok());
        QCOMPARE(r.objects.first().resource.policy(), Annotations::ReconcilePolicy::Skip);
        QCOMPARE(r.objects.first().resource.ownerName(), QStringLiteral("local"));
        QVERIFY(!r.objects.first().resource.spec.contains(QStringLiteral("tableName")));

        r = read(table(QStringLiteral("services.k8s.aws/region: us-east-1, "
                                      "services.k8s.aws/deletion-policy: retain")),
                 accounts());
        QVERIFY(r.ok());
        QCOMPARE(r.objects.size(), 2);
        QCOMPARE(r.objects.first().resource.policy(), Annotations::ReconcilePolicy::DetachOnDelete);
        QCOMPARE(r.objects.first().resource.ownerName(), QStringLiteral("aws-us-east-1"));

        // --aws-account names the account whatever the region.
        r = read(table(QString()), accounts(), QStringLiteral("local"));
        QVERIFY(r.ok());
        QCOMPARE(r.objects.first().resource.ownerName(), QStringLiteral("local"));
        // A file without a region goes under it; when the workspace has no such account, it is
        // created unconnected in the region the files give, and without one it cannot be.
        r = read(table(QString()), accounts(), QStringLiteral("elsewhere"));
        QVERIFY(!r.ok());
        QVERIFY(r.errors.first().message.contains(QStringLiteral("\"elsewhere\"")));
        r = read(table(QString()) + QByteArray("---\n") +
                     table(QStringLiteral("services.k8s.aws/region: us-east-1"))
                         .replace("name: carts", "name: baskets"),
                 accounts(), QStringLiteral("elsewhere"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.errors.first().toString()));
        const Resource *elsewhere = find(r, AwsKinds::accountKind(), QStringLiteral("elsewhere"));
        QVERIFY(elsewhere);
        QCOMPARE(elsewhere->spec[QStringLiteral("region")], QStringLiteral("us-east-1"));
        QCOMPARE(elsewhere->spec[QStringLiteral("credential")], QJsonObject());
        QCOMPARE(find(r, AwsKinds::tableKind(), QStringLiteral("carts"))->ownerName(),
                 QStringLiteral("elsewhere"));
    }

    void declaredKinds()
    {
        const QByteArray text =
            "apiVersion: sns.services.k8s.aws/v1alpha1\n"
            "kind: Subscription\n"
            "metadata: {name: to-jobs}\n"
            "spec:\n"
            "  topicRef: {from: {name: alerts}}\n"
            "  protocol: sqs\n"
            "  endpoint: arn:aws:sqs:eu-west-1:000000000000:jobs\n"
            "---\n"
            "apiVersion: sqs.services.k8s.aws/v1alpha1\n"
            "kind: Queue\n"
            "metadata:\n"
            "  name: jobs\n"
            "  annotations: {services.k8s.aws/adoption-policy: adopt-or-create,\n"
            "                services.k8s.aws/adoption-fields: '{\"queueName\": \"jobs\"}'}\n"
            "spec: {queueName: jobs, delaySeconds: \"5\"}\n";
        const ManifestReader::Result r = read(text, accounts(), QStringLiteral("local"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.errors.first().toString()));
        const Resource *subscription =
            find(r, QStringLiteral("SNSSubscription"), QStringLiteral("to-jobs"));
        QVERIFY(subscription);
        QCOMPARE(subscription->spec[QStringLiteral("topicRef")].toObject(),
                 QJsonObject({{QStringLiteral("name"), QStringLiteral("alerts")}}));
        const Resource *queue = find(r, QStringLiteral("SQSQueue"), QStringLiteral("jobs"));
        QVERIFY(queue);
        QVERIFY(!queue->spec.contains(QStringLiteral("queueName"))); // metadata.name's
        QCOMPARE(
            queue->metadata.annotations.value(QStringLiteral("services.k8s.aws/adoption-policy")),
            QStringLiteral("adopt-or-create"));
        QVERIFY(!queue->metadata.annotations.contains(
            QStringLiteral("services.k8s.aws/adoption-fields")));
    }

    void aSecretIsKeptByReference()
    {
        const QByteArray text = "apiVersion: secretsmanager.services.k8s.aws/v1alpha1\n"
                                "kind: Secret\n"
                                "metadata: {name: db, namespace: shop}\n"
                                "spec:\n"
                                "  name: db\n"
                                "  secretString: {name: db-creds, key: password}\n";
        const ManifestReader::Result r = read(text, accounts(), QStringLiteral("local"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.errors.first().toString()));
        const Resource *secret =
            find(r, QStringLiteral("SecretsManagerSecret"), QStringLiteral("db"));
        QVERIFY(secret);
        QCOMPARE(secret->spec[QStringLiteral("secretString")].toObject(),
                 QJsonObject({{QStringLiteral("keychain"), QStringLiteral("db-creds/password")}}));
        QCOMPARE(r.notes.size(), 1);
        QCOMPARE(r.notes.first().toString(),
                 QStringLiteral("ack.yaml:6:3: spec.secretString: SecretsManagerSecret/db: its "
                                "value is the key \"password\" of the Kubernetes Secret "
                                "db-creds, which Converge cannot read: store the value in the OS "
                                "keychain as \"db-creds/password\" (or set spec.secretString to "
                                "{env: VARIABLE} or {file: PATH}); until then it is Ready False"));
    }

    void aPlainSecretIsNeverStored()
    {
        const QByteArray text =
            "apiVersion: ssm.services.k8s.aws/v1alpha1\n"
            "kind: Parameter\n"
            "metadata: {name: db}\n"
            "spec: {name: /db, type: SecureString, value: converge-secret-value-not-real-0003}\n";
        const ManifestReader::Result r = read(text, accounts(), QStringLiteral("local"));
        // Kept, its value by reference (a keychain entry the note names), the text nowhere.
        QVERIFY2(r.errors.isEmpty(),
                 qPrintable(r.errors.isEmpty() ? QString() : r.errors.first().toString()));
        QCOMPARE(r.objects.size(), 1);
        const Resource &parameter = r.objects.first().resource;
        QCOMPARE(parameter.kind, QStringLiteral("SSMParameter"));
        QVERIFY(!parameter.spec.contains(QStringLiteral("value")));
        QCOMPARE(parameter.spec.value(QStringLiteral("secureValue")).toObject(),
                 (QJsonObject{{QStringLiteral("keychain"), QStringLiteral("db/value")}}));
        QVERIFY(!QJsonDocument(parameter.spec)
                     .toJson()
                     .contains("converge-secret-value-not-real-0003"));
        QCOMPARE(r.notes.size(), 1);
        const QString note = r.notes.first().toString();
        QVERIFY2(note.contains(QStringLiteral("store it in the OS keychain as \"db/value\"")),
                 qPrintable(note));
        QVERIFY(!note.contains(QStringLiteral("converge-secret-value-not-real-0003")));
    }

    void declaredRefusedByName_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error");
        QTest::newRow("a field ACK has and Converge has not")
            << QByteArray("apiVersion: sqs.services.k8s.aws/v1alpha1\nkind: Queue\n"
                          "metadata: {name: jobs}\n"
                          "spec: {queueName: jobs, policyRef: {from: {name: p}}}\n")
            << "ack.yaml:4:25: spec.policyRef: is not supported by Converge's SQSQueue; remove "
               "it (or keep this file for the cluster only)";
        QTest::newRow("a field Converge has and ACK has not")
            << QByteArray("apiVersion: eventbridge.services.k8s.aws/v1alpha1\nkind: EventBus\n"
                          "metadata: {name: bus}\nspec: {name: bus, description: orders}\n")
            << "ack.yaml:4:19: spec.description: is not supported by Converge's "
               "EventBridgeEventBus; remove it (or keep this file for the cluster only)";
        QTest::newRow("another kind")
            << QByteArray("apiVersion: kinesis.services.k8s.aws/v1alpha1\n"
                          "kind: StreamConsumer\nmetadata: {name: c}\n")
            << "ack.yaml:2:7: kind: StreamConsumer has no Converge counterpart (Converge reads "
               "the Stream of kinesis.services.k8s.aws)";
    }

    void declaredRefusedByName()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        const ManifestReader::Result r = read(text, accounts(), QStringLiteral("local"));
        QVERIFY(r.objects.isEmpty());
        QVERIFY(!r.errors.isEmpty());
        QCOMPARE(r.errors.first().toString(), error);
    }

    void refusedByName_data()
    {
        QTest::addColumn<QString>("extra");
        QTest::addColumn<QString>("error");
        QTest::newRow("contributorInsights")
            << "  contributorInsights: ENABLED\n"
            << "ack.yaml:10:3: spec.contributorInsights: is not supported by Converge's "
               "DynamoDBTable; remove it (or keep this file for the cluster only)";
        QTest::newRow("tableReplicas")
            << "  tableReplicas: [{regionName: eu-west-2}]\n"
            << "ack.yaml:10:3: spec.tableReplicas: is not supported by Converge's DynamoDBTable; "
               "remove it (or keep this file for the cluster only)";
        QTest::newRow("converge's own rules")
            << "  billingMode: PROVISIONED\n"
            << "ack.yaml:6:1: spec: billingMode PROVISIONED needs provisionedThroughput";
    }

    void refusedByName()
    {
        QFETCH(QString, extra);
        QFETCH(QString, error);
        const ManifestReader::Result r =
            read(table(QStringLiteral("services.k8s.aws/region: eu-west-1"), extra), accounts());
        QVERIFY(r.objects.isEmpty());
        QCOMPARE(r.errors.size(), 1);
        QCOMPARE(r.errors.first().toString(), error);
    }
};

QTEST_GUILESS_MAIN(tst_AckImporter)
#include "tst_ackimporter.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "ackimporter.h"

#include "ackexporter.h"
#include "awskinds.h"
#include "azurekinds.h"
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
        QCOMPARE(imported.objects.size(), 4);
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
        QCOMPARE(imported.objects.size(), 3);
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
        r = read(table(QString()), accounts(), QStringLiteral("elsewhere"));
        QVERIFY(!r.ok());
        QVERIFY(r.errors.first().message.contains(QStringLiteral("\"elsewhere\"")));
    }

    void refusedByName_data()
    {
        QTest::addColumn<QString>("extra");
        QTest::addColumn<QString>("error");
        QTest::newRow("tableClass") << "  tableClass: STANDARD\n"
                                    << "ack.yaml:10:3: spec.tableClass: is not supported by "
                                       "Converge's DynamoDBTable; remove it (or keep this file "
                                       "for the cluster only)";
        QTest::newRow("timeToLive")
            << "  timeToLive: {enabled: true, attributeName: ttl}\n"
            << "ack.yaml:10:3: spec.timeToLive: is not supported by Converge's DynamoDBTable; "
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

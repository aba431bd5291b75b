// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "ackexporter.h"

#include "annotations.h"
#include "awskinds.h"
#include "azurekinds.h"
#include "kindregistry.h"
#include "manifestreader.h"

#include <QJsonArray>
#include <QtTest>

using namespace converge;

class tst_AckExporter final : public QObject
{
    Q_OBJECT

private:
    QList<Resource> m_workspace;

    static QJsonObject find(const QList<QJsonObject> &documents, const QString &name)
    {
        for (const QJsonObject &d : documents) {
            if (d[QStringLiteral("metadata")][QStringLiteral("name")] == name)
                return d;
        }
        return {};
    }

    static QJsonObject annotations(const QJsonObject &document)
    {
        return document[QStringLiteral("metadata")][QStringLiteral("annotations")].toObject();
    }

private slots:
    void initTestCase()
    {
        KindRegistry kinds;
        AzureKinds::registerAll(kinds);
        AwsKinds::registerKinds(kinds);
        const ManifestReader reader(kinds);
        const auto read = reader.readFile(qEnvironmentVariable("CONVERGE_TEST_DATA") +
                                          QStringLiteral("/interop/workspace.yaml"));
        QVERIFY2(read.ok(), qPrintable(read.ok() ? QString() : read.errors.first().toString()));
        for (const ManifestObject &o : read.objects)
            m_workspace.append(o.resource);
    }

    void tables()
    {
        const ExportResult result =
            AckExporter({QStringLiteral("team")}).exportResources(m_workspace, m_workspace);
        QVERIFY(result.complete());
        QCOMPARE(result.documents.size(), 3); // the Azure kinds are the other target's
        const QJsonObject orders = find(result.documents, QStringLiteral("orders"));
        QCOMPARE(orders[QStringLiteral("apiVersion")],
                 QStringLiteral("dynamodb.services.k8s.aws/v1alpha1"));
        QCOMPARE(orders[QStringLiteral("kind")], QStringLiteral("Table"));
        QCOMPARE(orders[QStringLiteral("metadata")][QStringLiteral("namespace")],
                 QStringLiteral("team"));
        QCOMPARE(annotations(orders), QJsonObject({{QStringLiteral("services.k8s.aws/region"),
                                                    QStringLiteral("eu-west-1")}}));
        const QJsonObject spec = orders[QStringLiteral("spec")].toObject();
        QCOMPARE(spec[QStringLiteral("tableName")], QStringLiteral("orders"));
        QVERIFY(!spec.contains(QStringLiteral("owner")));
        QCOMPARE(spec[QStringLiteral("billingMode")], QStringLiteral("PROVISIONED"));
        QCOMPARE(spec[QStringLiteral("provisionedThroughput")][QStringLiteral("readCapacityUnits")],
                 5);
        QCOMPARE(spec[QStringLiteral("globalSecondaryIndexes")][0][QStringLiteral("indexName")],
                 QStringLiteral("by-status"));
        QCOMPARE(spec[QStringLiteral("streamSpecification")][QStringLiteral("streamViewType")],
                 QStringLiteral("NEW_AND_OLD_IMAGES"));
        QCOMPARE(spec[QStringLiteral("tags")][0][QStringLiteral("value")], QStringLiteral("shop"));
        QCOMPARE(spec[QStringLiteral("attributeDefinitions")].toArray().size(), 3);

        const QJsonObject sessions = find(result.documents, QStringLiteral("sessions"));
        QCOMPARE(sessions[QStringLiteral("spec")][QStringLiteral("tableName")],
                 QStringLiteral("Sessions_v2"));
        QCOMPARE(sessions[QStringLiteral("spec")][QStringLiteral("billingMode")],
                 QStringLiteral("PAY_PER_REQUEST"));
        QCOMPARE(annotations(sessions)[QStringLiteral("services.k8s.aws/read-only")],
                 QStringLiteral("true"));
        const QJsonObject events = annotations(find(result.documents, QStringLiteral("events")));
        QCOMPARE(events[QStringLiteral("services.k8s.aws/deletion-policy")],
                 QStringLiteral("retain"));
        QCOMPARE(events[QStringLiteral("services.k8s.aws/adoption-policy")],
                 QStringLiteral("adopt"));
        QCOMPARE(events[QStringLiteral("services.k8s.aws/adoption-fields")],
                 QStringLiteral("{\"tableName\":\"events\"}"));
        QVERIFY(!events.contains(QStringLiteral("converge.dev/reconcile-policy")));
        QVERIFY(result.notes.join(QLatin1Char('\n')).contains(QStringLiteral("AwsAccount/local")));
    }

    void aClaimedTableIsAdopted()
    {
        QList<Resource> workspace = m_workspace;
        for (Resource &r : workspace) {
            if (r.kind == AwsKinds::tableKind() && r.metadata.name == QLatin1String("sessions"))
                r.metadata.annotations.insert(
                    Annotations::resourceId(),
                    QStringLiteral("arn:aws:dynamodb:eu-west-1:000000000000:table/Sessions_v2"));
        }
        const ExportResult result = AckExporter({}).exportResources(workspace, workspace);
        const QJsonObject sessions =
            annotations(find(result.documents, QStringLiteral("sessions")));
        QCOMPARE(sessions[QStringLiteral("services.k8s.aws/adoption-policy")],
                 QStringLiteral("adopt"));
        QCOMPARE(sessions[QStringLiteral("services.k8s.aws/adoption-fields")],
                 QStringLiteral("{\"tableName\":\"Sessions_v2\"}"));
        QVERIFY(!sessions.contains(QStringLiteral("converge.dev/resource-id")));
        QVERIFY(!annotations(find(result.documents, QStringLiteral("orders")))
                     .contains(QStringLiteral("services.k8s.aws/adoption-policy")));
    }

    void aTableWithoutItsAccountWritesNothing()
    {
        QList<Resource> selection;
        for (const Resource &r : m_workspace) {
            if (r.kind == AwsKinds::tableKind())
                selection.append(r);
        }
        const ExportResult result = AckExporter({}).exportResources(selection, selection);
        QVERIFY(!result.ok());
        QVERIFY(result.documents.isEmpty());
        QCOMPARE(result.missing.size(), 3);
        QVERIFY(result.missing.first().contains(QStringLiteral("AwsAccount local")));
    }
};

QTEST_GUILESS_MAIN(tst_AckExporter)
#include "tst_ackexporter.moc"

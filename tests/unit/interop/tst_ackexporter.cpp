// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "ackexporter.h"

#include "annotations.h"
#include "awskinds.h"
#include "azurekinds.h"
#include "gcpkinds.h"
#include "kinddeclaration.h"
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
        GcpKinds::registerKinds(kinds);
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
        // The Azure kinds are the other target's; every AWS kind but the account has a document.
        qsizetype aws = 0;
        for (const Resource &r : std::as_const(m_workspace))
            aws += r.apiVersion == AwsKinds::apiVersion() && r.kind != AwsKinds::accountKind();
        QCOMPARE(result.documents.size(), aws);
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

    void everyDeclaredKindIsInTheWorkspace()
    {
        // The interop tests validate a workspace of every AWS kind: a new kind joins it.
        for (const QString &kind : AwsKinds::declaredKinds()) {
            QVERIFY2(std::any_of(m_workspace.cbegin(), m_workspace.cend(),
                                 [&kind](const Resource &r) { return r.kind == kind; }),
                     qPrintable(kind + QStringLiteral(" is not in interop/workspace.yaml")));
        }
    }

    void declaredKinds()
    {
        const ExportResult result =
            AckExporter({QStringLiteral("team")}).exportResources(m_workspace, m_workspace);
        QVERIFY(result.complete());
        for (const Resource &r : std::as_const(m_workspace)) {
            const KindDeclaration *d = AwsKinds::declaration(r.kind);
            if (!d)
                continue;
            const QJsonObject doc = find(result.documents, r.metadata.name);
            QCOMPARE(doc[QStringLiteral("apiVersion")], d->ack.apiVersion);
            QCOMPARE(doc[QStringLiteral("kind")], d->ack.kind);
            QCOMPARE(annotations(doc)[QStringLiteral("services.k8s.aws/region")],
                     QStringLiteral("eu-west-1"));
        }
        // The backend name, always (ACK requires it): metadata.name by default.
        const QJsonObject jobs = find(result.documents, QStringLiteral("jobs"));
        QCOMPARE(jobs[QStringLiteral("spec")][QStringLiteral("queueName")], QStringLiteral("jobs"));
        QCOMPARE(jobs[QStringLiteral("spec")][QStringLiteral("delaySeconds")], QStringLiteral("5"));
        QCOMPARE(jobs[QStringLiteral("spec")][QStringLiteral("tags")][QStringLiteral("team")],
                 QStringLiteral("shop"));
        // A reference is ACK's {from: {name}}.
        const QJsonObject subscription = find(result.documents, QStringLiteral("alerts-to-jobs"));
        QCOMPARE(subscription[QStringLiteral("spec")][QStringLiteral("topicRef")].toObject(),
                 QJsonObject({{QStringLiteral("from"),
                               QJsonObject{{QStringLiteral("name"), QStringLiteral("alerts")}}}}));
        QCOMPARE(annotations(subscription)[QStringLiteral("services.k8s.aws/deletion-policy")],
                 QStringLiteral("retain"));
        // A secret kept in the keychain as NAMESPACE/NAME/KEY is that Kubernetes Secret's key.
        const QJsonObject token = find(result.documents, QStringLiteral("api-token"));
        QCOMPARE(token[QStringLiteral("spec")][QStringLiteral("secretString")].toObject(),
                 QJsonObject({{QStringLiteral("namespace"), QStringLiteral("payments")},
                              {QStringLiteral("name"), QStringLiteral("api")},
                              {QStringLiteral("key"), QStringLiteral("token")}}));
        QCOMPARE(annotations(token)[QStringLiteral("services.k8s.aws/read-only")],
                 QStringLiteral("true"));
        QCOMPARE(find(result.documents,
                      QStringLiteral(
                          "db-password"))[QStringLiteral("spec")][QStringLiteral("secretString")]
                     .toObject(),
                 QJsonObject({{QStringLiteral("name"), QStringLiteral("db")},
                              {QStringLiteral("key"), QStringLiteral("password")}}));
        QVERIFY(result.notes.join(QLatin1Char('\n'))
                    .contains(QStringLiteral("SecretsManagerSecret/db-password: spec.secretString "
                                             "is the key \"password\" of the Kubernetes Secret "
                                             "db")));
        // S3's sub-resources as ACK's Bucket spells them; the policy a document in a string.
        const QJsonObject bucket = find(result.documents, QStringLiteral("shop-invoices"));
        QCOMPARE(bucket[QStringLiteral("kind")], QStringLiteral("Bucket"));
        QCOMPARE(bucket[QStringLiteral("spec")][QStringLiteral("name")],
                 QStringLiteral("shop-invoices"));
        QCOMPARE(bucket[QStringLiteral("spec")][QStringLiteral("tagging")][QStringLiteral("tagSet")]
                       [0][QStringLiteral("key")],
                 QStringLiteral("team"));
        QCOMPARE(
            bucket[QStringLiteral("spec")][QStringLiteral("versioning")][QStringLiteral("status")],
            QStringLiteral("Enabled"));
        QVERIFY(bucket[QStringLiteral("spec")][QStringLiteral("policy")].isString());
        // Adoption: by the backend name, adopt-or-create kept.
        const QJsonObject web = annotations(find(result.documents, QStringLiteral("web")));
        QCOMPARE(web[QStringLiteral("services.k8s.aws/adoption-fields")],
                 QStringLiteral("{\"name\":\"shop/web\"}"));
        const QJsonObject clicks = annotations(find(result.documents, QStringLiteral("clicks")));
        QCOMPARE(clicks[QStringLiteral("services.k8s.aws/adoption-policy")],
                 QStringLiteral("adopt-or-create"));
        QCOMPARE(clicks[QStringLiteral("services.k8s.aws/adoption-fields")],
                 QStringLiteral("{\"name\":\"clicks\"}"));
    }

    void whatAckLacksIsSaid()
    {
        const QJsonObject owner{{QStringLiteral("name"), QStringLiteral("local")}};
        Resource bus;
        bus.apiVersion = AwsKinds::apiVersion();
        bus.kind = QStringLiteral("EventBridgeEventBus");
        bus.metadata.name = QStringLiteral("bus");
        bus.spec = {{QStringLiteral("owner"), owner},
                    {QStringLiteral("description"), QStringLiteral("orders")}};
        Resource secret = bus;
        secret.kind = QStringLiteral("SecretsManagerSecret");
        secret.metadata.name = QStringLiteral("token");
        secret.spec = {{QStringLiteral("owner"), owner},
                       {QStringLiteral("secretString"),
                        QJsonObject{{QStringLiteral("env"), QStringLiteral("SHOP_TOKEN")}}},
                       {QStringLiteral("recoveryWindowInDays"), 7}};
        Resource subscription = bus;
        subscription.kind = QStringLiteral("SNSSubscription");
        subscription.metadata.name = QStringLiteral("mail");
        subscription.metadata.annotations.insert(
            Annotations::resourceId(), QStringLiteral("arn:aws:sns:eu-west-1:0:Alerts:1"));
        subscription.spec = {
            {QStringLiteral("owner"), owner},
            {QStringLiteral("topicARN"), QStringLiteral("arn:aws:sns:eu-west-1:0:Alerts")},
            {QStringLiteral("protocol"), QStringLiteral("email")}};
        QList<Resource> workspace = m_workspace;
        workspace << bus << secret << subscription;
        const ExportResult result =
            AckExporter({}).exportResources({bus, secret, subscription}, workspace);
        QVERIFY(result.complete());
        QCOMPARE(result.documents.size(), 3);
        const QString notes = result.notes.join(QLatin1Char('\n'));
        QVERIFY(!find(result.documents, QStringLiteral("bus"))[QStringLiteral("spec")]
                     .toObject()
                     .contains(QStringLiteral("description")));
        QVERIFY2(notes.contains(QStringLiteral("EventBridgeEventBus/bus: spec.description is not "
                                               "exported: ACK's EventBus has no such field")),
                 qPrintable(notes));
        const QJsonObject token =
            find(result.documents, QStringLiteral("token"))[QStringLiteral("spec")].toObject();
        QVERIFY(!token.contains(QStringLiteral("secretString")));
        QVERIFY(!token.contains(QStringLiteral("recoveryWindowInDays")));
        QVERIFY(
            notes.contains(QStringLiteral("SecretsManagerSecret/token: spec.secretString is not "
                                          "exported: the environment variable SHOP_TOKEN")));
        QVERIFY(notes.contains(
            QStringLiteral("SecretsManagerSecret/token: spec.recoveryWindowInDays")));
        // A subscription has no name: ACK adopts it by the ARN Converge recorded.
        QCOMPARE(annotations(find(
                     result.documents,
                     QStringLiteral("mail")))[QStringLiteral("services.k8s.aws/adoption-fields")],
                 QStringLiteral("{\"arn\":\"arn:aws:sns:eu-west-1:0:Alerts:1\"}"));
    }

    // A function's code in a folder of this desktop is not exported (a cluster cannot read
    // it): nothing is written, and the message says what ACK takes. A secret of its
    // environment given by reference is left out, said, and the other variables kept.
    void aFunctionsLocalCodeAndSecretsStayHere()
    {
        const Resource *function = nullptr;
        for (const Resource &r : std::as_const(m_workspace)) {
            if (r.kind == QLatin1String("LambdaFunction"))
                function = &r;
        }
        QVERIFY(function);
        Resource local = *function;
        local.spec.insert(QStringLiteral("code"),
                          QJsonObject{{QStringLiteral("file"), QStringLiteral("orders/")}});
        const ExportResult refused = AckExporter({}).exportResources({local}, m_workspace);
        QVERIFY(!refused.ok());
        QVERIFY(refused.documents.isEmpty());
        QVERIFY2(refused.missing.join(QLatin1Char('\n'))
                     .contains(QStringLiteral("LambdaFunction/take-orders: spec.code.file names a "
                                              "file on this desktop")),
                 qPrintable(refused.missing.join(QLatin1Char('\n'))));

        Resource secret = *function;
        secret.spec.insert(
            QStringLiteral("environment"),
            QJsonObject{{QStringLiteral("variables"),
                         QJsonObject{{QStringLiteral("STAGE"), QStringLiteral("prod")},
                                     {QStringLiteral("TOKEN"),
                                      QJsonObject{{QStringLiteral("env"),
                                                   QStringLiteral("SHOP_TOKEN")}}}}}});
        const ExportResult result = AckExporter({}).exportResources({secret}, m_workspace);
        QVERIFY(result.complete());
        const QJsonObject variables =
            result.documents
                .first()[QStringLiteral("spec")][QStringLiteral("environment")]
                        [QStringLiteral("variables")]
                .toObject();
        QCOMPARE(variables, (QJsonObject{{QStringLiteral("STAGE"), QStringLiteral("prod")}}));
        QVERIFY2(result.notes.join(QLatin1Char('\n'))
                     .contains(QStringLiteral("spec.environment.variables.TOKEN is not exported")),
                 qPrintable(result.notes.join(QLatin1Char('\n'))));
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

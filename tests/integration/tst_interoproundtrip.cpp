// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Applying an export for Azure Service Operator or AWS Controllers for Kubernetes to the
// workspace it came from changes nothing: no generation bump, a plan with nothing to change in
// the workspace or the backend, and no backend write on the next reconcile, against the
// emulators (Azurite, dynalite).
#include "ackexporter.h"
#include "applyplan.h"
#include "asoexporter.h"
#include "awsfactory.h"
#include "awskinds.h"
#include "azureintegration.h"
#include "manifestwriter.h"

#include <QJsonDocument>
#include <QTest>

using namespace converge;
using namespace converge::test;

namespace {

/// Counts the requests that change something: Azure's and S3's (rest-xml) by their method,
/// DynamoDB's and the other AWS services' (every one a POST) by their operation.
struct WriteCounter
{
    std::atomic<int> azure{0};
    std::atomic<int> dynamo{0};
    mutable QMutex mutex;
    QStringList log;

    std::function<void(const HttpRequest &)> observer(bool dynamoDb)
    {
        return [this, dynamoDb](const HttpRequest &request) {
            QByteArray what = request.method.toUpper();
            bool write = what != "GET" && what != "HEAD";
            if (dynamoDb && request.method.toUpper() == "POST") {
                // AWS's json protocol names the operation in X-Amz-Target, its query protocol
                // (SNS) in the form's Action.
                what = request.header("X-Amz-Target");
                if (what.isEmpty() && request.body.startsWith("Action="))
                    what = request.body.mid(7, request.body.indexOf('&') - 7);
                const QByteArray operation = what.mid(what.indexOf('.') + 1);
                write = !operation.startsWith("Describe") && !operation.startsWith("List") &&
                        !operation.startsWith("Get");
            }
            if (!write)
                return;
            ++(dynamoDb ? dynamo : azure);
            QMutexLocker lock(&mutex);
            log << QString::fromLatin1(what) + QLatin1Char(' ') + request.url.path();
        };
    }
    int total() const { return azure + dynamo; }
    QString describe() const
    {
        QMutexLocker lock(&mutex);
        return log.join(QStringLiteral("; "));
    }
};

struct Engine final : EngineHarness
{
    Engine()
    {
        AzureFactory::Options azure;
        azure.requestObserver = writes.observer(false);
        install(std::make_unique<AzureFactory>(std::move(azure)), QStringLiteral("rt.converge"));
        AwsFactory::Options aws;
        aws.declared.pollAfter = std::chrono::milliseconds(100);
        aws.requestObserver = writes.observer(true);
        install(std::make_unique<AwsFactory>(std::move(aws)), QStringLiteral("rt.converge"));
    }
    ~Engine() override { stop(); } // before `writes`, which the workers report to

    WriteCounter writes;
};

QJsonObject parse(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text).replace('\'', '"')).object();
}

} // namespace

class tst_InteropRoundTrip final : public QObject
{
    Q_OBJECT

private:
    Emulators m_emulators;

private slots:
    void initTestCase()
    {
        m_emulators = Emulators::fromEnvironment();
        if (!m_emulators.error.isEmpty())
            QFAIL(qPrintable(m_emulators.error));
    }

    void applyingAnExportToItsWorkspaceWritesNothing_data()
    {
        QTest::addColumn<QString>("target");
        QTest::newRow("aso") << QStringLiteral("aso");
        QTest::newRow("ack") << QStringLiteral("ack");
    }

    void applyingAnExportToItsWorkspaceWritesNothing()
    {
        QFETCH(QString, target);
        const QString stem = uniqueStem() + target;
        Engine engine;

        // Every Azure kind ASO maps, and a DynamoDB table with fields ACK carries.
        Resource account = emulatorAccount(m_emulators);
        account.spec.insert(QStringLiteral("location"), QStringLiteral("westeurope"));
        account.spec.insert(QStringLiteral("sku"), QStringLiteral("Standard_LRS"));
        account.spec.insert(QStringLiteral("accountKind"), QStringLiteral("StorageV2"));
        account.spec.insert(QStringLiteral("resourceGroup"), QStringLiteral("rg-dev"));
        Resource aws;
        aws.apiVersion = AwsKinds::apiVersion();
        aws.kind = AwsKinds::accountKind();
        aws.metadata.name = QStringLiteral("local");
        aws.spec = QJsonObject{
            {QStringLiteral("region"), QStringLiteral("us-east-1")},
            {QStringLiteral("endpoint"), m_emulators.dynamoEndpoint().toString()},
            {QStringLiteral("credential"), QJsonObject{{QStringLiteral("emulator"), true}}}};
        Resource table;
        table.apiVersion = AwsKinds::apiVersion();
        table.kind = AwsKinds::tableKind();
        table.metadata.name = stem;
        table.spec = parse("{'owner': {'name': 'local'},"
                           " 'attributeDefinitions': [{'attributeName': 'pk',"
                           " 'attributeType': 'S'}],"
                           " 'keySchema': [{'attributeName': 'pk', 'keyType': 'HASH'}],"
                           " 'billingMode': 'PAY_PER_REQUEST',"
                           " 'tags': [{'key': 'team', 'value': 'shop'}]}");
        table.spec.insert(QStringLiteral("tableName"), QString(QStringLiteral("cvg-") + stem));
        const QList<Resource> resources{
            account,
            azureResource(AzureKinds::blobContainer(), stem + QStringLiteral("-c"),
                          parse("{'owner': {'name': 'devstore'}, 'publicAccess': 'Blob',"
                                " 'metadata': {'team': 'billing'}}")),
            azureResource(AzureKinds::queue(), stem + QStringLiteral("-q"),
                          parse("{'owner': {'name': 'devstore'}, 'metadata': {'a': 'b'}}")),
            azureResource(AzureKinds::table(), stem + QStringLiteral("t"),
                          parse("{'owner': {'name': 'devstore'}}")),
            aws,
            table,
        };
        QVERIFY(engine.apply(resources));
        QVERIFY(engine.start());
        QTRY_VERIFY2_WITH_TIMEOUT(engine.allReady(), qPrintable(engine.describe()), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(engine.controller->isIdle(), 10000);

        // The export, read back as `converge apply -f` and the window read it.
        const QList<Resource> all = engine.ws->list({});
        const ExportResult exported = target == QLatin1String("aso")
                                          ? AsoExporter({}).exportResources(all, all)
                                          : AckExporter({}).exportResources(all, all);
        QVERIFY2(exported.ok(), qPrintable(exported.missing.join(QLatin1Char('\n'))));
        const QByteArray text = ManifestWriter::documentsToYaml(exported.documents);
        const ManifestReader::Result read = ApplyPlan::readText(
            text, target + QStringLiteral(".yaml"), engine.ws.get(), engine.kinds);
        QVERIFY2(read.ok(), qPrintable(read.errors.value(0).toString()));
        const ApplyPlan plan = ApplyPlan::build({target}, read, engine.ws.get(), engine.kinds);
        QVERIFY(!plan.items.isEmpty());
        // A table the backend holds is exported for ACK to adopt (it exists: ACK must not
        // create it); import keeps that annotation, so that export writes it again. It is the
        // one change to the workspace, and metadata only.
        const QString adoption = QStringLiteral("metadata.annotations[\"services.k8s.aws/"
                                                "adoption-policy\"]");
        for (const ApplyPlan::Item &item : plan.items) {
            const bool adopted = item.key.kind == AwsKinds::tableKind();
            QVERIFY2(item.action == (adopted ? ApplyPlan::Item::Action::Update
                                             : ApplyPlan::Item::Action::Unchanged),
                     qPrintable(item.key.toString() + QLatin1Char(' ') + item.detail));
            if (adopted) {
                QCOMPARE(item.changes.size(), 1);
                QCOMPARE(item.changes.first().path, adoption);
                QCOMPARE(item.changes.first().before, QString());
                QCOMPARE(item.changes.first().after, QStringLiteral("\"adopt\""));
            }
            QVERIFY2(item.backend == ApplyPlan::Item::Backend::None,
                     qPrintable(item.key.toString() + QLatin1Char(' ') + item.backendNote));
        }
        QVERIFY(!plan.hasBackendChanges());

        // Stored as apply stores it: nothing changes, no generation moves.
        QHash<ResourceKey, qint64> generations;
        for (const Resource &r : all)
            generations.insert(r.key(), r.metadata.generation);
        StoreError error;
        QVERIFY2(engine.ws->apply(plan.objects, nullptr, &error), qPrintable(error.message));
        for (const Resource &r : engine.ws->list({}))
            QCOMPARE(r.metadata.generation, generations.value(r.key()));
        // Applied once, the export is the workspace: the same file again is all unchanged.
        const ApplyPlan again =
            ApplyPlan::build({target},
                             ApplyPlan::readText(text, target + QStringLiteral(".yaml"),
                                                 engine.ws.get(), engine.kinds),
                             engine.ws.get(), engine.kinds);
        QCOMPARE(again.count(ApplyPlan::Item::Action::Unchanged), int(again.items.size()));
        QVERIFY(!again.hasBackendChanges());

        // And the next reconcile of everything sends no write.
        const int writes = engine.writes.total();
        const qint64 engineWrites = engine.controller->stats().backendWrites;
        QVERIFY(engine.resyncAndWait());
        QVERIFY(engine.allReady());
        QVERIFY2(engine.writes.total() == writes, qPrintable(engine.writes.describe()));
        QCOMPARE(engine.controller->stats().backendWrites, engineWrites);
        qInfo("%s: %lld documents applied back, %lld objects planned, %d writes before, none "
              "after",
              qPrintable(target), qlonglong(exported.documents.size()),
              qlonglong(plan.items.size()), writes);

        // Leave the shared emulators as they were: what accounts own first, then the accounts.
        for (const Resource &r : engine.ws->list({})) {
            if (r.ownerName().isEmpty())
                continue;
            QVERIFY(engine.ws->requestDeletion(r.key(), &error));
        }
        engine.controller->wake();
        QTRY_VERIFY2_WITH_TIMEOUT(engine.ws->count() == 2, qPrintable(engine.describe()), 30000);
        for (const Resource &r : engine.ws->list({}))
            QVERIFY(engine.ws->requestDeletion(r.key(), &error));
        engine.controller->wake();
        QTRY_VERIFY2_WITH_TIMEOUT(engine.ws->count() == 0, qPrintable(engine.describe()), 30000);
    }
};

QTEST_GUILESS_MAIN(tst_InteropRoundTrip)
#include "tst_interoproundtrip.moc"

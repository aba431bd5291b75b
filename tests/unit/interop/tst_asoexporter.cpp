// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "asoexporter.h"

#include "awskinds.h"
#include "azurekinds.h"
#include "gcpkinds.h"
#include "kindregistry.h"
#include "manifestreader.h"

#include <QJsonArray>
#include <QtTest>

using namespace converge;

class tst_AsoExporter final : public QObject
{
    Q_OBJECT

private:
    QList<Resource> m_workspace;

    static QJsonObject find(const QList<QJsonObject> &documents, const QString &kind,
                            const QString &name)
    {
        for (const QJsonObject &d : documents) {
            if (d[QStringLiteral("kind")] == kind &&
                d[QStringLiteral("metadata")][QStringLiteral("name")] == name)
                return d;
        }
        return {};
    }

    static QString policy(const QJsonObject &document)
    {
        return document[QStringLiteral("metadata")][QStringLiteral("annotations")]
                       [QStringLiteral("serviceoperator.azure.com/reconcile-policy")]
                           .toString();
    }

    QList<Resource> without(const QString &field) const
    {
        QList<Resource> copy = m_workspace;
        for (Resource &r : copy)
            r.spec.remove(field);
        return copy;
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

    void accountAndItsStructure()
    {
        AsoExporter::Options options;
        options.ns = QStringLiteral("team");
        const ExportResult result = AsoExporter(options).exportResources(m_workspace, m_workspace);
        QVERIFY(result.ok());
        const QJsonObject group = find(result.documents, QStringLiteral("ResourceGroup"),
                                       QStringLiteral("rg-billing.team"));
        QCOMPARE(group[QStringLiteral("apiVersion")],
                 QStringLiteral("resources.azure.com/v1api20200601"));
        QCOMPARE(group[QStringLiteral("spec")][QStringLiteral("azureName")],
                 QStringLiteral("rg_Billing.Team"));
        QCOMPARE(policy(group), QStringLiteral("skip"));

        const QJsonObject account =
            find(result.documents, QStringLiteral("StorageAccount"), QStringLiteral("devstore"));
        QCOMPARE(account[QStringLiteral("apiVersion")],
                 QStringLiteral("storage.azure.com/v20250601"));
        QCOMPARE(account[QStringLiteral("metadata")][QStringLiteral("namespace")],
                 QStringLiteral("team"));
        QCOMPARE(
            account[QStringLiteral("metadata")][QStringLiteral("labels")][QStringLiteral("team")],
            QStringLiteral("billing"));
        // A connection to an account that exists: ASO must only observe it.
        QCOMPARE(policy(account), QStringLiteral("skip"));
        const QJsonObject spec = account[QStringLiteral("spec")].toObject();
        QCOMPARE(spec[QStringLiteral("azureName")], QStringLiteral("devstoreaccount1"));
        QCOMPARE(spec[QStringLiteral("location")], QStringLiteral("westeurope"));
        QCOMPARE(spec[QStringLiteral("kind")], QStringLiteral("StorageV2"));
        QCOMPARE(spec[QStringLiteral("sku")][QStringLiteral("name")],
                 QStringLiteral("Standard_LRS"));
        QCOMPARE(spec[QStringLiteral("owner")][QStringLiteral("name")],
                 QStringLiteral("rg-billing.team"));
        QVERIFY(!spec.contains(QStringLiteral("credential")));

        const QJsonObject blobService =
            find(result.documents, QStringLiteral("StorageAccountsBlobService"),
                 QStringLiteral("devstore-blob"));
        QCOMPARE(
            blobService[QStringLiteral("spec")][QStringLiteral("owner")][QStringLiteral("name")],
            QStringLiteral("devstore"));
        QCOMPARE(policy(blobService), QStringLiteral("skip"));
        // The archive account's name is a Kubernetes name already: no azureName.
        QVERIFY(!find(result.documents, QStringLiteral("StorageAccount"),
                      QStringLiteral("archive"))[QStringLiteral("spec")]
                     .toObject()
                     .contains(QStringLiteral("azureName")));
        // Credentials are never exported, but said so.
        QVERIFY(result.notes.join(QLatin1Char('\n'))
                    .contains(QStringLiteral("StorageAccount/devstore: spec.credential")));
    }

    void childrenAndPolicies()
    {
        const ExportResult result = AsoExporter({}).exportResources(m_workspace, m_workspace);
        const QJsonObject invoices =
            find(result.documents, QStringLiteral("StorageAccountsBlobServicesContainer"),
                 QStringLiteral("invoices"));
        QVERIFY(
            !invoices[QStringLiteral("metadata")].toObject().contains(QStringLiteral("namespace")));
        QCOMPARE(invoices[QStringLiteral("spec")][QStringLiteral("owner")][QStringLiteral("name")],
                 QStringLiteral("devstore-blob"));
        QCOMPARE(invoices[QStringLiteral("spec")][QStringLiteral("publicAccess")],
                 QStringLiteral("Blob"));
        QCOMPARE(invoices[QStringLiteral("spec")][QStringLiteral("metadata")]
                         [QStringLiteral("costCenter")],
                 QStringLiteral("1234"));
        QCOMPARE(policy(invoices), QString());
        const QJsonObject reports =
            find(result.documents, QStringLiteral("StorageAccountsBlobServicesContainer"),
                 QStringLiteral("reports"));
        QCOMPARE(reports[QStringLiteral("spec")][QStringLiteral("azureName")],
                 QStringLiteral("reports-2026"));
        QCOMPARE(policy(reports), QStringLiteral("skip"));
        QCOMPARE(policy(find(result.documents, QStringLiteral("StorageAccountsQueueServicesQueue"),
                             QStringLiteral("retries"))),
                 QStringLiteral("detach-on-delete"));
        const QJsonObject customers =
            find(result.documents, QStringLiteral("StorageAccountsTableServicesTable"),
                 QStringLiteral("customers"));
        QCOMPARE(customers[QStringLiteral("spec")][QStringLiteral("azureName")],
                 QStringLiteral("Customers"));
        QCOMPARE(customers[QStringLiteral("spec")][QStringLiteral("owner")][QStringLiteral("name")],
                 QStringLiteral("devstore-table"));
        // Engine annotations stay home; the Converge policy key never leaves.
        for (const QJsonObject &d : result.documents) {
            for (const QString &key :
                 d[QStringLiteral("metadata")][QStringLiteral("annotations")].toObject().keys())
                QVERIFY2(!key.startsWith(QStringLiteral("converge.dev/")), qPrintable(key));
        }
        // 2 groups, 2 accounts × 4, 3 containers, 3 queues, 3 tables; the blob is dropped.
        QCOMPARE(result.documents.size(), 2 + 8 + 9);
        QCOMPARE(result.dropped.size(), 1);
        QVERIFY(result.dropped.first().startsWith(QStringLiteral("Blob/readme: ")));
        QVERIFY(!result.complete());
    }

    void missingFieldsWriteNothing_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("flag");
        QTest::newRow("location") << "location"
                                  << "--location";
        QTest::newRow("sku") << "sku"
                             << "--sku";
        QTest::newRow("accountKind") << "accountKind"
                                     << "--account-kind";
        QTest::newRow("resourceGroup") << "resourceGroup"
                                       << "--resource-group";
    }

    void missingFieldsWriteNothing()
    {
        QFETCH(QString, field);
        QFETCH(QString, flag);
        const ExportResult result = AsoExporter({}).exportResources(without(field), m_workspace);
        QVERIFY(!result.ok());
        QVERIFY(result.documents.isEmpty());
        QCOMPARE(result.missing.size(), 2); // both accounts, each named
        QCOMPARE(result.missing.first(),
                 QStringLiteral("StorageAccount/devstore: spec.%1 is not set: add it to the "
                                "StorageAccount's spec or pass %2")
                     .arg(field, flag));
    }

    void flagsOverrideTheSpec()
    {
        AsoExporter::Options options;
        options.location = QStringLiteral("eastus");
        options.sku = QStringLiteral("Premium_LRS");
        options.accountKind = QStringLiteral("BlockBlobStorage");
        options.resourceGroup = QStringLiteral("shared");
        options.resourceGroups = false;
        const ExportResult result =
            AsoExporter(options).exportResources(without(QStringLiteral("location")), m_workspace);
        QVERIFY(result.ok());
        QVERIFY(find(result.documents, QStringLiteral("ResourceGroup"), QStringLiteral("shared"))
                    .isEmpty());
        const QJsonObject spec = find(result.documents, QStringLiteral("StorageAccount"),
                                      QStringLiteral("archive"))[QStringLiteral("spec")]
                                     .toObject();
        QCOMPARE(spec[QStringLiteral("location")], QStringLiteral("eastus"));
        QCOMPARE(spec[QStringLiteral("sku")][QStringLiteral("name")],
                 QStringLiteral("Premium_LRS"));
        QCOMPARE(spec[QStringLiteral("kind")], QStringLiteral("BlockBlobStorage"));
        QCOMPARE(spec[QStringLiteral("owner")][QStringLiteral("name")], QStringLiteral("shared"));
    }

    // What the window asks for: one account's fields, ahead of the spec and of the flags; the
    // other account keeps its own.
    void accountFieldsOverrideOneAccount()
    {
        QList<Resource> selection = m_workspace;
        for (Resource &r : selection) {
            if (r.kind == AzureKinds::storageAccount() &&
                r.metadata.name == QStringLiteral("devstore")) {
                QCOMPARE(AsoExporter::missingFields(r), QStringList());
                r.spec.remove(QStringLiteral("location"));
                r.spec.remove(QStringLiteral("sku"));
                QCOMPARE(AsoExporter::missingFields(r),
                         (QStringList{QStringLiteral("location"), QStringLiteral("sku")}));
            }
        }
        AsoExporter::Options options;
        options.accountKind = QStringLiteral("Storage");
        options.accounts.insert(QStringLiteral("devstore"),
                                {QStringLiteral("eastasia"), QStringLiteral("Standard_ZRS"),
                                 QStringLiteral("BlobStorage"), QString()});
        const ExportResult result = AsoExporter(options).exportResources(selection, m_workspace);
        QVERIFY2(result.ok(), qPrintable(result.missing.join(QLatin1Char('\n'))));
        const auto specOf = [&result](const char *name) {
            return find(result.documents, QStringLiteral("StorageAccount"),
                        QString::fromUtf8(name))[QStringLiteral("spec")]
                .toObject();
        };
        const QJsonObject devstore = specOf("devstore");
        QCOMPARE(devstore[QStringLiteral("location")], QStringLiteral("eastasia"));
        QCOMPARE(devstore[QStringLiteral("sku")][QStringLiteral("name")],
                 QStringLiteral("Standard_ZRS"));
        QCOMPARE(devstore[QStringLiteral("kind")], QStringLiteral("BlobStorage"));
        const QJsonObject archive = specOf("archive");
        QCOMPARE(archive[QStringLiteral("location")], QStringLiteral("northeurope"));
        QCOMPARE(archive[QStringLiteral("kind")], QStringLiteral("Storage")); // the flag's
    }
};

QTEST_GUILESS_MAIN(tst_AsoExporter)
#include "tst_asoexporter.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "asoimporter.h"

#include "asoexporter.h"
#include "awskinds.h"
#include "azurekinds.h"
#include "gcpkinds.h"
#include "kindregistry.h"
#include "manifestreader.h"
#include "manifestwriter.h"

#include <QtTest>

using namespace converge;

class tst_AsoImporter final : public QObject
{
    Q_OBJECT

private:
    KindRegistry m_kinds;
    QList<Resource> m_workspace;

    ManifestReader::Result read(const QByteArray &text, const QList<Resource> &accounts) const
    {
        const AsoImporter importer(accounts);
        ManifestReader::Options options;
        options.translators = {&importer};
        return ManifestReader(m_kinds, options).read(text, QStringLiteral("aso.yaml"));
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
            if (r.kind == AzureKinds::storageAccount())
                list.append(r);
        }
        return list;
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

    // export → import into a workspace without the accounts → export: the same documents.
    void roundTripIntoANewWorkspace()
    {
        const ExportResult first = AsoExporter({}).exportResources(m_workspace, m_workspace);
        const QByteArray text = ManifestWriter::documentsToYaml(first.documents);
        const ManifestReader::Result imported = read(text, {});
        QVERIFY2(imported.ok(),
                 qPrintable(imported.ok() ? QString() : imported.errors.first().toString()));
        QList<Resource> second;
        for (const ManifestObject &o : imported.objects)
            second.append(o.resource);
        const ExportResult again = AsoExporter({}).exportResources(second, second);
        QCOMPARE(QString::fromUtf8(ManifestWriter::documentsToYaml(again.documents)),
                 QString::fromUtf8(text));

        // A new account has Azure's endpoints and no credential: Ready False until connected.
        const Resource *account =
            find(imported, AzureKinds::storageAccount(), QStringLiteral("devstore"));
        QVERIFY(account);
        QCOMPARE(account->spec[QStringLiteral("accountName")], QStringLiteral("devstoreaccount1"));
        QCOMPARE(account->spec[QStringLiteral("credential")], QJsonObject());
        QVERIFY(!account->spec.contains(QStringLiteral("endpoints")));
        QCOMPARE(account->spec[QStringLiteral("resourceGroup")], QStringLiteral("rg_Billing.Team"));
        QVERIFY(account->metadata.annotations.isEmpty()); // ASO's skip is not Converge's
        const Resource *reports =
            find(imported, AzureKinds::blobContainer(), QStringLiteral("reports"));
        QVERIFY(reports);
        QCOMPARE(reports->policy(), Annotations::ReconcilePolicy::Skip);
        QCOMPARE(reports->ownerName(), QStringLiteral("devstore"));
        QCOMPARE(reports->spec[QStringLiteral("azureName")], QStringLiteral("reports-2026"));
    }

    // Applying an export to the workspace it came from gives the objects it holds.
    void intoItsOwnWorkspace()
    {
        const ExportResult first = AsoExporter({}).exportResources(m_workspace, m_workspace);
        const ManifestReader::Result imported =
            read(ManifestWriter::documentsToYaml(first.documents), accounts());
        QVERIFY(imported.ok());
        for (const ManifestObject &o : imported.objects) {
            const auto same =
                std::find_if(m_workspace.cbegin(), m_workspace.cend(),
                             [&o](const Resource &r) { return r.key() == o.resource.key(); });
            QVERIFY2(same != m_workspace.cend(), qPrintable(o.resource.key().toString()));
            QCOMPARE(o.resource.spec, same->spec);
            QCOMPARE(o.resource.metadata, same->metadata);
        }
        const auto others =
            std::count_if(m_workspace.cbegin(), m_workspace.cend(), [](const Resource &r) {
                return r.apiVersion == AwsKinds::apiVersion() ||
                       r.apiVersion == GcpKinds::apiVersion();
            });
        QCOMPARE(imported.objects.size(), m_workspace.size() - 1 - others); // no blob, AWS, GCP
    }

    // Every served, non-storage version reads alike.
    void olderVersions()
    {
        const QByteArray text = "apiVersion: storage.azure.com/v1api20230101\n"
                                "kind: StorageAccount\n"
                                "metadata: {name: old}\n"
                                "spec:\n"
                                "  owner: {armId: /subscriptions/0000/resourceGroups/rg-old}\n"
                                "  location: westeurope\n"
                                "  kind: StorageV2\n"
                                "  sku: {name: Standard_LRS}\n"
                                "---\n"
                                "apiVersion: storage.azure.com/v1api20210401\n"
                                "kind: StorageAccountsQueueService\n"
                                "metadata: {name: old-queues}\n"
                                "spec: {owner: {name: old}}\n"
                                "---\n"
                                "apiVersion: storage.azure.com/v20220901\n"
                                "kind: StorageAccountsQueueServicesQueue\n"
                                "metadata: {name: jobs}\n"
                                "spec: {owner: {name: old-queues}, azureName: jobs}\n";
        const ManifestReader::Result imported = read(text, {});
        QVERIFY2(imported.ok(),
                 qPrintable(imported.ok() ? QString() : imported.errors.first().toString()));
        QCOMPARE(imported.objects.size(), 2);
        const Resource *old = find(imported, AzureKinds::storageAccount(), QStringLiteral("old"));
        QVERIFY(old);
        QCOMPARE(old->spec[QStringLiteral("resourceGroup")], QStringLiteral("rg-old"));
        QCOMPARE(old->spec[QStringLiteral("accountName")], QStringLiteral("old"));
        const Resource *jobs = find(imported, AzureKinds::queue(), QStringLiteral("jobs"));
        QVERIFY(jobs);
        QCOMPARE(jobs->ownerName(), QStringLiteral("old"));
        QVERIFY(!jobs->spec.contains(QStringLiteral("azureName")));
    }

    void refusedWithTheirPlace()
    {
        const QByteArray text = "apiVersion: storage.azure.com/v20250601\n"
                                "kind: StorageAccountsBlobServicesContainer\n"
                                "metadata: {name: invoices}\n"
                                "spec:\n"
                                "  owner: {name: devstore-blob}\n"
                                "  immutableStorageWithVersioning: {enabled: true}\n";
        const ManifestReader::Result result = read(text, accounts());
        QVERIFY(result.objects.isEmpty());
        QCOMPARE(result.errors.size(), 1);
        QCOMPARE(result.errors.first().toString(),
                 QStringLiteral("aso.yaml:6:3: spec.immutableStorageWithVersioning: is not "
                                "supported by Converge's BlobContainer; remove it"));
    }
};

QTEST_GUILESS_MAIN(tst_AsoImporter)
#include "tst_asoimporter.moc"

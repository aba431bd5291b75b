// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Live listing through the real engine against Azurite: containers, queues and tables made
// and deleted by another tool appear as discovered after a person's Refresh of their account,
// and leave after the next one; blobs made elsewhere in a managed container appear after a
// Refresh of the container.
#include "azureintegration.h"

#include <QSignalSpy>

using namespace converge;
using namespace converge::test;

class tst_AzureDiscovery final : public QObject
{
    Q_OBJECT

private:
    Emulators m_emulators;
    std::unique_ptr<DirectAccess> m_direct;

    static QStringList discoveredNames(const AzureEngine &engine, const ResourceKey &owner,
                                       const QString &kind)
    {
        QStringList names;
        for (const DiscoveredResource &item : engine.ws->discovered(owner)) {
            if (item.kind == kind)
                names.append(item.name);
        }
        names.sort();
        return names;
    }

    int makeOutside(const QString &stem)
    {
        using Service = AzureAccount::Service;
        int failures = 0;
        if (m_direct
                ->send(Service::Blob, "PUT", stem + QStringLiteral("-out-c"),
                       {{QStringLiteral("restype"), QStringLiteral("container")}})
                .status != 201)
            ++failures;
        if (m_direct->send(Service::Queue, "PUT", stem + QStringLiteral("-out-q")).status != 201)
            ++failures;
        const QByteArray table = "{\"TableName\":\"" + stem.toLatin1() + "outt\"}";
        if (m_direct
                ->send(Service::Table, "POST", QStringLiteral("Tables"), {},
                       {{"Content-Type", "application/json"},
                        {"Accept", "application/json;odata=nometadata"}},
                       table)
                .status != 201)
            ++failures;
        return failures;
    }

    /// The statuses of the three deletes, for the failure message.
    QList<int> deleteOutside(const QString &stem)
    {
        using Service = AzureAccount::Service;
        return {m_direct
                    ->send(Service::Blob, "DELETE", stem + QStringLiteral("-out-c"),
                           {{QStringLiteral("restype"), QStringLiteral("container")}})
                    .status,
                m_direct->send(Service::Queue, "DELETE", stem + QStringLiteral("-out-q")).status,
                m_direct
                    ->send(Service::Table, "DELETE", QStringLiteral("Tables('%1outt')").arg(stem),
                           {},
                           {{"Content-Type", "application/json"},
                            {"Accept", "application/json;odata=nometadata"}})
                    .status};
    }

private slots:
    void initTestCase()
    {
        m_emulators = Emulators::fromEnvironment();
        QVERIFY2(m_emulators.isValid(), qPrintable(m_emulators.error));
        m_direct = std::make_unique<DirectAccess>(m_emulators);
    }

    void refreshOfTheAccountShowsWhatOthersMadeAndDeleted()
    {
        const QString stem = uniqueStem() + QStringLiteral("disc");
        AzureFactory::Options options;
        options.listPrefix = stem; // the tests share one Azurite
        AzureEngine engine(options);
        const Resource account = emulatorAccount(m_emulators);
        const Resource managed =
            azureResource(AzureKinds::blobContainer(), stem + QStringLiteral("-m"),
                          ownedBy(QStringLiteral("devstore")));
        QVERIFY(engine.apply({account, managed}));
        QVERIFY(engine.start());
        QTRY_VERIFY2_WITH_TIMEOUT(engine.allReady(), qPrintable(engine.describe()), 20000);
        QTRY_VERIFY(engine.controller->isIdle());
        const ResourceKey owner = account.key();
        QVERIFY(engine.ws->discovered(owner).isEmpty());

        QCOMPARE(makeOutside(stem), 0);
        QSignalSpy changed(engine.controller.get(), &Controller::discoveryChanged);
        engine.controller->refresh({owner});
        QTRY_COMPARE_WITH_TIMEOUT(discoveredNames(engine, owner, AzureKinds::blobContainer()),
                                  QStringList{stem + QStringLiteral("-out-c")}, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(discoveredNames(engine, owner, AzureKinds::queue()),
                                  QStringList{stem + QStringLiteral("-out-q")}, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(discoveredNames(engine, owner, AzureKinds::table()),
                                  QStringList{stem + QStringLiteral("outt")}, 10000);
        QTRY_VERIFY(!changed.isEmpty());
        for (const DiscoveredResource &item : engine.ws->discovered(owner)) {
            QVERIFY(item.firstSeenAt.isValid());
            QVERIFY(item.firstSeenAt <= item.seenAt);
        }

        QCOMPARE(deleteOutside(stem), (QList<int>{202, 204, 204}));
        engine.controller->refresh({owner});
        QTRY_VERIFY_WITH_TIMEOUT(engine.ws->discovered(owner).isEmpty(), 10000);
        QVERIFY(engine.isReady(managed)); // the managed one was never in the discovered rows
    }

    void refreshOfAContainerShowsItsBlobs()
    {
        const QString stem = uniqueStem() + QStringLiteral("blobs");
        AzureFactory::Options options;
        options.listPrefix = stem;
        AzureEngine engine(options);
        const Resource account = emulatorAccount(m_emulators);
        const Resource container =
            azureResource(AzureKinds::blobContainer(), stem + QStringLiteral("-c"),
                          ownedBy(QStringLiteral("devstore")));
        QVERIFY(engine.apply({account, container}));
        QVERIFY(engine.start());
        QTRY_VERIFY2_WITH_TIMEOUT(engine.allReady(), qPrintable(engine.describe()), 20000);
        QTRY_VERIFY(engine.controller->isIdle());

        const QString path = stem + QStringLiteral("-c/") + stem + QStringLiteral("-report.txt");
        QCOMPARE(m_direct
                     ->send(AzureAccount::Service::Blob, "PUT", path, {},
                            {{"x-ms-blob-type", "BlockBlob"}, {"Content-Type", "text/plain"}},
                            "hello")
                     .status,
                 201);
        engine.controller->refresh({container.key()});
        QTRY_COMPARE_WITH_TIMEOUT(discoveredNames(engine, container.key(), AzureKinds::blob()),
                                  QStringList{stem + QStringLiteral("-report.txt")}, 10000);

        QCOMPARE(m_direct->send(AzureAccount::Service::Blob, "DELETE", path).status, 202);
        engine.controller->refresh({container.key()});
        QTRY_VERIFY_WITH_TIMEOUT(
            discoveredNames(engine, container.key(), AzureKinds::blob()).isEmpty(), 10000);
    }
};

QTEST_GUILESS_MAIN(tst_AzureDiscovery)
#include "tst_azurediscovery.moc"

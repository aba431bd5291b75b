// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Building the resource that claims a discovered backend resource.
#include "discoveredclaim.h"

#include "azurekinds.h"
#include "kindregistry.h"
#include "testkinds.h"

#include <QTest>

using namespace converge;
using namespace converge::test;

class tst_DiscoveredClaim final : public QObject
{
    Q_OBJECT

private slots:
    void nameFor_data()
    {
        const auto s = [](const char *text) { return QString::fromUtf8(text); };
        QTest::addColumn<QString>("backendName");
        QTest::addColumn<QStringList>("taken");
        QTest::addColumn<QString>("expected");
        QTest::newRow("as is") << s("invoices") << QStringList() << s("invoices");
        QTest::newRow("upper case") << s("Orders") << QStringList() << s("orders");
        QTest::newRow("other characters")
            << s("Sales_Data.2024") << QStringList() << s("sales-data-2024");
        QTest::newRow("runs and ends") << s("__a__b__") << QStringList() << s("a-b");
        QTest::newRow("nothing usable") << s("___") << QStringList() << s("widget");
        QTest::newRow("taken") << s("logs") << QStringList{s("logs")} << s("logs-2");
        QTest::newRow("taken twice")
            << s("logs") << QStringList{s("logs"), s("logs-2")} << s("logs-3");
        QTest::newRow("too long") << QString(70, QLatin1Char('a')) << QStringList()
                                  << QString(63, QLatin1Char('a'));
        QTest::newRow("too long and taken")
            << QString(70, QLatin1Char('a')) << QStringList{QString(63, QLatin1Char('a'))}
            << QString(61, QLatin1Char('a')) + s("-2");
    }

    void nameFor()
    {
        QFETCH(QString, backendName);
        QFETCH(QStringList, taken);
        QFETCH(QString, expected);
        KindRegistry kinds;
        registerTestKinds(kinds);
        const QSet<QString> takenNames(taken.cbegin(), taken.cend());
        QCOMPARE(DiscoveredClaim::nameFor(backendName, QStringLiteral("Widget"), kinds, takenNames),
                 expected);
    }

    void buildKeepsWhatWasObserved()
    {
        KindRegistry kinds;
        registerTestKinds(kinds);
        DiscoveredResource item;
        item.kind = QStringLiteral("Widget");
        item.name = QStringLiteral("Logs");
        item.owner = ResourceKey{QStringLiteral("Gadget"), QStringLiteral("g")};
        item.resourceId = QStringLiteral("fake://Widget/Logs");
        const QJsonObject observed{{QStringLiteral("replicas"), 4},
                                   {QStringLiteral("publicAccess"), QStringLiteral("Container")}};
        QString error;
        const auto resource = DiscoveredClaim::build(item, observed, kinds, {}, &error);
        QVERIFY2(resource, qPrintable(error));
        QCOMPARE(resource->key(), (ResourceKey{QStringLiteral("Widget"), QStringLiteral("logs")}));
        QCOMPARE(resource->apiVersion, testApiVersion());
        QCOMPARE(resource->ownerName(), QStringLiteral("g"));
        QCOMPARE(resource->spec.value(QStringLiteral("replicas")).toInt(), 4);
        QCOMPARE(resource->metadata.annotations.value(QStringLiteral("converge.dev/resource-id")),
                 item.resourceId);
    }

    void buildRefusesWhatDoesNotValidate()
    {
        KindRegistry kinds;
        registerTestKinds(kinds);
        DiscoveredResource item;
        item.kind = QStringLiteral("Widget");
        item.name = QStringLiteral("logs");
        item.owner = ResourceKey{QStringLiteral("Gadget"), QStringLiteral("g")};
        QString error;
        QVERIFY(!DiscoveredClaim::build(item, QJsonObject{{QStringLiteral("replicas"), 99}}, kinds,
                                        {}, &error));
        QVERIFY2(error.contains(QStringLiteral("spec.replicas")), qPrintable(error));
        item.kind = QStringLiteral("Nothing");
        QVERIFY(!DiscoveredClaim::build(item, {}, kinds, {}, &error));
        QVERIFY(error.contains(QStringLiteral("Nothing")));
    }

    void aKindThatCannotBeClaimedSaysWhy()
    {
        // A blob's bytes are only in its container: refused with the kind's reason, the same
        // for the window's greyed Claim, the controller's claim and the command line's.
        KindRegistry kinds;
        AzureKinds::registerAll(kinds);
        DiscoveredResource blob;
        blob.kind = AzureKinds::blob();
        blob.name = QStringLiteral("index.json");
        blob.owner = {AzureKinds::blobContainer(), QStringLiteral("invoices")};
        const QString why = DiscoveredClaim::refusal(blob, kinds);
        QVERIFY(why.contains(QStringLiteral("bytes are only in the container")));
        QString error;
        QVERIFY(!DiscoveredClaim::build(blob, blob.spec, kinds, {}, &error));
        QCOMPARE(error, why);
        DiscoveredResource container = blob;
        container.kind = AzureKinds::blobContainer();
        container.owner = {AzureKinds::storageAccount(), QStringLiteral("devstore")};
        QVERIFY(DiscoveredClaim::refusal(container, kinds).isEmpty());
    }
};

QTEST_GUILESS_MAIN(tst_DiscoveredClaim)
#include "tst_discoveredclaim.moc"

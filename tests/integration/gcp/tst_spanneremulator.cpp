// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The CTest fixture's Spanner emulator (its REST gateway in front of emulator_main) is up on
// loopback: an instance's create answers a long-running operation that can be read again by its
// name, each test's own project starts empty, and the quirks BACKENDS.md lists are still there.
#include "emulators.h"
#include "gcpemulatorclient.h"

#include <QHostAddress>
#include <QJsonArray>
#include <QTest>

using namespace converge::test;

class tst_SpannerEmulator final : public QObject
{
    Q_OBJECT

private:
    Emulators m_emulators;
    std::unique_ptr<GcpEmulatorClient> m_client;

private slots:
    void initTestCase()
    {
        m_emulators = Emulators::fromEnvironment();
        CONVERGE_REQUIRE_SPANNER(m_emulators);
        QVERIFY(QHostAddress(m_emulators.host).isLoopback());
        QVERIFY(m_emulators.spannerGrpcPort > 0);
        m_client = std::make_unique<GcpEmulatorClient>(m_emulators.spannerEndpoint());
    }

    void anInstanceCreateIsALongRunningOperation()
    {
        const QString project = uniqueGcpProject(QStringLiteral("spanner"));
        const QString instances = QStringLiteral("/v1/projects/%1/instances").arg(project);
        const QJsonObject instance{
            {QStringLiteral("config"),
             QStringLiteral("projects/%1/instanceConfigs/emulator-config").arg(project)},
            {QStringLiteral("displayName"), QStringLiteral("Orders")},
            {QStringLiteral("nodeCount"), 1}};
        const auto created =
            m_client->send("POST", instances,
                           QJsonObject{{QStringLiteral("instanceId"), QStringLiteral("orders")},
                                       {QStringLiteral("instance"), instance}});
        QCOMPARE(created.status, 200);
        const QString operation = created.json.value(u"name").toString();
        QVERIFY2(operation.startsWith(
                     QStringLiteral("projects/%1/instances/orders/operations/").arg(project)),
                 created.body.constData());
        QVERIFY(created.json.value(u"done").toBool());
        QCOMPARE(created.json.value(u"response").toObject().value(u"state").toString(),
                 QStringLiteral("READY"));

        const auto again = m_client->send("GET", QStringLiteral("/v1/") + operation);
        QCOMPARE(again.status, 200);
        QVERIFY(again.json.value(u"done").toBool());

        const auto other =
            m_client->send("GET", QStringLiteral("/v1/projects/%1/instances")
                                      .arg(uniqueGcpProject(QStringLiteral("spanner"))));
        QCOMPARE(other.status, 200);
        QVERIFY2(other.json.value(u"instances").toArray().isEmpty(), other.body.constData());

        QCOMPARE(m_client->send("DELETE", instances + u"/orders").status, 200);
    }

    void quirksStillThere()
    {
        const QString project = uniqueGcpProject(QStringLiteral("spanner"));
        // A missing instance answers 500, not 404: a GCP kind must not read it as "gone".
        const auto missing =
            m_client->send("GET", QStringLiteral("/v1/projects/%1/instances/none").arg(project));
        QCOMPARE(missing.status, 500);
    }
};

QTEST_GUILESS_MAIN(tst_SpannerEmulator)
#include "tst_spanneremulator.moc"

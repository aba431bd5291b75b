// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The CTest fixture's Pub/Sub emulator is up on loopback and serves the v1 REST API; each test's
// own project starts empty; the weaknesses BACKENDS.md lists are still there (a test here fails
// when an emulator update lifts one, so that the GCP kinds' tests can check more).
#include "emulators.h"
#include "gcpemulatorclient.h"

#include <QHostAddress>
#include <QJsonArray>
#include <QTest>

using namespace converge::test;

class tst_PubSubEmulator final : public QObject
{
    Q_OBJECT

private:
    Emulators m_emulators;
    std::unique_ptr<GcpEmulatorClient> m_client;

private slots:
    void initTestCase()
    {
        m_emulators = Emulators::fromEnvironment();
        CONVERGE_REQUIRE_PUBSUB(m_emulators);
        QVERIFY(QHostAddress(m_emulators.host).isLoopback());
        m_client = std::make_unique<GcpEmulatorClient>(m_emulators.pubsubEndpoint());
    }

    void aProjectOfItsOwnStartsEmpty()
    {
        const QString project = uniqueGcpProject(QStringLiteral("pubsub"));
        const QString topic = QStringLiteral("projects/%1/topics/orders").arg(project);
        const auto created = m_client->send(
            "PUT", QLatin1Char('/') + u"v1/" + topic,
            QJsonObject{{QStringLiteral("labels"),
                         QJsonObject{{QStringLiteral("team"), QStringLiteral("billing")}}}});
        QCOMPARE(created.status, 200);
        QCOMPARE(created.json.value(u"name").toString(), topic);

        const auto listed =
            m_client->send("GET", QStringLiteral("/v1/projects/%1/topics").arg(project));
        QCOMPARE(listed.status, 200);
        QCOMPARE(listed.json.value(u"topics").toArray().size(), 1);

        const QString other = uniqueGcpProject(QStringLiteral("pubsub"));
        const auto empty =
            m_client->send("GET", QStringLiteral("/v1/projects/%1/topics").arg(other));
        QCOMPARE(empty.status, 200);
        QVERIFY2(empty.json.value(u"topics").toArray().isEmpty(), empty.body.constData());

        QCOMPARE(m_client->send("DELETE", QLatin1Char('/') + u"v1/" + topic).status, 200);
        QCOMPARE(m_client->send("GET", QLatin1Char('/') + u"v1/" + topic).status, 404);
    }

    void aTopicLabelPatchIsRejected()
    {
        const QString project = uniqueGcpProject(QStringLiteral("pubsub"));
        const QString topic = QStringLiteral("/v1/projects/%1/topics/orders").arg(project);
        QCOMPARE(m_client->send("PUT", topic).status, 200);
        const auto patched = m_client->send(
            "PATCH", topic,
            QJsonObject{{QStringLiteral("topic"),
                         QJsonObject{{QStringLiteral("labels"),
                                      QJsonObject{{QStringLiteral("team"), QStringLiteral("x")}}}}},
                        {QStringLiteral("updateMask"), QStringLiteral("labels")}});
        QVERIFY2(patched.status >= 400, patched.body.constData());
    }

    void idsNeedThreeCharacters()
    {
        const QString project = uniqueGcpProject(QStringLiteral("pubsub"));
        const auto tooShort =
            m_client->send("PUT", QStringLiteral("/v1/projects/%1/topics/ab").arg(project));
        QCOMPARE(tooShort.status, 400);
        QCOMPARE(tooShort.json.value(u"error").toObject().value(u"status").toString(),
                 QStringLiteral("INVALID_ARGUMENT"));
    }
};

QTEST_GUILESS_MAIN(tst_PubSubEmulator)
#include "tst_pubsubemulator.moc"

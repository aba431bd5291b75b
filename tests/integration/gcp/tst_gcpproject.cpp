// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// GcpProject through the real engine on the fixture's Pub/Sub emulator: `emulator: true` is
// Ready; a project whose endpoint is a closed port is not reachable and says so; a token command
// that fails says what it printed; no token reaches the workspace or its events.
#include "emulators.h"
#include "engineharness.h"
#include "gcpfactory.h"
#include "gcpkinds.h"

#include <QFile>
#include <QJsonArray>
#include <QTcpServer>
#include <QTest>

using namespace converge;
using namespace converge::test;

class tst_GcpProject final : public QObject
{
    Q_OBJECT

private:
    Emulators m_emulators;

    static Resource project(const QString &name, const QString &projectId, const QUrl &pubsub,
                            const QJsonObject &credential)
    {
        Resource r;
        r.apiVersion = GcpKinds::apiVersion();
        r.kind = GcpKinds::projectKind();
        r.metadata.name = name;
        r.spec = QJsonObject{{QStringLiteral("projectId"), projectId},
                             {QStringLiteral("endpoints"),
                              QJsonObject{{QStringLiteral("pubsub"), pubsub.toString()}}},
                             {QStringLiteral("credential"), credential}};
        return r;
    }

    static quint16 closedPort()
    {
        QTcpServer probe;
        probe.listen(QHostAddress::LocalHost);
        return probe.serverPort(); // closed again when probe goes
    }

private slots:
    void initTestCase()
    {
        m_emulators = Emulators::fromEnvironment();
        CONVERGE_REQUIRE_PUBSUB(m_emulators);
    }

    void readyOnTheEmulatorAndNotOnAClosedPort()
    {
        EngineHarness engine;
        engine.install(std::make_unique<GcpFactory>(), QStringLiteral("gcp.converge"));
        const QString id = uniqueGcpProject(QStringLiteral("project"));
        const Resource local = project(QStringLiteral("local"), id, m_emulators.pubsubEndpoint(),
                                       {{QStringLiteral("emulator"), true}});
        QUrl closed = m_emulators.pubsubEndpoint();
        closed.setPort(closedPort());
        const Resource away =
            project(QStringLiteral("away"), id, closed, {{QStringLiteral("emulator"), true}});
        QTemporaryDir dir;
        const QString script = dir.filePath(QStringLiteral("token.sh"));
        QFile file(script);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("#!/bin/sh\necho 'You do not currently have an active account' >&2\nexit 1\n");
        file.close();
        file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        const Resource command =
            project(QStringLiteral("command"), id, m_emulators.pubsubEndpoint(),
                    {{QStringLiteral("tokenCommand"),
                      QJsonObject{{QStringLiteral("command"), QJsonArray{script}}}}});
        QVERIFY(engine.apply({local, away, command}));
        QVERIFY(engine.start());

        QTRY_VERIFY_WITH_TIMEOUT(engine.isReady(local), 15000);
        const std::optional<Resource> stored = engine.get(local);
        QCOMPARE(stored->metadata.annotations.value(Annotations::resourceId()),
                 QStringLiteral("projects/") + id);

        QTRY_COMPARE_WITH_TIMEOUT(engine.ready(away).reason, QStringLiteral("ConnectionRefused"),
                                  15000);
        QCOMPARE(engine.ready(away).status, Condition::Status::False);

        QTRY_COMPARE_WITH_TIMEOUT(engine.ready(command).reason,
                                  QStringLiteral("TokenCommandFailed"), 15000);
        QVERIFY2(engine.ready(command).message.contains(
                     QStringLiteral("You do not currently have an active account")),
                 qPrintable(engine.ready(command).message));
        QVERIFY(engine.hasEvent(command, QStringLiteral("TokenCommandFailed")));
        engine.stop();
    }

    // A project on the emulators that runs only Spanner's is Ready by Spanner's answer (an
    // authorized list of its instances), not by asking Google's Pub/Sub without a credential.
    void readyOnTheSpannerEmulatorAlone()
    {
        CONVERGE_REQUIRE_SPANNER(m_emulators);
        EngineHarness engine;
        engine.install(std::make_unique<GcpFactory>(), QStringLiteral("gcp.converge"));
        Resource spannerOnly =
            project(QStringLiteral("spanner-only"), uniqueGcpProject(QStringLiteral("spanner")),
                    QUrl(), {{QStringLiteral("emulator"), true}});
        spannerOnly.spec.insert(
            QStringLiteral("endpoints"),
            QJsonObject{{QStringLiteral("spanner"), m_emulators.spannerEndpoint().toString()}});
        QVERIFY(engine.apply({spannerOnly}));
        QVERIFY(engine.start());
        QTRY_VERIFY_WITH_TIMEOUT(engine.isReady(spannerOnly), 15000);
        const std::optional<Resource> stored = engine.get(spannerOnly);
        QCOMPARE(stored->status.observed.value(QStringLiteral("spanner")).toString(),
                 m_emulators.spannerEndpoint().toString());
        engine.stop();
    }
};

QTEST_GUILESS_MAIN(tst_GcpProject)
#include "tst_gcpproject.moc"

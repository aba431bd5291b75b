// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// GcpProject's manifest: each credential form reads, and what is wrong is refused at its
// file:line:column with the field.
#include "gcpfactory.h"
#include "gcpkinds.h"
#include "httpclient.h"

#include "kindregistry.h"
#include "manifestreader.h"

#include <QTest>

using namespace converge;

class tst_GcpKinds final : public QObject
{
    Q_OBJECT

private:
    KindRegistry m_kinds;

    // A GcpProject manifest whose spec ends with `tail` (indented by two spaces per line).
    static QByteArray project(const QByteArray &tail)
    {
        return QByteArrayLiteral("apiVersion: gcp.converge.dev/v1\n"
                                 "kind: GcpProject\n"
                                 "metadata:\n"
                                 "  name: dev\n"
                                 "spec:\n") +
               tail;
    }

    QStringList errorsOf(const QByteArray &yaml)
    {
        ManifestReader reader(m_kinds);
        QStringList out;
        for (const ManifestError &e : reader.read(yaml, QStringLiteral("p.yaml")).errors)
            out << e.toString();
        return out;
    }

private slots:
    void initTestCase() { GcpKinds::registerKinds(m_kinds); }

    void kindIsRegistered()
    {
        const Kind *kind = m_kinds.find(GcpKinds::apiVersion(), QStringLiteral("GcpProject"));
        QVERIFY(kind);
        QVERIFY(kind->ownerKind.isEmpty());
        for (const FieldSchema &f : kind->spec.fields)
            QVERIFY2(!f.description.isEmpty(), qPrintable(f.name));
    }

    void accepts_data()
    {
        QTest::addColumn<QByteArray>("spec");
        QTest::newRow("emulator") << QByteArray("  projectId: converge-local\n"
                                                "  endpoints:\n"
                                                "    pubsub: http://127.0.0.1:8085\n"
                                                "    spanner: http://localhost:9020\n"
                                                "  credential:\n"
                                                "    emulator: true\n");
        QTest::newRow("gcloud") << QByteArray("  projectId: my-project-123\n"
                                              "  credential:\n"
                                              "    gcloud: {}\n");
        QTest::newRow("gcloud account") << QByteArray("  projectId: my-project-123\n"
                                                      "  credential:\n"
                                                      "    gcloud: {account: ops@example.com}\n");
        QTest::newRow("token command")
            << QByteArray("  projectId: my-project-123\n"
                          "  credential:\n"
                          "    tokenCommand:\n"
                          "      command: [~/bin/token, --project, x]\n");
        QTest::newRow("application default") << QByteArray("  projectId: my-project-123\n"
                                                           "  credential:\n"
                                                           "    applicationDefault: true\n");
        QTest::newRow("key by file") << QByteArray("  projectId: my-project-123\n"
                                                   "  credential:\n"
                                                   "    serviceAccountKey: {file: ~/k.json}\n");
        QTest::newRow("key by keychain")
            << QByteArray("  projectId: my-project-123\n"
                          "  credential:\n"
                          "    serviceAccountKey: {keychain: gcp/deployer}\n");
        QTest::newRow("not connected") << QByteArray("  projectId: my-project-123\n"
                                                     "  credential: {}\n");
    }

    void accepts()
    {
        QFETCH(QByteArray, spec);
        const QStringList errors = errorsOf(project(spec));
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
    }

    void refuses_data()
    {
        QTest::addColumn<QByteArray>("spec");
        QTest::addColumn<QString>("error");
        QTest::newRow("short project ID") << QByteArray("  projectId: abc\n"
                                                        "  credential: {gcloud: {}}\n")
                                          << QStringLiteral("p.yaml:6:3: spec.projectId: ");
        QTest::newRow("project ID with capitals") << QByteArray("  projectId: My-Project\n"
                                                                "  credential: {gcloud: {}}\n")
                                                  << QStringLiteral("p.yaml:6:3: spec.projectId: ");
        QTest::newRow("project ID ending in a hyphen")
            << QByteArray("  projectId: my-project-\n"
                          "  credential: {gcloud: {}}\n")
            << QStringLiteral("p.yaml:6:3: spec.projectId: ");
        QTest::newRow("no project ID")
            << QByteArray("  credential: {gcloud: {}}\n") << QStringLiteral("spec.projectId: ");
        QTest::newRow("two credentials")
            << QByteArray("  projectId: my-project-123\n"
                          "  credential:\n"
                          "    gcloud: {}\n"
                          "    applicationDefault: true\n")
            << QStringLiteral("p.yaml:7:3: spec.credential: give exactly one of");
        QTest::newRow("emulator on Google's endpoints")
            << QByteArray("  projectId: my-project-123\n"
                          "  credential: {emulator: true}\n")
            << QStringLiteral("spec: credential emulator: true is only for the local emulators");
        QTest::newRow("emulator on another host")
            << QByteArray("  projectId: my-project-123\n"
                          "  endpoints: {pubsub: 'https://pubsub.example.com'}\n"
                          "  credential: {emulator: true}\n")
            << QStringLiteral("endpoints.pubsub must be a loopback address");
        QTest::newRow("plain http to another host")
            << QByteArray("  projectId: my-project-123\n"
                          "  endpoints: {spanner: 'http://spanner.example.com'}\n"
                          "  credential: {gcloud: {}}\n")
            << QStringLiteral("p.yaml:7:15: spec.endpoints.spanner: a plain http endpoint");
        QTest::newRow("endpoint with a path")
            << QByteArray("  projectId: my-project-123\n"
                          "  endpoints: {pubsub: 'https://pubsub.googleapis.com/v1'}\n"
                          "  credential: {gcloud: {}}\n")
            << QStringLiteral("spec.endpoints.pubsub: must be a scheme, a host and a port only");
        QTest::newRow("key given inline")
            << QByteArray("  projectId: my-project-123\n"
                          "  credential:\n"
                          "    serviceAccountKey: {private_key: x}\n")
            << QStringLiteral("spec.credential.serviceAccountKey.private_key");
        QTest::newRow("key by two references")
            << QByteArray("  projectId: my-project-123\n"
                          "  credential:\n"
                          "    serviceAccountKey: {file: k.json, env: KEY}\n")
            << QStringLiteral("p.yaml:8:5: spec.credential.serviceAccountKey: give exactly one");
        QTest::newRow("token command without a command")
            << QByteArray("  projectId: my-project-123\n"
                          "  credential:\n"
                          "    tokenCommand: {}\n")
            << QStringLiteral("spec.credential.tokenCommand.command");
        QTest::newRow("token command with an empty command")
            << QByteArray("  projectId: my-project-123\n"
                          "  credential:\n"
                          "    tokenCommand: {command: []}\n")
            << QStringLiteral("spec.credential.tokenCommand.command: needs the program first");
        QTest::newRow("emulator false") << QByteArray("  projectId: my-project-123\n"
                                                      "  credential: {emulator: false}\n")
                                        << QStringLiteral("emulator: false means nothing");
    }

    void refuses()
    {
        QFETCH(QByteArray, spec);
        QFETCH(QString, error);
        const QStringList errors = errorsOf(project(spec));
        QVERIFY2(!errors.isEmpty(), "accepted");
        QVERIFY2(errors.join(QLatin1Char('\n')).contains(error),
                 qPrintable(errors.join(QLatin1Char('\n'))));
    }

    void endpoints()
    {
        const QJsonObject spec{
            {QStringLiteral("endpoints"),
             QJsonObject{{QStringLiteral("pubsub"), QStringLiteral("http://127.0.0.1:8085")}}}};
        QCOMPARE(GcpKinds::endpoint(spec, QStringLiteral("pubsub")),
                 QStringLiteral("http://127.0.0.1:8085"));
        QCOMPARE(GcpKinds::endpoint(spec, QStringLiteral("spanner")),
                 QStringLiteral("https://spanner.googleapis.com"));
    }

    // A project on the emulators reaches only the services it names: no Manager for another
    // service's kinds (which would ask Google's endpoint without a credential, and a listing of
    // the project would reach out to Google for them), and a reason that says what to give.
    void anEmulatorProjectReachesOnlyItsEndpoints()
    {
        Resource p;
        p.apiVersion = GcpKinds::apiVersion();
        p.kind = GcpKinds::projectKind();
        p.metadata.name = QStringLiteral("local");
        p.spec = QJsonObject{
            {QStringLiteral("projectId"), QStringLiteral("converge-local")},
            {QStringLiteral("endpoints"),
             QJsonObject{{QStringLiteral("pubsub"), QStringLiteral("http://127.0.0.1:8085")}}},
            {QStringLiteral("credential"), QJsonObject{{QStringLiteral("emulator"), true}}}};
        HttpClient http;
        ManagerEnvironment env;
        env.http = &http;
        GcpFactory factory;
        QVERIFY(factory.manager(QStringLiteral("PubSubTopic"), p, env));
        const auto spanner = factory.manager(QStringLiteral("SpannerInstance"), p, env);
        QVERIFY(!spanner);
        QCOMPARE(spanner.error().code, QStringLiteral("NoEmulatorEndpoint"));
        QVERIFY2(spanner.error().message.contains(QLatin1String("endpoints.spanner")),
                 qPrintable(spanner.error().message));
        // With a credential of Google's, Google's endpoint is the default.
        p.spec.insert(QStringLiteral("credential"),
                      QJsonObject{{QStringLiteral("gcloud"), QJsonObject()}});
        QVERIFY(factory.manager(QStringLiteral("SpannerInstance"), p, env));
    }
};

QTEST_GUILESS_MAIN(tst_GcpKinds)
#include "tst_gcpkinds.moc"

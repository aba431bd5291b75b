// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// GcpRestClient's requests as Google's REST APIs take them, against a loopback server that
// records them: what the Spanner emulator cannot show (it answers 501 to every PATCH) is shown
// here on the wire — an instance's PATCH with its fieldMask in the body, a database's with its
// updateMask in the query — beside a create's wrapped resource and a config sent by its full name.
// The declarations are the ones Converge ships (resources/kinds/gcp/generated).
#include "declaredservices.h"
#include "gcpkinds.h"
#include "gcprestclient.h"
#include "gcpsession.h"
#include "httpclient.h"
#include "servicedeclaration.h"
#include "testhttpserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <QUrlQuery>

using namespace converge;
using converge::test::TestHttpServer;

namespace {

TestHttpServer::Reply answer(int status, const QByteArray &body)
{
    TestHttpServer::Reply r;
    r.status = status;
    r.headers = {{"Content-Type", "application/json"}};
    r.body = body;
    return r;
}

} // namespace

class tst_GcpRestClient final : public QObject
{
    Q_OBJECT

    TestHttpServer m_server;
    HttpClient m_http{[] {
        HttpClient::Options o;
        o.retry.baseDelay = std::chrono::milliseconds(1); // a 500 is retried: quickly here
        return o;
    }()};

    GcpRestClient client(const QString &kind)
    {
        const ServiceDeclaration *service = GcpKinds::declared().serviceOf(kind);
        if (!service)
            qFatal("no service of %s", qPrintable(kind));
        auto session = std::make_shared<GcpSession>(
            &m_http, m_server.url(), [](bool) { return Outcome<QString>(QStringLiteral("tok")); },
            [] { return false; });
        return GcpRestClient(service->operations, QStringLiteral("p1"), session);
    }
    QJsonObject lastBody() const
    {
        return QJsonDocument::fromJson(m_server.received().constLast().body).object();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_server.isListening());
        m_server.setFallback(answer(200, "{}"));
    }

    // The create's body: instanceId beside the instance, its config by its full name.
    void aCreateWrapsTheResourceBesideItsId()
    {
        auto c = client(QStringLiteral("SpannerInstance"));
        const auto reply =
            c.call(QStringLiteral("projects.instances.create"),
                   QJsonObject{{QStringLiteral("instanceId"), QStringLiteral("i1")},
                               {QStringLiteral("config"), QStringLiteral("nam3")},
                               {QStringLiteral("displayName"), QStringLiteral("Orders")},
                               {QStringLiteral("nodeCount"), 1}});
        QVERIFY2(reply, qPrintable(reply ? QString() : reply.error().toString()));
        const auto &sent = m_server.received().constLast();
        QCOMPARE(sent.method, QByteArray("POST"));
        QCOMPARE(sent.target, QByteArray("/v1/projects/p1/instances"));
        QCOMPARE(sent.header("Authorization"), QByteArray("Bearer tok"));
        const QJsonObject expected{
            {QStringLiteral("instanceId"), QStringLiteral("i1")},
            {QStringLiteral("instance"),
             QJsonObject{
                 {QStringLiteral("config"), QStringLiteral("projects/p1/instanceConfigs/nam3")},
                 {QStringLiteral("displayName"), QStringLiteral("Orders")},
                 {QStringLiteral("nodeCount"), 1}}}};
        QCOMPARE(lastBody(), expected);
    }

    // A config given in full is sent as it is.
    void aFullNameIsSentAsItIs()
    {
        auto c = client(QStringLiteral("SpannerInstance"));
        QVERIFY(c.call(QStringLiteral("projects.instances.create"),
                       QJsonObject{{QStringLiteral("instanceId"), QStringLiteral("i1")},
                                   {QStringLiteral("config"),
                                    QStringLiteral("projects/other/instanceConfigs/nam3")}}));
        QCOMPARE(lastBody()
                     .value(QStringLiteral("instance"))
                     .toObject()
                     .value(QStringLiteral("config"))
                     .toString(),
                 QStringLiteral("projects/other/instanceConfigs/nam3"));
    }

    // An instance's PATCH names what it changes in the body's fieldMask, as protobuf names it.
    void anInstancePatchNamesItsFieldsInTheBody()
    {
        auto c = client(QStringLiteral("SpannerInstance"));
        QVERIFY(c.call(QStringLiteral("projects.instances.patch"),
                       QJsonObject{{QStringLiteral("instancesId"), QStringLiteral("i1")},
                                   {QStringLiteral("displayName"), QStringLiteral("New name")},
                                   {QStringLiteral("processingUnits"), 500}}));
        const auto &sent = m_server.received().constLast();
        QCOMPARE(sent.method, QByteArray("PATCH"));
        QCOMPARE(sent.target, QByteArray("/v1/projects/p1/instances/i1"));
        const QJsonObject expected{
            {QStringLiteral("instance"),
             QJsonObject{{QStringLiteral("displayName"), QStringLiteral("New name")},
                         {QStringLiteral("processingUnits"), 500}}},
            {QStringLiteral("fieldMask"), QStringLiteral("display_name,processing_units")}};
        QCOMPARE(lastBody(), expected);
    }

    // A database's PATCH: the body is the database, its updateMask in the query string.
    void aDatabasePatchNamesItsFieldsInTheQuery()
    {
        auto c = client(QStringLiteral("SpannerDatabase"));
        QVERIFY(c.call(QStringLiteral("projects.instances.databases.patch"),
                       QJsonObject{{QStringLiteral("instancesId"), QStringLiteral("i1")},
                                   {QStringLiteral("databasesId"), QStringLiteral("d1")},
                                   {QStringLiteral("enableDropProtection"), true}}));
        const auto &sent = m_server.received().constLast();
        QCOMPARE(sent.method, QByteArray("PATCH"));
        QCOMPARE(sent.target, QByteArray("/v1/projects/p1/instances/i1/databases/d1"
                                         "?updateMask=enable_drop_protection"));
        QCOMPARE(lastBody(), (QJsonObject{{QStringLiteral("enableDropProtection"), true}}));
    }

    // A schema update sends its statements, nothing else.
    void aDdlUpdateSendsItsStatements()
    {
        auto c = client(QStringLiteral("SpannerDatabase"));
        const QJsonArray statements{QStringLiteral("CREATE INDEX I ON T (K)")};
        QVERIFY(c.call(QStringLiteral("projects.instances.databases.updateDdl"),
                       QJsonObject{{QStringLiteral("instancesId"), QStringLiteral("i1")},
                                   {QStringLiteral("databasesId"), QStringLiteral("d1")},
                                   {QStringLiteral("statements"), statements}}));
        QCOMPARE(m_server.received().constLast().target,
                 QByteArray("/v1/projects/p1/instances/i1/databases/d1/ddl"));
        QCOMPARE(lastBody(), (QJsonObject{{QStringLiteral("statements"), statements}}));
    }

    // Google's error body, and a gRPC gateway's (the Spanner emulator's), mean the same.
    void errorsAreReadInBothShapes_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("code");
        QTest::addColumn<int>("category");
        QTest::newRow("google")
            << 409
            << QByteArray(R"({"error":{"code":409,"message":"Instance already exists: x",)"
                          R"("status":"ALREADY_EXISTS"}})")
            << QStringLiteral("ALREADY_EXISTS") << int(BackendError::Category::Conflict);
        QTest::newRow("gateway") << 409
                                 << QByteArray(
                                        R"({"code":6,"message":"Instance already exists: x"})")
                                 << QStringLiteral("ALREADY_EXISTS")
                                 << int(BackendError::Category::Conflict);
        QTest::newRow("gateway not found")
            << 404 << QByteArray(R"({"code":5,"message":"Operation not found: x"})")
            << QStringLiteral("NOT_FOUND") << int(BackendError::Category::NotFound);
        QTest::newRow("gateway internal")
            << 500 << QByteArray(R"({"code": 13, "message": "an internal error"})")
            << QStringLiteral("INTERNAL") << int(BackendError::Category::Transient);
        // The Spanner emulator's answer for a missing resource: the same, but final (not
        // retried: the kind's list settles it).
        QTest::newRow("gateway, missing resource")
            << 500 << QByteArray(R"({"code": 13, "message": "failed to marshal error message"})")
            << QStringLiteral("INTERNAL") << int(BackendError::Category::Transient);
    }
    void errorsAreReadInBothShapes()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(QString, code);
        QFETCH(int, category);
        // A transient answer is retried by the HTTP layer: every attempt gets the same.
        m_server.setFallback(answer(status, body));
        auto c = client(QStringLiteral("SpannerInstance"));
        const qsizetype before = m_server.received().size();
        const auto reply =
            c.call(QStringLiteral("projects.instances.get"),
                   QJsonObject{{QStringLiteral("instancesId"), QStringLiteral("x")}});
        m_server.setFallback(answer(200, "{}"));
        // A 500 is tried again (three times more), but for the emulator's final one.
        const bool final = status != 500 || body.contains("failed to marshal");
        QCOMPARE(m_server.received().size() - before, final ? 1 : 4);
        QVERIFY(!reply);
        QCOMPARE(reply.error().code, code);
        QCOMPARE(int(reply.error().category), category);
        QVERIFY2(reply.error().message.contains(QLatin1String("projects.instances.get: ")),
                 qPrintable(reply.error().message));
    }
};

QTEST_GUILESS_MAIN(tst_GcpRestClient)
#include "tst_gcprestclient.moc"

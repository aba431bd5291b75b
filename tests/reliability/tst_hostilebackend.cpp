// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// Hostile backends: an in-test server answering as an Azure Storage or a DynamoDB endpoint with
// oversized bodies, wrong content types, invalid XML or JSON, or a redirect to another host.
// Each gives a clear BackendError (no crash, no success made up from garbage), and credentials
// never reach a host other than the account's.

#include "awsfactory.h"
#include "awsjsonclient.h"
#include "azurefactory.h"
#include "azurekinds.h"
#include "httpclient.h"
#include "kindregistry.h"
#include "manager.h"
#include "schemavalidator.h"

#include <QJsonObject>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

using namespace converge;

namespace {

/// Answers every request with one canned reply (headers and body written separately, so
/// the client sees the headers first) and records the requests' header blocks.
class HostileServer final : public QObject
{
public:
    HostileServer()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                socket->setParent(this);
                connect(socket, &QTcpSocket::readyRead, this, [this, socket] { read(socket); });
            }
        });
    }

    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    quint16 port() const { return m_server.serverPort(); }
    void setReply(const QByteArray &head, const QByteArray &body)
    {
        m_head = head;
        m_body = body;
    }
    QList<QByteArray> requests() const { return m_requests; }

private:
    void read(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        const qsizetype end = buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        const QByteArray head = buffer.left(end);
        qint64 length = 0;
        for (const QByteArray &line : head.split('\n')) {
            if (line.toLower().startsWith("content-length:"))
                length = line.mid(15).trimmed().toLongLong();
        }
        if (buffer.size() < end + 4 + length)
            return;
        buffer.remove(0, end + 4 + length);
        m_requests << head;
        socket->write(m_head);
        socket->flush();
        // Large bodies go in pieces: the client must stop reading once over its cap.
        for (qsizetype at = 0; at < m_body.size(); at += 64 * 1024) {
            socket->write(m_body.mid(at, 64 * 1024));
            if (socket->state() != QAbstractSocket::ConnectedState)
                return;
        }
        socket->disconnectFromHost();
    }

    QTcpServer m_server;
    QByteArray m_head;
    QByteArray m_body;
    QList<QByteArray> m_requests;
    QHash<QTcpSocket *, QByteArray> m_buffers;
};

QByteArray head(int status, const QByteArray &contentType, std::optional<qint64> length,
                const QByteArray &extra = {})
{
    QByteArray h = "HTTP/1.1 " + QByteArray::number(status) + " Whatever\r\n";
    if (!contentType.isEmpty())
        h += "Content-Type: " + contentType + "\r\n";
    if (length)
        h += "Content-Length: " + QByteArray::number(*length) + "\r\n";
    h += "x-ms-request-id: hostile-1\r\nx-amzn-RequestId: hostile-1\r\nConnection: close\r\n";
    return h + extra + "\r\n";
}

constexpr qint64 cap = 1024 * 1024;

bool hasCredentialHeader(const QByteArray &requestHead)
{
    const QByteArray lower = requestHead.toLower();
    return lower.contains("\nauthorization:") || lower.contains("\nx-amz-security-token:") ||
           lower.contains("sharedkey") || lower.contains("sig=");
}

} // namespace

class tst_HostileBackend final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void azure_data();
    void azure();
    void dynamodb_data();
    void dynamodb();

private:
    HostileServer m_server;
    HostileServer m_elsewhere; ///< the redirect target: must never see a credential
};

void tst_HostileBackend::initTestCase()
{
    QVERIFY(m_server.listen());
    QVERIFY(m_elsewhere.listen());
}

namespace {

void addRows()
{
    QTest::addColumn<QByteArray>("replyHead");
    QTest::addColumn<QByteArray>("replyBody");
    QTest::addColumn<QString>("expectedCode"); ///< empty: any code, as long as it fails
}

} // namespace

void tst_HostileBackend::azure_data()
{
    addRows();
    const QByteArray big(2 * cap, 'x');
    const QByteArray elsewhere =
        "Location: http://localhost:" + QByteArray::number(m_elsewhere.port()) + "/steal\r\n";
    QTest::newRow("oversized, announced")
        << head(200, "application/xml", big.size()) << big << QStringLiteral("ResponseTooLarge");
    QTest::newRow("oversized, not announced")
        << head(200, "application/xml", std::nullopt) << big << QStringLiteral("ResponseTooLarge");
    QTest::newRow("announced 100 GiB") << head(200, "application/xml", qint64(100) << 30)
                                       << QByteArray("<") << QStringLiteral("ResponseTooLarge");
    QTest::newRow("html instead of xml")
        << head(200, "text/html", 30) << QByteArray("<html><body>hello</body></html>").left(30)
        << QString();
    QTest::newRow("invalid xml") << head(200, "application/xml", 40)
                                 << QByteArray("<?xml version=\"1.0\"?><EnumerationResults><Conta")
                                 << QString();
    QTest::newRow("binary garbage")
        << head(200, "application/xml", 8) << QByteArray("\x00\xff\xfe\x01\x02\x03\x04\x05", 8)
        << QString();
    QTest::newRow("error with invalid xml")
        << head(400, "application/xml", 20) << QByteArray("<Error><Code>Bad</Co") << QString();
    QTest::newRow("redirect to another host")
        << head(307, {}, 0, elsewhere) << QByteArray() << QStringLiteral("Redirected");
    QTest::newRow("permanent redirect")
        << head(308, {}, 0, elsewhere) << QByteArray() << QStringLiteral("Redirected");
}

void tst_HostileBackend::azure()
{
    QFETCH(QByteArray, replyHead);
    QFETCH(QByteArray, replyBody);
    QFETCH(QString, expectedCode);
    m_server.setReply(replyHead, replyBody);
    const qsizetype before = m_server.requests().size();

    KindRegistry kinds;
    AzureKinds::registerAll(kinds);
    Resource account;
    account.apiVersion = AzureKinds::apiVersion();
    account.kind = AzureKinds::storageAccount();
    account.metadata.name = QStringLiteral("hostile");
    const QString base =
        QStringLiteral("http://127.0.0.1:%1/devstoreaccount1").arg(m_server.port());
    account.spec = {
        {QStringLiteral("accountName"), QStringLiteral("devstoreaccount1")},
        {QStringLiteral("endpoints"), QJsonObject{{QStringLiteral("blob"), base},
                                                  {QStringLiteral("queue"), base},
                                                  {QStringLiteral("table"), base}}},
        {QStringLiteral("credential"), QJsonObject{{QStringLiteral("emulator"), true}}}};
    QVERIFY(SchemaValidator(kinds).validate(account).isEmpty());

    HttpClient::Options options;
    options.maxResponseBytes = cap;
    options.retry.maxRetries = 0;
    HttpClient http(options);
    AzureFactory factory;
    ManagerEnvironment env;
    env.http = &http;
    const auto made = factory.manager(AzureKinds::blobContainer(), account, env);
    QVERIFY(made);
    const std::shared_ptr<Manager> manager = made.value();

    // A list reads a body; a get reads headers.
    ListScope scope;
    scope.owners = {account};
    const Outcome<ListPage> listed = manager->list(scope);
    QVERIFY2(!listed, "garbage must not become a list of containers");
    const BackendError error = listed.error();
    qInfo() << error.toString();
    QVERIFY(!error.message.isEmpty());
    if (!expectedCode.isEmpty())
        QCOMPARE(error.code, expectedCode);

    Resource container;
    container.apiVersion = AzureKinds::apiVersion();
    container.kind = AzureKinds::blobContainer();
    container.metadata.name = QStringLiteral("victim");
    container.spec = {{QStringLiteral("owner"),
                       QJsonObject{{QStringLiteral("name"), QStringLiteral("hostile")}}}};
    QVERIFY(SchemaValidator(kinds).validate(container).isEmpty());
    Target target;
    target.resource = container;
    target.owners = {account};
    const Outcome<Observation> created = manager->create(target);
    if (replyHead.startsWith("HTTP/1.1 3"))
        QVERIFY2(!created, "a redirected create must not pass for a success");

    // The account's host got the signed requests; the other host never got anything.
    QVERIFY(m_server.requests().size() > before);
    QVERIFY(hasCredentialHeader(m_server.requests().last()));
    QCOMPARE(m_elsewhere.requests().size(), 0);
}

void tst_HostileBackend::dynamodb_data()
{
    addRows();
    const QByteArray big(2 * cap, '{');
    const QByteArray json = "application/x-amz-json-1.0";
    const QByteArray elsewhere =
        "Location: http://localhost:" + QByteArray::number(m_elsewhere.port()) + "/\r\n";
    QTest::newRow("oversized, announced")
        << head(200, json, big.size()) << big << QStringLiteral("ResponseTooLarge");
    QTest::newRow("oversized, not announced")
        << head(200, json, std::nullopt) << big << QStringLiteral("ResponseTooLarge");
    QTest::newRow("html instead of json")
        << head(200, "text/html", 13) << QByteArray("<html></html>") << QString();
    QTest::newRow("invalid json") << head(200, json, 12) << QByteArray("{\"TableNames")
                                  << QString();
    QTest::newRow("json array") << head(200, json, 2) << QByteArray("[]") << QString();
    QTest::newRow("error with invalid json")
        << head(400, json, 9) << QByteArray("{\"__type\":") << QString();
    QTest::newRow("redirect to another host")
        << head(307, {}, 0, elsewhere) << QByteArray() << QStringLiteral("Redirected");
}

void tst_HostileBackend::dynamodb()
{
    QFETCH(QByteArray, replyHead);
    QFETCH(QByteArray, replyBody);
    QFETCH(QString, expectedCode);
    m_server.setReply(replyHead, replyBody);
    const qsizetype before = m_server.requests().size();

    HttpClient::Options options;
    options.maxResponseBytes = cap;
    options.retry.maxRetries = 0;
    HttpClient http(options);
    QUrl endpoint;
    endpoint.setScheme(QStringLiteral("http"));
    endpoint.setHost(QStringLiteral("127.0.0.1"));
    endpoint.setPort(m_server.port());
    endpoint.setPath(QStringLiteral("/"));
    AwsJsonClient client(
        AwsJsonService::dynamoDb(), &http, endpoint, QStringLiteral("us-east-1"),
        Credentials::aws(AwsFactory::emulatorAccessKeyId(), AwsFactory::emulatorSecretAccessKey()));
    const auto answer = client.call(QStringLiteral("ListTables"), QJsonObject{});
    QVERIFY2(!answer, "garbage must not pass for an answer");
    const BackendError error = answer.error();
    qInfo() << error.toString();
    QVERIFY(!error.message.isEmpty());
    if (!expectedCode.isEmpty())
        QCOMPARE(error.code, expectedCode);

    QVERIFY(m_server.requests().size() > before);
    QVERIFY(hasCredentialHeader(m_server.requests().last()));
    QCOMPARE(m_elsewhere.requests().size(), 0);
}

QTEST_GUILESS_MAIN(tst_HostileBackend)
#include "tst_hostilebackend.moc"

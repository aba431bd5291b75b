// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// AwsJsonClient against a scripted HTTP server on a loopback port: what goes on the wire, and
// how answers that no emulator sends (corrupted, garbage, 5xx) come back.
#include "awsjsonclient.h"

#include "crc32.h"
#include "httpclient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

using namespace converge;

namespace {

const QString secret = QStringLiteral("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");

/// Answers each HTTP/1.1 request with the next scripted answer and records what it received.
class ScriptedServer final : public QObject
{
public:
    struct Answer
    {
        int status = 200;
        QByteArray body;
        QByteArray crcOverride; ///< sent as x-amz-crc32 instead of the body's
    };
    void answer(int status, const QByteArray &body, const QByteArray &crcOverride = {})
    {
        Answer a;
        a.status = status;
        a.body = body;
        a.crcOverride = crcOverride;
        answers.append(a);
    }
    struct Received
    {
        QByteArray method;
        QByteArray path;
        QList<QPair<QByteArray, QByteArray>> headers;
        QByteArray body;
        QByteArray header(const char *name) const
        {
            for (const auto &[key, value] : headers) {
                if (key.compare(name, Qt::CaseInsensitive) == 0)
                    return value;
            }
            return {};
        }
    };

    QList<Answer> answers;
    QList<Received> received;

    ScriptedServer()
    {
        QObject::connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                QObject::connect(socket, &QTcpSocket::readyRead, this,
                                 [this, socket] { onData(socket); });
                QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
        m_server.listen(QHostAddress::LocalHost, 0);
    }

    QUrl url() const
    {
        return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort()));
    }

private:
    void onData(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        const qsizetype end = buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        Received r;
        const QList<QByteArray> lines = buffer.left(end).split('\n');
        const QList<QByteArray> start = lines.first().trimmed().split(' ');
        r.method = start.value(0);
        r.path = start.value(1);
        qsizetype length = 0;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const qsizetype colon = lines[i].indexOf(':');
            if (colon <= 0)
                continue;
            const QByteArray name = lines[i].left(colon).trimmed();
            const QByteArray value = lines[i].mid(colon + 1).trimmed();
            r.headers.append({name, value});
            if (name.compare("content-length", Qt::CaseInsensitive) == 0)
                length = value.toLongLong();
        }
        if (buffer.size() < end + 4 + length)
            return;
        r.body = buffer.mid(end + 4, length);
        buffer.remove(0, end + 4 + length);
        received.append(r);

        const Answer a = answers.isEmpty() ? Answer{} : answers.takeFirst();
        QByteArray response = "HTTP/1.1 " + QByteArray::number(a.status) + " X\r\n";
        response += "x-amzn-RequestId: RID" + QByteArray::number(received.size()) + "\r\n";
        if (!a.crcOverride.isEmpty())
            response += "x-amz-crc32: " + a.crcOverride + "\r\n";
        else
            response += "x-amz-crc32: " + QByteArray::number(Crc32::of(a.body)) + "\r\n";
        response += "Content-Type: application/x-amz-json-1.0\r\n";
        response += "Content-Length: " + QByteArray::number(a.body.size()) + "\r\n\r\n";
        response += a.body;
        socket->write(response);
    }

    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
};

HttpClient::Options quickRetries()
{
    HttpClient::Options options;
    options.retry.maxRetries = 1;
    options.retry.baseDelay = std::chrono::milliseconds(1);
    options.random = [] { return 0.0; };
    return options;
}

} // namespace

class tst_AwsJsonClient final : public QObject
{
    Q_OBJECT

private slots:
    void requestOnTheWire()
    {
        ScriptedServer server;
        server.answer(200, "{\"TableNames\":[\"a\"]}");
        HttpClient http(quickRetries());
        AwsJsonClient client(AwsJsonService::dynamoDb(), &http, server.url(),
                             QStringLiteral("eu-west-1"),
                             Credentials::aws(QStringLiteral("AKIATEST"), secret,
                                              QStringLiteral("session-token-1")));
        const auto reply =
            client.call(QStringLiteral("ListTables"), QJsonObject{{QStringLiteral("Limit"), 1}});
        QVERIFY(reply.ok());
        QCOMPARE(reply.value().body.value(QStringLiteral("TableNames")).toArray().size(), 1);
        QCOMPARE(reply.value().requestId, QStringLiteral("RID1"));

        QCOMPARE(server.received.size(), 1);
        const auto &r = server.received.first();
        QCOMPARE(r.method, QByteArray("POST"));
        QCOMPARE(r.path, QByteArray("/"));
        QCOMPARE(r.body, QByteArray("{\"Limit\":1}"));
        QCOMPARE(r.header("X-Amz-Target"), QByteArray("DynamoDB_20120810.ListTables"));
        QCOMPARE(r.header("Content-Type"), QByteArray("application/x-amz-json-1.0"));
        QCOMPARE(r.header("Accept-Encoding"), QByteArray("identity"));
        QCOMPARE(r.header("X-Amz-Security-Token"), QByteArray("session-token-1"));
        QVERIFY(!r.header("amz-sdk-invocation-id").isEmpty());
        QVERIFY(!r.header("X-Amz-Date").isEmpty());
        const QByteArray authorization = r.header("Authorization");
        QVERIFY2(authorization.startsWith("AWS4-HMAC-SHA256 Credential=AKIATEST/"),
                 authorization.constData());
        QVERIFY(authorization.contains("/eu-west-1/dynamodb/aws4_request"));
        QVERIFY(authorization.contains("x-amz-target"));
        QVERIFY(!authorization.contains(secret.toUtf8()));
    }

    void emptyAnswers()
    {
        ScriptedServer server;
        server.answer(200, "\"\""); // dynalite's TagResource
        server.answer(200, "");
        HttpClient http(quickRetries());
        AwsJsonClient client(AwsJsonService::dynamoDb(), &http, server.url(),
                             QStringLiteral("us-east-1"),
                             Credentials::aws(QStringLiteral("AKIATEST"), secret));
        for (int i = 0; i < 2; ++i) {
            const auto reply = client.call(QStringLiteral("TagResource"), {});
            QVERIFY(reply.ok());
            QVERIFY(reply.value().body.isEmpty());
        }
    }

    void corruptedAnswerIsTransient()
    {
        ScriptedServer server;
        server.answer(200, "{\"Table\":{}}", "12345");
        HttpClient http(quickRetries());
        AwsJsonClient client(AwsJsonService::dynamoDb(), &http, server.url(),
                             QStringLiteral("us-east-1"),
                             Credentials::aws(QStringLiteral("AKIATEST"), secret));
        const auto reply = client.call(QStringLiteral("DescribeTable"), {});
        QVERIFY(!reply.ok());
        QCOMPARE(reply.error().category, BackendError::Category::Transient);
        QCOMPARE(reply.error().code, QStringLiteral("Crc32Mismatch"));
        QCOMPARE(reply.error().requestId, QStringLiteral("RID1"));
    }

    void garbageAnswerIsAClearError()
    {
        ScriptedServer server;
        server.answer(200, "<html>proxy says hi</html>");
        HttpClient http(quickRetries());
        AwsJsonClient client(AwsJsonService::dynamoDb(), &http, server.url(),
                             QStringLiteral("us-east-1"),
                             Credentials::aws(QStringLiteral("AKIATEST"), secret));
        const auto reply = client.call(QStringLiteral("DescribeTable"), {});
        QVERIFY(!reply.ok());
        QCOMPARE(reply.error().code, QStringLiteral("InvalidResponse"));
        QVERIFY(reply.error().message.contains(QStringLiteral("DescribeTable")));
    }

    void errorsAreMappedAndRedacted()
    {
        ScriptedServer server;
        server.answer(400, "{\"__type\":\"com.amazon.coral.service#InvalidSignatureException\","
                           "\"message\":\"bad signature for " +
                               secret.toUtf8() + "\"}");
        HttpClient http(quickRetries());
        AwsJsonClient client(AwsJsonService::dynamoDb(), &http, server.url(),
                             QStringLiteral("us-east-1"),
                             Credentials::aws(QStringLiteral("AKIATEST"), secret));
        const auto reply = client.call(QStringLiteral("ListTables"), {});
        QVERIFY(!reply.ok());
        QCOMPARE(reply.error().category, BackendError::Category::Unauthorized);
        QCOMPARE(reply.error().code, QStringLiteral("InvalidSignatureException"));
        QCOMPARE(reply.error().httpStatus, 400);
        QVERIFY(!reply.error().toString().contains(secret));
    }

    void serverErrorsAreRetriedThenTransient()
    {
        ScriptedServer server;
        server.answer(500, "{\"__type\":\"x#InternalServerError\"}");
        server.answer(503, "");
        HttpClient http(quickRetries());
        AwsJsonClient client(AwsJsonService::dynamoDb(), &http, server.url(),
                             QStringLiteral("us-east-1"),
                             Credentials::aws(QStringLiteral("AKIATEST"), secret));
        const auto reply = client.call(QStringLiteral("ListTables"), {});
        QVERIFY(!reply.ok());
        QCOMPARE(server.received.size(), 2);
        QCOMPARE(reply.error().category, BackendError::Category::Transient);
        QCOMPARE(reply.error().httpStatus, 503);
        // Each attempt is signed afresh, with the same invocation id.
        QCOMPARE(server.received.at(0).header("amz-sdk-invocation-id"),
                 server.received.at(1).header("amz-sdk-invocation-id"));
    }

    void defaultEndpoints()
    {
        const AwsJsonService logs{QStringLiteral("logs"), QStringLiteral("Logs_20140328"),
                                  QStringLiteral("1.1"), QStringLiteral("logs")};
        QCOMPARE(logs.endpoint(QStringLiteral("eu-west-1")),
                 QUrl(QStringLiteral("https://logs.eu-west-1.amazonaws.com/")));
        QCOMPARE(logs.target(QStringLiteral("CreateLogGroup")),
                 QByteArray("Logs_20140328.CreateLogGroup"));
        QCOMPARE(logs.contentType(), QByteArray("application/x-amz-json-1.1"));
        QCOMPARE(AwsJsonService::dynamoDb().endpoint(QStringLiteral("eu-west-1")),
                 QUrl(QStringLiteral("https://dynamodb.eu-west-1.amazonaws.com/")));
        QCOMPARE(AwsJsonService::dynamoDb().endpoint(QStringLiteral("cn-north-1")),
                 QUrl(QStringLiteral("https://dynamodb.cn-north-1.amazonaws.com.cn/")));
        QCOMPARE(AwsJsonService::dynamoDb().target(QStringLiteral("UpdateTable")),
                 QByteArray("DynamoDB_20120810.UpdateTable"));
    }
};

QTEST_GUILESS_MAIN(tst_AwsJsonClient)
#include "tst_awsjsonclient.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The CTest fixture's emulators are up, on loopback, and are the real thing: Azurite checks
// SharedKey authorization, dynalite speaks the DynamoDB JSON protocol.
#include "emulators.h"

#include <QHostAddress>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTest>

using namespace converge::test;

class tst_Emulators final : public QObject
{
    Q_OBJECT

private:
    struct Answer
    {
        int status = 0;
        QByteArray body;
        QNetworkReply::NetworkError error = QNetworkReply::NoError;
        QList<QNetworkReply::RawHeaderPair> headers;
        QByteArray header(const QByteArray &name) const
        {
            for (const auto &[key, value] : headers) {
                if (key.compare(name, Qt::CaseInsensitive) == 0)
                    return value;
            }
            return {};
        }
    };

    Answer send(QNetworkRequest request, const QByteArray &verb, const QByteArray &body = {})
    {
        request.setTransferTimeout(10000);
        QNetworkReply *reply = m_network.sendCustomRequest(request, verb, body);
        QSignalSpy finished(reply, &QNetworkReply::finished);
        if (!reply->isFinished())
            finished.wait(15000);
        Answer a;
        a.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        a.body = reply->readAll();
        a.error = reply->error();
        a.headers = reply->rawHeaderPairs();
        reply->deleteLater();
        return a;
    }

    QNetworkAccessManager m_network;
    Emulators m_emulators;

private slots:
    void initTestCase()
    {
        m_emulators = Emulators::fromEnvironment();
        QVERIFY2(m_emulators.isValid(), qPrintable(m_emulators.error));
    }

    void listenOnLoopbackOnly()
    {
        QVERIFY(QHostAddress(m_emulators.host).isLoopback());
        for (int port : {m_emulators.blobPort, m_emulators.queuePort, m_emulators.tablePort,
                         m_emulators.dynamoPort})
            QVERIFY(port > 0 && port < 65536);
    }

    void azuriteRefusesAnUnsignedRequest_data()
    {
        QTest::addColumn<QUrl>("endpoint");
        QTest::newRow("blob") << m_emulators.blobEndpoint();
        QTest::newRow("queue") << m_emulators.queueEndpoint();
    }

    void azuriteRefusesAnUnsignedRequest()
    {
        QFETCH(QUrl, endpoint);
        endpoint.setQuery(QStringLiteral("comp=list"));
        QNetworkRequest request(endpoint);
        request.setRawHeader("x-ms-version", "2021-12-02");
        const Answer a = send(request, "GET");
        QCOMPARE(a.status, 403);
        QVERIFY(!a.header("x-ms-request-id").isEmpty());
        QVERIFY2(!a.header("x-ms-error-code").isEmpty(), a.body.constData());
    }

    void azuriteRunsStrict()
    {
        // A newer API version than Azurite knows is refused unless --skipApiVersionCheck is on.
        QUrl endpoint = m_emulators.blobEndpoint();
        endpoint.setQuery(QStringLiteral("comp=list"));
        QNetworkRequest request(endpoint);
        request.setRawHeader("x-ms-version", "2099-01-01");
        const Answer a = send(request, "GET");
        QCOMPARE(a.status, 400);
        QCOMPARE(a.header("x-ms-error-code"), QByteArray("InvalidHeaderValue"));
    }

    void dynaliteAnswersListTables()
    {
        QNetworkRequest request(m_emulators.dynamoEndpoint());
        request.setRawHeader("Content-Type", "application/x-amz-json-1.0");
        request.setRawHeader("X-Amz-Target", "DynamoDB_20120810.ListTables");
        request.setRawHeader("X-Amz-Date", "20261130T034811Z");
        request.setRawHeader("Authorization",
                             "AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1/dynamodb/"
                             "aws4_request, SignedHeaders=content-type;host;x-amz-date;"
                             "x-amz-target, Signature=00");
        const Answer a = send(request, "POST", "{}");
        QCOMPARE(a.status, 200);
        QVERIFY(a.body.contains("\"TableNames\""));
        QVERIFY(!a.header("x-amzn-RequestId").isEmpty());
        QVERIFY(!a.header("x-amz-crc32").isEmpty());
    }
};

QTEST_GUILESS_MAIN(tst_Emulators)
#include "tst_emulators.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "httpresponse.h"

#include <QTest>

using namespace converge;
using Category = BackendError::Category;

class tst_HttpResponse final : public QObject
{
    Q_OBJECT

private slots:
    void toError_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("errorCodeHeader");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("transportError");
        QTest::addColumn<Category>("category");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("message");

        QTest::newRow("azure 409")
            << 409 << QByteArray("ContainerAlreadyExists") << QByteArray("<?xml ...") << 0
            << Category::Conflict << QStringLiteral("ContainerAlreadyExists")
            << QStringLiteral("HTTP 409");
        QTest::newRow("azure 403")
            << 403 << QByteArray("AuthorizationFailure") << QByteArray() << 0
            << Category::Unauthorized << QStringLiteral("AuthorizationFailure")
            << QStringLiteral("HTTP 403");
        QTest::newRow("dynamodb 400")
            << 400 << QByteArray()
            << QByteArray(
                   R"({"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",)"
                   R"("message":"Requested resource not found"})")
            << 0 << Category::Invalid << QStringLiteral("ResourceNotFoundException")
            << QStringLiteral("Requested resource not found");
        QTest::newRow("no answer: refused")
            << 0 << QByteArray() << QByteArray() << int(QNetworkReply::ConnectionRefusedError)
            << Category::Transient << QStringLiteral("ConnectionRefused")
            << QStringLiteral("Connection refused");
        QTest::newRow("no answer: TLS")
            << 0 << QByteArray() << QByteArray() << int(QNetworkReply::SslHandshakeFailedError)
            << Category::Terminal << QStringLiteral("TlsHandshakeFailed")
            << QStringLiteral("Connection refused");
    }

    void toError()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, errorCodeHeader);
        QFETCH(QByteArray, body);
        QFETCH(int, transportError);
        QFETCH(Category, category);
        QFETCH(QString, code);
        QFETCH(QString, message);

        HttpResponse response;
        response.status = status;
        if (!errorCodeHeader.isEmpty())
            response.headers.append(qMakePair(QByteArray("x-ms-error-code"), errorCodeHeader));
        response.body = body;
        response.transportError = QNetworkReply::NetworkError(transportError);
        response.transportErrorString = QStringLiteral("Connection refused");
        response.requestId = QStringLiteral("req-1");
        QVERIFY(!response.isSuccess());
        const BackendError error = response.toError();
        QCOMPARE(error.category, category);
        QCOMPARE(error.code, code);
        QCOMPARE(error.message, message);
        QCOMPARE(error.httpStatus, status);
        QCOMPARE(error.requestId, QStringLiteral("req-1"));
    }

    void clientErrorWins()
    {
        HttpResponse response;
        response.status = 200;
        BackendError refusal;
        refusal.category = Category::Terminal;
        refusal.code = QStringLiteral("ResponseTooLarge");
        response.clientError = refusal;
        response.requestId = QStringLiteral("req-2");
        QVERIFY(!response.isSuccess());
        QCOMPARE(response.toError().code, QStringLiteral("ResponseTooLarge"));
        QCOMPARE(response.toError().requestId, QStringLiteral("req-2"));
    }

    void successIs2xxOnly()
    {
        HttpResponse response;
        for (int status : {200, 201, 204})
            QVERIFY((response.status = status, response.isSuccess()));
        for (int status : {0, 199, 304, 404})
            QVERIFY((response.status = status, !response.isSuccess()));
        response.status = 200;
        response.headers.append(qMakePair(QByteArray("X-Ms-Request-Id"), QByteArray("abc")));
        QCOMPARE(response.header("x-ms-request-id"), QByteArray("abc"));
    }
};

QTEST_GUILESS_MAIN(tst_HttpResponse)
#include "tst_httpresponse.moc"

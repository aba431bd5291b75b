// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Azure Storage error answers → BackendError categories, codes and messages.
#include "azureerrormapper.h"

#include <QTest>

using namespace converge;
using Category = BackendError::Category;

Q_DECLARE_METATYPE(converge::BackendError::Category)

class tst_AzureErrorMapper final : public QObject
{
    Q_OBJECT

private:
    static HttpResponse answer(int status, const QByteArray &code, const QByteArray &body)
    {
        HttpResponse r;
        r.status = status;
        r.body = body;
        r.requestId = QStringLiteral("req-1");
        r.headers.append({QByteArrayLiteral("x-ms-request-id"), QByteArrayLiteral("req-1")});
        if (!code.isEmpty())
            r.headers.append({QByteArrayLiteral("x-ms-error-code"), code});
        return r;
    }

    static QByteArray xml(const char *code, const char *message)
    {
        return QByteArrayLiteral(
                   "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>") +
               code + "</Code><Message>" + message +
               "\nRequestId:req-1\nTime:2026-11-30T12:00:00.0000000Z</Message>"
               "<AuthenticationErrorDetail>The MAC signature found in the HTTP request "
               "'c2VjcmV0' is not the same</AuthenticationErrorDetail></Error>";
    }

private slots:
    void maps_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("headerCode");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<Category>("category");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("message");

        QTest::newRow("container exists")
            << 409 << QByteArray("ContainerAlreadyExists")
            << xml("ContainerAlreadyExists", "The specified container already exists.")
            << Category::Conflict << "ContainerAlreadyExists"
            << "The specified container already exists.";
        QTest::newRow("queue exists, code only in the body")
            << 409 << QByteArray() << xml("QueueAlreadyExists", "The specified queue exists.")
            << Category::Conflict << "QueueAlreadyExists"
            << "The specified queue exists.";
        QTest::newRow("being deleted")
            << 409 << QByteArray("ContainerBeingDeleted")
            << xml("ContainerBeingDeleted", "The specified container is being deleted.")
            << Category::Conflict << "ContainerBeingDeleted"
            << "The specified container is being deleted.";
        QTest::newRow("queue being deleted")
            << 409 << QByteArray("QueueBeingDeleted") << QByteArray() << Category::Conflict
            << "QueueBeingDeleted"
            << "HTTP 409";
        QTest::newRow("wrong key (Azure)")
            << 403 << QByteArray("AuthenticationFailed")
            << xml("AuthenticationFailed", "Server failed to authenticate the request.")
            << Category::Unauthorized << "AuthenticationFailed"
            << "Server failed to authenticate the request.";
        QTest::newRow("wrong key (Azurite)")
            << 403 << QByteArray("AuthorizationFailure")
            << xml("AuthorizationFailure", "Server failed to authorize the request.")
            << Category::Unauthorized << "AuthorizationFailure"
            << "Server failed to authorize the request.";
        QTest::newRow("403 with an unknown code")
            << 403 << QByteArray("SomethingNew") << QByteArray() << Category::Unauthorized
            << "SomethingNew"
            << "HTTP 403";
        QTest::newRow("bad name") << 400 << QByteArray("InvalidResourceName")
                                  << xml("InvalidResourceName", "The specifed resource name "
                                                                "contains invalid characters.")
                                  << Category::Invalid << "InvalidResourceName"
                                  << "The specifed resource name contains invalid characters.";
        QTest::newRow("out of range") << 400 << QByteArray("OutOfRangeInput") << QByteArray()
                                      << Category::Invalid << "OutOfRangeInput"
                                      << "HTTP 400";
        QTest::newRow("header value") << 400 << QByteArray("InvalidHeaderValue") << QByteArray()
                                      << Category::Invalid << "InvalidHeaderValue"
                                      << "HTTP 400";
        QTest::newRow("query value")
            << 400 << QByteArray("InvalidQueryParameterValue") << QByteArray() << Category::Invalid
            << "InvalidQueryParameterValue"
            << "HTTP 400";
        QTest::newRow("not found, HEAD without body")
            << 404 << QByteArray("BlobNotFound") << QByteArray() << Category::NotFound
            << "BlobNotFound"
            << "HTTP 404";
        QTest::newRow("404 with an unknown code")
            << 404 << QByteArray("ResourceNotFound") << QByteArray() << Category::NotFound
            << "ResourceNotFound"
            << "HTTP 404";
        QTest::newRow("server busy") << 503 << QByteArray("ServerBusy") << QByteArray()
                                     << Category::Throttled << "ServerBusy"
                                     << "HTTP 503";
        QTest::newRow("operation timed out")
            << 500 << QByteArray("OperationTimedOut") << QByteArray() << Category::Transient
            << "OperationTimedOut"
            << "HTTP 500";
        QTest::newRow("internal error") << 500 << QByteArray("InternalError") << QByteArray()
                                        << Category::Transient << "InternalError"
                                        << "HTTP 500";
        QTest::newRow("lease conflict") << 412 << QByteArray("LeaseIdMissing") << QByteArray()
                                        << Category::Conflict << "LeaseIdMissing"
                                        << "HTTP 412";
        QTest::newRow("table JSON error")
            << 409 << QByteArray()
            << QByteArray(R"({"odata.error":{"code":"TableAlreadyExists","message":{"lang":)"
                          R"("en-US","value":"The table specified already exists.\nRequestId:)"
                          R"(x\nTime:y"}}})")
            << Category::Conflict << "TableAlreadyExists"
            << "The table specified already exists.";
        QTest::newRow("table JSON, plain message")
            << 400 << QByteArray()
            << QByteArray(R"({"odata.error":{"code":"OutOfRangeInput","message":"Bad name"}})")
            << Category::Invalid << "OutOfRangeInput"
            << "Bad name";
        QTest::newRow("header wins over body") << 409 << QByteArray("ContainerBeingDeleted")
                                               << xml("ContainerAlreadyExists", "Something.")
                                               << Category::Conflict << "ContainerBeingDeleted"
                                               << "Something.";
    }

    void maps()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, headerCode);
        QFETCH(QByteArray, body);
        QFETCH(Category, category);
        QFETCH(QString, code);
        QFETCH(QString, message);
        const BackendError e = AzureErrorMapper::map(answer(status, headerCode, body));
        QCOMPARE(e.category, category);
        QCOMPARE(e.code, code);
        QCOMPARE(e.message, message);
        QCOMPARE(e.httpStatus, status);
        QCOMPARE(e.requestId, QStringLiteral("req-1"));
        QVERIFY(!e.message.contains(QLatin1String("c2VjcmV0"))); // AuthenticationErrorDetail
    }

    void garbageGivesAClearError_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("hint");
        QTest::newRow("html") << QByteArray("<html><body>Bad gateway</body></html>")
                              << "without an <Error>";
        QTest::newRow("cut XML") << QByteArray("<?xml version=\"1.0\"?><Error><Co")
                                 << "malformed XML";
        QTest::newRow("not JSON") << QByteArray("{\"odata.error\": ") << "malformed JSON";
        QTest::newRow("JSON array") << QByteArray("[1,2]") << "neither XML nor JSON";
        QTest::newRow("other JSON") << QByteArray("{\"x\": 1}") << "without \"odata.error\"";
        QTest::newRow("binary") << QByteArray("\x00\xff\xfe garbage", 11) << "neither XML nor JSON";
        QTest::newRow("odd types")
            << QByteArray(R"({"odata.error":{"code":42,"message":{"value":[1]}}})") << "HTTP 502";
    }

    void garbageGivesAClearError()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, hint);
        const BackendError e = AzureErrorMapper::map(answer(502, QByteArray(), body));
        QCOMPARE(e.category, Category::Transient);
        QVERIFY2(e.message.contains(hint), qPrintable(e.message));
        QVERIFY(e.message.startsWith(QLatin1String("HTTP 502")));
    }

    void transportAndClientErrorsPassThrough()
    {
        HttpResponse refused;
        refused.clientError = BackendError{Category::Invalid,
                                           QStringLiteral("InsecureHttp"),
                                           0,
                                           QStringLiteral("refusing"),
                                           QString(),
                                           {}};
        QCOMPARE(AzureErrorMapper::map(refused).code, QStringLiteral("InsecureHttp"));
        HttpResponse down;
        down.transportError = QNetworkReply::ConnectionRefusedError;
        down.transportErrorString = QStringLiteral("Connection refused");
        const BackendError e = AzureErrorMapper::map(down);
        QCOMPARE(e.category, Category::Transient);
        QCOMPARE(e.code, QStringLiteral("ConnectionRefused"));
    }

    void alreadyExists()
    {
        QVERIFY(AzureErrorMapper::isAlreadyExists(
            AzureErrorMapper::map(answer(409, "TableAlreadyExists", {}))));
        QVERIFY(!AzureErrorMapper::isAlreadyExists(
            AzureErrorMapper::map(answer(409, "ContainerBeingDeleted", {}))));
    }
};

QTEST_GUILESS_MAIN(tst_AzureErrorMapper)
#include "tst_azureerrormapper.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awserrormapper.h"

#include "crc32.h"
#include "httpresponse.h"
#include "redactor.h"

#include <QTest>

using namespace converge;
using Category = BackendError::Category;

Q_DECLARE_METATYPE(BackendError::Category)

namespace {

HttpResponse answer(int status, const QByteArray &body, bool withCrc = true)
{
    HttpResponse r;
    r.status = status;
    r.body = body;
    r.requestId = QStringLiteral("REQ123");
    r.headers.append({QByteArrayLiteral("x-amzn-RequestId"), QByteArrayLiteral("REQ123")});
    if (withCrc)
        r.headers.append({QByteArrayLiteral("x-amz-crc32"), QByteArray::number(Crc32::of(body))});
    return r;
}

QByteArray errorBody(const char *type, const char *message = "went wrong")
{
    return QByteArrayLiteral("{\"__type\":\"") + type + QByteArrayLiteral("\",\"message\":\"") +
           message + QByteArrayLiteral("\"}");
}

} // namespace

class tst_AwsErrorMapper final : public QObject
{
    Q_OBJECT

private slots:
    void errorCode_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("code");
        QTest::newRow("dynamodb") << "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException"
                                  << "ResourceNotFoundException";
        QTest::newRow("coral") << "com.amazon.coral.validate#ValidationException"
                               << "ValidationException";
        QTest::newRow("bare") << "ThrottlingException"
                              << "ThrottlingException";
        QTest::newRow("header form") << "AccessDeniedException:http://internal.amazon.com/coral/"
                                     << "AccessDeniedException";
        QTest::newRow("empty") << ""
                               << "";
        QTest::newRow("only hash") << "#"
                                   << "";
    }
    void errorCode()
    {
        QFETCH(QString, type);
        QFETCH(QString, code);
        QCOMPARE(AwsErrorMapper::errorCode(type), code);
    }

    void categoryFor_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<int>("status");
        QTest::addColumn<Category>("category");
        QTest::newRow("in use") << "ResourceInUseException" << 400 << Category::Conflict;
        QTest::newRow("not found") << "ResourceNotFoundException" << 400 << Category::NotFound;
        QTest::newRow("validation") << "ValidationException" << 400 << Category::Invalid;
        QTest::newRow("serialization") << "SerializationException" << 400 << Category::Invalid;
        QTest::newRow("throttling") << "ThrottlingException" << 400 << Category::Throttled;
        QTest::newRow("throughput")
            << "ProvisionedThroughputExceededException" << 400 << Category::Throttled;
        QTest::newRow("limit") << "LimitExceededException" << 400 << Category::Throttled;
        QTest::newRow("request limit") << "RequestLimitExceeded" << 400 << Category::Throttled;
        QTest::newRow("unrecognized client")
            << "UnrecognizedClientException" << 400 << Category::Unauthorized;
        QTest::newRow("signature") << "InvalidSignatureException" << 400 << Category::Unauthorized;
        QTest::newRow("access denied") << "AccessDeniedException" << 400 << Category::Unauthorized;
        QTest::newRow("missing token")
            << "MissingAuthenticationTokenException" << 403 << Category::Unauthorized;
        QTest::newRow("expired token") << "ExpiredTokenException" << 400 << Category::Unauthorized;
        QTest::newRow("internal") << "InternalServerError" << 500 << Category::Transient;
        QTest::newRow("unavailable 503") << "ServiceUnavailable" << 503 << Category::Transient;
        QTest::newRow("unknown 503") << "" << 503 << Category::Transient;
        QTest::newRow("unknown 502") << "Whatever" << 502 << Category::Transient;
        QTest::newRow("unknown 400") << "BrandNewException" << 400 << Category::Invalid;
        QTest::newRow("unknown 403") << "" << 403 << Category::Unauthorized;
        QTest::newRow("unknown 404") << "" << 404 << Category::NotFound;
        QTest::newRow("unknown 429") << "" << 429 << Category::Throttled;
    }
    void categoryFor()
    {
        QFETCH(QString, code);
        QFETCH(int, status);
        QFETCH(Category, category);
        QCOMPARE(AwsErrorMapper::categoryFor(code, status), category);
    }

    void crcMatches_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<bool>("matches");
        QTest::newRow("right") << QByteArray("{\"TableNames\":[]}") << QByteArray("1315925753")
                               << true;
        QTest::newRow("padded") << QByteArray("{\"TableNames\":[]}") << QByteArray(" 1315925753 ")
                                << true;
        QTest::newRow("wrong") << QByteArray("{\"TableNames\":[]}") << QByteArray("1315925754")
                               << false;
        QTest::newRow("one bit flipped")
            << QByteArray("{\"TableNames\":[]]") << QByteArray("1315925753") << false;
        QTest::newRow("absent") << QByteArray("anything") << QByteArray() << true;
        QTest::newRow("empty body") << QByteArray() << QByteArray("0") << true;
        QTest::newRow("hex is not decimal")
            << QByteArray("123456789") << QByteArray("CBF43926") << false;
        QTest::newRow("negative") << QByteArray() << QByteArray("-1") << false;
        QTest::newRow("too large") << QByteArray() << QByteArray("4294967296") << false;
        QTest::newRow("garbage") << QByteArray() << QByteArray("x1") << false;
    }
    void crcMatches()
    {
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, header);
        QFETCH(bool, matches);
        QCOMPARE(AwsErrorMapper::crcMatches(body, header), matches);
    }

    void successWithIntactBodyIsNoError()
    {
        const Redactor redactor;
        QVERIFY(!AwsErrorMapper::errorFor(answer(200, "{\"TableNames\":[]}"),
                                          QStringLiteral("ListTables"), redactor));
        QVERIFY(!AwsErrorMapper::errorFor(answer(200, "{}", false), QStringLiteral("ListTables"),
                                          redactor));
    }

    void corruptedBodyIsTransient()
    {
        HttpResponse r = answer(200, "{\"TableNames\":[\"a\"]}");
        r.body[5] = 'X'; // one byte changed after the server computed the header
        const auto error = AwsErrorMapper::errorFor(r, QStringLiteral("ListTables"), Redactor());
        QVERIFY(error);
        QCOMPARE(error->category, Category::Transient);
        QCOMPARE(error->code, QStringLiteral("Crc32Mismatch"));
        QVERIFY(error->message.contains(QStringLiteral("corrupted in transit")));
        QCOMPARE(error->requestId, QStringLiteral("REQ123"));
        QVERIFY(error->isRetriable());
    }

    void corruptedErrorBodyIsTransientToo()
    {
        HttpResponse r = answer(400, errorBody("x#ValidationException"));
        r.body.chop(1);
        const auto error = AwsErrorMapper::errorFor(r, QStringLiteral("CreateTable"), Redactor());
        QVERIFY(error);
        QCOMPARE(error->code, QStringLiteral("Crc32Mismatch"));
    }

    void errorBodies_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<Category>("category");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("not found")
            << 400
            << errorBody("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
                         "Requested resource not found: Table: t not found")
            << Category::NotFound << "ResourceNotFoundException"
            << "Table: t not found";
        QTest::newRow("query protocol XML (SNS)")
            << 404
            << QByteArray("<ErrorResponse><Error><Type>Sender</Type><Code>NotFound</Code>"
                          "<Message>Topic does not exist</Message></Error>"
                          "<RequestId>r</RequestId></ErrorResponse>")
            << Category::NotFound << "NotFound"
            << "Topic does not exist";
        QTest::newRow("bad signature in XML (moto, any service)")
            << 403
            << QByteArray("<?xml version=\"1.0\"?><Error><Code>SignatureDoesNotMatch</Code>"
                          "<Message>The request signature we calculated does not match"
                          "</Message></Error>")
            << Category::Unauthorized << "SignatureDoesNotMatch"
            << "signature we calculated";
        QTest::newRow("in use, empty message (dynalite)")
            << 400 << errorBody("com.amazonaws.dynamodb.v20120810#ResourceInUseException", "")
            << Category::Conflict << "ResourceInUseException"
            << "CreateTable failed with ResourceInUseException";
        QTest::newRow("Message capitalized")
            << 400
            << QByteArray("{\"__type\":\"com.amazon.coral.service#UnrecognizedClientException\","
                          "\"Message\":\"The security token is invalid.\"}")
            << Category::Unauthorized << "UnrecognizedClientException"
            << "The security token is invalid.";
        // Too many operations at once passes; the account's table quota does not.
        QTest::newRow("limit: operations at once")
            << 400
            << errorBody("com.amazonaws.dynamodb.v20120810#LimitExceededException",
                         "Subscriber limit exceeded: Only 500 tables can be created, updated, "
                         "or deleted simultaneously")
            << Category::Throttled << "LimitExceededException"
            << "simultaneously";
        QTest::newRow("limit: table quota")
            << 400
            << errorBody("com.amazonaws.dynamodb.v20120810#LimitExceededException",
                         "Subscriber limit exceeded: the number of tables in the account has "
                         "reached its quota of 2500")
            << Category::Terminal << "LimitExceededException"
            << "table quota is reached";
        QTest::newRow("no message") << 400
                                    << QByteArray("{\"__type\":\"com.amazon.coral.service#"
                                                  "SerializationException\"}")
                                    << Category::Invalid << "SerializationException"
                                    << "CreateTable failed with SerializationException";
        QTest::newRow("garbage 400") << 400 << QByteArray("<html>oops") << Category::Invalid << ""
                                     << "unreadable error body";
        QTest::newRow("binary 500")
            << 500 << QByteArray("\x00\xff\x13", 3) << Category::Transient << ""
            << "HTTP 500";
        QTest::newRow("empty 503") << 503 << QByteArray() << Category::Transient << ""
                                   << "HTTP 503";
        // A HEAD answer has no body: the refusal still says what refused it.
        QTest::newRow("empty 403 (HEAD)")
            << 403 << QByteArray() << Category::Unauthorized << "AccessDenied"
            << "was refused (HTTP 403; the answer carries no reason): the credential's "
               "permissions or the bucket's policy deny it";
        QTest::newRow("json array") << 400 << QByteArray("[1,2]") << Category::Invalid << ""
                                    << "unreadable error body";
        QTest::newRow("type not a string")
            << 400 << QByteArray("{\"__type\":42}") << Category::Invalid << ""
            << "HTTP 400";
        QTest::newRow("deeply nested garbage")
            << 400 << QByteArray(10000, '[') << Category::Invalid << ""
            << "unreadable";
    }
    void errorBodies()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(Category, category);
        QFETCH(QString, code);
        QFETCH(QString, messagePart);
        const auto error = AwsErrorMapper::errorFor(answer(status, body),
                                                    QStringLiteral("CreateTable"), Redactor());
        QVERIFY(error);
        QCOMPARE(error->category, category);
        QCOMPARE(error->code, code);
        QCOMPARE(error->httpStatus, status);
        QVERIFY2(error->message.contains(messagePart), qPrintable(error->message));
        QCOMPARE(error->requestId, QStringLiteral("REQ123"));
    }

    void codeFromHeaderWhenBodyHasNone()
    {
        HttpResponse r = answer(400, "{}");
        r.headers.append({QByteArrayLiteral("x-amzn-ErrorType"),
                          QByteArrayLiteral("AccessDeniedException:http://internal/")});
        const auto error = AwsErrorMapper::errorFor(r, QStringLiteral("ListTables"), Redactor());
        QVERIFY(error);
        QCOMPARE(error->code, QStringLiteral("AccessDeniedException"));
        QCOMPARE(error->category, Category::Unauthorized);
    }

    void secretsAreRedacted()
    {
        const QString secret = QStringLiteral("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
        Redactor redactor;
        redactor.addSecret(secret);
        const QByteArray body =
            errorBody("com.amazon.coral.service#InvalidSignatureException",
                      "The request signature we calculated does not match. key "
                      "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY Authorization: AWS4-HMAC-SHA256 x");
        const auto error =
            AwsErrorMapper::errorFor(answer(400, body), QStringLiteral("ListTables"), redactor);
        QVERIFY(error);
        QCOMPARE(error->category, Category::Unauthorized);
        QVERIFY(!error->message.contains(secret));
        QVERIFY(!error->message.contains(QStringLiteral("AWS4-HMAC-SHA256")));
        QVERIFY(error->message.contains(Redactor::mask()));
    }

    void noAnswerKeepsTheClientError()
    {
        HttpResponse r;
        r.transportError = QNetworkReply::ConnectionRefusedError;
        r.transportErrorString = QStringLiteral("Connection refused");
        const auto refused = AwsErrorMapper::errorFor(r, QStringLiteral("ListTables"), Redactor());
        QVERIFY(refused);
        QCOMPARE(refused->category, Category::Transient);
        QCOMPARE(refused->httpStatus, 0);

        HttpResponse insecure;
        BackendError refusal;
        refusal.category = Category::Invalid;
        refusal.code = QStringLiteral("InsecureHttp");
        insecure.clientError = refusal;
        const auto error =
            AwsErrorMapper::errorFor(insecure, QStringLiteral("ListTables"), Redactor());
        QVERIFY(error);
        QCOMPARE(error->code, QStringLiteral("InsecureHttp"));
    }
};

QTEST_GUILESS_MAIN(tst_AwsErrorMapper)
#include "tst_awserrormapper.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// AWS's rest-json protocol from Lambda's model (the operations and shapes as
// `scripts/kinds/generate.py --operations … lambda` carries them, tests/data/rest/lambda.json):
// each operation's method, path, query and body as botocore builds them, answers read into the
// output shapes (header and status members too), errors mapped, and what the client sends,
// signed, to a local server.
#include "awserrormapper.h"
#include "awsrestjson.h"
#include "awsrestjsonclient.h"
#include "httpclient.h"
#include "redactor.h"
#include "testhttpserver.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace converge;

namespace {

AwsRestJson::Model lambdaModel()
{
    QFile file(qEnvironmentVariable("CONVERGE_TEST_DATA") + QStringLiteral("/rest/lambda.json"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("no tests/data/rest/lambda.json (is CONVERGE_TEST_DATA set?)");
    const QJsonObject model = QJsonDocument::fromJson(file.readAll()).object();
    return {model.value(QStringLiteral("operations")).toObject(),
            model.value(QStringLiteral("shapes")).toObject()};
}

/// JSON written with ' for " (moc reads no raw strings).
QJsonObject restJsonText(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text).replace('\'', '"')).object();
}

/// A made-up operation with a greedy label, a header, a status member and a payload.
AwsRestJson::Model restJsonMadeUp()
{
    return {restJsonText("{'Put': {'method': 'PUT', 'requestUri': '/v1/{Name}/files/{Path+}',"
                         "  'input': 'PutIn', 'output': 'PutOut'}}"),
            restJsonText("{'PutIn': {'type': 'structure', 'payload': 'Doc', 'members': {"
                         "  'Name': {'shape': 'S', 'location': 'uri', 'locationName': 'Name'},"
                         "  'Path': {'shape': 'S', 'location': 'uri', 'locationName': 'Path'},"
                         "  'Flag': {'shape': 'B', 'location': 'header', 'locationName': 'x-flag'},"
                         "  'Doc': {'shape': 'D'}}},"
                         " 'D': {'type': 'structure', 'members': {'Wire': {'shape': 'S',"
                         "  'locationName': 'wire'}}},"
                         " 'PutOut': {'type': 'structure', 'members': {"
                         "  'Status': {'shape': 'I', 'location': 'statusCode'},"
                         "  'Etag': {'shape': 'S', 'location': 'header', 'locationName': 'ETag'},"
                         "  'Size': {'shape': 'I', 'location': 'header', 'locationName': 'x-size'},"
                         "  'Items': {'shape': 'L'}}},"
                         " 'L': {'type': 'list', 'member': {'shape': 'D'}},"
                         " 'S': {'type': 'string'}, 'B': {'type': 'boolean'},"
                         " 'I': {'type': 'integer'}}")};
}

} // namespace

class tst_AwsRestJson : public QObject
{
    Q_OBJECT

private slots:
    void requests_data()
    {
        QTest::addColumn<QString>("operation");
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("query");
        QTest::addColumn<QByteArray>("body"); // JSON, compared as JSON; "" for none
        QTest::newRow("CreateFunction")
            << QStringLiteral("CreateFunction")
            << QByteArray("{'FunctionName': 'f1', 'Runtime': 'python3.12', 'Role': 'arn:r',"
                          " 'Handler': 'app.handler', 'Code': {'ZipFile': 'UEsFBg=='},"
                          " 'MemorySize': 256, 'Timeout': 30, 'Architectures': ['arm64'],"
                          " 'Environment': {'Variables': {'A': '1'}}, 'Tags': {'team': 'x'}}")
            << QByteArray("POST") << QStringLiteral("/2015-03-31/functions") << QString()
            << QByteArray("{'FunctionName': 'f1', 'Runtime': 'python3.12', 'Role': 'arn:r',"
                          " 'Handler': 'app.handler', 'Code': {'ZipFile': 'UEsFBg=='},"
                          " 'MemorySize': 256, 'Timeout': 30, 'Architectures': ['arm64'],"
                          " 'Environment': {'Variables': {'A': '1'}}, 'Tags': {'team': 'x'}}");
        QTest::newRow("GetFunction")
            << QStringLiteral("GetFunction") << QByteArray("{'FunctionName': 'f1'}")
            << QByteArray("GET") << QStringLiteral("/2015-03-31/functions/f1") << QString()
            << QByteArray();
        QTest::newRow("GetFunction qualified")
            << QStringLiteral("GetFunction")
            << QByteArray("{'FunctionName': 'f1', 'Qualifier': '$LATEST'}") << QByteArray("GET")
            << QStringLiteral("/2015-03-31/functions/f1") << QStringLiteral("Qualifier=%24LATEST")
            << QByteArray();
        QTest::newRow("UpdateFunctionCode")
            << QStringLiteral("UpdateFunctionCode")
            << QByteArray("{'FunctionName': 'f1', 'S3Bucket': 'b', 'S3Key': 'k.zip'}")
            << QByteArray("PUT") << QStringLiteral("/2015-03-31/functions/f1/code") << QString()
            << QByteArray("{'S3Bucket': 'b', 'S3Key': 'k.zip'}");
        QTest::newRow("UpdateFunctionConfiguration")
            << QStringLiteral("UpdateFunctionConfiguration")
            << QByteArray("{'FunctionName': 'f1', 'Timeout': 9}") << QByteArray("PUT")
            << QStringLiteral("/2015-03-31/functions/f1/configuration") << QString()
            << QByteArray("{'Timeout': 9}");
        QTest::newRow("DeleteFunction")
            << QStringLiteral("DeleteFunction") << QByteArray("{'FunctionName': 'f1'}")
            << QByteArray("DELETE") << QStringLiteral("/2015-03-31/functions/f1") << QString()
            << QByteArray();
        QTest::newRow("ListFunctions")
            << QStringLiteral("ListFunctions") << QByteArray("{'Marker': 'a b', 'MaxItems': 50}")
            << QByteArray("GET") << QStringLiteral("/2015-03-31/functions")
            << QStringLiteral("Marker=a%20b&MaxItems=50") << QByteArray();
        // An ARN in a label: its ':' stay as they are in the decoded path (QUrl keeps them, and
        // SigV4 encodes them once as AWS does for the path it receives).
        QTest::newRow("TagResource")
            << QStringLiteral("TagResource")
            << QByteArray("{'Resource': 'arn:aws:lambda:eu-west-1:1:function:f1',"
                          " 'Tags': {'a': '1'}}")
            << QByteArray("POST")
            << QStringLiteral("/2017-03-31/tags/arn:aws:lambda:eu-west-1:1:function:f1")
            << QString() << QByteArray("{'Tags': {'a': '1'}}");
        QTest::newRow("UntagResource")
            << QStringLiteral("UntagResource")
            << QByteArray("{'Resource': 'arn:f1', 'TagKeys': ['a', 'b c']}") << QByteArray("DELETE")
            << QStringLiteral("/2017-03-31/tags/arn:f1")
            << QStringLiteral("tagKeys=a&tagKeys=b%20c") << QByteArray();
        QTest::newRow("ListTags") << QStringLiteral("ListTags")
                                  << QByteArray("{'Resource': 'arn:f1'}") << QByteArray("GET")
                                  << QStringLiteral("/2017-03-31/tags/arn:f1") << QString()
                                  << QByteArray();
    }

    void requests()
    {
        QFETCH(QString, operation);
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, method);
        QFETCH(QString, path);
        QFETCH(QString, query);
        QFETCH(QByteArray, body);
        const auto r =
            AwsRestJson::request(lambdaModel(), operation, restJsonText(input.constData()));
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.method, method);
        QCOMPARE(r.path, path);
        QCOMPARE(r.query, query);
        if (body.isEmpty()) {
            QVERIFY(r.body.isEmpty());
        } else {
            QCOMPARE(QJsonDocument::fromJson(r.body).object(), restJsonText(body.constData()));
            QVERIFY(r.headers.contains(
                qMakePair(QByteArray("Content-Type"), QByteArray("application/json"))));
        }
    }

    void refusedInputs()
    {
        // A missing label, a '/' in a plain label, an operation the model does not have.
        QVERIFY(!AwsRestJson::request(lambdaModel(), QStringLiteral("GetFunction"), {})
                     .error.isEmpty());
        QVERIFY(!AwsRestJson::request(lambdaModel(), QStringLiteral("GetFunction"),
                                      restJsonText("{'FunctionName': 'a/b'}"))
                     .error.isEmpty());
        QVERIFY(!AwsRestJson::request(lambdaModel(), QStringLiteral("Invoke"), {}).error.isEmpty());
    }

    void everyLocation()
    {
        const auto r = AwsRestJson::request(
            restJsonMadeUp(), QStringLiteral("Put"),
            restJsonText("{'Name': 'n', 'Path': 'a/b c', 'Flag': true, 'Doc': {'Wire': 'w'}}"));
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.path, QStringLiteral("/v1/n/files/a/b c"));
        QVERIFY(r.headers.contains(qMakePair(QByteArray("x-flag"), QByteArray("true"))));
        QCOMPARE(r.body, QByteArray("{\"wire\":\"w\"}")); // the payload alone, wire-named

        const auto answer = AwsRestJson::read(restJsonMadeUp(), QStringLiteral("Put"), 202,
                                              {{"etag", "\"e1\""}, {"X-Size", "12"}},
                                              "{\"Items\": [{\"wire\": \"x\", \"other\": 1}]}");
        QVERIFY2(answer.parseError.isEmpty(), qPrintable(answer.parseError));
        QCOMPARE(answer.result, restJsonText("{'Status': 202, 'Etag': '\\\"e1\\\"', 'Size': 12,"
                                             " 'Items': [{'Wire': 'x'}]}"));
    }

    void answers()
    {
        const QByteArray get =
            "{\"Configuration\": {\"FunctionName\": \"f1\", \"FunctionArn\": \"arn:f1\","
            " \"Runtime\": \"python3.12\", \"MemorySize\": 128, \"CodeSha256\": \"abc=\","
            " \"State\": \"Active\", \"LastUpdateStatus\": \"InProgress\","
            " \"Environment\": {\"Variables\": {\"A\": \"1\"}}, \"Architectures\": [\"x86_64\"]},"
            " \"Code\": {\"RepositoryType\": \"S3\", \"Location\": \"https://x\"},"
            " \"Tags\": {\"team\": \"x\"}}";
        const auto answer =
            AwsRestJson::read(lambdaModel(), QStringLiteral("GetFunction"), 200, {}, get);
        QVERIFY2(answer.parseError.isEmpty(), qPrintable(answer.parseError));
        const QJsonObject configuration = answer.result[QStringLiteral("Configuration")].toObject();
        QCOMPARE(configuration[QStringLiteral("MemorySize")].toInt(), 128);
        QCOMPARE(configuration[QStringLiteral("CodeSha256")].toString(), QStringLiteral("abc="));
        QCOMPARE(configuration[QStringLiteral("LastUpdateStatus")].toString(),
                 QStringLiteral("InProgress"));
        QCOMPARE(configuration[QStringLiteral("Environment")].toObject(),
                 restJsonText("{'Variables': {'A': '1'}}"));
        QCOMPARE(answer.result[QStringLiteral("Tags")].toObject(), restJsonText("{'team': 'x'}"));

        const auto list = AwsRestJson::read(
            lambdaModel(), QStringLiteral("ListFunctions"), 200, {},
            "{\"Functions\": [{\"FunctionName\": \"a\"}, {\"FunctionName\": \"b\"}],"
            " \"NextMarker\": \"m\"}");
        QCOMPARE(list.result, restJsonText("{'Functions': [{'FunctionName': 'a'},"
                                           " {'FunctionName': 'b'}], 'NextMarker': 'm'}"));
        // TagResource answers 204 and nothing; an operation without output reads as {}.
        QVERIFY(AwsRestJson::read(lambdaModel(), QStringLiteral("TagResource"), 204, {}, {})
                    .result.isEmpty());
        // Not JSON, or not an object: a parse error, never a crash.
        QVERIFY(!AwsRestJson::read(lambdaModel(), QStringLiteral("GetFunction"), 200, {}, "<x/>")
                     .parseError.isEmpty());
        QVERIFY(!AwsRestJson::read(lambdaModel(), QStringLiteral("GetFunction"), 200, {}, "[1]")
                     .parseError.isEmpty());
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("errorType");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::addColumn<int>("category");
        QTest::addColumn<QString>("message");
        using C = BackendError::Category;
        QTest::newRow("header, stripped after ':'")
            << QByteArray("ResourceNotFoundException:http://internal.amazon.com/")
            << QByteArray("{\"Type\": \"User\", \"Message\": \"Function not found: f1\"}") << 404
            << QStringLiteral("ResourceNotFoundException") << int(C::NotFound)
            << QStringLiteral("Function not found: f1");
        QTest::newRow("update in progress")
            << QByteArray("ResourceConflictException")
            << QByteArray("{\"message\": \"An update is in progress\"}") << 409
            << QStringLiteral("ResourceConflictException") << int(C::Conflict)
            << QStringLiteral("An update is in progress");
        QTest::newRow("__type in the body")
            << QByteArray() << QByteArray("{\"__type\": \"TooManyRequestsException\"}") << 429
            << QStringLiteral("TooManyRequestsException") << int(C::Throttled)
            << QStringLiteral("GetFunction failed with "
                              "TooManyRequestsException");
        QTest::newRow("code in the body")
            << QByteArray()
            << QByteArray("{\"code\": \"InvalidParameterValueException\", \"message\": \"bad\"}")
            << 400 << QStringLiteral("InvalidParameterValueException") << int(C::Invalid)
            << QStringLiteral("bad");
        QTest::newRow("Type in the body")
            << QByteArray() << QByteArray("{\"Type\": \"ServiceException\"}") << 500
            << QStringLiteral("ServiceException") << int(C::Transient)
            << QStringLiteral("GetFunction failed with ServiceException");
    }

    void errors()
    {
        QFETCH(QByteArray, errorType);
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, code);
        QFETCH(int, category);
        QFETCH(QString, message);
        HttpResponse response;
        response.status = status;
        response.body = body;
        if (!errorType.isEmpty())
            response.headers.append({QByteArray("x-amzn-ErrorType"), errorType});
        const auto error =
            AwsErrorMapper::errorFor(response, QStringLiteral("GetFunction"), Redactor());
        QVERIFY(error);
        QCOMPARE(error->code, code);
        QCOMPARE(int(error->category), category);
        QCOMPARE(error->message, message);
    }

    // What goes on the wire: the path under the endpoint's, the body, signed for Lambda; the
    // answer's JSON read back; an error answered mapped.
    void theClientSendsSignedAndReads()
    {
        test::TestHttpServer server;
        QVERIFY(server.isListening());
        server.enqueue({201, {}, "{\"FunctionName\": \"f1\", \"State\": \"Pending\"}"});
        server.enqueue({404,
                        {{"x-amzn-ErrorType", "ResourceNotFoundException"}},
                        "{\"Message\": \"Function not found\"}"});
        HttpClient::Options options;
        options.retry.maxRetries = 0;
        HttpClient http(options);
        AwsRestJsonClient client({QStringLiteral("lambda"), lambdaModel()}, &http, server.url(),
                                 QStringLiteral("eu-west-1"),
                                 Credentials::aws(QStringLiteral("AKIATEST"), QStringLiteral("s")));
        QCOMPARE(client.region(), QStringLiteral("eu-west-1"));
        const auto made = client.call(QStringLiteral("CreateFunction"),
                                      restJsonText("{'FunctionName': 'f1', 'Timeout': 3}"));
        QVERIFY2(made, qPrintable(made ? QString() : made.error().toString()));
        QCOMPARE(made.value().body, restJsonText("{'FunctionName': 'f1', 'State': 'Pending'}"));
        const auto missing =
            client.call(QStringLiteral("GetFunction"), restJsonText("{'FunctionName': 'f2'}"));
        QVERIFY(!missing);
        QCOMPARE(missing.error().category, BackendError::Category::NotFound);
        QCOMPARE(missing.error().message, QStringLiteral("Function not found"));

        QCOMPARE(server.received().size(), 2);
        const auto &create = server.received().at(0);
        QCOMPARE(create.method, QByteArray("POST"));
        QCOMPARE(create.target, QByteArray("/2015-03-31/functions"));
        QCOMPARE(QJsonDocument::fromJson(create.body).object(),
                 restJsonText("{'FunctionName': 'f1', 'Timeout': 3}"));
        QCOMPARE(create.header("Content-Type"), QByteArray("application/json"));
        QVERIFY(create.header("Authorization").contains("/eu-west-1/lambda/aws4_request"));
        QCOMPARE(server.received().at(1).target, QByteArray("/2015-03-31/functions/f2"));
        QVERIFY(server.received().at(1).body.isEmpty());
        const QUrl base(QStringLiteral("http://127.0.0.1:9/prefix/"));
        AwsRestJson::Request r;
        r.path = QStringLiteral("/2017-03-31/tags/arn:x");
        r.query = QStringLiteral("tagKeys=a");
        QCOMPARE(AwsRestJsonClient::urlFor(base, r).toString(),
                 QStringLiteral("http://127.0.0.1:9/prefix/2017-03-31/tags/arn:x?tagKeys=a"));
    }
};

QTEST_GUILESS_MAIN(tst_AwsRestJson)
#include "tst_awsrestjson.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The rest-json protocol against a real Lambda API: moto_server, the fixture's shared one, which
// checks no signatures (a moto that checks them refuses Lambda even with the right key,
// ../shared/BACKENDS.md; the requests are signed all the same and tst_awsrestjson checks the
// signature's scope). A function is created from a zip ZipWriter made, its CodeSha256 is the
// archive's SHA-256 as Converge computes it, its configuration and tags change, and its
// deletion reads as not found. What moto cannot check is printed: that the code runs (moto
// invokes through Docker, which these tests do not use) and Lambda's asynchronous states
// (moto's functions are Active at once, with no update in progress).
#include "awsqueryclient.h"
#include "awsrestjsonclient.h"
#include "awstestsupport.h"
#include "zipwriter.h"

#include <QCryptographicHash>
#include <QFile>

using namespace converge;
using namespace converge::test;

class tst_LambdaOnMoto final : public QObject
{
    Q_OBJECT

private:
    Emulators m_emulators;
    HttpClient m_http;
    std::unique_ptr<AwsRestJsonClient> m_lambda;
    QString m_roleArn;

    Outcome<ApiCaller::Reply> lambda(const char *operation, const QJsonObject &input)
    {
        return m_lambda->call(QString::fromLatin1(operation), input);
    }

private slots:
    void initTestCase()
    {
        m_emulators = Emulators::fromEnvironment();
        CONVERGE_REQUIRE_MOTO(m_emulators);
        qInfo("moto_server %s on port %d, signatures not checked (the fixture's moto never checks "
              "them; one that does refuses Lambda even with the right key)",
              qPrintable(m_emulators.motoServer), m_emulators.motoPort);
        qInfo("not checked on moto: that the code runs (moto invokes through Docker), and "
              "Lambda's asynchronous states (Pending, LastUpdateStatus InProgress: moto's "
              "functions are Active at once)");
        QFile file(qEnvironmentVariable("CONVERGE_TEST_DATA") +
                   QStringLiteral("/rest/lambda.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject model = QJsonDocument::fromJson(file.readAll()).object();
        const Credentials key = Credentials::aws(QStringLiteral("AKIACONVERGETEST0001"),
                                                 QStringLiteral("converge-moto-not-real"));
        m_lambda = std::make_unique<AwsRestJsonClient>(
            AwsRestJsonClient::Service{QStringLiteral("lambda"),
                                       {model.value(QStringLiteral("operations")).toObject(),
                                        model.value(QStringLiteral("shapes")).toObject()}},
            &m_http, m_emulators.motoEndpoint(), QStringLiteral("us-east-1"), key);
        // moto's Lambda wants a role its IAM knows.
        AwsQueryClient iam({QStringLiteral("iam"), QStringLiteral("2010-05-08"), {}}, &m_http,
                           m_emulators.motoEndpoint(), QStringLiteral("us-east-1"), key);
        const auto role = iam.call(
            QStringLiteral("CreateRole"),
            QJsonObject{{QStringLiteral("RoleName"), uniqueName(QStringLiteral("lambda"))},
                        {QStringLiteral("AssumeRolePolicyDocument"), QStringLiteral("{}")}});
        QVERIFY2(role, qPrintable(role ? QString() : role.error().toString()));
        m_roleArn = role.value()
                        .body.value(QStringLiteral("Role"))
                        .toObject()
                        .value(QStringLiteral("Arn"))
                        .toString();
        QVERIFY2(m_roleArn.startsWith(QLatin1String("arn:aws:iam::")),
                 qPrintable(QString::fromUtf8(QJsonDocument(role.value().body).toJson())));
    }

    void aFunctionLivesAndDies()
    {
        const QString name = uniqueName(QStringLiteral("fn"));
        const QByteArray zip = ZipWriter::write(
            {{QStringLiteral("app.py"), "def handler(event, context):\n    return 1\n", false}});
        const QString sha = QString::fromLatin1(
            QCryptographicHash::hash(zip, QCryptographicHash::Sha256).toBase64());
        const auto made = lambda(
            "CreateFunction",
            QJsonObject{
                {QStringLiteral("FunctionName"), name},
                {QStringLiteral("Runtime"), QStringLiteral("python3.12")},
                {QStringLiteral("Role"), m_roleArn},
                {QStringLiteral("Handler"), QStringLiteral("app.handler")},
                {QStringLiteral("Code"),
                 QJsonObject{{QStringLiteral("ZipFile"), QString::fromLatin1(zip.toBase64())}}},
                {QStringLiteral("Tags"),
                 QJsonObject{{QStringLiteral("team"), QStringLiteral("a")}}}});
        QVERIFY2(made, qPrintable(made ? QString() : made.error().toString()));
        QCOMPARE(made.value().body.value(QStringLiteral("CodeSha256")).toString(), sha);
        const QString arn = made.value().body.value(QStringLiteral("FunctionArn")).toString();
        QVERIFY(arn.endsWith(name));

        // The same name again: ResourceConflictException, a conflict.
        const auto again =
            lambda("CreateFunction", QJsonObject{{QStringLiteral("FunctionName"), name},
                                                 {QStringLiteral("Role"), m_roleArn},
                                                 {QStringLiteral("Code"), QJsonObject{}}});
        QVERIFY(!again);
        QCOMPARE(again.error().code, QStringLiteral("ResourceConflictException"));
        QCOMPARE(again.error().category, BackendError::Category::Conflict);

        auto read = lambda("GetFunction", QJsonObject{{QStringLiteral("FunctionName"), name}});
        QVERIFY2(read, qPrintable(read ? QString() : read.error().toString()));
        const QJsonObject configuration =
            read.value().body.value(QStringLiteral("Configuration")).toObject();
        QCOMPARE(configuration.value(QStringLiteral("CodeSha256")).toString(), sha);
        QCOMPARE(configuration.value(QStringLiteral("State")).toString(), QStringLiteral("Active"));
        QCOMPARE(read.value().body.value(QStringLiteral("Tags")).toObject(),
                 QJsonObject({{QStringLiteral("team"), QStringLiteral("a")}}));

        const auto changed = lambda(
            "UpdateFunctionConfiguration",
            QJsonObject{
                {QStringLiteral("FunctionName"), name},
                {QStringLiteral("Timeout"), 9},
                {QStringLiteral("Environment"),
                 QJsonObject{{QStringLiteral("Variables"),
                              QJsonObject{{QStringLiteral("MODE"), QStringLiteral("x")}}}}}});
        QVERIFY2(changed, qPrintable(changed ? QString() : changed.error().toString()));
        QCOMPARE(changed.value().body.value(QStringLiteral("Timeout")).toInt(), 9);

        // New code: another archive, another sha.
        const QByteArray zip2 = ZipWriter::write(
            {{QStringLiteral("app.py"), "def handler(event, context):\n    return 2\n", false}});
        const auto code =
            lambda("UpdateFunctionCode",
                   QJsonObject{{QStringLiteral("FunctionName"), name},
                               {QStringLiteral("ZipFile"), QString::fromLatin1(zip2.toBase64())}});
        QVERIFY2(code, qPrintable(code ? QString() : code.error().toString()));
        QCOMPARE(code.value().body.value(QStringLiteral("CodeSha256")).toString(),
                 QString::fromLatin1(
                     QCryptographicHash::hash(zip2, QCryptographicHash::Sha256).toBase64()));

        // Tags by ARN: an ARN in a URI label, a list in the query string.
        QVERIFY(lambda("TagResource",
                       QJsonObject{{QStringLiteral("Resource"), arn},
                                   {QStringLiteral("Tags"),
                                    QJsonObject{{QStringLiteral("env"), QStringLiteral("dev")},
                                                {QStringLiteral("cost"), QStringLiteral("c1")}}}}));
        QVERIFY(lambda("UntagResource",
                       QJsonObject{{QStringLiteral("Resource"), arn},
                                   {QStringLiteral("TagKeys"),
                                    QJsonArray{QStringLiteral("team"), QStringLiteral("cost")}}}));
        const auto tags = lambda("ListTags", QJsonObject{{QStringLiteral("Resource"), arn}});
        QVERIFY2(tags, qPrintable(tags ? QString() : tags.error().toString()));
        QCOMPARE(tags.value().body.value(QStringLiteral("Tags")).toObject(),
                 QJsonObject({{QStringLiteral("env"), QStringLiteral("dev")}}));

        const auto listed = lambda("ListFunctions", QJsonObject{{QStringLiteral("MaxItems"), 50}});
        QVERIFY2(listed, qPrintable(listed ? QString() : listed.error().toString()));
        const QJsonArray functions =
            listed.value().body.value(QStringLiteral("Functions")).toArray();
        QVERIFY(std::any_of(functions.begin(), functions.end(), [&name](const QJsonValue &f) {
            return f[QStringLiteral("FunctionName")].toString() == name;
        }));

        QVERIFY(lambda("DeleteFunction", QJsonObject{{QStringLiteral("FunctionName"), name}}));
        read = lambda("GetFunction", QJsonObject{{QStringLiteral("FunctionName"), name}});
        QVERIFY(!read);
        QCOMPARE(read.error().category, BackendError::Category::NotFound);
        QCOMPARE(read.error().code, QStringLiteral("ResourceNotFoundException"));
    }
};

QTEST_GUILESS_MAIN(tst_LambdaOnMoto)
#include "tst_lambdaonmoto.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// AwsQueryXml: JSON input as the query protocol's form, and its XML answers as JSON.
#include "awsqueryxml.h"

#include <QJsonArray>
#include <QTest>

using namespace converge;

class tst_AwsQueryXml final : public QObject
{
    Q_OBJECT

private slots:
    void formOfListsMapsAndStructures()
    {
        const QJsonObject input{
            {QStringLiteral("Name"), QStringLiteral("orders & refunds")},
            {QStringLiteral("Attributes"),
             QJsonObject{{QStringLiteral("DisplayName"), QStringLiteral("Orders")}}},
            {QStringLiteral("Tags"),
             QJsonArray{QJsonObject{{QStringLiteral("Key"), QStringLiteral("team")},
                                    {QStringLiteral("Value"), QStringLiteral("billing")}}}},
            {QStringLiteral("TagKeys"), QJsonArray{QStringLiteral("a"), QStringLiteral("b")}},
            {QStringLiteral("Enabled"), true},
            {QStringLiteral("Count"), 3},
        };
        const QByteArray form =
            AwsQueryXml::form(QStringLiteral("CreateTopic"), QStringLiteral("2010-03-31"), input,
                              {QStringLiteral("Attributes")});
        const QList<QByteArray> fields = form.split('&');
        QCOMPARE(fields.first(), QByteArray("Action=CreateTopic"));
        QCOMPARE(fields.at(1), QByteArray("Version=2010-03-31"));
        for (const char *expected :
             {"Name=orders%20%26%20refunds", "Attributes.entry.1.key=DisplayName",
              "Attributes.entry.1.value=Orders", "Tags.member.1.Key=team",
              "Tags.member.1.Value=billing", "TagKeys.member.1=a", "TagKeys.member.2=b",
              "Enabled=true", "Count=3"})
            QVERIFY2(fields.contains(QByteArray(expected)), expected);
        // Without being named a map, an object is a structure.
        QVERIFY(AwsQueryXml::form(QStringLiteral("X"), QStringLiteral("1"), input)
                    .contains("Attributes.DisplayName=Orders"));
    }

    void answerAsJson()
    {
        const auto answer = AwsQueryXml::read(
            "<ListTopicsResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\">"
            "<ListTopicsResult><Topics>"
            "<member><TopicArn>arn:aws:sns:us-east-1:1:a</TopicArn></member>"
            "<member><TopicArn>arn:aws:sns:us-east-1:1:b</TopicArn></member>"
            "</Topics><Attributes><entry><key>K</key><value>V</value></entry></Attributes>"
            "<Empty/><Blank>  </Blank><Name>two words</Name></ListTopicsResult>"
            "<ResponseMetadata><RequestId>req-1</RequestId></ResponseMetadata>"
            "</ListTopicsResponse>");
        QVERIFY2(answer.parseError.isEmpty(), qPrintable(answer.parseError));
        QCOMPARE(answer.requestId, QStringLiteral("req-1"));
        const QJsonArray topics = answer.result.value(QStringLiteral("Topics")).toArray();
        QCOMPARE(topics.size(), 2);
        QCOMPARE(topics.at(1)[QStringLiteral("TopicArn")].toString(),
                 QStringLiteral("arn:aws:sns:us-east-1:1:b"));
        QCOMPARE(answer.result.value(QStringLiteral("Attributes"))[QStringLiteral("K")].toString(),
                 QStringLiteral("V"));
        QVERIFY(!answer.result.contains(QStringLiteral("Empty")));
        QVERIFY(!answer.result.contains(QStringLiteral("Blank")));
        QCOMPARE(answer.result.value(QStringLiteral("Name")).toString(),
                 QStringLiteral("two words"));
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("xml");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("query") << QByteArray("<ErrorResponse><Error><Type>Sender</Type>"
                                             "<Code>NotFound</Code><Message>Topic does not "
                                             "exist</Message></Error><RequestId>r</RequestId>"
                                             "</ErrorResponse>")
                               << QStringLiteral("NotFound")
                               << QStringLiteral("Topic does not exist");
        QTest::newRow("bare") << QByteArray("<?xml version=\"1.0\"?><Error><Code>"
                                            "SignatureDoesNotMatch</Code><Message>no</Message>"
                                            "</Error>")
                              << QStringLiteral("SignatureDoesNotMatch") << QStringLiteral("no");
    }

    void errors()
    {
        QFETCH(QByteArray, xml);
        QFETCH(QString, code);
        QFETCH(QString, message);
        const auto answer = AwsQueryXml::read(xml);
        QCOMPARE(answer.errorCode, code);
        QCOMPARE(answer.errorMessage, message);
    }

    void garbageIsAParseError_data()
    {
        QTest::addColumn<QByteArray>("xml");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("json") << QByteArray("{\"a\": 1}");
        QTest::newRow("unclosed") << QByteArray("<A><B>");
        QTest::newRow("deep") << QByteArray("<a>").repeated(200) + QByteArray("</a>").repeated(200);
    }

    void garbageIsAParseError()
    {
        QFETCH(QByteArray, xml);
        QVERIFY(!AwsQueryXml::read(xml).parseError.isEmpty());
    }
};

QTEST_APPLESS_MAIN(tst_AwsQueryXml)
#include "tst_awsqueryxml.moc"

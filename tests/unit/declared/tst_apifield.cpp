// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// ApiField: a declared kind's spec fields to its API's members and back.
#include "apifield.h"
#include "apivalues.h"

#include "declaredmanager.h"

#include <QJsonArray>
#include <QTest>

using namespace converge;

namespace {

QList<ApiField> repositoryFields()
{
    return {
        {QStringLiteral("name"), QStringLiteral("repositoryName"), {}, {}},
        {QStringLiteral("retentionDays"), QStringLiteral("retentionInDays"), {}, {}},
        {QStringLiteral("encryptionConfiguration"),
         QStringLiteral("EncryptionConfiguration"),
         {},
         {{QStringLiteral("kmsKey"), QStringLiteral("KmsKey"), {}, {}},
          {QStringLiteral("encryptionType"), QStringLiteral("EncryptionType"), {}, {}}}},
        {QStringLiteral("rules"),
         QStringLiteral("Rules"),
         QStringLiteral("RuleList"),
         {{QStringLiteral("id"), QStringLiteral("Id"), {}, {}}}},
    };
}

} // namespace

class tst_ApiField final : public QObject
{
    Q_OBJECT

private slots:
    void specToMembersAndBack()
    {
        const QJsonObject spec{
            {QStringLiteral("name"), QStringLiteral("orders")},
            {QStringLiteral("retentionDays"), 7},
            {QStringLiteral("encryptionConfiguration"),
             QJsonObject{{QStringLiteral("encryptionType"), QStringLiteral("KMS")},
                         {QStringLiteral("kmsKey"), QStringLiteral("alias/x")}}},
            {QStringLiteral("rules"), QJsonArray{QJsonObject{{QStringLiteral("id"), 1}}}},
        };
        const QJsonObject api = ApiField::toApi(repositoryFields(), spec);
        QCOMPARE(api.value(QStringLiteral("repositoryName")).toString(), QStringLiteral("orders"));
        QCOMPARE(api.value(QStringLiteral("retentionInDays")).toInt(), 7);
        QCOMPARE(api.value(QStringLiteral("EncryptionConfiguration"))[QStringLiteral("KmsKey")],
                 QJsonValue(QStringLiteral("alias/x")));
        QCOMPARE(api.value(QStringLiteral("Rules"))[0][QStringLiteral("Id")], QJsonValue(1));

        // A read answers `rules` as RuleList: the observed member wins over the input member.
        QJsonObject answer = api;
        answer.insert(QStringLiteral("RuleList"), answer.take(QStringLiteral("Rules")));
        answer.insert(QStringLiteral("repositoryArn"), QStringLiteral("arn:aws:ecr:x"));
        QCOMPARE(ApiField::fromApi(repositoryFields(), answer), spec);
    }

    void onlyTheFieldsACallCarries()
    {
        const QJsonObject spec{{QStringLiteral("name"), QStringLiteral("orders")},
                               {QStringLiteral("retentionDays"), 7}};
        QCOMPARE(ApiField::toApi(repositoryFields(), spec, {QStringLiteral("retentionDays")}),
                 (QJsonObject{{QStringLiteral("retentionInDays"), 7}}));
    }

    void nullAndAbsentAreNotSent()
    {
        const QJsonObject spec{{QStringLiteral("name"), QJsonValue::Null}};
        QVERIFY(ApiField::toApi(repositoryFields(), spec).isEmpty());
    }

    void inputTemplates()
    {
        DeclaredCall call;
        call.input = QJsonObject{{QStringLiteral("logGroupName"), QStringLiteral("$name")},
                                 {QStringLiteral("resourceArn"), QStringLiteral("$id")},
                                 {QStringLiteral("names"), QJsonArray{QStringLiteral("$name")}},
                                 {QStringLiteral("force"), true},
                                 {QStringLiteral("literal"), QStringLiteral("$other")}};
        const QJsonObject input =
            DeclaredManager::input(call, QStringLiteral("app"), QStringLiteral("arn:aws:logs:x"));
        QCOMPARE(input.value(QStringLiteral("logGroupName")).toString(), QStringLiteral("app"));
        QCOMPARE(input.value(QStringLiteral("resourceArn")).toString(),
                 QStringLiteral("arn:aws:logs:x"));
        QCOMPARE(input.value(QStringLiteral("names")).toArray(), QJsonArray{QStringLiteral("app")});
        QCOMPARE(input.value(QStringLiteral("force")).toBool(), true);
        QCOMPARE(input.value(QStringLiteral("literal")).toString(), QStringLiteral("$other"));
    }

    void tagShapes()
    {
        const DeclaredTags::Shape map;
        DeclaredTags::Shape list;
        list.isList = true;
        list.key = QStringLiteral("Key");
        list.value = QStringLiteral("Value");
        const QMap<QString, QString> tags{{QStringLiteral("team"), QStringLiteral("billing")},
                                          {QStringLiteral("env"), QStringLiteral("dev")}};
        const QJsonValue asList = ApiValues::tagValue(tags, list);
        QCOMPARE(asList.toArray().size(), 2);
        QCOMPARE(asList[0][QStringLiteral("Key")].toString(), QStringLiteral("env"));
        QCOMPARE(ApiValues::tagMap(asList, list), tags);
        const QJsonValue asMap = ApiValues::tagValue(tags, map);
        QCOMPARE(asMap[QStringLiteral("team")].toString(), QStringLiteral("billing"));
        QCOMPARE(ApiValues::tagMap(asMap, map), tags);
    }
};

QTEST_APPLESS_MAIN(tst_ApiField)
#include "tst_apifield.moc"

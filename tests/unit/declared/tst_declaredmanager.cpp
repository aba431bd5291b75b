// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The generic Manager's irregular parts one at a time, over a scripted ApiCaller (the kinds
// themselves run against moto in tst_declaredkinds): documents compared as documents, fields
// AWS never answers, and IAM's policy versions hook.
#include "declarationreader.h"
#include "declaredmanager.h"
#include "iampolicyversions.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <QUrl>

#include <functional>

using namespace converge;

namespace {

/// Answers each operation as its script says and keeps every call.
class ScriptedCaller final : public ApiCaller
{
public:
    using Script = std::function<Outcome<Reply>(const QJsonObject &input)>;
    QMap<QString, Script> scripts;
    QList<QPair<QString, QJsonObject>> calls;

    Outcome<Reply> call(const QString &operation, const QJsonObject &input) override
    {
        calls.append({operation, input});
        if (const auto script = scripts.constFind(operation); script != scripts.cend())
            return (*script)(input);
        return Reply{};
    }
    QStringList operations() const
    {
        QStringList out;
        for (const auto &c : calls)
            out << c.first;
        return out;
    }
};

ApiCaller::Reply answer(const QJsonObject &body)
{
    return ApiCaller::Reply{body, QStringLiteral("r1")};
}

/// A kind of a made-up service: a name, a document and a field never answered.
KindDeclaration thing()
{
    const QJsonObject kind{
        {QStringLiteral("kind"), QStringLiteral("Thing")},
        {QStringLiteral("nameField"), QStringLiteral("name")},
        {QStringLiteral("nameMember"), QStringLiteral("Name")},
        {QStringLiteral("fields"),
         QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("name")},
                                {QStringLiteral("member"), QStringLiteral("Name")},
                                {QStringLiteral("type"), QStringLiteral("string")}},
                    QJsonObject{{QStringLiteral("name"), QStringLiteral("document")},
                                {QStringLiteral("member"), QStringLiteral("Document")},
                                {QStringLiteral("type"), QStringLiteral("string")}},
                    QJsonObject{{QStringLiteral("name"), QStringLiteral("source")},
                                {QStringLiteral("member"), QStringLiteral("Source")},
                                {QStringLiteral("type"), QStringLiteral("string")},
                                {QStringLiteral("immutable"), true}}}},
        {QStringLiteral("documents"), QJsonArray{QStringLiteral("document")}},
        {QStringLiteral("list"),
         QJsonObject{{QStringLiteral("operation"), QStringLiteral("ListThings")},
                     {QStringLiteral("result"), QStringLiteral("Things")}}},
        {QStringLiteral("listExclude"),
         QJsonObject{{QStringLiteral("member"), QStringLiteral("Name")},
                     {QStringLiteral("pattern"), QStringLiteral("aws/.*")}}},
        {QStringLiteral("writeOnly"), QJsonArray{QStringLiteral("source")}},
        {QStringLiteral("read"),
         QJsonObject{{QStringLiteral("operation"), QStringLiteral("GetThing")},
                     {QStringLiteral("input"),
                      QJsonObject{{QStringLiteral("Name"), QStringLiteral("$name")}}},
                     {QStringLiteral("result"), QStringLiteral("Thing")}}}};
    const QJsonObject file{
        {QStringLiteral("format"), 1},
        {QStringLiteral("service"),
         QJsonObject{{QStringLiteral("name"), QStringLiteral("things")},
                     {QStringLiteral("title"), QStringLiteral("Things")},
                     {QStringLiteral("protocol"), QStringLiteral("query")},
                     {QStringLiteral("signingName"), QStringLiteral("things")},
                     {QStringLiteral("endpointPrefix"), QStringLiteral("things")},
                     {QStringLiteral("apiVersion"), QStringLiteral("2020-01-01")}}},
        {QStringLiteral("kinds"), QJsonArray{kind}}};
    const auto read = DeclarationReader::read(
        QJsonDocument(file).toJson(), QStringLiteral("things.json"),
        QStringLiteral("aws.converge.dev"), QStringLiteral("v1"), QStringLiteral("AwsAccount"));
    if (!read.errors.isEmpty())
        qFatal("%s", qPrintable(read.errors.join(QLatin1Char('\n'))));
    return read.service.kinds.first();
}

Target thingTarget(const QJsonObject &spec)
{
    Resource r;
    r.kind = QStringLiteral("Thing");
    r.metadata.name = QStringLiteral("t");
    r.spec = spec;
    return Target{r};
}

QJsonObject policyVersions(int count, int defaultAt)
{
    QJsonArray versions;
    for (int i = 1; i <= count; ++i)
        versions.append(QJsonObject{
            {QStringLiteral("VersionId"), QStringLiteral("v%1").arg(i)},
            {QStringLiteral("CreateDate"), QStringLiteral("2026-12-0%1T10:00:00Z").arg(i)},
            // as the query protocol answers it: text
            {QStringLiteral("IsDefaultVersion"),
             i == defaultAt ? QStringLiteral("true") : QStringLiteral("false")}});
    return QJsonObject{{QStringLiteral("Versions"), versions}};
}

} // namespace

class tst_DeclaredManager final : public QObject
{
    Q_OBJECT

private slots:
    // IAM answers documents percent-encoded and in its own spelling: the same document is no
    // drift, another one is.
    void documentsCompareAsDocuments()
    {
        auto caller = std::make_shared<ScriptedCaller>();
        QString answered = QString::fromLatin1(
            QUrl::toPercentEncoding(QStringLiteral("{\"b\": [1, 2], \"a\": \"x\"}")));
        caller->scripts.insert(QStringLiteral("GetThing"), [&answered](const QJsonObject &) {
            return answer(QJsonObject{
                {QStringLiteral("Thing"), QJsonObject{{QStringLiteral("Name"), QStringLiteral("t")},
                                                      {QStringLiteral("Document"), answered}}}});
        });
        DeclaredManager m(thing(), caller, {});
        const QString desired = QStringLiteral("{\"a\":\"x\",\"b\":[1,2]}");
        auto seen = m.get(thingTarget(QJsonObject{{QStringLiteral("document"), desired}}));
        QVERIFY(seen);
        QCOMPARE(seen.value().spec.value(QStringLiteral("document")).toString(), desired);

        answered = QStringLiteral("{\"a\": \"y\", \"b\": [1, 2]}");
        seen = m.get(thingTarget(QJsonObject{{QStringLiteral("document"), desired}}));
        QVERIFY(seen);
        QCOMPARE(seen.value().spec.value(QStringLiteral("document")).toString(),
                 QStringLiteral("{\"a\":\"y\",\"b\":[1,2]}"));
    }

    // A field AWS takes but never answers is observed as asked: neither drift nor an immutable
    // change where nothing can be read.
    void writeOnlyFieldsAreObservedAsAsked()
    {
        auto caller = std::make_shared<ScriptedCaller>();
        caller->scripts.insert(QStringLiteral("GetThing"), [](const QJsonObject &) {
            return answer(
                QJsonObject{{QStringLiteral("Thing"),
                             QJsonObject{{QStringLiteral("Name"), QStringLiteral("t")}}}});
        });
        DeclaredManager m(thing(), caller, {});
        auto seen = m.get(
            thingTarget(QJsonObject{{QStringLiteral("source"), QStringLiteral("aws.partner/x")}}));
        QVERIFY(seen);
        QCOMPARE(seen.value().spec.value(QStringLiteral("source")).toString(),
                 QStringLiteral("aws.partner/x"));
        seen = m.get(thingTarget({}));
        QVERIFY(seen);
        QVERIFY(!seen.value().spec.contains(QStringLiteral("source")));
    }

    // What AWS keeps for itself (alias/aws/…, the default bus) is not listed as a person's to
    // claim; a name that only contains the pattern is.
    void awsOwnItemsAreNotListed()
    {
        auto caller = std::make_shared<ScriptedCaller>();
        caller->scripts.insert(QStringLiteral("ListThings"), [](const QJsonObject &) {
            QJsonArray things;
            for (const char *name : {"aws/lambda", "mine", "not-aws/x"})
                things.append(QJsonObject{{QStringLiteral("Name"), QString::fromLatin1(name)}});
            return answer(QJsonObject{{QStringLiteral("Things"), things}});
        });
        DeclaredManager m(thing(), caller, {});
        auto page = m.list(ListScope{});
        QVERIFY(page);
        QStringList names;
        for (const Observation &o : page.value().items)
            names << o.name;
        QCOMPARE(names, (QStringList{QStringLiteral("mine"), QStringLiteral("not-aws/x")}));
    }

    // IAM keeps five versions of a policy: a sixth needs the oldest that is not the default
    // gone first, and a policy is deleted only with its default version alone.
    void policyVersionsMakeRoom_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("defaultAt");
        QTest::addColumn<QStringList>("deleted");
        QTest::newRow("four: room") << 4 << 4 << QStringList{};
        QTest::newRow("five: the oldest") << 5 << 5 << QStringList{QStringLiteral("v1")};
        QTest::newRow("five, the oldest default") << 5 << 1 << QStringList{QStringLiteral("v2")};
    }

    void policyVersionsMakeRoom()
    {
        QFETCH(int, count);
        QFETCH(int, defaultAt);
        QFETCH(QStringList, deleted);
        ScriptedCaller caller;
        caller.scripts.insert(QStringLiteral("ListPolicyVersions"), [&](const QJsonObject &) {
            return answer(policyVersions(count, defaultAt));
        });
        QVERIFY(!IamPolicyVersions::makeRoom(caller, QStringLiteral("arn:aws:iam::1:policy/p")));
        QStringList gone;
        for (const auto &c : caller.calls) {
            if (c.first == QLatin1String("DeletePolicyVersion"))
                gone << c.second.value(QStringLiteral("VersionId")).toString();
        }
        QCOMPARE(gone, deleted);
    }

    void policyVersionsDropOthersBeforeADelete()
    {
        ScriptedCaller caller;
        caller.scripts.insert(QStringLiteral("ListPolicyVersions"),
                              [](const QJsonObject &) { return answer(policyVersions(3, 2)); });
        QVERIFY(!IamPolicyVersions::dropOthers(caller, QStringLiteral("arn:aws:iam::1:policy/p")));
        QStringList gone;
        for (const auto &c : caller.calls) {
            if (c.first == QLatin1String("DeletePolicyVersion"))
                gone << c.second.value(QStringLiteral("VersionId")).toString();
        }
        QCOMPARE(gone, (QStringList{QStringLiteral("v1"), QStringLiteral("v3")}));
    }
};

QTEST_GUILESS_MAIN(tst_DeclaredManager)
#include "tst_declaredmanager.moc"

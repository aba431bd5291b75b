// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The generic Manager's irregular parts one at a time, over a scripted ApiCaller (the kinds
// themselves run against moto in tst_declaredkinds): documents compared as documents, fields
// AWS never answers, IAM's policy versions hook, and S3's sub-resources as the rest-xml
// protocol puts them on the wire.
#include "awskinds.h"
#include "awsrestxml.h"
#include "declarationreader.h"
#include "declaredmanager.h"
#include "declaredservices.h"
#include "declaredsubresources.h"
#include "gcpkinds.h"
#include "iampolicyversions.h"
#include "kindregistry.h"
#include "manifestreader.h"
#include "s3bucketlocation.h"

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

/// Builds each call as the rest-xml protocol puts it on the wire (AwsRestXml, from S3's
/// declaration), keeps it, and answers as its script says (nothing, by default).
class RestXmlCaller final : public ApiCaller
{
public:
    explicit RestXmlCaller(QString region = QStringLiteral("us-east-1"))
        : m_region(std::move(region))
    {
        const ServiceDeclaration *s3 = AwsKinds::serviceOf(QStringLiteral("S3Bucket"));
        m_model = {s3->operations, s3->shapes};
    }
    QMap<QString, std::function<Outcome<Reply>(const QJsonObject &)>> scripts;
    QList<QPair<QString, AwsRestXml::Request>> sent;

    Outcome<Reply> call(const QString &operation, const QJsonObject &input) override
    {
        sent.append({operation, AwsRestXml::request(m_model, operation, input)});
        if (const auto script = scripts.constFind(operation); script != scripts.cend())
            return (*script)(input);
        return Reply{};
    }
    QString region() const override { return m_region; }
    /// The calls that change something (neither GET nor HEAD), by operation.
    QStringList writes() const
    {
        QStringList out;
        for (const auto &[operation, request] : sent) {
            if (request.method != "GET" && request.method != "HEAD")
                out << operation;
        }
        return out;
    }
    AwsRestXml::Request request(const QString &operation) const
    {
        for (const auto &[name, request] : sent) {
            if (name == operation)
                return request;
        }
        return {};
    }

private:
    QString m_region;
    AwsRestXml::Model m_model;
};

BackendError s3Error(const char *code)
{
    BackendError error;
    error.category = BackendError::Category::NotFound;
    error.code = QString::fromLatin1(code);
    error.httpStatus = 404;
    return error;
}

Target bucket(const QJsonObject &spec)
{
    Resource r;
    r.kind = QStringLiteral("S3Bucket");
    r.metadata.name = QStringLiteral("bkt");
    r.spec = spec;
    return Target{r};
}

QJsonObject fromText(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text).replace('\'', '"')).object();
}

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

    // A Spanner instance's update runs as a long-running operation while the instance stays
    // READY: a Manager made afresh (a restart) reads it from the instance's operations not done,
    // is in progress until it is done, and then Ready. A create in flight is its state.
    void googleOperationsAreFollowedFromTheCloud()
    {
        const KindDeclaration *declared =
            GcpKinds::declared().declaration(QStringLiteral("SpannerInstance"));
        QVERIFY(declared);
        auto caller = std::make_shared<ScriptedCaller>();
        QString state = QStringLiteral("CREATING");
        bool running = false;
        caller->scripts.insert(QStringLiteral("projects.instances.get"), [&](const QJsonObject &) {
            return answer(QJsonObject{
                {QStringLiteral("name"), QStringLiteral("projects/p/instances/orders")},
                {QStringLiteral("config"), QStringLiteral("projects/p/instanceConfigs/nam3")},
                {QStringLiteral("displayName"), QStringLiteral("Orders")},
                {QStringLiteral("nodeCount"), 1},
                {QStringLiteral("processingUnits"), 1000},
                {QStringLiteral("state"), state}});
        });
        caller->scripts.insert(
            QStringLiteral("projects.instances.operations.list"), [&](const QJsonObject &in) {
                QJsonObject op{
                    {QStringLiteral("name"),
                     QStringLiteral("projects/p/instances/orders/operations/op7")},
                    {QStringLiteral("metadata"),
                     QJsonObject{{QStringLiteral("@type"),
                                  QStringLiteral("type.googleapis.com/google.spanner.admin."
                                                 "instance.v1.UpdateInstanceMetadata")}}}};
                if (!running)
                    op.insert(QStringLiteral("done"), true);
                // Asked for those not done, of this instance.
                if (in.value(QStringLiteral("filter")).toString() != u"done:false"_qs ||
                    in.value(QStringLiteral("instancesId")).toString() != u"orders"_qs)
                    return Outcome<ApiCaller::Reply>(BackendError::make(
                        BackendError::Category::Invalid, u"BadInput"_qs, u"unexpected input"_qs));
                return Outcome<ApiCaller::Reply>(
                    answer(QJsonObject{{QStringLiteral("operations"), QJsonArray{op}}}));
            });
        Resource r;
        r.kind = QStringLiteral("SpannerInstance");
        r.metadata.name = QStringLiteral("orders");
        r.spec = QJsonObject{{QStringLiteral("config"), QStringLiteral("nam3")},
                             {QStringLiteral("displayName"), QStringLiteral("Orders")},
                             {QStringLiteral("numNodes"), 2}};
        const Target target{r};

        auto seen = DeclaredManager(*declared, caller, {}).get(target);
        QVERIFY2(seen, qPrintable(seen ? QString() : seen.error().toString()));
        QVERIFY(seen.value().inProgress);
        QCOMPARE(seen.value().progress, QStringLiteral("state is CREATING"));

        state = QStringLiteral("READY");
        running = true;
        seen = DeclaredManager(*declared, caller, {}).get(target);
        QVERIFY2(seen, qPrintable(seen ? QString() : seen.error().toString()));
        QVERIFY(seen.value().inProgress);
        QCOMPARE(seen.value().progress,
                 QStringLiteral("UpdateInstance (operation op7) in progress"));

        running = false;
        seen = DeclaredManager(*declared, caller, {}).get(target);
        QVERIFY(seen);
        QVERIFY(!seen.value().inProgress);
        // Observed as the spec holds it: config short, capacity in nodes only.
        QCOMPARE(seen.value().spec.value(QStringLiteral("config")).toString(), u"nam3"_qs);
        QCOMPARE(seen.value().spec.value(QStringLiteral("numNodes")).toInt(), 1);
        QVERIFY(!seen.value().spec.contains(QStringLiteral("processingUnits")));
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

    // An update makes the Put of the sub-resource the Delta touches and no other, as S3's
    // model puts it: PUT /BUCKET?versioning with its XML and a checksum.
    void s3WritesOnlyWhatTheDeltaTouches()
    {
        auto caller = std::make_shared<RestXmlCaller>();
        DeclaredManager m(*AwsKinds::declaration(QStringLiteral("S3Bucket")), caller, {});
        const Target target = bucket(
            fromText("{'versioning': {'status': 'Enabled'}, 'tagging': {'tagSet': [{'key': 'a', "
                     "'value': '1'}]}, 'policy': '{}'}"));
        Observation latest;
        latest.name = QStringLiteral("bkt");
        latest.resourceId = QStringLiteral("bkt");
        latest.spec = fromText("{'tagging': {'tagSet': [{'key': 'a', 'value': '1'}]}, 'policy': "
                               "'{}'}");
        QVERIFY(m.update(target, latest, {QStringLiteral("spec.versioning.status")}));
        QCOMPARE(caller->writes(), QStringList{QStringLiteral("PutBucketVersioning")});
        const AwsRestXml::Request put = caller->request(QStringLiteral("PutBucketVersioning"));
        QCOMPARE(put.method, QByteArray("PUT"));
        QCOMPARE(put.path, QStringLiteral("/bkt"));
        QCOMPARE(put.query, QStringLiteral("versioning"));
        QCOMPARE(put.body, QByteArray("<VersioningConfiguration xmlns=\"http://s3.amazonaws.com/"
                                      "doc/2006-03-01/\"><Status>Enabled</Status>"
                                      "</VersioningConfiguration>"));
        QVERIFY(put.checksumRequired);

        // The policy goes as its document, the tags as S3's TagSet.
        caller->sent.clear();
        QVERIFY(m.update(target, Observation{},
                         {QStringLiteral("spec.policy"), QStringLiteral("spec.tagging.tagSet")}));
        QCOMPARE(caller->writes(), (QStringList{QStringLiteral("PutBucketTagging"),
                                                QStringLiteral("PutBucketPolicy")}));
        QCOMPARE(caller->request(QStringLiteral("PutBucketPolicy")).body, QByteArray("{}"));
        QCOMPARE(caller->request(QStringLiteral("PutBucketTagging")).body,
                 QByteArray("<Tagging xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><TagSet>"
                            "<Tag><Key>a</Key><Value>1</Value></Tag></TagSet></Tagging>"));
    }

    // An emptied sub-resource is deleted by its own call (S3 refuses an empty policy), not put.
    void s3EmptiedSubResourcesAreDeleted()
    {
        auto caller = std::make_shared<RestXmlCaller>();
        DeclaredManager m(*AwsKinds::declaration(QStringLiteral("S3Bucket")), caller, {});
        const Target target = bucket(fromText("{'tagging': {'tagSet': []}, 'policy': ''}"));
        QVERIFY(m.update(target, Observation{},
                         {QStringLiteral("spec.policy"), QStringLiteral("spec.tagging.tagSet")}));
        QCOMPARE(caller->writes(), (QStringList{QStringLiteral("DeleteBucketTagging"),
                                                QStringLiteral("DeleteBucketPolicy")}));
        const AwsRestXml::Request gone = caller->request(QStringLiteral("DeleteBucketPolicy"));
        QCOMPARE(gone.method, QByteArray("DELETE"));
        QCOMPARE(gone.path, QStringLiteral("/bkt"));
        QCOMPARE(gone.query, QStringLiteral("policy"));
        QVERIFY(gone.body.isEmpty());
        QVERIFY(DeclaredSubResources::isEmpty(fromText("{'tagSet': [], 'x': {'y': ''}}")));
        QVERIFY(!DeclaredSubResources::isEmpty(fromText("{'on': false}")));
    }

    // A sub-resource that is not set reads as absent (NoSuchTagSet, NoSuchBucketPolicy, …),
    // not as an error of the bucket; any other error is one.
    void s3AbsentSubResourcesReadAsEmpty()
    {
        auto caller = std::make_shared<RestXmlCaller>();
        for (const auto &[operation, code] :
             {std::pair{"GetBucketTagging", "NoSuchTagSet"},
              std::pair{"GetBucketPolicy", "NoSuchBucketPolicy"},
              std::pair{"GetBucketEncryption", "ServerSideEncryptionConfigurationNotFoundError"},
              std::pair{"GetPublicAccessBlock", "NoSuchPublicAccessBlockConfiguration"}}) {
            caller->scripts.insert(QString::fromLatin1(operation),
                                   [code](const QJsonObject &) { return s3Error(code); });
        }
        caller->scripts.insert(QStringLiteral("GetBucketVersioning"), [](const QJsonObject &) {
            return answer(QJsonObject{{QStringLiteral("Status"), QStringLiteral("Enabled")}});
        });
        DeclaredManager m(*AwsKinds::declaration(QStringLiteral("S3Bucket")), caller, {});
        auto seen = m.get(bucket({}));
        QVERIFY2(seen, qPrintable(seen ? QString() : seen.error().toString()));
        QCOMPARE(seen.value().resourceId, QStringLiteral("bkt"));
        QCOMPARE(seen.value().spec.value(QStringLiteral("versioning")).toObject(),
                 fromText("{'status': 'Enabled'}"));
        for (const char *field : {"tagging", "policy", "encryption", "publicAccessBlock"})
            QVERIFY2(!seen.value().spec.contains(QString::fromLatin1(field)), field);
        QCOMPARE(caller->request(QStringLiteral("HeadBucket")).method, QByteArray("HEAD"));

        caller->scripts.insert(QStringLiteral("GetBucketPolicy"), [](const QJsonObject &) {
            BackendError denied = s3Error("AccessDenied");
            denied.category = BackendError::Category::Unauthorized;
            return Outcome<ApiCaller::Reply>(denied);
        });
        seen = m.get(bucket({}));
        QVERIFY(!seen);
        QCOMPARE(seen.error().code, QStringLiteral("AccessDenied"));
    }

    // S3 answers tags in an order of its own: the same tags in another order are no drift,
    // other tags are.
    void s3TagsCompareAsASet()
    {
        auto caller = std::make_shared<RestXmlCaller>();
        caller->scripts.insert(QStringLiteral("GetBucketTagging"), [](const QJsonObject &) {
            return answer(fromText("{'TagSet': [{'Key': 'b', 'Value': '2'}, {'Key': 'a', "
                                   "'Value': '1'}]}"));
        });
        DeclaredManager m(*AwsKinds::declaration(QStringLiteral("S3Bucket")), caller, {});
        const QJsonObject wanted =
            fromText("{'tagSet': [{'key': 'a', 'value': '1'}, {'key': 'b', 'value': '2'}]}");
        auto seen = m.get(bucket(QJsonObject{{QStringLiteral("tagging"), wanted}}));
        QVERIFY(seen);
        QCOMPARE(seen.value().spec.value(QStringLiteral("tagging")).toObject(), wanted);
        const QJsonObject other =
            fromText("{'tagSet': [{'key': 'a', 'value': '1'}, {'key': 'c', 'value': '2'}]}");
        seen = m.get(bucket(QJsonObject{{QStringLiteral("tagging"), other}}));
        QVERIFY(seen);
        QCOMPARE(seen.value().spec.value(QStringLiteral("tagging")).toObject(),
                 fromText("{'tagSet': [{'key': 'b', 'value': '2'}, {'key': 'a', 'value': '1'}]}"));
    }

    // S3 answers a lifecycle date with milliseconds: the same instant as the spec's, said as the
    // spec says it, is no drift; another instant is.
    void s3LifecycleDatesCompareAsInstants()
    {
        auto caller = std::make_shared<RestXmlCaller>();
        caller->scripts.insert(
            QStringLiteral("GetBucketLifecycleConfiguration"), [](const QJsonObject &) {
                return answer(fromText("{'Rules': [{'ID': 'x', 'Status': 'Enabled', 'Filter': "
                                       "{'Prefix': 'tmp/'}, 'Expiration': {'Date': "
                                       "'2027-01-01T00:00:00.000Z'}}]}"));
            });
        DeclaredManager m(*AwsKinds::declaration(QStringLiteral("S3Bucket")), caller, {});
        const QJsonObject wanted =
            fromText("{'rules': [{'id': 'x', 'status': 'Enabled', 'filter': {'prefix': 'tmp/'}, "
                     "'expiration': {'date': '2027-01-01T00:00:00Z'}}]}");
        auto seen = m.get(bucket(QJsonObject{{QStringLiteral("lifecycle"), wanted}}));
        QVERIFY(seen);
        QCOMPARE(seen.value().spec.value(QStringLiteral("lifecycle")).toObject(), wanted);
    }

    // A document (a bucket policy, as IAM's) may be written as a YAML object: stored as
    // compact JSON text, as S3 and ACK take it. Other fields keep their types.
    void documentsMayBeObjects()
    {
        KindRegistry kinds;
        AwsKinds::registerKinds(kinds);
        const ManifestReader reader(kinds);
        const QByteArray head = "apiVersion: aws.converge.dev/v1\nkind: S3Bucket\nmetadata: "
                                "{name: bkt}\nspec:\n  owner: {name: a}\n";
        const auto read = reader.read(head + "  policy:\n    Version: '2012-10-17'\n"
                                             "    Statement: [{Effect: Allow, Action: '*'}]\n",
                                      QStringLiteral("bucket.yaml"));
        QVERIFY2(read.ok(), qPrintable(read.errors.value(0).toString()));
        QCOMPARE(read.objects.first().resource.spec.value(QStringLiteral("policy")).toString(),
                 QStringLiteral("{\"Statement\":[{\"Action\":\"*\",\"Effect\":\"Allow\"}],"
                                "\"Version\":\"2012-10-17\"}"));
        const auto text = reader.read(head + "  policy: '{\"Version\": \"2012-10-17\"}'\n",
                                      QStringLiteral("bucket.yaml"));
        QVERIFY(text.ok());
        QCOMPARE(text.objects.first().resource.spec.value(QStringLiteral("policy")).toString(),
                 QStringLiteral("{\"Version\": \"2012-10-17\"}"));
        QVERIFY(!reader.read(head + "  policy: 7\n", QStringLiteral("bucket.yaml")).ok());
        QVERIFY(
            !reader.read(head + "  tagging:\n    tagSet: {a: b}\n", QStringLiteral("b.yaml")).ok());
    }

    // The s3BucketLocation hook on its own: S3 makes a bucket in us-east-1 unless told.
    void s3BucketLocation_data()
    {
        QTest::addColumn<QString>("region");
        QTest::addColumn<QString>("given");
        QTest::addColumn<QString>("sent");
        QTest::newRow("us-east-1: none") << "us-east-1"
                                         << ""
                                         << "";
        QTest::newRow("unknown: none") << ""
                                       << ""
                                       << "";
        QTest::newRow("another region") << "eu-west-1"
                                        << ""
                                        << "eu-west-1";
        QTest::newRow("given: kept") << "eu-west-1"
                                     << "eu-central-1"
                                     << "eu-central-1";
    }

    void s3BucketLocation()
    {
        QFETCH(QString, region);
        QFETCH(QString, given);
        QFETCH(QString, sent);
        QJsonObject input{{QStringLiteral("Bucket"), QStringLiteral("bkt")}};
        if (!given.isEmpty())
            input.insert(QStringLiteral("CreateBucketConfiguration"),
                         QJsonObject{{QStringLiteral("LocationConstraint"), given}});
        const QJsonObject out = S3BucketLocation::complete(input, region);
        QCOMPARE(out.value(QStringLiteral("CreateBucketConfiguration"))
                     .toObject()
                     .value(QStringLiteral("LocationConstraint"))
                     .toString(),
                 sent);
        QCOMPARE(out.contains(QStringLiteral("CreateBucketConfiguration")), !sent.isEmpty());
    }

    // And through the Manager: the create of an account in eu-west-1 says where.
    void s3CreateSaysWhere()
    {
        auto caller = std::make_shared<RestXmlCaller>(QStringLiteral("eu-west-1"));
        DeclaredManager m(*AwsKinds::declaration(QStringLiteral("S3Bucket")), caller, {});
        QVERIFY(m.create(bucket({})));
        const AwsRestXml::Request create = caller->request(QStringLiteral("CreateBucket"));
        QCOMPARE(create.method, QByteArray("PUT"));
        QCOMPARE(create.path, QStringLiteral("/bkt"));
        QCOMPARE(create.body, QByteArray("<CreateBucketConfiguration xmlns=\"http://s3.amazonaws."
                                         "com/doc/2006-03-01/\"><LocationConstraint>eu-west-1"
                                         "</LocationConstraint></CreateBucketConfiguration>"));
    }

    // ListBuckets: each bucket named, and known by its name.
    void s3ListNamesBuckets()
    {
        auto caller = std::make_shared<RestXmlCaller>();
        caller->scripts.insert(QStringLiteral("ListBuckets"), [](const QJsonObject &) {
            return answer(fromText("{'Buckets': [{'Name': 'a'}, {'Name': 'b'}]}"));
        });
        DeclaredManager m(*AwsKinds::declaration(QStringLiteral("S3Bucket")), caller, {});
        ListScope scope;
        scope.pageSize = 10;
        auto page = m.list(scope);
        QVERIFY(page);
        QCOMPARE(page.value().items.size(), 2);
        QCOMPARE(page.value().items.at(1).name, QStringLiteral("b"));
        QCOMPARE(page.value().items.at(1).resourceId, QStringLiteral("b"));
        const AwsRestXml::Request list = caller->request(QStringLiteral("ListBuckets"));
        QCOMPARE(list.method, QByteArray("GET"));
        QCOMPARE(list.path, QStringLiteral("/"));
        QCOMPARE(list.query, QStringLiteral("max-buckets=10"));
    }
};

QTEST_GUILESS_MAIN(tst_DeclaredManager)
#include "tst_declaredmanager.moc"

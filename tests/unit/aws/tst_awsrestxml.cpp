// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// AWS's rest-xml protocol from S3's declaration (the model's operations and shapes as
// scripts/kinds/generate.py keeps them): requests built as botocore builds them, answers read
// into the shapes the json protocol gives, and what the client adds on the wire.
#include "awsfactory.h"
#include "awsrestxml.h"
#include "awsrestxmlclient.h"
#include "declarationreader.h"
#include "httpclient.h"
#include "testhttpserver.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace converge;

namespace {

AwsRestXml::Model s3Model()
{
    QFile file(QStringLiteral(":/kinds/aws/s3.json"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("no S3 declaration");
    const auto read = DeclarationReader::read(file.readAll(), QStringLiteral("s3.json"),
                                              QStringLiteral("aws.converge.dev"),
                                              QStringLiteral("v1"), QStringLiteral("AwsAccount"));
    if (!read.errors.isEmpty())
        qFatal("%s", qPrintable(read.errors.join(QLatin1Char('\n'))));
    return {read.service.operations, read.service.shapes};
}

/// JSON written with ' for " (moc reads no raw strings).
QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text).replace('\'', '"')).object();
}

/// A made-up operation with every place a member can go: labels (one greedy), query strings (a
/// list), headers (a boolean, a prefix map) and a structure payload of a map and nested lists.
AwsRestXml::Model madeUp()
{
    return {
        json("{'PutThing': {'method': 'PUT', 'requestUri': '/{Bucket}/{Key+}?thing',"
             "                                  'input': 'PutThingRequest', 'output': "
             "'PutThingOutput'}}"),
        json(
            "{"
            "        'PutThingRequest': {'type': 'structure', 'payload': 'Thing', 'members': {"
            "            'Bucket': {'shape': 'S', 'location': 'uri', 'locationName': 'Bucket'},"
            "            'Key': {'shape': 'S', 'location': 'uri', 'locationName': 'Key'},"
            "            'Ids': {'shape': 'Strings', 'location': 'querystring', 'locationName': "
            "'id'},"
            "            'Force': {'shape': 'B', 'location': 'header', 'locationName': "
            "'x-amz-force'},"
            "            'Metadata': {'shape': 'Meta', 'location': 'headers', 'locationName': "
            "'x-amz-meta-'},"
            "            'Thing': {'shape': 'Thing', 'locationName': 'Thing',"
            "                      'xmlNamespace': {'uri': 'urn:x'}}}},"
            "        'PutThingOutput': {'type': 'structure', 'members': {"
            "            'Count': {'shape': 'I', 'location': 'header', 'locationName': "
            "'x-amz-count'},"
            "            'Metadata': {'shape': 'Meta', 'location': 'headers', 'locationName': "
            "'x-amz-meta-'},"
            "            'Items': {'shape': 'Strings', 'locationName': 'Items'},"
            "            'Labels': {'shape': 'Meta'}}},"
            "        'Thing': {'type': 'structure', 'order': ['Size', 'On', 'Names', 'Rules'], "
            "'members': {"
            "            'Size': {'shape': 'I'}, 'On': {'shape': 'B'},"
            "            'Names': {'shape': 'Strings'}, 'Rules': {'shape': 'Rules', "
            "'locationName': 'Rule'}}},"
            "        'Rules': {'type': 'list', 'member': {'shape': 'Rule'}, 'flattened': true},"
            "        'Rule': {'type': 'structure', 'members': {'Id': {'shape': 'S', "
            "'locationName': 'ID'}}},"
            "        'Strings': {'type': 'list', 'member': {'shape': 'S', 'locationName': 'Name'}},"
            "        'Meta': {'type': 'map', 'key': {'shape': 'S'}, 'value': {'shape': 'S'}},"
            "        'S': {'type': 'string'}, 'I': {'type': 'integer'}, 'B': {'type': "
            "'boolean'}}")};
}

} // namespace

class tst_AwsRestXml final : public QObject
{
    Q_OBJECT

private slots:
    void s3Requests_data()
    {
        QTest::addColumn<QString>("operation");
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("query");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("checksum");
        const QByteArray ns = "xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"";
        QTest::newRow("head") << "HeadBucket" << QByteArray("{'Bucket': 'b1'}")
                              << QByteArray("HEAD") << "/b1"
                              << "" << QByteArray() << false;
        QTest::newRow("versioning")
            << "PutBucketVersioning"
            << QByteArray("{'Bucket': 'b1', 'VersioningConfiguration': {'Status': 'Enabled'}}")
            << QByteArray("PUT") << "/b1"
            << "versioning"
            << "<VersioningConfiguration " + ns +
                   "><Status>Enabled</Status></VersioningConfiguration>"
            << true;
        // A list with a member name of its own: <TagSet><Tag>.
        QTest::newRow("tagging")
            << "PutBucketTagging"
            << QByteArray("{'Bucket': 'b1', 'Tagging': {'TagSet': [{'Key': 'team',"
                          "                             'Value': 'billing'}, {'Key': 'env', "
                          "'Value': 'dev'}]}}")
            << QByteArray("PUT") << "/b1"
            << "tagging"
            << "<Tagging " + ns +
                   "><TagSet><Tag><Key>team</Key><Value>billing</Value></Tag><Tag><Key>env</Key>"
                   "<Value>dev</Value></Tag></TagSet></Tagging>"
            << true;
        // A flattened list: <Rule> repeated, without a container.
        QTest::newRow("encryption")
            << "PutBucketEncryption"
            << QByteArray("{'Bucket': 'b1', 'ServerSideEncryptionConfiguration': {'Rules': ["
                          "                             {'ApplyServerSideEncryptionByDefault': "
                          "{'SSEAlgorithm': 'aws:kms',"
                          "                             'KMSMasterKeyID': 'k1'}, "
                          "'BucketKeyEnabled': true}]}}")
            << QByteArray("PUT") << "/b1"
            << "encryption"
            << "<ServerSideEncryptionConfiguration " + ns +
                   "><Rule><ApplyServerSideEncryptionByDefault><SSEAlgorithm>aws:kms"
                   "</SSEAlgorithm><KMSMasterKeyID>k1</KMSMasterKeyID>"
                   "</ApplyServerSideEncryptionByDefault><BucketKeyEnabled>true"
                   "</BucketKeyEnabled></Rule></ServerSideEncryptionConfiguration>"
            << true;
        // A string payload is the body as it is.
        QTest::newRow("policy") << "PutBucketPolicy"
                                << QByteArray("{'Bucket': 'b1', 'Policy': '{\\'Version\\':1}'}")
                                << QByteArray("PUT") << "/b1"
                                << "policy" << QByteArray("{\"Version\":1}") << true;
        QTest::newRow("delete a sub-resource")
            << "DeleteBucketTagging" << QByteArray("{'Bucket': 'b1'}") << QByteArray("DELETE")
            << "/b1"
            << "tagging" << QByteArray() << false;
        QTest::newRow("list, a page")
            << "ListBuckets" << QByteArray("{'MaxBuckets': 10, 'ContinuationToken': 'a b'}")
            << QByteArray("GET") << "/"
            << "max-buckets=10&continuation-token=a%20b" << QByteArray() << false;
        QTest::newRow("create elsewhere")
            << "CreateBucket"
            << QByteArray("{'Bucket': 'b1',"
                          "                             'CreateBucketConfiguration': "
                          "{'LocationConstraint': 'eu-west-1'}}")
            << QByteArray("PUT") << "/b1"
            << ""
            << "<CreateBucketConfiguration " + ns +
                   "><LocationConstraint>eu-west-1</LocationConstraint>"
                   "</CreateBucketConfiguration>"
            << false;
    }

    void s3Requests()
    {
        QFETCH(QString, operation);
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, method);
        QFETCH(QString, path);
        QFETCH(QString, query);
        QFETCH(QByteArray, body);
        QFETCH(bool, checksum);
        const auto r = AwsRestXml::request(s3Model(), operation, json(input.constData()));
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.method, method);
        QCOMPARE(r.path, path);
        QCOMPARE(r.query, query);
        QCOMPARE(r.body, body);
        QCOMPARE(r.checksumRequired, checksum);
        if (path != QLatin1String("/"))
            QCOMPARE(r.leadingLabel, QStringLiteral("b1"));
    }

    void everyPlaceAMemberGoes()
    {
        const auto r = AwsRestXml::request(
            madeUp(), QStringLiteral("PutThing"),
            json("{'Bucket': 'b', 'Key': 'a/b c', 'Ids': ['1', '2'], 'Force': true,"
                 "                     'Metadata': {'team': 'x'},"
                 "                     'Thing': {'Size': 3, 'On': false, 'Names': ['n'], 'Rules': "
                 "[{'Id': 'r'}]}}"));
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.path, QStringLiteral("/b/a/b c"));
        QCOMPARE(r.leadingLabel, QStringLiteral("b"));
        QCOMPARE(r.pathAfterLabel, QStringLiteral("/a/b c"));
        QCOMPARE(r.query, QStringLiteral("thing&id=1&id=2"));
        QVERIFY(r.headers.contains(qMakePair(QByteArray("x-amz-force"), QByteArray("true"))));
        QVERIFY(r.headers.contains(qMakePair(QByteArray("x-amz-meta-team"), QByteArray("x"))));
        QCOMPARE(r.body, QByteArray("<Thing xmlns=\"urn:x\"><Size>3</Size><On>false</On><Names>"
                                    "<Name>n</Name></Names><Rule><ID>r</ID></Rule></Thing>"));
        // A label the template needs and the input lacks is refused before anything is sent.
        QVERIFY(!AwsRestXml::request(madeUp(), QStringLiteral("PutThing"), json("{'Key': 'k'}"))
                     .error.isEmpty());
        QVERIFY(!AwsRestXml::request(madeUp(), QStringLiteral("Nothing"), {}).error.isEmpty());
        QVERIFY(!AwsRestXml::request(madeUp(), QStringLiteral("PutThing"),
                                     json("{'Bucket': 'a/b', 'Key': 'k'}"))
                     .error.isEmpty());
    }

    void s3Answers_data()
    {
        QTest::addColumn<QString>("operation");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("result");
        QTest::newRow("versioning")
            << "GetBucketVersioning"
            << QByteArray("<VersioningConfiguration xmlns=\"http://s3.amazonaws.com/doc/"
                          "2006-03-01/\"><Status>Suspended</Status></VersioningConfiguration>")
            << QByteArray("{'Status': 'Suspended'}");
        QTest::newRow("never versioned")
            << "GetBucketVersioning" << QByteArray("<VersioningConfiguration/>")
            << QByteArray("{}");
        QTest::newRow("tagging")
            << "GetBucketTagging"
            << QByteArray("<Tagging><TagSet><Tag><Key>a</Key><Value>1</Value></Tag><Tag><Key>b"
                          "</Key><Value></Value></Tag></TagSet></Tagging>")
            << QByteArray("{'TagSet': [{'Key': 'a', 'Value': '1'}, {'Key': 'b', 'Value': ''}]}");
        QTest::newRow("encryption, flattened and typed")
            << "GetBucketEncryption"
            << QByteArray("<ServerSideEncryptionConfiguration><Rule>"
                          "<ApplyServerSideEncryptionByDefault><SSEAlgorithm>AES256</SSEAlgorithm>"
                          "</ApplyServerSideEncryptionByDefault><BucketKeyEnabled>false"
                          "</BucketKeyEnabled></Rule></ServerSideEncryptionConfiguration>")
            << QByteArray("{'ServerSideEncryptionConfiguration': {'Rules': ["
                          "                  {'ApplyServerSideEncryptionByDefault': "
                          "{'SSEAlgorithm': 'AES256'},"
                          "                   'BucketKeyEnabled': false}]}}");
        QTest::newRow("public access block")
            << "GetPublicAccessBlock"
            << QByteArray("<PublicAccessBlockConfiguration><BlockPublicAcls>true</BlockPublicAcls>"
                          "<RestrictPublicBuckets>false</RestrictPublicBuckets>"
                          "</PublicAccessBlockConfiguration>")
            << QByteArray("{'PublicAccessBlockConfiguration': {'BlockPublicAcls': true,"
                          "                  'RestrictPublicBuckets': false}}");
        QTest::newRow("policy, as it is")
            << "GetBucketPolicy" << QByteArray("{\"Version\": \"2012-10-17\"}")
            << QByteArray("{'Policy': '{\\'Version\\': \\'2012-10-17\\'}'}");
        QTest::newRow("buckets")
            << "ListBuckets"
            << QByteArray("<ListAllMyBucketsResult><Owner><ID>o</ID></Owner><Buckets><Bucket>"
                          "<Name>a</Name><CreationDate>2026-12-04T10:00:00.000Z</CreationDate>"
                          "</Bucket><Bucket><Name>b</Name></Bucket></Buckets>"
                          "</ListAllMyBucketsResult>")
            << QByteArray("{'Owner': {'ID': 'o'}, 'Buckets': [{'Name': 'a',"
                          "                  'CreationDate': '2026-12-04T10:00:00.000Z'}, {'Name': "
                          "'b'}]}");
        QTest::newRow("no buckets")
            << "ListBuckets"
            << QByteArray("<ListAllMyBucketsResult><Buckets/></ListAllMyBucketsResult>")
            << QByteArray("{'Buckets': []}");
        QTest::newRow("an answer of nothing")
            << "PutBucketTagging" << QByteArray() << QByteArray("{}");
    }

    void s3Answers()
    {
        QFETCH(QString, operation);
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, result);
        const auto answer = AwsRestXml::read(s3Model(), operation, {}, body);
        QVERIFY2(answer.parseError.isEmpty(), qPrintable(answer.parseError));
        QCOMPARE(answer.result, json(result.constData()));
    }

    void headersAndMaps()
    {
        const QList<QPair<QByteArray, QByteArray>> headers{
            {"X-Amz-Count", "7"}, {"x-amz-meta-team", "billing"}, {"Content-Type", "x"}};
        const auto answer = AwsRestXml::read(
            madeUp(), QStringLiteral("PutThing"), headers,
            "<R><Items><Name>a</Name><Name>b</Name></Items><Labels><entry><key>k</key>"
            "<value>v</value></entry></Labels></R>");
        QVERIFY2(answer.parseError.isEmpty(), qPrintable(answer.parseError));
        QCOMPARE(answer.result,
                 json("{'Count': 7, 'Metadata': {'team': 'billing'}, 'Items': ['a', 'b'],"
                      "                          'Labels': {'k': 'v'}}"));
        const auto head = AwsRestXml::read(s3Model(), QStringLiteral("HeadBucket"),
                                           {{"x-amz-bucket-region", "eu-west-1"}}, {});
        QCOMPARE(head.result, json("{'BucketRegion': 'eu-west-1'}"));
    }

    void garbageIsAParseError_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("not xml") << QByteArray("{\"a\": 1}");
        QTest::newRow("unclosed") << QByteArray("<Tagging><TagSet><Tag>");
        QTest::newRow("too deep") << QByteArray("<a>").repeated(100) +
                                         QByteArray("</a>").repeated(100);
    }

    void garbageIsAParseError()
    {
        QFETCH(QByteArray, body);
        QVERIFY(!AwsRestXml::read(s3Model(), QStringLiteral("GetBucketTagging"), {}, body)
                     .parseError.isEmpty());
    }

    // Path-style for emulators and custom endpoints; virtual-hosted for AWS, but for a name
    // that is no DNS label.
    void addressing_data()
    {
        QTest::addColumn<QString>("endpoint");
        QTest::addColumn<QString>("bucket");
        QTest::addColumn<bool>("virtualHosted");
        QTest::addColumn<QString>("url");
        QTest::newRow("path") << "http://127.0.0.1:5000"
                              << "b1" << false << "http://127.0.0.1:5000/b1?tagging";
        QTest::newRow("path under a prefix")
            << "http://127.0.0.1:5000/s3/"
            << "b1" << false << "http://127.0.0.1:5000/s3/b1?tagging";
        QTest::newRow("virtual") << "https://s3.eu-west-1.amazonaws.com/"
                                 << "bk1" << true
                                 << "https://bk1.s3.eu-west-1.amazonaws.com/?tagging";
        QTest::newRow("a dotted name stays in the path")
            << "https://s3.eu-west-1.amazonaws.com/"
            << "a.b" << true << "https://s3.eu-west-1.amazonaws.com/a.b?tagging";
    }

    void addressing()
    {
        QFETCH(QString, endpoint);
        QFETCH(QString, bucket);
        QFETCH(bool, virtualHosted);
        QFETCH(QString, url);
        const auto r = AwsRestXml::request(s3Model(), QStringLiteral("GetBucketTagging"),
                                           QJsonObject{{QStringLiteral("Bucket"), bucket}});
        QCOMPARE(AwsRestXmlClient::urlFor(QUrl(endpoint), r, virtualHosted).toString(), url);
    }

    // The account's s3AddressingStyle: auto (left out) puts the bucket in AWS's host names and
    // in the path of an endpoint set for an emulator.
    void addressingStyle_data()
    {
        QTest::addColumn<QByteArray>("account");
        QTest::addColumn<bool>("virtualHosted");
        QTest::newRow("AWS") << QByteArray("{'region': 'eu-west-1'}") << true;
        QTest::newRow("an endpoint")
            << QByteArray("{'endpoint': 'http://127.0.0.1:5000'}") << false;
        QTest::newRow("S3's own endpoint")
            << QByteArray("{'endpoints': {'s3': 'https://minio.example'}}") << false;
        QTest::newRow("another service's endpoint")
            << QByteArray("{'endpoints': {'dynamodb': 'http://127.0.0.1:8000'}}") << true;
        QTest::newRow("path, said") << QByteArray("{'s3AddressingStyle': 'path'}") << false;
        QTest::newRow("virtual, said")
            << QByteArray("{'endpoint': 'https://s3.example', 's3AddressingStyle': 'virtual'}")
            << true;
    }

    void addressingStyle()
    {
        QFETCH(QByteArray, account);
        QFETCH(bool, virtualHosted);
        QCOMPARE(AwsFactory::virtualHosted(json(account.constData()), QStringLiteral("s3")),
                 virtualHosted);
    }

    // What the client adds: Content-MD5 where the model wants a checksum, signed; the payload's
    // hash, signed, unless the signed Content-MD5 already holds the bytes to what S3 receives.
    void theClientSignsAndSumsTheBody()
    {
        HttpClient::Options options;
        options.retry.maxRetries = 0;
        HttpClient http(options);
        AwsRestXmlClient client({QStringLiteral("s3"), s3Model(), false, {}}, &http,
                                QUrl(QStringLiteral("http://127.0.0.1:1")),
                                QStringLiteral("eu-west-1"),
                                Credentials::aws(QStringLiteral("AKIATEST"), QStringLiteral("s")));
        QList<HttpRequest> sent;
        client.setRequestObserver([&sent](const HttpRequest &r) { sent.append(r); });
        QCOMPARE(client.region(), QStringLiteral("eu-west-1"));
        (void)client.call(QStringLiteral("PutBucketPolicy"),
                          json("{'Bucket': 'b1', 'Policy': '{}'}"));
        QVERIFY(!sent.isEmpty());
        const HttpRequest &r = sent.first();
        QCOMPARE(r.method, QByteArray("PUT"));
        QCOMPARE(r.url.toString(), QStringLiteral("http://127.0.0.1:1/b1?policy"));
        QCOMPARE(r.body, QByteArray("{}"));
        QCOMPARE(r.header("Content-MD5"),
                 QCryptographicHash::hash("{}", QCryptographicHash::Md5).toBase64());
        QCOMPARE(r.header("x-amz-content-sha256"), QByteArray("UNSIGNED-PAYLOAD"));
        const QByteArray authorization = r.header("Authorization");
        QVERIFY(authorization.contains("/eu-west-1/s3/aws4_request"));
        QVERIFY(authorization.contains("content-md5"));
        QVERIFY(authorization.contains("x-amz-content-sha256"));

        // A body without its MD5 (a part sent without ContentMD5) is hashed and signed.
        sent.clear();
        const QByteArray part("part of an object");
        (void)client.call(QStringLiteral("UploadPart"),
                          json("{'Bucket': 'b1', 'Key': 'k', 'PartNumber': 1, 'UploadId': 'u'}"),
                          QStringLiteral("Body"), part);
        QVERIFY(!sent.isEmpty());
        QCOMPARE(sent.first().body, part);
        QVERIFY(sent.first().header("Content-MD5").isEmpty());
        QCOMPARE(sent.first().header("x-amz-content-sha256"),
                 QCryptographicHash::hash(part, QCryptographicHash::Sha256).toHex());

        sent.clear();
        (void)client.call(QStringLiteral("GetBucketPolicy"), json("{'Bucket': 'b1'}"));
        QVERIFY(!sent.isEmpty());
        QVERIFY(sent.first().header("Content-MD5").isEmpty());
        QCOMPARE(sent.first().header("x-amz-content-sha256"),
                 QCryptographicHash::hash({}, QCryptographicHash::Sha256).toHex());
    }

    // A bucket in another region than the account's: S3 says which (301, x-amz-bucket-region),
    // the request goes to that region's endpoint signed for it, and the next goes there at once.
    void aBucketElsewhereIsFollowed()
    {
        test::TestHttpServer home;
        test::TestHttpServer there;
        QVERIFY(home.isListening() && there.isListening());
        home.enqueue({301,
                      {{"x-amz-bucket-region", "eu-central-1"}},
                      "<Error><Code>PermanentRedirect</Code><Message>elsewhere</Message></Error>"});
        const test::TestHttpServer::Reply tags{
            200, {}, "<Tagging><TagSet><Tag><Key>a</Key><Value>1</Value></Tag></TagSet></Tagging>"};
        there.enqueue(tags);
        there.enqueue(tags);
        HttpClient::Options options;
        options.retry.maxRetries = 0;
        HttpClient http(options);
        AwsRestXmlClient::Service service{QStringLiteral("s3"), s3Model(), false, {}};
        service.regionalEndpoint = [&there](const QString &region) {
            return region == QLatin1String("eu-central-1") ? there.url() : QUrl();
        };
        AwsRestXmlClient client(service, &http, home.url(), QStringLiteral("eu-west-1"),
                                Credentials::aws(QStringLiteral("AKIATEST"), QStringLiteral("s")));
        for (int i = 0; i < 2; ++i) {
            const auto reply =
                client.call(QStringLiteral("GetBucketTagging"), json("{'Bucket': 'bkt'}"));
            QVERIFY2(reply, qPrintable(reply ? QString() : reply.error().toString()));
            QCOMPARE(reply.value().body, json("{'TagSet': [{'Key': 'a', 'Value': '1'}]}"));
        }
        QCOMPARE(home.received().size(), 1);
        QCOMPARE(there.received().size(), 2);
        QVERIFY(there.received()
                    .first()
                    .header("Authorization")
                    .contains("/eu-central-1/s3/aws4_request"));
        QCOMPARE(there.received().first().target, QByteArray("/bkt?tagging"));

        // An endpoint the account sets is the only host its credentials go to.
        home.enqueue({301, {{"x-amz-bucket-region", "eu-central-1"}}, {}});
        AwsRestXmlClient own({QStringLiteral("s3"), s3Model(), false, {}}, &http, home.url(),
                             QStringLiteral("eu-west-1"),
                             Credentials::aws(QStringLiteral("AKIATEST"), QStringLiteral("s")));
        const auto refused =
            own.call(QStringLiteral("GetBucketTagging"), json("{'Bucket': 'bkt'}"));
        QVERIFY(!refused);
        QCOMPARE(there.received().size(), 2);
    }
};

QTEST_GUILESS_MAIN(tst_AwsRestXml)
#include "tst_awsrestxml.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Every declared AWS kind on moto (DeclaredKindsSuite, from tests/data/declared/KIND.json), and
// what AWS alone has: the Quick start's sample of AWS services Ready, signatures checked, a bucket
// that holds an object not emptied.
#include "awstestsupport.h"
#include "declaredkindssuite.h"
#include "privatemoto.h"

#include "annotations.h"
#include "clock.h"
#include "controller.h"
#include "delta.h"
#include "discoveredclaim.h"
#include "factoryregistry.h"
#include "genericreconciler.h"
#include "kindregistry.h"
#include "manifestreader.h"
#include "schemavalidator.h"
#include "workspace.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QXmlStreamReader>

using namespace converge;
using namespace converge::test;
using namespace std::chrono_literals;

class tst_DeclaredKinds final : public DeclaredKindsSuite
{
    Q_OBJECT

protected:
    QString missingBackend() const override
    {
        return m_emulators.hasMoto()
                   ? QString()
                   : QStringLiteral("moto_server not found (%1)").arg(m_emulators.motoMissing);
    }
    Resource account(const QString &name = {}) const override
    {
        return motoAccount(m_emulators, name.isEmpty() ? accountName() : name);
    }
    QString accountName() const override { return QStringLiteral("moto"); }
    std::unique_ptr<Factory> makeFactory() const override
    {
        AwsFactory::Options options;
        options.declared.pollAfter = 50ms;
        return std::make_unique<AwsFactory>(options);
    }
    QString apiVersion() const override { return AwsKinds::apiVersion(); }
    QStringList declaredKinds() const override { return AwsKinds::declaredKinds(); }
    QString dataFolder() const override { return QStringLiteral("declared"); }

    /// Every version and delete marker of `bucket`'s objects removed, straight through moto's
    /// S3: deleting an object of a versioned bucket leaves its versions, and a bucket holding
    /// them is not deleted.
    void removeObjectVersions(const QString &bucket)
    {
        const HttpResponse listed = motoS3(*m_http, m_emulators, "GET",
                                           QLatin1Char('/') + bucket + QStringLiteral("?versions"));
        QXmlStreamReader xml(listed.body);
        QString key;
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement())
                continue;
            // Each <Version> and <DeleteMarker> gives its Key before its VersionId.
            if (xml.name() == QLatin1String("Key")) {
                key = xml.readElementText();
            } else if (xml.name() == QLatin1String("VersionId")) {
                motoS3(
                    *m_http, m_emulators, "DELETE",
                    QStringLiteral("/%1/%2?versionId=%3").arg(bucket, key, xml.readElementText()));
            }
        }
    }

    // A Manager of `kind` under `account` (credential: env) signing with the key given, which
    // stays in the environment until the caller unsets it.
    auto managerWithKey(AwsFactory &factory, const Resource &account, const QString &kind,
                        const QString &keyId, const QString &secret)
    {
        qputenv("AWS_ACCESS_KEY_ID", keyId.toUtf8());
        qputenv("AWS_SECRET_ACCESS_KEY", secret.toUtf8());
        ManagerEnvironment env;
        env.http = m_http.get();
        return factory.manager(kind, account, env);
    }

private slots:
    // The Quick start's sample of declared kinds, Ready on moto as `scripts/dev.sh run` shows it
    // (under this test's account and names, so that parallel runs do not meet).
    void quickStartSampleIsReady()
    {
        const ManifestReader reader(m_kinds);
        const auto sample =
            reader.readFile(qEnvironmentVariable("CONVERGE_SOURCE_DIR") +
                            QStringLiteral("/resources/samples/local-emulators/aws-services.yaml"));
        QVERIFY(sample.ok());
        QList<Resource> resources{account()};
        // As scripts/dev.sh run sets it, and where it runs (a function's code is a folder of
        // the checkout).
        qputenv("CONVERGE_SAMPLE_DB_PASSWORD", "sample-password-not-a-secret");
        const QString wasCurrent = QDir::currentPath();
        QVERIFY(QDir::setCurrent(qEnvironmentVariable("CONVERGE_SOURCE_DIR")));
        const auto restored = qScopeGuard([&] { QDir::setCurrent(wasCurrent); });
        for (const ManifestObject &o : sample.objects) {
            Resource r = o.resource;
            const Kind *kind = m_kinds.find(r.kind);
            QVERIFY(kind);
            // Under the test's account; an object stays under the sample's bucket.
            if (kind->ownerKind == AwsKinds::accountKind())
                r.spec.insert(QStringLiteral("owner"),
                              QJsonObject{{QStringLiteral("name"), QStringLiteral("moto")}});
            if (!kind->backendNameField.isEmpty())
                r.spec.insert(kind->backendNameField, uniqueName(r.kind.toLower()));
            resources << r;
        }
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sample.converge"));
        const auto ws = reconciledUntilReady(path, resources);
        QVERIFY(ws);
        // Owned before owners (a bucket that holds an object is not deleted).
        for (qsizetype i = resources.size() - 1; i > 0; --i) {
            const Resource &r = resources.at(i);
            auto own = manager(r.kind);
            Target target{r, {account()}};
            for (const Resource &owner : std::as_const(resources)) {
                if (owner.metadata.name == r.ownerName() && owner.kind != AwsKinds::accountKind())
                    target.owners << owner;
            }
            if (r.kind == QLatin1String("S3Bucket"))
                removeObjectVersions(r.spec.value(QStringLiteral("name")).toString());
            if (auto seen = own->get(target)) {
                auto deleted = own->deleteResource(target, seen.value());
                QVERIFY2(deleted, qPrintable(r.key().toString() + QStringLiteral(": ") +
                                             (deleted ? QString() : deleted.error().toString())));
            }
        }
    }

    void signaturesAreChecked_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("json (SQS)") << QStringLiteral("SQSQueue");
        QTest::newRow("query (SNS)") << QStringLiteral("SNSTopic");
        QTest::newRow("rest-xml (S3)") << QStringLiteral("S3Bucket");
    }

    // A bucket that holds an object is not emptied to be deleted: the delete fails with S3's
    // BucketNotEmpty, saying so, the object stays, and the bucket goes once it is empty.
    void s3BucketNotEmptyIsNotEmptied()
    {
        auto m = manager(QStringLiteral("S3Bucket"));
        const QString name = uniqueName(QStringLiteral("s3bucket"));
        const Target target{
            resource(KindData{QStringLiteral("S3Bucket"), {}, {}, {}, {}, {}, {}, {}, {}, {}}, name,
                     {}),
            {account()}};
        auto created = m->create(target);
        QVERIFY2(created, qPrintable(created ? QString() : created.error().toString()));
        // An object put straight through moto's S3, as another tool would.
        const QString object = QLatin1Char('/') + name + QStringLiteral("/kept.txt");
        QCOMPARE(motoS3(*m_http, m_emulators, "PUT", object, "kept").status, 200);

        auto refused = m->deleteResource(target, created.value());
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, QStringLiteral("BucketNotEmpty"));
        QCOMPARE(refused.error().category, BackendError::Category::Conflict);
        QVERIFY2(refused.error().message.contains(QStringLiteral("does not empty buckets")),
                 qPrintable(refused.error().message));
        QCOMPARE(motoS3(*m_http, m_emulators, "GET", object).status, 200);
        QVERIFY(m->get(target));

        QCOMPARE(motoS3(*m_http, m_emulators, "DELETE", object).status, 204);
        QVERIFY(m->deleteResource(target, created.value()));
        QCOMPARE(m->get(target).error().category, BackendError::Category::NotFound);
    }

    // On a moto that checks SigV4: the right key reads (NotFound for a name nothing has), a wrong
    // secret is an Unauthorized error after one request, never a retry.
    void signaturesAreChecked()
    {
        QFETCH(QString, kind);
        PrivateMoto moto(m_emulators.motoServer);
        QString error;
        QVERIFY2(moto.start(&error), qPrintable(error));
        const auto key = enableMotoSignatureChecks(moto.emulators(), &error);
        QVERIFY2(key, qPrintable(error));

        std::atomic<int> requests{0};
        AwsFactory::Options options;
        options.requestObserver = [&requests](const HttpRequest &) { ++requests; };
        AwsFactory factory(options);
        Resource account = motoAccount(moto.emulators());
        account.spec.insert(QStringLiteral("credential"),
                            QJsonObject{{QStringLiteral("env"), true}});
        const Target target{resource(KindData{kind, {}, {}, {}, {}, {}, {}, {}, {}, {}},
                                     uniqueName(kind.toLower()), {}),
                            {account}};
        const auto read = [&](const QString &secret) {
            auto m = managerWithKey(factory, account, kind, key->accessKeyId, secret);
            if (!m)
                return m.error();
            requests = 0;
            auto seen = m.value()->get(target);
            return seen ? BackendError{} : seen.error();
        };
        QCOMPARE(read(key->secretAccessKey).category, BackendError::Category::NotFound);
        const BackendError refused = read(key->secretAccessKey + QLatin1Char('x'));
        qunsetenv("AWS_ACCESS_KEY_ID");
        qunsetenv("AWS_SECRET_ACCESS_KEY");
        QCOMPARE(refused.category, BackendError::Category::Unauthorized);
        QCOMPARE(requests.load(), 1);
        QVERIFY2(!refused.toString().contains(key->secretAccessKey), "the secret is in the error");
    }

    // A body S3 checks by its signed Content-MD5 goes with the payload's hash UNSIGNED-PAYLOAD
    // (a part of a large upload is hashed once): a moto that checks SigV4 takes it, a bucket with
    // a tag set (PutBucketTagging's body) is made and reads back with its tags, and a wrong secret
    // is still refused.
    void signedChecksumBodiesAreAccepted()
    {
        PrivateMoto moto(m_emulators.motoServer);
        QString error;
        QVERIFY2(moto.start(&error), qPrintable(error));
        const auto key = enableMotoSignatureChecks(moto.emulators(), &error);
        QVERIFY2(key, qPrintable(error));
        QList<HttpRequest> sent;
        AwsFactory::Options options;
        options.requestObserver = [&sent](const HttpRequest &r) { sent.append(r); };
        AwsFactory factory(options);
        Resource account = motoAccount(moto.emulators());
        account.spec.insert(QStringLiteral("credential"),
                            QJsonObject{{QStringLiteral("env"), true}});
        const QJsonObject tagging = QJsonDocument::fromJson(R"({"tagSet":
            [{"key": "team", "value": "billing"}]})")
                                        .object();
        const Target target{
            resource(KindData{QStringLiteral("S3Bucket"), {}, {}, {}, {}, {}, {}, {}, {}, {}},
                     uniqueName(QStringLiteral("s3bucket")),
                     QJsonObject{{QStringLiteral("tagging"), tagging}}),
            {account}};
        const auto manager = [&](const QString &secret) {
            return managerWithKey(factory, account, QStringLiteral("S3Bucket"), key->accessKeyId,
                                  secret);
        };
        auto m = manager(key->secretAccessKey);
        QVERIFY(m);
        auto created = m.value()->create(target);
        QVERIFY2(created, qPrintable(created ? QString() : created.error().toString()));
        const auto tagged = std::find_if(sent.cbegin(), sent.cend(), [](const HttpRequest &r) {
            return r.url.query().contains(QStringLiteral("tagging")) && r.method == "PUT";
        });
        QVERIFY(tagged != sent.cend());
        QVERIFY(!tagged->header("Content-MD5").isEmpty());
        QCOMPARE(tagged->header("x-amz-content-sha256"), QByteArray("UNSIGNED-PAYLOAD"));
        auto seen = m.value()->get(target);
        QVERIFY2(seen, qPrintable(seen ? QString() : seen.error().toString()));
        QCOMPARE(seen.value().spec.value(QStringLiteral("tagging")).toObject(), tagging);

        auto wrong = manager(key->secretAccessKey + QLatin1Char('x'));
        qunsetenv("AWS_ACCESS_KEY_ID");
        qunsetenv("AWS_SECRET_ACCESS_KEY");
        QVERIFY(wrong);
        QJsonObject spec = target.resource.spec;
        spec.insert(QStringLiteral("tagging"), QJsonDocument::fromJson(R"({"tagSet":
            [{"key": "team", "value": "ops"}]})")
                                                   .object());
        Target changed = target;
        changed.resource.spec = spec;
        auto refused =
            wrong.value()->update(changed, seen.value(), {QStringLiteral("spec.tagging")});
        QVERIFY(!refused);
        QCOMPARE(refused.error().category, BackendError::Category::Unauthorized);
        QCOMPARE(m.value()->get(target).value().spec.value(QStringLiteral("tagging")).toObject(),
                 tagging);
    }
};

QTEST_GUILESS_MAIN(tst_DeclaredKinds)
#include "tst_declaredkinds.moc"

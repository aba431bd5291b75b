// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// S3Object on moto's S3 through S3ObjectManager (S3's rest-xml model): create, read, updates of
// the content, Content-Type and metadata, drift of the bytes made behind Converge's back and
// corrected, a local contentFile followed by its MD5, listing by prefix and delimiter page by
// page (what the window's explorer asks), delete; and the kind's refusals at validation.
#include "awstestsupport.h"

#include "annotations.h"
#include "clock.h"
#include "controller.h"
#include "factoryregistry.h"
#include "genericreconciler.h"
#include "kindregistry.h"
#include "s3objectkind.h"
#include "schemavalidator.h"
#include "workspace.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QThread>
#include <QXmlStreamReader>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

using namespace std::chrono_literals;

using namespace converge;
using namespace converge::test;

class tst_S3Objects final : public QObject
{
    Q_OBJECT

private:
    Emulators m_emulators = Emulators::fromEnvironment();
    KindRegistry m_kinds;
    std::unique_ptr<HttpClient> m_http;
    AwsFactory m_factory;
    QString m_bucketName;
    Resource m_bucket;

    std::shared_ptr<Manager> manager(const QString &kind)
    {
        ManagerEnvironment env;
        env.http = m_http.get();
        auto made = m_factory.manager(kind, motoAccount(m_emulators), env);
        if (!made)
            qFatal("no manager for %s: %s", qPrintable(kind), qPrintable(made.error().message));
        return made.value();
    }

    Resource object(const QString &name, const QJsonObject &spec) const
    {
        Resource r;
        r.apiVersion = AwsKinds::apiVersion();
        r.kind = S3ObjectKind::name();
        r.metadata.name = name;
        r.spec = spec;
        r.spec.insert(QStringLiteral("owner"),
                      QJsonObject{{QStringLiteral("name"), m_bucket.metadata.name}});
        const auto errors = SchemaValidator(m_kinds).validate(r);
        if (!errors.isEmpty())
            qWarning() << "invalid test object:" << errors.first().toString();
        return r;
    }

    Target target(const Resource &r) const
    {
        return Target{r, {motoAccount(m_emulators), m_bucket}};
    }

    /// `step` (a create or an update) again while it says an upload goes on, as the engine
    /// calls it again at once: its last answer.
    static Outcome<Observation> finished(const std::function<Outcome<Observation>()> &step)
    {
        Outcome<Observation> answer = step();
        for (int steps = 0; answer && answer.value().inProgress && steps < 100; ++steps)
            answer = step();
        return answer;
    }

    /// A manager whose large uploads go one part a reconcile; `parts` counts the UploadPart
    /// requests it sends.
    std::shared_ptr<Manager> onePartAStep(std::atomic<int> &parts)
    {
        AwsFactory::Options options;
        options.objects.uploadStep = std::chrono::milliseconds(0);
        options.requestObserver = [&parts](const HttpRequest &request) {
            if (request.method == "PUT" &&
                request.url.query().contains(QLatin1String("partNumber=")))
                ++parts;
        };
        m_stepFactories.push_back(std::make_unique<AwsFactory>(options));
        ManagerEnvironment env;
        env.http = m_http.get();
        auto made =
            m_stepFactories.back()->manager(S3ObjectKind::name(), motoAccount(m_emulators), env);
        if (!made)
            qFatal("no manager: %s", qPrintable(made.error().message));
        return made.value();
    }
    std::vector<std::unique_ptr<AwsFactory>> m_stepFactories;

    /// A file of `megabytes` MiB at `path` whose bytes follow `seed`.
    static void writeFile(const QString &path, int megabytes, int seed)
    {
        QByteArray bytes(qsizetype(megabytes) * 1024 * 1024, '\0');
        for (qsizetype i = 0; i < bytes.size(); ++i)
            bytes[i] = char((i * 7919 + seed) % 251);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QCOMPARE(f.write(bytes), bytes.size());
    }

    /// The unfinished uploads of `key`, by their IDs.
    QStringList uploadsOf(const QString &key)
    {
        const QByteArray body = direct("GET", QStringLiteral("?uploads")).body;
        QStringList ids;
        QXmlStreamReader xml(body);
        QString seenKey, seenId;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isEndElement() && xml.name() == QLatin1String("Upload")) {
                if (seenKey == key)
                    ids << seenId;
                seenKey.clear();
                seenId.clear();
            }
            if (!xml.isStartElement())
                continue;
            if (xml.name() == QLatin1String("Key"))
                seenKey = xml.readElementText();
            else if (xml.name() == QLatin1String("UploadId"))
                seenId = xml.readElementText();
        }
        return ids;
    }

    /// A PUT of `body` at `key` straight to moto's S3: a change behind Converge's back.
    int putBehindTheBack(const QString &key, const QByteArray &body)
    {
        return motoS3(*m_http, m_emulators, "PUT",
                      QLatin1Char('/') + m_bucketName + QLatin1Char('/') + key, body)
            .status;
    }

    /// A signed request straight to moto's S3 (`pathAndQuery` after the bucket).
    HttpResponse direct(const QByteArray &method, const QString &pathAndQuery)
    {
        return motoS3(*m_http, m_emulators, method, QLatin1Char('/') + m_bucketName + pathAndQuery);
    }

    /// Every key and folder a listing under `prefix` gives, `pageSize` at a time.
    std::pair<QStringList, QStringList> listAll(const QString &prefix, int pageSize)
    {
        auto m = manager(S3ObjectKind::name());
        ListScope scope;
        scope.owners = {motoAccount(m_emulators), m_bucket};
        scope.prefix = prefix;
        scope.delimiter = QStringLiteral("/");
        scope.pageSize = pageSize;
        QStringList keys, folders;
        for (int pages = 0; pages < 50; ++pages) {
            auto page = m->list(scope);
            if (!page) {
                qWarning() << page.error().toString();
                break;
            }
            for (const Observation &o : page.value().items)
                keys << o.name;
            folders << page.value().prefixes;
            if (page.value().continuation.isEmpty())
                break;
            scope.continuation = page.value().continuation;
        }
        keys.sort();
        folders.sort();
        return {keys, folders};
    }

private slots:
    void initTestCase()
    {
        CONVERGE_REQUIRE_MOTO(m_emulators);
        AwsKinds::registerKinds(m_kinds);
        m_http = std::make_unique<HttpClient>();
        m_bucketName = uniqueName(QStringLiteral("objects"));
        m_bucket.apiVersion = AwsKinds::apiVersion();
        m_bucket.kind = S3ObjectKind::bucketKind();
        m_bucket.metadata.name = m_bucketName;
        m_bucket.spec =
            QJsonObject{{QStringLiteral("owner"),
                         QJsonObject{{QStringLiteral("name"), QStringLiteral("moto")}}}};
        auto made = manager(S3ObjectKind::bucketKind())
                        ->create(Target{m_bucket, {motoAccount(m_emulators)}});
        QVERIFY2(made, qPrintable(made ? QString() : made.error().toString()));
    }

    void cleanupTestCase()
    {
        if (!m_http || m_bucketName.isEmpty())
            return;
        auto objects = manager(S3ObjectKind::name());
        const auto [keys, folders] = listAll(QString(), 1000);
        Q_UNUSED(folders);
        ListScope scope;
        scope.owners = {motoAccount(m_emulators), m_bucket};
        auto page = objects->list(scope);
        if (page) {
            for (const Observation &o : page.value().items) {
                Resource r = object(o.name, {{QStringLiteral("key"), o.name},
                                             {QStringLiteral("content"), QString()}});
                objects->deleteResource(target(r), o);
            }
        }
        manager(S3ObjectKind::bucketKind())
            ->deleteResource(Target{m_bucket, {motoAccount(m_emulators)}}, Observation{});
    }

    // Create, read back as declared, each field changed and seen, bytes changed behind
    // Converge's back seen as drift and put right, delete.
    void lifecycle()
    {
        auto m = manager(S3ObjectKind::name());
        Resource r = object(QStringLiteral("readme"),
                            {{QStringLiteral("key"), QStringLiteral("notes/readme.txt")},
                             {QStringLiteral("content"), QStringLiteral("hello")},
                             {QStringLiteral("contentType"), QStringLiteral("text/plain")},
                             {QStringLiteral("metadata"),
                              QJsonObject{{QStringLiteral("team"), QStringLiteral("ops")}}},
                             {QStringLiteral("tags"),
                              QJsonObject{{QStringLiteral("env"), QStringLiteral("dev")}}}});
        auto created = m->create(target(r));
        QVERIFY2(created, qPrintable(created ? QString() : created.error().toString()));
        Observation seen = created.value();
        QCOMPARE(seen.name, QStringLiteral("notes/readme.txt"));
        QCOMPARE(seen.resourceId,
                 QStringLiteral("arn:aws:s3:::%1/notes/readme.txt").arg(m_bucketName));
        QCOMPARE(seen.spec.value(QStringLiteral("content")).toString(), QStringLiteral("hello"));
        QCOMPARE(seen.spec.value(QStringLiteral("contentType")).toString(),
                 QStringLiteral("text/plain"));
        QCOMPARE(seen.spec.value(QStringLiteral("metadata")).toObject(),
                 (QJsonObject{{QStringLiteral("team"), QStringLiteral("ops")}}));
        QCOMPARE(seen.details.value(QStringLiteral("etag")).toString(),
                 QStringLiteral("\"%1\"").arg(QString::fromLatin1(
                     QCryptographicHash::hash("hello", QCryptographicHash::Md5).toHex())));
        QCOMPARE(seen.details.value(QStringLiteral("contentLength")).toInteger(), 5);
        QCOMPARE(seen.spec.value(QStringLiteral("tags")).toObject(),
                 (QJsonObject{{QStringLiteral("env"), QStringLiteral("dev")}}));

        // Each field through update, and seen done.
        const QList<std::pair<QString, QJsonValue>> changes{
            {QStringLiteral("content"), QStringLiteral("hello again")},
            {QStringLiteral("contentType"), QStringLiteral("text/markdown")},
            {QStringLiteral("metadata"),
             QJsonObject{{QStringLiteral("team"), QStringLiteral("dev")},
                         {QStringLiteral("tier"), QStringLiteral("2")}}},
            {QStringLiteral("tags"),
             QJsonObject{{QStringLiteral("env"), QStringLiteral("prod")},
                         {QStringLiteral("cost center"), QStringLiteral("a=b/c +1")}}}};
        for (const auto &[field, value] : changes) {
            r.spec.insert(field, value);
            auto updated = m->update(target(r), seen, {QStringLiteral("spec.") + field});
            QVERIFY2(updated, qPrintable(updated ? QString() : updated.error().toString()));
            seen = updated.value();
            QCOMPARE(seen.spec.value(field), value);
            auto read = m->get(target(r));
            QVERIFY(read);
            QCOMPARE(read.value().spec.value(field), value);
        }
        QCOMPARE(seen.spec.value(QStringLiteral("content")).toString(),
                 QStringLiteral("hello again"));

        // Other bytes put behind Converge's back: drift, put right by an update.
        QCOMPARE(putBehindTheBack(QStringLiteral("notes/readme.txt"), "changed outside"), 200);
        auto drifted = m->get(target(r));
        QVERIFY(drifted);
        QVERIFY2(drifted.value()
                     .spec.value(QStringLiteral("content"))
                     .toString()
                     .startsWith(QStringLiteral("<different content")),
                 qPrintable(drifted.value().spec.value(QStringLiteral("content")).toString()));
        auto corrected = m->update(target(r), drifted.value(), {QStringLiteral("spec.content")});
        QVERIFY(corrected);
        QCOMPARE(corrected.value().spec.value(QStringLiteral("content")).toString(),
                 QStringLiteral("hello again"));
        QCOMPARE(corrected.value().spec.value(QStringLiteral("tags")).toObject().size(), 2);
        // What the spec does not manage is kept: metadata and tags left out keep S3's.
        r.spec.remove(QStringLiteral("metadata"));
        r.spec.remove(QStringLiteral("tags"));
        r.spec.insert(QStringLiteral("content"), QStringLiteral("third"));
        auto kept = m->update(target(r), corrected.value(), {QStringLiteral("spec.content")});
        QVERIFY(kept);
        QCOMPARE(kept.value()
                     .spec.value(QStringLiteral("metadata"))
                     .toObject()
                     .value(QStringLiteral("team")),
                 QJsonValue(QStringLiteral("dev")));
        r.spec.insert(QStringLiteral("tags"), QJsonObject{});
        auto tagsRead = m->get(target(r));
        QVERIFY(tagsRead);
        QCOMPARE(tagsRead.value()
                     .spec.value(QStringLiteral("tags"))
                     .toObject()
                     .value(QStringLiteral("cost center")),
                 QJsonValue(QStringLiteral("a=b/c +1")));
        // An empty map removes them.
        kept = m->update(target(r), tagsRead.value(), {QStringLiteral("spec.tags")});
        QVERIFY(kept);
        QCOMPARE(kept.value().spec.value(QStringLiteral("tags")).toObject(), QJsonObject{});

        QVERIFY(m->deleteResource(target(r), kept.value()));
        QCOMPARE(m->get(target(r)).error().category, BackendError::Category::NotFound);
        QVERIFY(m->deleteResource(target(r), kept.value())); // gone already: done
    }

    // A local file's bytes, followed by its MD5: a changed file is drift until put again.
    void contentFileIsFollowed()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("report.csv"));
        const auto write = [&path](const QByteArray &bytes) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(bytes);
        };
        write("a,b\n1,2\n");
        auto m = manager(S3ObjectKind::name());
        const Resource r =
            object(QStringLiteral("report"),
                   {{QStringLiteral("key"), QStringLiteral("reports/2026/report.csv")},
                    {QStringLiteral("contentFile"), path}});
        QVERIFY(m->dependsOnLocalFiles(r));
        auto created = m->create(target(r));
        QVERIFY2(created, qPrintable(created ? QString() : created.error().toString()));
        QCOMPARE(created.value().spec.value(QStringLiteral("contentFile")).toString(), path);
        QCOMPARE(created.value().spec.value(QStringLiteral("contentType")).toString(),
                 QStringLiteral("application/octet-stream"));
        QTest::qWait(20); // a later modification time for the file
        write("a,b\n1,2\n3,4\n");
        QFile(path).setFileTime(QDateTime::currentDateTime().addSecs(5),
                                QFileDevice::FileModificationTime);
        auto drifted = m->get(target(r));
        QVERIFY(drifted);
        QVERIFY(drifted.value().spec.value(QStringLiteral("contentFile")).toString() != path);
        auto updated = m->update(target(r), drifted.value(), {QStringLiteral("spec.contentFile")});
        QVERIFY(updated);
        QCOMPARE(updated.value().spec.value(QStringLiteral("contentFile")).toString(), path);
        QCOMPARE(updated.value().details.value(QStringLiteral("contentLength")).toInteger(), 12);
        QVERIFY(m->deleteResource(target(r), updated.value()));
    }

    // A copy of another object, with this spec's type, metadata and tags; judged against the
    // source's ETag, so a changed source is drift and copied again; a missing source says so.
    void copiesFollowTheirSource()
    {
        auto m = manager(S3ObjectKind::name());
        QCOMPARE(putBehindTheBack(QStringLiteral("src/logo one.svg"), "<svg/>"), 200);
        const QString uri = QStringLiteral("s3://%1/src/logo one.svg").arg(m_bucketName);
        Resource r = object(QStringLiteral("logo"),
                            {{QStringLiteral("key"), QStringLiteral("site/logo.svg")},
                             {QStringLiteral("copySource"), uri},
                             {QStringLiteral("contentType"), QStringLiteral("image/svg+xml")},
                             {QStringLiteral("tags"),
                              QJsonObject{{QStringLiteral("from"), QStringLiteral("src")}}}});
        auto created = m->create(target(r));
        QVERIFY2(created, qPrintable(created ? QString() : created.error().toString()));
        QCOMPARE(created.value().spec.value(QStringLiteral("copySource")).toString(), uri);
        QCOMPARE(created.value().spec.value(QStringLiteral("contentType")).toString(),
                 QStringLiteral("image/svg+xml"));
        QCOMPARE(created.value()
                     .spec.value(QStringLiteral("tags"))
                     .toObject()
                     .value(QStringLiteral("from")),
                 QJsonValue(QStringLiteral("src")));
        QCOMPARE(created.value().details.value(QStringLiteral("contentLength")).toInteger(), 6);

        QCOMPARE(putBehindTheBack(QStringLiteral("src/logo one.svg"), "<svg version=\"2\"/>"), 200);
        auto drifted = m->get(target(r));
        QVERIFY(drifted);
        QVERIFY(drifted.value().spec.value(QStringLiteral("copySource")).toString() != uri);
        auto copied = m->update(target(r), drifted.value(), {QStringLiteral("spec.copySource")});
        QVERIFY2(copied, qPrintable(copied ? QString() : copied.error().toString()));
        QCOMPARE(copied.value().spec.value(QStringLiteral("copySource")).toString(), uri);

        r.spec.insert(QStringLiteral("copySource"),
                      QStringLiteral("s3://%1/src/missing.svg").arg(m_bucketName));
        auto missing = m->get(target(r));
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, QStringLiteral("CopySourceNotFound"));
        QCOMPARE(missing.error().category, BackendError::Category::Terminal);
        QVERIFY(m->deleteResource(target(r), copied.value()));
    }

    // A file of 8 MiB or more goes up in parts of 8 MiB, as boto3 and the AWS CLI send it: S3's
    // ETag of the parts (MD5 of their MD5s, "-3") is what Converge computes, so it is no drift;
    // a changed byte is. An upload of the key a stopped process left unfinished is aborted.
    void largeFilesGoUpInParts()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.bin"));
        QByteArray bytes(20 * 1024 * 1024, '\0');
        for (qsizetype i = 0; i < bytes.size(); ++i)
            bytes[i] = char((i * 7919) % 251);
        const auto write = [&path](const QByteArray &data) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            QCOMPARE(f.write(data), data.size());
        };
        write(bytes);
        const QString key = QStringLiteral("backups/big.bin");
        // What a process that stopped mid-way leaves: an upload never completed.
        const HttpResponse left =
            direct("POST", QLatin1Char('/') + key + QStringLiteral("?uploads"));
        QCOMPARE(left.status, 200);
        QVERIFY(
            direct("GET", QStringLiteral("?uploads")).body.contains("<Key>backups/big.bin</Key>"));

        auto m = manager(S3ObjectKind::name());
        const Resource r = object(QStringLiteral("big"), {{QStringLiteral("key"), key},
                                                          {QStringLiteral("contentFile"), path}});
        auto created = finished([&] { return m->create(target(r)); });
        QVERIFY2(created, qPrintable(created ? QString() : created.error().toString()));
        QString etag = created.value().details.value(QStringLiteral("etag")).toString();
        QVERIFY2(etag.endsWith(QStringLiteral("-3\"")), qPrintable(etag));
        QCOMPARE(created.value().spec.value(QStringLiteral("contentFile")).toString(), path);
        QCOMPARE(created.value().details.value(QStringLiteral("contentLength")).toInteger(),
                 bytes.size());
        QVERIFY2(
            !direct("GET", QStringLiteral("?uploads")).body.contains("<Key>backups/big.bin</Key>"),
            "an unfinished upload of the key was left");

        bytes[12 * 1024 * 1024] = 'x';
        write(bytes);
        QFile(path).setFileTime(QDateTime::currentDateTime().addSecs(5),
                                QFileDevice::FileModificationTime);
        auto drifted = m->get(target(r));
        QVERIFY(drifted);
        QVERIFY(drifted.value().spec.value(QStringLiteral("contentFile")).toString() != path);
        auto updated = finished([&] {
            return m->update(target(r), drifted.value(), {QStringLiteral("spec.contentFile")});
        });
        QVERIFY2(updated, qPrintable(updated ? QString() : updated.error().toString()));
        QCOMPARE(updated.value().spec.value(QStringLiteral("contentFile")).toString(), path);
        QVERIFY(updated.value().details.value(QStringLiteral("etag")).toString() != etag);
        QVERIFY(m->deleteResource(target(r), updated.value()));
    }

    // A large file's parts go several at once, each lane on a thread (and connection) of its
    // own, as boto3's upload_file sends them; the object is whole all the same.
    void partsGoAtOnce()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("lanes.bin"));
        writeFile(path, 30, 7);
        std::mutex lock;
        QSet<QThread *> threads;
        AwsFactory::Options options;
        options.requestObserver = [&](const HttpRequest &request) {
            if (request.method == "PUT" &&
                request.url.query().contains(QLatin1String("partNumber="))) {
                std::lock_guard guard(lock);
                threads.insert(QThread::currentThread());
            }
        };
        m_stepFactories.push_back(std::make_unique<AwsFactory>(options));
        ManagerEnvironment env;
        env.http = m_http.get();
        auto m =
            m_stepFactories.back()->manager(S3ObjectKind::name(), motoAccount(m_emulators), env);
        QVERIFY(m);
        const Resource r = object(QStringLiteral("lanes"),
                                  {{QStringLiteral("key"), QStringLiteral("backups/lanes.bin")},
                                   {QStringLiteral("contentFile"), path}});
        auto created = finished([&] { return m.value()->create(target(r)); });
        QVERIFY2(created, qPrintable(created ? QString() : created.error().toString()));
        const QString etag = created.value().details.value(QStringLiteral("etag")).toString();
        QVERIFY2(etag.endsWith(QStringLiteral("-4\"")), qPrintable(etag));
        QVERIFY2(threads.size() >= 2, "the parts went one at a time");
        QVERIFY(!threads.contains(QThread::currentThread()));
        QVERIFY(m.value()->deleteResource(target(r), created.value()));
    }

    // A large upload goes a step at a time, saying how far it is; a process that stops between
    // steps leaves the upload, and the next (another Manager, as after a restart) goes on with
    // it from the parts S3 holds: no part is sent twice, and none is left behind.
    void aStoppedUploadIsResumed()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("resumed.bin"));
        writeFile(path, 20, 3);
        const QString key = QStringLiteral("backups/resumed.bin");
        const Resource r =
            object(QStringLiteral("resumed"),
                   {{QStringLiteral("key"), key}, {QStringLiteral("contentFile"), path}});
        std::atomic<int> parts{0};
        auto first = onePartAStep(parts)->create(target(r));
        QVERIFY2(first, qPrintable(first ? QString() : first.error().toString()));
        QVERIFY(first.value().inProgress);
        QVERIFY(first.value().continues);
        QCOMPARE(first.value().progress,
                 QStringLiteral("uploading 1 of 3 parts (8.0 MiB of 20.0 MiB)"));
        const QString uploadId = first.value().details.value(QStringLiteral("uploadId")).toString();
        QCOMPARE(uploadsOf(key), QStringList{uploadId});

        // Stopped here: a new Manager finds the upload and sends the second part only.
        auto resumed = onePartAStep(parts);
        auto second = resumed->create(target(r));
        QVERIFY2(second, qPrintable(second ? QString() : second.error().toString()));
        QCOMPARE(second.value().progress,
                 QStringLiteral("uploading 2 of 3 parts (16.0 MiB of 20.0 MiB)"));
        QCOMPARE(second.value().details.value(QStringLiteral("uploadId")).toString(), uploadId);
        auto done = resumed->create(target(r));
        QVERIFY2(done, qPrintable(done ? QString() : done.error().toString()));
        QVERIFY(!done.value().inProgress);
        QVERIFY2(done.value()
                     .details.value(QStringLiteral("etag"))
                     .toString()
                     .endsWith(QStringLiteral("-3\"")),
                 qPrintable(done.value().details.value(QStringLiteral("etag")).toString()));
        QCOMPARE(done.value().spec.value(QStringLiteral("contentFile")).toString(), path);
        QCOMPARE(parts.load(), 3);
        QVERIFY(uploadsOf(key).isEmpty());
        QVERIFY(resumed->deleteResource(target(r), done.value()));
    }

    // A file changed between two steps is not stitched onto the old parts: that upload is
    // aborted and a new one begins; a delete between steps aborts the upload too.
    void aChangedOrDeletedUploadLeavesNothing()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("changed.bin"));
        writeFile(path, 17, 5);
        const QString key = QStringLiteral("backups/changed.bin");
        const Resource r =
            object(QStringLiteral("changed"),
                   {{QStringLiteral("key"), key}, {QStringLiteral("contentFile"), path}});
        std::atomic<int> parts{0};
        auto m = onePartAStep(parts);
        auto first = m->create(target(r));
        QVERIFY(first && first.value().inProgress);
        const QString uploadId = first.value().details.value(QStringLiteral("uploadId")).toString();

        writeFile(path, 17, 6);
        QFile(path).setFileTime(QDateTime::currentDateTime().addSecs(5),
                                QFileDevice::FileModificationTime);
        auto again = m->create(target(r));
        QVERIFY2(again, qPrintable(again ? QString() : again.error().toString()));
        const QString newId = again.value().details.value(QStringLiteral("uploadId")).toString();
        QVERIFY(newId != uploadId);
        QCOMPARE(uploadsOf(key), QStringList{newId});

        Resource stored = r;
        stored.status.observed = again.value().details;
        QVERIFY(m->deleteResource(target(stored), again.value()));
        QVERIFY2(uploadsOf(key).isEmpty(), "a deleted object's upload was left");
    }

    // Through the engine a large upload goes a step a reconcile and ends Ready, with one Created
    // event for it (the steps say their progress in the condition, not as events).
    void aLargeUploadThroughTheEngine()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("objects.converge"));
        const QString file = dir.filePath(QStringLiteral("large.bin"));
        writeFile(file, 20, 9);
        auto ws = Workspace::open(path, nullptr);
        QVERIFY(ws);
        FactoryRegistry factories;
        CallCounts counts;
        AwsFactory::Options options;
        options.objects.uploadStep = std::chrono::milliseconds(0);
        factories.add(countingAwsFactory(counts, options));
        GenericReconciler reconciler(m_kinds);
        SystemClock clock;
        Controller::Options o;
        o.workers = 2;
        o.pollInterval = 20ms;
        Controller controller(path, m_kinds, factories, reconciler, clock, nullptr, o);
        const QString key = QStringLiteral("engine/large.bin");
        const Resource large =
            object(QStringLiteral("large"),
                   {{QStringLiteral("key"), key}, {QStringLiteral("contentFile"), file}});
        QList<ApplyOutcome> outcomes;
        StoreError error;
        QVERIFY(ws->apply({motoAccount(m_emulators), m_bucket, large}, &outcomes, &error));
        QVERIFY(controller.start());
        const ResourceKey at{S3ObjectKind::name(), QStringLiteral("large")};
        QTRY_VERIFY_WITH_TIMEOUT(ws->get(at) && ws->get(at)->status.ready().isReady(), 20000);
        QVERIFY2(ws->get(at)
                     ->status.observed.value(QStringLiteral("etag"))
                     .toString()
                     .endsWith(QStringLiteral("-3\"")),
                 qPrintable(ws->get(at)->status.observed.value(QStringLiteral("etag")).toString()));
        EventQuery query;
        query.involved = at;
        int created = 0; // an event said again is one row with its count
        for (const Event &e : ws->events(query))
            created += e.reason == QLatin1String("Created") ? e.count : 0;
        QCOMPARE(created, 1);
        QVERIFY(uploadsOf(key).isEmpty());
        controller.stop();
        auto m = manager(S3ObjectKind::name());
        QVERIFY(m->deleteResource(target(large), {}));
    }

    // The explorer's question: one level at a time, folders once each, page after page (under
    // a prefix of its own: other functions' objects are beside it).
    void listsByPrefixAndDelimiter()
    {
        auto m = manager(S3ObjectKind::name());
        const QStringList keys{QStringLiteral("tree/top.txt"), QStringLiteral("tree/logs/a.log"),
                               QStringLiteral("tree/logs/b.log"),
                               QStringLiteral("tree/logs/2026/c.log"),
                               QStringLiteral("tree/data/x.bin")};
        for (const QString &key : keys) {
            const Resource r =
                object(key.section(QLatin1Char('/'), -1).section(QLatin1Char('.'), 0, 0),
                       {{QStringLiteral("key"), key}, {QStringLiteral("content"), key}});
            auto made = m->create(target(r));
            QVERIFY2(made, qPrintable(made ? QString() : made.error().toString()));
        }
        for (const int pageSize : {1000, 1}) {
            const auto [rootKeys, rootFolders] = listAll(QStringLiteral("tree/"), pageSize);
            QCOMPARE(rootKeys, QStringList{QStringLiteral("tree/top.txt")});
            QCOMPARE(rootFolders,
                     (QStringList{QStringLiteral("tree/data/"), QStringLiteral("tree/logs/")}));
            const auto [logKeys, logFolders] = listAll(QStringLiteral("tree/logs/"), pageSize);
            QCOMPARE(logKeys, (QStringList{QStringLiteral("tree/logs/a.log"),
                                           QStringLiteral("tree/logs/b.log")}));
            QCOMPARE(logFolders, QStringList{QStringLiteral("tree/logs/2026/")});
        }
    }

    // Through the engine as a person's workspace runs it: a bucket and its objects Ready; a key
    // changed in the workspace refused before any write and Ready again once restored; the skip
    // policy writing nothing; delete deleting, detach-on-delete leaving the object in S3.
    void throughTheEngine()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("objects.converge"));
        auto ws = Workspace::open(path, nullptr);
        QVERIFY(ws);
        FactoryRegistry factories;
        CallCounts counts;
        factories.add(countingAwsFactory(counts));
        GenericReconciler reconciler(m_kinds);
        SystemClock clock;
        Controller::Options o;
        o.workers = 2;
        o.pollInterval = 20ms;
        o.backoff.fastBase = 50ms;
        o.backoff.fastCap = 200ms;
        Controller controller(path, m_kinds, factories, reconciler, clock, nullptr, o);

        Resource bucket = m_bucket;
        bucket.metadata.name = uniqueName(QStringLiteral("engine"));
        const auto inBucket = [&](const QString &name, const QString &key) {
            Resource r =
                object(name, {{QStringLiteral("key"), key}, {QStringLiteral("content"), key}});
            r.spec.insert(QStringLiteral("owner"),
                          QJsonObject{{QStringLiteral("name"), bucket.metadata.name}});
            return r;
        };
        Resource kept = inBucket(QStringLiteral("kept"), QStringLiteral("engine/kept.txt"));
        kept.metadata.annotations.insert(Annotations::reconcilePolicy(),
                                         QStringLiteral("detach-on-delete"));
        const Resource removed =
            inBucket(QStringLiteral("removed"), QStringLiteral("engine/removed.txt"));
        QList<ApplyOutcome> outcomes;
        StoreError error;
        QVERIFY(ws->apply({motoAccount(m_emulators), bucket, kept, removed}, &outcomes, &error));
        QVERIFY(controller.start());
        const auto ready = [&](const QString &kind, const QString &name) {
            const auto r = ws->get(ResourceKey{kind, name});
            return r && r->status.ready().isReady() &&
                   r->status.ready().observedGeneration == r->metadata.generation;
        };
        const QString objectKind = S3ObjectKind::name();
        QTRY_VERIFY_WITH_TIMEOUT(ready(objectKind, QStringLiteral("kept")) &&
                                     ready(objectKind, QStringLiteral("removed")),
                                 20000);

        // The key cannot change: refused before any write, the object still there.
        const int writes = counts.writes();
        const Resource stored = *ws->get(ResourceKey{objectKind, QStringLiteral("kept")});
        Resource renamed = stored;
        renamed.spec.insert(QStringLiteral("key"), QStringLiteral("engine/renamed.txt"));
        QVERIFY(ws->apply({renamed}, &outcomes, &error));
        QTRY_VERIFY_WITH_TIMEOUT(
            ws->get(ResourceKey{objectKind, QStringLiteral("kept")})->status.ready().reason ==
                QLatin1String("ImmutableFieldChanged"),
            20000);
        QCOMPARE(counts.writes(), writes);
        QVERIFY(ws->apply({stored}, &outcomes, &error));
        QTRY_VERIFY_WITH_TIMEOUT(ready(objectKind, QStringLiteral("kept")), 20000);
        QCOMPARE(counts.writes(), writes);

        // Under the skip policy nothing is written: an object that is not there is not made.
        Resource skipped =
            inBucket(QStringLiteral("skipped"), QStringLiteral("engine/skipped.txt"));
        skipped.metadata.annotations.insert(Annotations::reconcilePolicy(), QStringLiteral("skip"));
        QVERIFY(ws->apply({skipped}, &outcomes, &error));
        QTRY_VERIFY_WITH_TIMEOUT(
            ws->get(ResourceKey{objectKind, QStringLiteral("skipped")})->status.ready().reason ==
                QLatin1String("BackendResourceNotFound"),
            20000);
        QCOMPARE(counts.writes(), writes);

        // Delete and detach-on-delete.
        QVERIFY(ws->requestDeletion(ResourceKey{objectKind, QStringLiteral("kept")}, &error));
        QVERIFY(ws->requestDeletion(ResourceKey{objectKind, QStringLiteral("removed")}, &error));
        QVERIFY(ws->requestDeletion(ResourceKey{objectKind, QStringLiteral("skipped")}, &error));
        QTRY_VERIFY_WITH_TIMEOUT(!ws->get(ResourceKey{objectKind, QStringLiteral("kept")}) &&
                                     !ws->get(ResourceKey{objectKind, QStringLiteral("removed")}),
                                 20000);
        auto m = manager(objectKind);
        const Target keptTarget{kept, {motoAccount(m_emulators), bucket}};
        auto still = m->get(keptTarget);
        QVERIFY2(still, "detach-on-delete deleted the object");
        QCOMPARE(m->get(Target{removed, {motoAccount(m_emulators), bucket}}).error().category,
                 BackendError::Category::NotFound);
        QVERIFY(m->deleteResource(keptTarget, still.value()));
        QVERIFY(ws->requestDeletion(bucket.key(), &error));
        QTRY_VERIFY_WITH_TIMEOUT(!ws->get(bucket.key()), 20000);
        controller.stop();
    }

    // The kind's own rules, before any request.
    void refusedAtValidation_data()
    {
        QTest::addColumn<QJsonObject>("spec");
        QTest::addColumn<QString>("says");
        QTest::newRow("neither content")
            << QJsonObject{}
            << QStringLiteral(
                   "spec: exactly one of content, contentFile, copySource must be given");
        QTest::newRow("copy source")
            << QJsonObject{{QStringLiteral("copySource"), QStringLiteral("bucket/key")}}
            << QStringLiteral("spec.copySource: \"bucket/key\" is not valid (s3://BUCKET/KEY)");
        QTest::newRow("both") << QJsonObject{{QStringLiteral("content"), QStringLiteral("a")},
                                             {QStringLiteral("contentFile"), QStringLiteral("b")}}
                              << QStringLiteral("exactly one of content, contentFile");
        QTest::newRow("metadata name")
            << QJsonObject{{QStringLiteral("content"), QStringLiteral("a")},
                           {QStringLiteral("metadata"),
                            QJsonObject{{QStringLiteral("Team"), QStringLiteral("x")}}}}
            << QStringLiteral("spec.metadata");
        QTest::newRow("tag value")
            << QJsonObject{{QStringLiteral("content"), QStringLiteral("a")},
                           {QStringLiteral("tags"),
                            QJsonObject{{QStringLiteral("k"), QStringLiteral("a&b")}}}}
            << QStringLiteral("spec.tags.k: \"a&b\" is not valid (letters, digits, spaces");
        QTest::newRow("key too long")
            << QJsonObject{{QStringLiteral("content"), QStringLiteral("a")},
                           {QStringLiteral("key"), QString(1025, QLatin1Char('k'))}}
            << QStringLiteral("spec.key: must be at most 1024");
    }

    void refusedAtValidation()
    {
        QFETCH(QJsonObject, spec);
        QFETCH(QString, says);
        Resource r;
        r.apiVersion = AwsKinds::apiVersion();
        r.kind = S3ObjectKind::name();
        r.metadata.name = QStringLiteral("o1");
        r.spec = spec;
        r.spec.insert(QStringLiteral("owner"),
                      QJsonObject{{QStringLiteral("name"), QStringLiteral("b")}});
        const auto errors = SchemaValidator(m_kinds).validate(r);
        QVERIFY(!errors.isEmpty());
        QVERIFY2(errors.first().toString().contains(says), qPrintable(errors.first().toString()));
    }
};

QTEST_GUILESS_MAIN(tst_S3Objects)
#include "tst_s3objects.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Every declared Google Cloud kind on Google's emulators (DeclaredKindsSuite, from
// tests/data/declared/gcp/KIND.json), under a project of its own on the fixture's Pub/Sub
// emulator.
#include "declaredkindssuite.h"
#include "gcpfactory.h"
#include "gcpkinds.h"

#include "declaredservices.h"

using namespace converge;
using namespace converge::test;
using namespace std::chrono_literals;

class tst_GcpDeclaredKinds final : public DeclaredKindsSuite
{
    Q_OBJECT

    const QString m_projectId = uniqueGcpProject(QStringLiteral("declared"));

protected:
    QString missingBackend() const override
    {
        return m_emulators.hasPubSub() ? QString()
                                       : QStringLiteral("the Pub/Sub emulator not found (%1)")
                                             .arg(m_emulators.pubsubMissing);
    }
    QString missingFor(const QString &kind) const override
    {
        return kind.startsWith(QLatin1String("Spanner")) && !m_emulators.hasSpanner()
                   ? QStringLiteral("the Spanner emulator not found (%1)")
                         .arg(m_emulators.spannerMissing)
                   : QString();
    }
    Resource account(const QString &name = {}) const override
    {
        Resource r;
        r.apiVersion = GcpKinds::apiVersion();
        r.kind = GcpKinds::projectKind();
        r.metadata.name = name.isEmpty() ? accountName() : name;
        QJsonObject endpoints{{QStringLiteral("pubsub"), m_emulators.pubsubEndpoint().toString()}};
        if (m_emulators.hasSpanner())
            endpoints.insert(QStringLiteral("spanner"), m_emulators.spannerEndpoint().toString());
        r.spec = QJsonObject{
            {QStringLiteral("projectId"), m_projectId},
            {QStringLiteral("endpoints"), endpoints},
            {QStringLiteral("credential"), QJsonObject{{QStringLiteral("emulator"), true}}}};
        return r;
    }
    QString accountName() const override { return QStringLiteral("emulators"); }
    std::unique_ptr<Factory> makeFactory() const override
    {
        GcpFactory::Options options;
        options.declared.pollAfter = 50ms;
        return std::make_unique<GcpFactory>(options);
    }
    QString apiVersion() const override { return GcpKinds::apiVersion(); }
    QStringList declaredKinds() const override { return GcpKinds::declared().kindNames(); }
    QString dataFolder() const override { return QStringLiteral("declared/gcp"); }

private slots:
    // A topic's or subscription's PUT answers the resource as the read does: it is the
    // observation, one request a create (benchmark 10 counts the same over 1,000).
    void aCreateIsOneRequest()
    {
        QStringList sent;
        GcpFactory::Options options;
        options.requestObserver = [&sent](const HttpRequest &r) {
            sent << QString::fromLatin1(r.method) + QLatin1Char(' ') + r.url.path();
        };
        GcpFactory factory(options);
        ManagerEnvironment env;
        env.http = m_http.get();
        auto m = factory.manager(QStringLiteral("PubSubTopic"), account(), env);
        QVERIFY(m);
        Resource topic;
        topic.apiVersion = apiVersion();
        topic.kind = QStringLiteral("PubSubTopic");
        topic.metadata.name = uniqueResourceName(QStringLiteral("pubsubtopic"));
        topic.spec = {{u"owner"_qs, QJsonObject{{u"name"_qs, accountName()}}},
                      {u"messageRetentionDuration"_qs, u"86400s"_qs}};
        const Target target{topic, {account()}};
        const auto created = m.value()->create(target);
        QVERIFY2(created, qPrintable(created ? QString() : created.error().toString()));
        QCOMPARE(sent.size(), 1);
        QVERIFY2(sent.constFirst().startsWith(u"PUT /v1/projects/"_qs),
                 qPrintable(sent.join(u", ")));
        const Kind *kind = m_kinds.find(topic.kind);
        QVERIFY(kind);
        QVERIFY2(Delta::between(kind->spec, topic.spec, created.value().spec).isEmpty(),
                 QJsonDocument(created.value().spec).toJson().constData());
        QCOMPARE(created.value().resourceId,
                 QStringLiteral("projects/%1/topics/%2")
                     .arg(account().spec.value(u"projectId").toString(), topic.metadata.name));
        QVERIFY(m.value()->deleteResource(target, created.value()));
    }

    // The Quick start's Google Cloud sample, Ready on the emulators as `scripts/dev.sh run`
    // shows it (under this test's project and names, so that parallel runs do not meet).
    void quickStartSampleIsReady()
    {
        if (const QString missing = missingFor(QStringLiteral("SpannerDatabase"));
            !missing.isEmpty())
            QSKIP(qPrintable(QStringLiteral("skipped: ") + missing));
        const ManifestReader reader(m_kinds);
        const auto sample =
            reader.readFile(qEnvironmentVariable("CONVERGE_SOURCE_DIR") +
                            QStringLiteral("/resources/samples/local-emulators/google-cloud.yaml"));
        QVERIFY(sample.ok());
        QList<Resource> resources{account()};
        for (const ManifestObject &o : sample.objects) {
            Resource r = o.resource;
            if (r.kind == GcpKinds::projectKind()) {
                QCOMPARE(r.spec.value(QStringLiteral("credential")).toObject(),
                         account().spec.value(QStringLiteral("credential")).toObject());
                continue;
            }
            const Kind *kind = m_kinds.find(r.kind);
            QVERIFY(kind);
            r.spec.insert(QStringLiteral("owner"),
                          QJsonObject{{QStringLiteral("name"), accountName()}});
            r.spec.insert(kind->backendNameField, uniqueResourceName(r.kind.toLower()));
            resources << r;
        }
        QVERIFY(resources.size() >= 3);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sample.converge"));
        const auto ws = reconciledUntilReady(path, resources);
        QVERIFY(ws);
        // Owned and named before what they name.
        for (qsizetype i = resources.size() - 1; i > 0; --i) {
            const Resource stored = *ws->get(resources.at(i).key());
            auto m = manager(stored.kind);
            const Target target{stored, {account()}};
            if (auto seen = m->get(target))
                QVERIFY(m->deleteResource(target, seen.value()));
        }
    }
};

QTEST_GUILESS_MAIN(tst_GcpDeclaredKinds)
#include "tst_gcpdeclaredkinds.moc"

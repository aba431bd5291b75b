// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The Google Cloud kinds as Config Connector resources, as their declarations' kcc: parts say.
#include "kccexporter.h"

#include "annotations.h"
#include "gcpkinds.h"

#include <QJsonArray>
#include <QTest>

using namespace converge;

namespace {

Resource gcp(const QString &kind, const QString &name, QJsonObject spec)
{
    Resource r;
    r.apiVersion = GcpKinds::apiVersion();
    r.kind = kind;
    r.metadata.name = name;
    if (kind != GcpKinds::projectKind())
        spec.insert(QStringLiteral("owner"), QJsonObject{{QStringLiteral("name"), u"gcp"_qs}});
    r.spec = spec;
    return r;
}

Resource project()
{
    return gcp(GcpKinds::projectKind(), QStringLiteral("gcp"),
               {{QStringLiteral("projectId"), QStringLiteral("team-prod-1")},
                {QStringLiteral("credential"), QJsonObject{{u"gcloud"_qs, QJsonObject{}}}}});
}

QJsonObject documentOf(const ExportResult &result, const QString &name)
{
    for (const QJsonObject &d : result.documents) {
        if (d[u"metadata"][u"name"].toString() == name)
            return d;
    }
    return {};
}

} // namespace

class tst_KccExporter final : public QObject
{
    Q_OBJECT

private slots:
    void topicsAndSubscriptions()
    {
        Resource topic =
            gcp(QStringLiteral("PubSubTopic"), QStringLiteral("orders"),
                {{u"resourceID"_qs, u"orders-v2"_qs},
                 {u"labels"_qs, QJsonObject{{u"team"_qs, u"billing"_qs}}},
                 {u"messageRetentionDuration"_qs, u"86400s"_qs},
                 {u"kmsKeyName"_qs, u"projects/p/locations/l/keyRings/r/cryptoKeys/k"_qs}});
        topic.metadata.annotations.insert(Annotations::reconcilePolicy(), u"detach-on-delete"_qs);
        topic.metadata.annotations.insert(Annotations::resourceId(),
                                          u"projects/team-prod-1/topics/orders-v2"_qs);
        const Resource byRef =
            gcp(QStringLiteral("PubSubSubscription"), QStringLiteral("billing"),
                {{u"resourceID"_qs, u"billing"_qs},
                 {u"topicRef"_qs, QJsonObject{{u"name"_qs, u"orders"_qs}}},
                 {u"ackDeadlineSeconds"_qs, 30},
                 {u"deadLetterPolicy"_qs,
                  QJsonObject{{u"deadLetterTopic"_qs, u"projects/team-prod-1/topics/dead"_qs},
                              {u"maxDeliveryAttempts"_qs, 5}}},
                 {u"pushConfig"_qs, QJsonObject{{u"pushEndpoint"_qs, u"https://x.example/push"_qs},
                                                {u"pubsubWrapper"_qs, QJsonObject{}}}}});
        Resource byName = gcp(QStringLiteral("PubSubSubscription"), QStringLiteral("audit"),
                              {{u"topic"_qs, u"projects/team-prod-1/topics/audit"_qs}});
        byName.metadata.annotations.insert(Annotations::reconcilePolicy(), u"skip"_qs);
        const QList<Resource> all{project(), topic, byRef, byName};

        const ExportResult result = KccExporter({u"team"_qs}).exportResources(all, all);
        QVERIFY(result.complete());
        QCOMPARE(result.documents.size(), 3);

        const QJsonObject t = documentOf(result, u"orders"_qs);
        QCOMPARE(t[u"apiVersion"].toString(), u"pubsub.cnrm.cloud.google.com/v1beta1"_qs);
        QCOMPARE(t[u"kind"].toString(), u"PubSubTopic"_qs);
        QCOMPARE(t[u"metadata"][u"namespace"].toString(), u"team"_qs);
        QCOMPARE(t[u"metadata"][u"labels"][u"team"].toString(), u"billing"_qs);
        const QJsonObject annotations = t[u"metadata"][u"annotations"].toObject();
        QCOMPARE(annotations.value(u"cnrm.cloud.google.com/project-id").toString(),
                 u"team-prod-1"_qs);
        QCOMPARE(annotations.value(u"cnrm.cloud.google.com/deletion-policy").toString(),
                 u"abandon"_qs);
        for (auto it = annotations.begin(); it != annotations.end(); ++it)
            QVERIFY2(!it.key().startsWith(u"converge.dev/"), qPrintable(it.key()));
        const QJsonObject ts = t[u"spec"].toObject();
        QCOMPARE(ts.value(u"resourceID").toString(), u"orders-v2"_qs); // differs from the name
        QVERIFY(!ts.contains(u"labels"));
        QVERIFY(!ts.contains(u"owner"));
        QVERIFY(!ts.contains(u"kmsKeyName"));
        QCOMPARE(ts[u"kmsKeyRef"][u"external"].toString(),
                 u"projects/p/locations/l/keyRings/r/cryptoKeys/k"_qs);

        const QJsonObject s = documentOf(result, u"billing"_qs)[u"spec"].toObject();
        QVERIFY(!s.contains(u"resourceID")); // the same as metadata.name
        QCOMPARE(s[u"topicRef"].toObject(), (QJsonObject{{u"name"_qs, u"orders"_qs}}));
        QCOMPARE(
            s[u"deadLetterPolicy"].toObject(),
            (QJsonObject{{u"deadLetterTopicRef"_qs,
                          QJsonObject{{u"external"_qs, u"projects/team-prod-1/topics/dead"_qs}}},
                         {u"maxDeliveryAttempts"_qs, 5}}));
        QCOMPARE(s[u"pushConfig"].toObject(),
                 (QJsonObject{{u"pushEndpoint"_qs, u"https://x.example/push"_qs}}));

        const QJsonObject a = documentOf(result, u"audit"_qs)[u"spec"].toObject();
        QCOMPARE(a[u"topicRef"][u"external"].toString(), u"projects/team-prod-1/topics/audit"_qs);
        QVERIFY(!a.contains(u"topic"));

        const QString notes = result.notes.join(u'\n');
        QVERIFY2(notes.contains(u"GcpProject/gcp: not a resource in Config Connector"),
                 qPrintable(notes));
        QVERIFY2(notes.contains(u"PubSubSubscription/audit: the skip policy is not exported"),
                 qPrintable(notes));
        QVERIFY2(notes.contains(u"spec.pushConfig.pubsubWrapper is not exported"),
                 qPrintable(notes));
        QVERIFY2(!notes.contains(u"firstRevisionId"), qPrintable(notes)); // not given: no note
    }

    void aProjectNotInTheWorkspaceWritesNothing()
    {
        const Resource topic = gcp(QStringLiteral("PubSubTopic"), QStringLiteral("orders"), {});
        const ExportResult result = KccExporter({}).exportResources({topic}, {topic});
        QVERIFY(!result.ok());
        QVERIFY(result.documents.isEmpty());
        QVERIFY2(result.missing.join(u'\n').contains(u"GcpProject gcp is not in the workspace"),
                 qPrintable(result.missing.join(u'\n')));
    }
};

QTEST_GUILESS_MAIN(tst_KccExporter)
#include "tst_kccexporter.moc"

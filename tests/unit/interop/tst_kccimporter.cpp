// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Config Connector's resources read as the Google Cloud kinds, as their declarations' kcc:
// parts say; and back through KccExporter unchanged.
#include "kccimporter.h"

#include "annotations.h"
#include "gcpkinds.h"
#include "kccexporter.h"
#include "kindregistry.h"
#include "manifestreader.h"

#include <QTest>

using namespace converge;

namespace {

Resource gcpProject(const QString &name, const QString &projectId)
{
    Resource r;
    r.apiVersion = GcpKinds::apiVersion();
    r.kind = GcpKinds::projectKind();
    r.metadata.name = name;
    r.spec = {{u"projectId"_qs, projectId}, {u"credential"_qs, QJsonObject{}}};
    return r;
}

} // namespace

class tst_KccImporter final : public QObject
{
    Q_OBJECT

    KindRegistry m_kinds;

    ManifestReader::Result read(const QByteArray &yaml, const QList<Resource> &projects,
                                const QString &project = {})
    {
        const KccImporter kcc(projects, project);
        ManifestReader::Options options;
        options.translators = {&kcc};
        return ManifestReader(m_kinds, options).read(yaml, u"kcc.yaml"_qs);
    }

    static QString errorsOf(const ManifestReader::Result &r)
    {
        QStringList out;
        for (const ManifestError &e : r.errors)
            out << e.toString();
        return out.join(u'\n');
    }

    static const Resource *find(const ManifestReader::Result &r, const QString &kind,
                                const QString &name)
    {
        for (const ManifestObject &o : r.objects) {
            if (o.resource.kind == kind && o.resource.metadata.name == name)
                return &o.resource;
        }
        return nullptr;
    }

private slots:
    void initTestCase() { GcpKinds::registerKinds(m_kinds); }

    void underTheProjectOfItsAnnotation()
    {
        const auto r =
            read("apiVersion: pubsub.cnrm.cloud.google.com/v1beta1\n"
                 "kind: PubSubSubscription\n"
                 "metadata:\n"
                 "  name: billing\n"
                 "  labels: {team: billing, app.kubernetes.io/part-of: shop}\n"
                 "  annotations:\n"
                 "    cnrm.cloud.google.com/project-id: team-prod-1\n"
                 "    cnrm.cloud.google.com/deletion-policy: abandon\n"
                 "    cnrm.cloud.google.com/state-into-spec: absent\n"
                 "spec:\n"
                 "  resourceID: billing-v2\n"
                 "  topicRef: {name: orders}\n"
                 "  ackDeadlineSeconds: 30\n"
                 "  deadLetterPolicy:\n"
                 "    deadLetterTopicRef: {name: dead}\n"
                 "    maxDeliveryAttempts: 5\n"
                 "---\n"
                 "apiVersion: pubsub.cnrm.cloud.google.com/v1beta1\n"
                 "kind: PubSubTopic\n"
                 "metadata:\n"
                 "  name: dead\n"
                 "  annotations: {cnrm.cloud.google.com/project-id: team-prod-1}\n"
                 "spec:\n"
                 "  resourceID: dead-letters\n"
                 "  kmsKeyRef: {external: projects/p/locations/l/keyRings/r/cryptoKeys/k}\n",
                 {gcpProject(u"prod"_qs, u"team-prod-1"_qs)});
        QVERIFY2(r.ok(), qPrintable(errorsOf(r)));
        QCOMPARE(r.objects.size(), 2); // no project created: the workspace has it
        const Resource *s = find(r, u"PubSubSubscription"_qs, u"billing"_qs);
        QVERIFY(s);
        QCOMPARE(s->ownerName(), u"prod"_qs);
        QCOMPARE(s->spec.value(u"resourceID").toString(), u"billing-v2"_qs);
        QCOMPARE(s->spec.value(u"topicRef").toObject(), (QJsonObject{{u"name"_qs, u"orders"_qs}}));
        // A KCC object named by {name}: its Google name, by its resourceID in the same files.
        QCOMPARE(s->spec[u"deadLetterPolicy"][u"deadLetterTopic"].toString(),
                 u"projects/team-prod-1/topics/dead-letters"_qs);
        QCOMPARE(s->spec.value(u"labels").toObject(), (QJsonObject{{u"team"_qs, u"billing"_qs}}));
        QCOMPARE(s->metadata.labels.value(u"app.kubernetes.io/part-of"_qs), u"shop"_qs);
        QCOMPARE(s->metadata.annotations.value(Annotations::reconcilePolicy()),
                 u"detach-on-delete"_qs);
        QCOMPARE(s->metadata.annotations.value(u"cnrm.cloud.google.com/state-into-spec"_qs),
                 u"absent"_qs);
        QVERIFY(!s->metadata.annotations.contains(u"cnrm.cloud.google.com/project-id"_qs));
        const Resource *t = find(r, u"PubSubTopic"_qs, u"dead"_qs);
        QVERIFY(t);
        QCOMPARE(t->spec.value(u"kmsKeyName").toString(),
                 u"projects/p/locations/l/keyRings/r/cryptoKeys/k"_qs);

        // Exported again: the same documents, but for the project the workspace adds.
        QList<Resource> resources{gcpProject(u"prod"_qs, u"team-prod-1"_qs)};
        for (const ManifestObject &o : r.objects)
            resources << o.resource;
        const ExportResult back = KccExporter({}).exportResources(resources, resources);
        QVERIFY(back.ok());
        QCOMPARE(back.documents.size(), 2);
        for (const QJsonObject &d : back.documents) {
            if (d[u"metadata"][u"name"].toString() != u"billing")
                continue;
            QCOMPARE(d[u"spec"][u"topicRef"].toObject(), (QJsonObject{{u"name"_qs, u"orders"_qs}}));
            QCOMPARE(
                d[u"metadata"][u"annotations"][u"cnrm.cloud.google.com/deletion-policy"].toString(),
                u"abandon"_qs);
            QCOMPARE(d[u"metadata"][u"labels"].toObject().size(), 2);
        }
    }

    void aProjectTheWorkspaceLacksIsCreatedUnconnected()
    {
        const auto r = read("apiVersion: pubsub.cnrm.cloud.google.com/v1beta1\n"
                            "kind: PubSubTopic\n"
                            "metadata:\n"
                            "  name: orders\n"
                            "  annotations: {cnrm.cloud.google.com/project-id: team-dev-2}\n",
                            {});
        QVERIFY2(r.ok(), qPrintable(errorsOf(r)));
        const Resource *p = find(r, GcpKinds::projectKind(), u"team-dev-2"_qs);
        QVERIFY(p);
        QCOMPARE(p->spec.value(u"projectId").toString(), u"team-dev-2"_qs);
        QCOMPARE(p->spec.value(u"credential").toObject(), QJsonObject());
        QCOMPARE(find(r, u"PubSubTopic"_qs, u"orders"_qs)->ownerName(), u"team-dev-2"_qs);
        QVERIFY(!r.notes.isEmpty());
    }

    void withoutTheAnnotationTheNamespaceUnderGcpProject()
    {
        const QByteArray topic = "apiVersion: pubsub.cnrm.cloud.google.com/v1beta1\n"
                                 "kind: PubSubTopic\n"
                                 "metadata: {name: orders, namespace: team-stage-3}\n";
        const auto refused = read(topic, {});
        QVERIFY(!refused.ok());
        QVERIFY2(errorsOf(refused).contains(u"kcc.yaml:3:"_qs) &&
                     errorsOf(refused).contains(u"give --gcp-project NAME"_qs),
                 qPrintable(errorsOf(refused)));

        const auto r = read(topic, {}, u"stage"_qs);
        QVERIFY2(r.ok(), qPrintable(errorsOf(r)));
        QCOMPARE(find(r, GcpKinds::projectKind(), u"stage"_qs)->spec.value(u"projectId"),
                 u"team-stage-3"_qs);
        const auto existing =
            read(topic, {gcpProject(u"stage"_qs, u"team-stage-9"_qs)}, u"stage"_qs);
        QVERIFY2(existing.ok(), qPrintable(errorsOf(existing)));
        QCOMPARE(existing.objects.size(), 1);
    }

    void whatConvergeCannotReadIsRefusedWhereItIs()
    {
        const auto r = read("apiVersion: pubsub.cnrm.cloud.google.com/v1beta1\n"
                            "kind: PubSubSchema\n"
                            "metadata:\n"
                            "  name: s\n"
                            "  annotations: {cnrm.cloud.google.com/project-id: team-prod-1}\n"
                            "---\n"
                            "apiVersion: pubsub.cnrm.cloud.google.com/v1beta1\n"
                            "kind: PubSubTopic\n"
                            "metadata:\n"
                            "  name: t\n"
                            "  annotations: {cnrm.cloud.google.com/project-id: team-prod-1}\n"
                            "spec:\n"
                            "  kmsKeyRef: {name: a-key-of-the-cluster}\n",
                            {});
        QVERIFY(!r.ok());
        const QString errors = errorsOf(r);
        QVERIFY2(errors.contains(u"PubSubSchema has no Converge counterpart"_qs),
                 qPrintable(errors));
        QVERIFY2(errors.contains(u"spec.kmsKeyRef: names an object of the cluster"_qs),
                 qPrintable(errors));
    }
};

QTEST_GUILESS_MAIN(tst_KccImporter)
#include "tst_kccimporter.moc"

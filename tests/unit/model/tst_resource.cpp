// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "resource.h"

#include <QJsonArray>
#include <QTest>

using namespace converge;

namespace {

const QDateTime t0 = QDateTime(QDate(2024, 5, 1), QTime(10, 0), Qt::UTC);

Resource fullResource()
{
    Resource r;
    r.apiVersion = QStringLiteral("test.converge.dev/v1");
    r.kind = QStringLiteral("Widget");
    r.metadata.name = QStringLiteral("w1");
    r.metadata.uid = QStringLiteral("3f1c");
    r.metadata.generation = 4;
    r.metadata.resourceVersion = 17;
    r.metadata.labels = {{QStringLiteral("team"), QStringLiteral("billing")}};
    r.metadata.annotations = {{Annotations::reconcilePolicy(), QStringLiteral("skip")},
                              {Annotations::resourceId(), QStringLiteral("/x/y")}};
    r.metadata.finalizers = {Annotations::finalizer()};
    r.metadata.creationTimestamp = t0;
    r.metadata.deletionTimestamp = t0.addSecs(3600).addMSecs(5);
    r.spec = QJsonObject{
        {QStringLiteral("owner"), QJsonObject{{QStringLiteral("name"), QStringLiteral("g1")}}},
        {QStringLiteral("replicas"), 3},
        {QStringLiteral("tags"),
         QJsonArray{QJsonObject{{QStringLiteral("key"), QStringLiteral("a")}}}}};
    r.status.conditions = {Condition::ready(4, t0.addSecs(5))};
    r.status.observed = QJsonObject{{QStringLiteral("etag"), QStringLiteral("0x1")}};
    return r;
}

} // namespace

class tst_Resource final : public QObject
{
    Q_OBJECT

private slots:
    void roundTrip_data()
    {
        QTest::addColumn<Resource>("resource");
        QTest::newRow("full") << fullResource();
        Resource minimal;
        minimal.apiVersion = QStringLiteral("test.converge.dev/v1");
        minimal.kind = QStringLiteral("Gadget");
        minimal.metadata.name = QStringLiteral("g1");
        QTest::newRow("minimal") << minimal;
        Resource failing = fullResource();
        failing.status.conditions = {Condition::notReady(Condition::Severity::Error,
                                                         QStringLiteral("BadRequest"),
                                                         QStringLiteral("nope"), 4, t0)};
        QTest::newRow("failing") << failing;
    }

    void roundTrip()
    {
        QFETCH(Resource, resource);
        QString error;
        const Resource back = Resource::fromJson(resource.toJson(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(back.toJson(), resource.toJson());
        QCOMPARE(back, resource);
    }

    void withoutStatus()
    {
        const QJsonObject json = fullResource().toJson(false);
        QVERIFY(!json.contains(QStringLiteral("status")));
        const Resource back = Resource::fromJson(json);
        QVERIFY(back.status.conditions.isEmpty());
        QCOMPARE(back.spec, fullResource().spec);
    }

    void kubernetesShape()
    {
        const QJsonObject json = fullResource().toJson();
        const QJsonObject meta = json.value(QStringLiteral("metadata")).toObject();
        QCOMPARE(meta.value(QStringLiteral("resourceVersion")), QJsonValue(QStringLiteral("17")));
        QCOMPARE(meta.value(QStringLiteral("creationTimestamp")),
                 QJsonValue(QStringLiteral("2024-05-01T10:00:00.000Z")));
        QCOMPARE(json.value(QStringLiteral("status"))
                     .toObject()
                     .value(QStringLiteral("conditions"))
                     .toArray()
                     .size(),
                 1);
        // A numeric resourceVersion (hand-written) reads too.
        QJsonObject numeric = json;
        meta.value(QStringLiteral("resourceVersion"));
        QJsonObject m = meta;
        m.insert(QStringLiteral("resourceVersion"), 9);
        numeric.insert(QStringLiteral("metadata"), m);
        QCOMPARE(Resource::fromJson(numeric).metadata.resourceVersion, 9);
    }

    void missingKind()
    {
        QString error;
        Resource::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")}},
                           &error);
        QCOMPARE(error, QStringLiteral("kind is missing"));
    }

    void policy_data()
    {
        QTest::addColumn<QString>("annotation");
        QTest::addColumn<Annotations::ReconcilePolicy>("expected");
        using P = Annotations::ReconcilePolicy;
        QTest::newRow("absent") << QString() << P::Manage;
        QTest::newRow("manage") << QStringLiteral("manage") << P::Manage;
        QTest::newRow("skip") << QStringLiteral("skip") << P::Skip;
        QTest::newRow("detach-on-delete")
            << QStringLiteral("detach-on-delete") << P::DetachOnDelete;
        // Validation rejects this; policy() is only asked of validated resources.
        QTest::newRow("unvalidated") << QStringLiteral("bogus") << P::Manage;
    }

    void policy()
    {
        QFETCH(QString, annotation);
        QFETCH(Annotations::ReconcilePolicy, expected);
        Resource r;
        if (!annotation.isNull())
            r.metadata.annotations.insert(Annotations::reconcilePolicy(), annotation);
        QCOMPARE(r.policy(), expected);
        if (!annotation.isNull() && annotation != QLatin1String("bogus"))
            QCOMPARE(Annotations::policyName(expected), annotation);
    }

    void ownerName_data()
    {
        QTest::addColumn<QJsonObject>("spec");
        QTest::addColumn<QString>("expected");
        QTest::newRow("owner") << QJsonObject{{QStringLiteral("owner"),
                                               QJsonObject{{QStringLiteral("name"),
                                                            QStringLiteral("devstore")}}}}
                               << QStringLiteral("devstore");
        QTest::newRow("no owner") << QJsonObject() << QString();
        QTest::newRow("owner not an object")
            << QJsonObject{{QStringLiteral("owner"), QStringLiteral("devstore")}} << QString();
    }

    void ownerName()
    {
        QFETCH(QJsonObject, spec);
        QFETCH(QString, expected);
        Resource r;
        r.spec = spec;
        QCOMPARE(r.ownerName(), expected);
    }

    void keyAndFinalizer()
    {
        Resource r = fullResource();
        QCOMPARE(r.key().toString(), QStringLiteral("Widget/w1"));
        QVERIFY(r.hasFinalizer());
        r.metadata.finalizers.clear();
        QVERIFY(!r.hasFinalizer());
    }
};

QTEST_GUILESS_MAIN(tst_Resource)
#include "tst_resource.moc"

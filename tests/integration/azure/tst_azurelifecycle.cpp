// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Each Azure kind through the real engine against Azurite: create, a no-op pass without
// writes, update, an out-of-band change (corrected under manage, reported under skip), an
// out-of-band delete (re-created under manage, BackendResourceNotFound under skip), delete,
// and detach-on-delete (the backend resource stays).
#include "azureintegration.h"
#include "delta.h"

using namespace converge;
using namespace converge::test;
using Category = BackendError::Category;

namespace {

/// What differs between the kinds in this story.
struct Scenario
{
    QString kind;
    Resource desired;
    QList<Resource> parents;                       ///< applied with it; the account first
    std::function<void(QJsonObject &spec)> change; ///< a spec update; empty: nothing can change
    QJsonObject outOfBand;                         ///< spec fields another tool sets
};

} // namespace

Q_DECLARE_METATYPE(Scenario)
Q_DECLARE_METATYPE(converge::Resource)

class tst_AzureLifecycle final : public QObject
{
    Q_OBJECT

private:
    Emulators m_emulators;
    std::unique_ptr<DirectAccess> m_direct;

    Target directTarget(const Resource &r, const QList<Resource> &parents)
    {
        QList<Resource> owners{m_direct->account};
        for (const Resource &p : parents) {
            if (p.kind != AzureKinds::storageAccount())
                owners.append(p);
        }
        return m_direct->target(r, owners);
    }

    /// The backend's state of `r`, observed directly.
    Outcome<Observation> observe(const Resource &r, const QList<Resource> &parents)
    {
        return m_direct->manager(r.kind)->get(directTarget(r, parents));
    }

    QStringList backendDelta(const Resource &r, const QList<Resource> &parents)
    {
        const Outcome<Observation> seen = observe(r, parents);
        if (!seen)
            return {QStringLiteral("<%1>").arg(seen.error().toString())};
        return Delta::between(m_direct->kinds.find(r.kind)->spec, r.spec, seen.value().spec);
    }

    /// Another tool changes the backend: the spec fields of `fields` are written directly.
    bool changeOutOfBand(const Resource &r, const QList<Resource> &parents,
                         const QJsonObject &fields)
    {
        auto m = m_direct->manager(r.kind);
        Resource other = r;
        for (auto it = fields.constBegin(); it != fields.constEnd(); ++it)
            other.spec.insert(it.key(), it.value());
        const Target t = directTarget(other, parents);
        const Outcome<Observation> latest = m->get(t);
        if (!latest)
            return false;
        const QStringList delta = Delta::between(m_direct->kinds.find(r.kind)->spec,
                                                 t.resource.spec, latest.value().spec);
        return !delta.isEmpty() && m->update(t, latest.value(), delta);
    }

    bool deleteOutOfBand(const Resource &r, const QList<Resource> &parents)
    {
        auto m = m_direct->manager(r.kind);
        const Target t = directTarget(r, parents);
        return m->deleteResource(t, {}) && !m->get(t);
    }

    static Resource withPolicy(Resource r, const QString &policy)
    {
        r.metadata.annotations.insert(Annotations::reconcilePolicy(), policy);
        return r;
    }

    QList<Scenario> scenarios() const
    {
        QList<Scenario> all;
        const Resource account = emulatorAccount(m_emulators);
        const QString stem = uniqueStem();
        const QJsonObject metadata{{QStringLiteral("team"), QStringLiteral("billing")}};

        Scenario c;
        c.kind = AzureKinds::blobContainer();
        c.desired = azureResource(
            c.kind, stem + QStringLiteral("-life-c"),
            ownedBy(QStringLiteral("devstore"), {{QStringLiteral("metadata"), metadata}}));
        c.parents = {account};
        c.change = [](QJsonObject &spec) {
            spec.insert(QStringLiteral("publicAccess"), QStringLiteral("Blob"));
            spec.insert(QStringLiteral("metadata"),
                        QJsonObject{{QStringLiteral("team"), QStringLiteral("sales")}});
        };
        c.outOfBand = {{QStringLiteral("metadata"),
                        QJsonObject{{QStringLiteral("intruder"), QStringLiteral("yes")}}}};
        all << c;

        Scenario b;
        b.kind = AzureKinds::blob();
        const Resource parent =
            azureResource(AzureKinds::blobContainer(), stem + QStringLiteral("-life-parent"),
                          ownedBy(QStringLiteral("devstore")));
        b.desired = azureResource(
            b.kind, QStringLiteral("readme"),
            ownedBy(parent.metadata.name,
                    {{QStringLiteral("azureName"), QStringLiteral("docs/README.txt")},
                     {QStringLiteral("contentType"), QStringLiteral("text/plain")},
                     {QStringLiteral("content"), QStringLiteral("Invoices land here.\n")},
                     {QStringLiteral("metadata"), metadata}}));
        b.parents = {account, parent};
        b.change = [](QJsonObject &spec) {
            spec.insert(QStringLiteral("content"), QStringLiteral("Invoices land there.\n"));
        };
        b.outOfBand = {{QStringLiteral("content"), QStringLiteral("overwritten by someone")}};
        all << b;

        Scenario q;
        q.kind = AzureKinds::queue();
        q.desired = azureResource(
            q.kind, stem + QStringLiteral("-life-q"),
            ownedBy(QStringLiteral("devstore"), {{QStringLiteral("metadata"), metadata}}));
        q.parents = {account};
        q.change = [](QJsonObject &spec) {
            spec.insert(QStringLiteral("metadata"),
                        QJsonObject{{QStringLiteral("team"), QStringLiteral("ops")},
                                    {QStringLiteral("tier"), QStringLiteral("gold")}});
        };
        q.outOfBand = {{QStringLiteral("metadata"), QJsonObject{}}};
        all << q;

        Scenario t;
        t.kind = AzureKinds::table();
        t.desired = azureResource(
            t.kind, QStringLiteral("customers"),
            ownedBy(QStringLiteral("devstore"),
                    {{QStringLiteral("azureName"), QString(stem + QStringLiteral("Customers"))}}));
        t.parents = {account};
        all << t;
        return all;
    }

private slots:
    void initTestCase()
    {
        m_emulators = Emulators::fromEnvironment();
        QVERIFY2(m_emulators.isValid(), qPrintable(m_emulators.error));
        m_direct = std::make_unique<DirectAccess>(m_emulators);
    }

    void lifecycle_data()
    {
        QTest::addColumn<Scenario>("s");
        for (const Scenario &s : scenarios())
            QTest::newRow(qPrintable(s.kind)) << s;
    }

    void lifecycle()
    {
        QFETCH(Scenario, s);
        AzureEngine engine;
        Resource desired = s.desired;
        QVERIFY(engine.apply(s.parents + QList<Resource>{desired}));
        QVERIFY(engine.start());
        QTRY_VERIFY2_WITH_TIMEOUT(engine.allReady(), qPrintable(engine.describe()), 20000);
        QVERIFY(validate(engine.kinds, desired));
        QCOMPARE(backendDelta(desired, s.parents), QStringList());
        QVERIFY(engine.hasEvent(desired, QStringLiteral("Created")));
        const std::optional<Resource> stored = engine.get(desired);
        QVERIFY(!stored->metadata.annotations.value(Annotations::resourceId()).isEmpty());

        // A no-op pass, no write: the account is observed with one read, what it holds with one
        // list page per child kind (containers, queues and tables), and a container's blobs
        // with a list page only when it holds managed blobs, which that page observes (its
        // Content-MD5 is what their drift is judged by): no blob is read one by one.
        QTRY_VERIFY(engine.controller->isIdle());
        const int writes = engine.requests.writes;
        const int total = engine.requests.total;
        const qsizetype logged = engine.requests.size();
        QVERIFY(engine.resyncAndWait());
        QCOMPARE(engine.requests.writes.load(), writes);
        const int resources = int(s.parents.size()) + 1;
        const int blobs = desired.kind == QLatin1String("Blob") ? 1 : 0;
        QVERIFY2(engine.requests.total - total == 1 + 3 + blobs,
                 qPrintable(engine.requests.since(logged)));
        qInfo("no-op pass of %d resources: %d requests, 0 writes", resources,
              engine.requests.total - total);

        // Update.
        if (s.change) {
            s.change(desired.spec);
            QVERIFY(engine.apply({desired}));
            QTRY_VERIFY2_WITH_TIMEOUT(engine.get(desired)->metadata.generation == 2 &&
                                          engine.isReady(desired),
                                      qPrintable(engine.describe()), 20000);
            QVERIFY(validate(engine.kinds, desired));
            QCOMPARE(backendDelta(desired, s.parents), QStringList());
            QVERIFY(engine.hasEvent(desired, QStringLiteral("Updated")));
        }

        // Out-of-band change under manage: corrected at the next pass.
        if (!s.outOfBand.isEmpty()) {
            QVERIFY(changeOutOfBand(desired, s.parents, s.outOfBand));
            QVERIFY(!backendDelta(desired, s.parents).isEmpty());
            QVERIFY(engine.resyncAndWait());
            QTRY_COMPARE(backendDelta(desired, s.parents), QStringList());
            QVERIFY(engine.hasEvent(desired, QStringLiteral("DriftDetected")));

            // Under skip: reported, not corrected.
            QVERIFY(engine.apply({withPolicy(desired, QStringLiteral("skip"))}));
            QTRY_VERIFY(engine.controller->isIdle());
            QVERIFY(changeOutOfBand(desired, s.parents, s.outOfBand));
            const int writesBefore = engine.requests.writes;
            QVERIFY(engine.resyncAndWait());
            QTRY_VERIFY2(engine.ready(desired).message.contains(QLatin1String("differs")),
                         qPrintable(engine.describe()));
            QVERIFY(engine.ready(desired).isReady());
            QCOMPARE(engine.requests.writes.load(), writesBefore);
            QVERIFY(!backendDelta(desired, s.parents).isEmpty());
            QVERIFY(engine.apply({desired})); // back to manage
            QTRY_COMPARE(backendDelta(desired, s.parents), QStringList());
            QTRY_VERIFY(engine.isReady(desired));
        }

        // Out-of-band delete under manage: re-created.
        QTRY_VERIFY(engine.controller->isIdle());
        QVERIFY(deleteOutOfBand(desired, s.parents));
        QVERIFY(engine.resyncAndWait());
        QTRY_COMPARE(backendDelta(desired, s.parents), QStringList());
        QTRY_VERIFY(engine.isReady(desired));

        // Under skip: BackendResourceNotFound, nothing written.
        QVERIFY(engine.apply({withPolicy(desired, QStringLiteral("skip"))}));
        QTRY_VERIFY(engine.controller->isIdle());
        QVERIFY(deleteOutOfBand(desired, s.parents));
        const int writesBefore = engine.requests.writes;
        engine.controller->resyncNow();
        QTRY_COMPARE_WITH_TIMEOUT(engine.ready(desired).reason,
                                  QStringLiteral("BackendResourceNotFound"), 10000);
        QCOMPARE(engine.ready(desired).severity, Condition::Severity::Warning);
        QCOMPARE(engine.requests.writes.load(), writesBefore);
        QCOMPARE(observe(desired, s.parents).error().category, Category::NotFound);
        QVERIFY(engine.apply({desired}));
        QTRY_VERIFY2_WITH_TIMEOUT(engine.isReady(desired) &&
                                      backendDelta(desired, s.parents).isEmpty(),
                                  qPrintable(engine.describe()), 10000);

        // Delete: gone from Azurite, then from the workspace.
        QVERIFY(engine.ws->requestDeletion(desired.key(), nullptr));
        QTRY_VERIFY_WITH_TIMEOUT(!engine.get(desired), 10000);
        QCOMPARE(observe(desired, s.parents).error().category, Category::NotFound);
        QVERIFY(engine.hasEvent(desired, QStringLiteral("Deleted")));

        // Detach-on-delete: the workspace forgets it, Azurite keeps it.
        QVERIFY(engine.apply({withPolicy(desired, QStringLiteral("detach-on-delete"))}));
        QTRY_VERIFY_WITH_TIMEOUT(engine.isReady(desired), 10000);
        QVERIFY(observe(desired, s.parents));
        const int writesBeforeDetach = engine.requests.writes;
        QVERIFY(engine.ws->requestDeletion(desired.key(), nullptr));
        QTRY_VERIFY_WITH_TIMEOUT(!engine.get(desired), 10000);
        QCOMPARE(engine.requests.writes.load(), writesBeforeDetach);
        QVERIFY(observe(desired, s.parents));
        QVERIFY(engine.hasEvent(desired, QStringLiteral("Detached")));

        engine.stop();
        QVERIFY(deleteOutOfBand(desired, s.parents));
        for (const Resource &p : s.parents) {
            if (p.kind != AzureKinds::storageAccount())
                QVERIFY(deleteOutOfBand(p, {}));
        }
    }

    void immutableFieldsWriteNothing_data()
    {
        // A row for every immutable field of every kind, found in the kind's schema: a field
        // made immutable later gets its row or fails here.
        QTest::addColumn<Scenario>("s");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QList<Resource>>("extra"); ///< another owner to move to
        const QString stem = uniqueStem();
        for (const Scenario &s : scenarios()) {
            const Kind *kind = m_direct->kinds.find(s.kind);
            QVERIFY(kind);
            for (const FieldSchema &field : kind->spec.fields) {
                if (!field.immutable)
                    continue;
                QJsonValue value;
                QList<Resource> extra;
                if (field.name == QLatin1String("azureName")) {
                    value = s.kind == AzureKinds::blob()    ? QStringLiteral("docs/renamed.txt")
                            : s.kind == AzureKinds::table() ? stem + QStringLiteral("Renamed")
                                                            : stem + QStringLiteral("-renamed");
                } else if (field.name == QLatin1String("owner")) {
                    const Resource other =
                        kind->ownerKind == AzureKinds::storageAccount()
                            ? emulatorAccount(m_emulators, QStringLiteral("devstore2"))
                            : azureResource(kind->ownerKind, stem + QStringLiteral("-other"),
                                            ownedBy(QStringLiteral("devstore")));
                    value = QJsonObject{{QStringLiteral("name"), other.metadata.name}};
                    extra = {other};
                } else {
                    QFAIL(qPrintable(QStringLiteral("no changed value for %1's spec.%2")
                                         .arg(s.kind, field.name)));
                }
                QTest::addRow("%s.%s", qPrintable(s.kind), qPrintable(field.name))
                    << s << field.name << value << extra;
            }
        }
    }

    void immutableFieldsWriteNothing()
    {
        // Stored as a workspace of an older version or an edit by hand would have it (apply
        // refuses it since): the reconcile says ImmutableFieldChanged and writes nothing.
        QFETCH(Scenario, s);
        QFETCH(QString, field);
        QFETCH(QJsonValue, value);
        QFETCH(QList<Resource>, extra);
        AzureEngine engine;
        QVERIFY(engine.apply(s.parents + extra + QList<Resource>{s.desired}));
        QVERIFY(engine.start());
        QTRY_VERIFY2_WITH_TIMEOUT(engine.allReady(), qPrintable(engine.describe()), 20000);
        QTRY_VERIFY(engine.controller->isIdle());
        const int writes = engine.requests.writes;

        Resource changed = s.desired;
        changed.spec.insert(field, value);
        QVERIFY(engine.apply({changed}));
        QTRY_COMPARE_WITH_TIMEOUT(engine.ready(changed).reason,
                                  QStringLiteral("ImmutableFieldChanged"), 10000);
        QCOMPARE(engine.ready(changed).severity, Condition::Severity::Error);
        QVERIFY2(engine.ready(changed).message.startsWith(QStringLiteral("spec.") + field),
                 qPrintable(engine.ready(changed).message));
        QTRY_VERIFY(engine.controller->isIdle());
        QCOMPARE(engine.requests.writes.load(), writes);
        QVERIFY(observe(s.desired, s.parents)); // still there, still this resource's
        if (extra.isEmpty())
            QCOMPARE(observe(changed, s.parents).error().category, Category::NotFound);

        // The spec restored: Ready again, still without a write.
        QVERIFY(engine.apply({s.desired}));
        QTRY_VERIFY2_WITH_TIMEOUT(engine.isReady(s.desired), qPrintable(engine.describe()), 10000);
        QCOMPARE(engine.requests.writes.load(), writes);

        engine.stop();
        QVERIFY(deleteOutOfBand(s.desired, s.parents));
        for (const Resource &p : s.parents + extra) {
            if (p.kind != AzureKinds::storageAccount())
                QVERIFY(deleteOutOfBand(p, {}));
        }
    }

    void accountObjectIsForgottenWithoutBackendCalls()
    {
        AzureEngine engine;
        const Resource account = emulatorAccount(m_emulators, QStringLiteral("forget"));
        QVERIFY(engine.apply({account}));
        QVERIFY(engine.start());
        QTRY_VERIFY2_WITH_TIMEOUT(engine.isReady(account), qPrintable(engine.describe()), 10000);
        const int writes = engine.requests.writes;
        QVERIFY(engine.ws->requestDeletion(account.key(), nullptr));
        QTRY_VERIFY_WITH_TIMEOUT(!engine.get(account), 10000);
        QCOMPARE(engine.requests.writes.load(), writes);
    }
};

QTEST_GUILESS_MAIN(tst_AzureLifecycle)
#include "tst_azurelifecycle.moc"

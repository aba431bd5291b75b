// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// One backend resource, one manager: what the controller does when two accounts reach one
// backend (the fake's oneEndpoint), against a real workspace.
#include "annotations.h"
#include "backendid.h"
#include "clock.h"
#include "controller.h"
#include "enginefixture.h"
#include "factoryregistry.h"
#include "genericreconciler.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>

using namespace converge;
using namespace converge::test;
using namespace std::chrono_literals;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

const ResourceKey orders{s("Widget"), s("orders")};
const QString ordersId = s("fake://Widget/shared-orders");

Resource ordersUnder(const QString &name, const QString &owner, int replicas = 1)
{
    Resource r = EngineFixture::widget(name, owner, replicas);
    r.spec.insert(s("azureName"), s("shared-orders"));
    return r;
}

} // namespace

class tst_SoleManager final : public QObject
{
    Q_OBJECT

    struct Engine
    {
        explicit Engine(EngineFixture &f)
            : reconciler(f.kinds)
        {
            Controller::Options o;
            o.workers = 2;
            o.pollInterval = 20ms;
            o.backoff.fastBase = 10ms;
            o.backoff.fastCap = 50ms;
            o.backoff.slowBase = 20ms;
            o.backoff.slowCap = 100ms;
            factories.add(std::make_unique<FakeFactory>(f.backend));
            controller = std::make_unique<Controller>(f.path, f.kinds, factories, reconciler, clock,
                                                      nullptr, o);
        }
        SystemClock clock;
        FactoryRegistry factories;
        GenericReconciler reconciler;
        std::unique_ptr<Controller> controller;
    };

    /// Accounts g and h on one endpoint, Widget/orders (backend name Orders) under g, converged.
    static bool converged(EngineFixture &f, Engine &e, const QList<Resource> &more = {})
    {
        f.backend.oneEndpoint = true;
        if (!f.apply(QList<Resource>{EngineFixture::gadget(s("g")), EngineFixture::gadget(s("h")),
                                     ordersUnder(s("orders"), s("g"))} +
                     more) ||
            !e.controller->start())
            return false;
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < 20000 &&
               !(f.stored(orders).status.ready().isReady() && e.controller->isIdle()))
            QTest::qWait(20);
        return f.stored(orders).status.ready().isReady() && e.controller->isIdle();
    }

    static std::optional<DiscoveredResource> listedUnder(EngineFixture &f, const QString &owner)
    {
        for (const DiscoveredResource &d : f.ws->discovered()) {
            if (d.owner.name == owner && d.name == s("shared-orders"))
                return d;
        }
        return std::nullopt;
    }

private slots:
    void aSecondAccountListsTheTableAsTheFirstsAndClaimIsRefused_data()
    {
        QTest::addColumn<bool>("listIds");
        QTest::newRow("listed with its ID") << true;
        QTest::newRow("listed by name (ListTables)") << false;
    }

    void aSecondAccountListsTheTableAsTheFirstsAndClaimIsRefused()
    {
        QFETCH(bool, listIds);
        EngineFixture f;
        f.backend.listIds = listIds;
        f.backend.listComplete = listIds;
        Engine e(f);
        QVERIFY(converged(f, e));
        e.controller->resyncNow();
        QTRY_VERIFY_WITH_TIMEOUT(listedUnder(f, s("h")).has_value(), 10000);
        QTRY_VERIFY(e.controller->isIdle());
        const DiscoveredResource item = *listedUnder(f, s("h"));
        QCOMPARE(item.managedBy, orders);
        QCOMPARE(item.managedByAccount, (ResourceKey{s("Gadget"), s("g")}));
        QCOMPARE(BackendId::normalized(item.resourceId), ordersId);
        QVERIFY(!listedUnder(f, s("g"))); // its own account shows the managed row alone

        const int writes = f.backend.writes();
        QSignalSpy finished(e.controller.get(), &Controller::claimFinished);
        e.controller->claim(item);
        QTRY_COMPARE(finished.size(), 1);
        const QString error = finished.first().at(2).toString();
        QVERIFY2(error.contains(s("managed by Widget/orders (account g)")), qPrintable(error));
        // The row as stored before the listing named it (a listing of an earlier version):
        // the claim reads it, and the store's rule refuses it all the same.
        DiscoveredResource unnamed = item;
        unnamed.managedBy = {};
        unnamed.managedByAccount = {};
        e.controller->claim(unnamed);
        QTRY_COMPARE(finished.size(), 2);
        QVERIFY2(finished.at(1).at(2).toString().contains(s("is managed by Widget/orders")),
                 qPrintable(finished.at(1).at(2).toString()));
        QCOMPARE(f.ws->list(s("Widget")).size(), 1);
        QCOMPARE(f.backend.writes(), writes);
    }

    void aSecondDeclarationWritesNothingToIt()
    {
        EngineFixture f;
        Engine e(f);
        QVERIFY(converged(f, e));
        const int updates = f.backend.updates;
        const int creates = f.backend.creates;
        // Declared under h with other replicas: it finds Orders, which orders manages.
        QVERIFY(f.apply({ordersUnder(s("orders-h"), s("h"), 5)}));
        e.controller->wake();
        const ResourceKey second{s("Widget"), s("orders-h")};
        QTRY_COMPARE_WITH_TIMEOUT(f.stored(second).status.ready().reason, s("ManagedByAnother"),
                                  10000);
        QCOMPARE(f.stored(second).status.ready().severity, Condition::Severity::Warning);
        QVERIFY2(f.stored(second).status.ready().message.contains(s("Widget/orders (account g)")),
                 qPrintable(f.stored(second).status.ready().message));
        QVERIFY(!f.stored(second).metadata.annotations.contains(Annotations::resourceId()));
        QCOMPARE(f.backend.updates, updates);
        QCOMPARE(f.backend.creates, creates);
        QCOMPARE(
            f.backend.objects.value(s("Widget/shared-orders")).spec.value(s("replicas")).toInt(),
            1);
        QCOMPARE(f.ws->managerOf(ordersId), orders);
    }

    void duplicatesAreFlaggedAndTheirDeleteRefusedUntilOneIsDetached()
    {
        EngineFixture f;
        Engine e(f);
        // orders-2 as a workspace of version 8 left it: it records what orders holds.
        f.backend.oneEndpoint = true;
        QVERIFY(f.apply({EngineFixture::gadget(s("g")), EngineFixture::gadget(s("h")),
                         ordersUnder(s("orders"), s("g")), ordersUnder(s("orders-2"), s("h"))}));
        const ResourceKey second{s("Widget"), s("orders-2")};
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(s("QSQLITE"), s("dup"));
            db.setDatabaseName(f.path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(s("UPDATE resources SET annotations = json_set(annotations,"
                             " '$.\"converge.dev/resource-id\"', '%1'), finalizers ="
                             " '[\"converge.dev/finalizer\"]' WHERE name = 'orders-2'")
                               .arg(ordersId)));
            q = QSqlQuery();
            db.close();
        }
        QSqlDatabase::removeDatabase(s("dup"));
        // orders is first to hold it here; orders-2's run finds it held.
        f.backend.put(
            ResourceKey{s("Widget"), s("shared-orders")},
            QJsonObject{{s("owner"), QJsonObject{{s("name"), s("g")}}}, {s("replicas"), 1}});
        StoreError error;
        QVERIFY2(f.ws->updateStatus(orders, ResourceStatus{}, ordersId, &error),
                 qPrintable(error.message));
        QVERIFY(e.controller->start());
        QTRY_VERIFY_WITH_TIMEOUT(f.stored(orders).status.ready().isReady(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(f.stored(second).status.ready().reason, s("ManagedByAnother"),
                                  10000);

        // Deleting either would delete Orders under the other: refused, nothing deleted.
        QVERIFY(f.ws->requestDeletion(orders, &error));
        e.controller->wake();
        QTRY_COMPARE_WITH_TIMEOUT(f.stored(orders).status.ready().reason, s("DeleteRefused"),
                                  10000);
        QVERIFY2(f.stored(orders).status.ready().message.contains(s("Widget/orders-2 (account h)")),
                 qPrintable(f.stored(orders).status.ready().message));
        QCOMPARE(f.backend.deletes, 0);
        QVERIFY(f.backend.has(ResourceKey{s("Widget"), s("shared-orders")}));

        // orders-2 detached: it leaves, Orders stays for orders, whose delete then goes on.
        Resource dup = f.stored(second);
        dup.metadata.annotations.insert(Annotations::reconcilePolicy(), s("detach-on-delete"));
        QVERIFY(f.ws->update(dup, &error));
        QVERIFY(f.ws->requestDeletion(second, &error));
        e.controller->wake();
        QTRY_VERIFY_WITH_TIMEOUT(!f.ws->get(second), 10000);
        e.controller->reconcile({orders});
        QTRY_VERIFY_WITH_TIMEOUT(!f.ws->get(orders), 20000);
        QVERIFY(!f.backend.has(ResourceKey{s("Widget"), s("shared-orders")}));
    }
};

QTEST_GUILESS_MAIN(tst_SoleManager)
#include "tst_solemanager.moc"

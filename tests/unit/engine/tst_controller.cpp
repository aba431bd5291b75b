// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The controller's threads, queue and scheduling against the fake Manager and a real workspace.
#include "controller.h"
#include "enginefixture.h"
#include "factoryregistry.h"
#include "genericreconciler.h"
#include "manualclock.h"
#include "threadpriority.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>

using namespace converge;
using namespace converge::test;
using namespace std::chrono_literals;

namespace {

Controller::Options fastOptions(int workers = 4)
{
    Controller::Options o;
    o.workers = workers;
    o.pollInterval = 20ms;
    o.backoff.fastBase = 10ms;
    o.backoff.fastCap = 50ms;
    o.backoff.slowBase = 20ms;
    o.backoff.slowCap = 100ms;
    return o;
}

} // namespace

class tst_Controller final : public QObject
{
    Q_OBJECT

private:
    struct Engine
    {
        explicit Engine(EngineFixture &f, Clock &clock, Controller::Options options = fastOptions())
            : reconciler(f.kinds)
        {
            factories.add(std::make_unique<FakeFactory>(f.backend));
            controller = std::make_unique<Controller>(f.path, f.kinds, factories, reconciler, clock,
                                                      nullptr, options);
        }
        FactoryRegistry factories;
        GenericReconciler reconciler;
        std::unique_ptr<Controller> controller;
    };

    static bool allReady(EngineFixture &f)
    {
        auto ws = Workspace::open(f.path, nullptr);
        // A read that failed (the file busy while opening) must not pass for "all Ready".
        const QList<Resource> resources = ws ? ws->list() : QList<Resource>();
        if (resources.isEmpty())
            return false;
        for (const Resource &r : resources) {
            if (!r.status.ready().isReady() ||
                r.status.ready().observedGeneration != r.metadata.generation)
                return false;
        }
        return true;
    }

    static QList<Event> eventsOf(EngineFixture &f, const ResourceKey &key)
    {
        auto ws = Workspace::open(f.path, nullptr);
        if (!ws)
            return {}; // the caller's check fails instead of the test crashing
        EventQuery q;
        q.involved = key;
        q.limit = 0;
        return ws->events(q);
    }

    static bool hasEvent(EngineFixture &f, const ResourceKey &key, const QString &reason)
    {
        for (const Event &e : eventsOf(f, key)) {
            if (e.reason == reason)
                return true;
        }
        return false;
    }

    SystemClock m_clock;

private slots:
    // --- Resync by list pages, discovery and claim ------------------------------------------

    /// A gadget "g" with `count` widgets, converged, the controller idle.
    static bool converge(EngineFixture &f, Engine &e, int count)
    {
        QList<Resource> objects{EngineFixture::gadget(QStringLiteral("g"))};
        for (int i = 0; i < count; ++i)
            objects.append(
                EngineFixture::widget(QStringLiteral("w%1").arg(i), QStringLiteral("g")));
        if (!f.apply(objects) || !e.controller->start())
            return false;
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < 20000 && !(allReady(f) && e.controller->isIdle()))
            QTest::qWait(20);
        return allReady(f) && e.controller->isIdle();
    }

    /// The window's controller (Options::background) runs every thread of its own below the
    /// thread that started it; a command line's keeps them as they were.
    void backgroundThreadsYieldToTheStartingThread()
    {
#ifndef Q_OS_LINUX
        QSKIP("per-thread nice values are Linux's");
#endif
        // The nice value of each thread of this process whose name starts with `prefix`.
        const auto niceOf = [](const QString &prefix) {
            QList<int> values;
            const QDir tasks(QStringLiteral("/proc/self/task"));
            for (const QString &tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
                QFile comm(tasks.filePath(tid + QStringLiteral("/comm")));
                QFile stat(tasks.filePath(tid + QStringLiteral("/stat")));
                if (!comm.open(QIODevice::ReadOnly) || !stat.open(QIODevice::ReadOnly))
                    continue;
                if (!QString::fromUtf8(comm.readAll()).startsWith(prefix))
                    continue;
                // Field 19 is the nice value; fields after the ")" that ends the name.
                const QByteArray line = stat.readAll();
                const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
                values.append(fields.value(19 - 3).toInt());
            }
            return values;
        };
        const std::optional<int> own = ThreadPriority::currentNice();
        QVERIFY(own.has_value());
        for (const bool background : {true, false}) {
            EngineFixture f;
            Controller::Options options = fastOptions(3);
            options.background = background;
            Engine e(f, m_clock, options);
            QVERIFY(converge(f, e, 2));
            const QList<int> workers = niceOf(QStringLiteral("converge-worker"));
            const QList<int> scheduler = niceOf(QStringLiteral("converge-schedu"));
            QCOMPARE(workers.size(), 3);
            QCOMPARE(scheduler.size(), 1);
            const int want = background ? std::max(*own, ThreadPriority::backgroundNice) : *own;
            for (int nice : workers + scheduler)
                QCOMPARE(nice, want);
            e.controller->stop();
            // This thread's own priority is untouched.
            QCOMPARE(ThreadPriority::currentNice(), own);
        }
    }

    void resyncObservesByListPages()
    {
        EngineFixture f;
        f.backend.listPageSize = 10;
        Engine e(f, m_clock);
        QVERIFY(converge(f, e, 50));
        QTRY_VERIFY(e.controller->isIdle());
        QVERIFY(f.ws->unfinishedIntents().isEmpty()); // stored with each run's status
        const int gets = f.backend.gets;
        const int lists = f.backend.lists;
        const int writes = f.backend.writes();
        const qint64 reconciles = e.controller->stats().reconciles;
        e.controller->resyncNow();
        QTRY_VERIFY(e.controller->stats().reconciles >= reconciles + 51);
        QTRY_VERIFY(e.controller->isIdle());
        // 50 widgets in 5 pages of 10; only the gadget (an account, listed by nobody) is got.
        QCOMPARE(f.backend.lists - lists, 5);
        QCOMPARE(f.backend.gets - gets, 1);
        QCOMPARE(f.backend.writes(), writes);
        QVERIFY(allReady(f));
    }

    void resyncByListCorrectsDrift()
    {
        EngineFixture f;
        Engine e(f, m_clock);
        QVERIFY(converge(f, e, 5));
        const ResourceKey w3{QStringLiteral("Widget"), QStringLiteral("w3")};
        QJsonObject drifted = f.backend.spec(w3);
        drifted.insert(QStringLiteral("replicas"), 7);
        f.backend.put(w3, drifted);
        const int updates = f.backend.updates;
        const int gets = f.backend.gets;
        e.controller->resyncNow();
        QTRY_VERIFY(hasEvent(f, w3, QStringLiteral("DriftDetected")));
        QTRY_COMPARE(f.backend.updates - updates, 1);
        QTRY_VERIFY(e.controller->isIdle());
        QCOMPARE(f.backend.spec(w3).value(QStringLiteral("replicas")).toInt(), 1);
        QCOMPARE(f.backend.gets - gets, 1); // the gadget; w3's drift was seen in the list page
    }

    void incompleteListsFallBackToGets()
    {
        EngineFixture f;
        f.backend.listComplete = false;
        Engine e(f, m_clock);
        QVERIFY(converge(f, e, 10));
        const int gets = f.backend.gets;
        const int writes = f.backend.writes();
        e.controller->resyncNow();
        QTRY_VERIFY(f.backend.gets >= gets + 11);
        QTRY_VERIFY(e.controller->isIdle());
        QCOMPARE(f.backend.gets - gets, 11);
        QCOMPARE(f.backend.writes(), writes);
    }

    void failedListFallsBackToGets()
    {
        EngineFixture f;
        Engine e(f, m_clock);
        QVERIFY(converge(f, e, 10));
        const int gets = f.backend.gets;
        f.backend.injectError(QStringLiteral("list"),
                              ResourceKey{QStringLiteral("Widget"), QStringLiteral("g")},
                              fakeError(BackendError::Category::Transient, QStringLiteral("Boom")));
        e.controller->resyncNow();
        QTRY_VERIFY(f.backend.gets >= gets + 11);
        QTRY_VERIFY(e.controller->isIdle());
        QCOMPARE(f.backend.gets - gets, 11);
        QVERIFY(allReady(f));
    }

    void unchangedResyncsSkipTheReconcile()
    {
        EngineFixture f;
        Engine e(f, m_clock);
        QVERIFY(converge(f, e, 20));
        const auto resync = [&e] {
            const qint64 reconciles = e.controller->stats().reconciles;
            e.controller->resyncNow();
            return QTest::qWaitFor(
                [&] {
                    return e.controller->stats().reconciles >= reconciles + 21 &&
                           e.controller->isIdle();
                },
                20000);
        };
        const ResourceKey w0{QStringLiteral("Widget"), QStringLiteral("w0")};
        const qsizetype runsBefore = f.ws->phaseRuns(w0, 0).size();
        // The first resync judges each widget's list observation and finds nothing to do; the
        // second sees the same observations of the same stored widgets and reads none of them.
        QVERIFY(resync());
        QCOMPARE(e.controller->stats().skippedUnchanged, 0);
        const int gets = f.backend.gets;
        QVERIFY(resync());
        QCOMPARE(e.controller->stats().skippedUnchanged, 20);
        QCOMPARE(f.backend.gets - gets, 1); // the gadget, which no list covers
        QVERIFY(allReady(f));
        // A skipped resync is still a run on the Timeline: a repeat of the quiet run before it.
        QTRY_COMPARE(f.ws->phaseRuns(w0, 1).constFirst().repeats, 2);
        QCOMPARE(f.ws->phaseRuns(w0, 0).size(), runsBefore + 1);
        QCOMPARE(f.ws->phaseRuns(w0, 1).constFirst().outcome, QStringLiteral("Done"));

        // Drift is seen in the observation: corrected, as without the skip.
        const ResourceKey w3{QStringLiteral("Widget"), QStringLiteral("w3")};
        QJsonObject drifted = f.backend.spec(w3);
        drifted.insert(QStringLiteral("replicas"), 7);
        f.backend.put(w3, drifted);
        const int updates = f.backend.updates;
        QVERIFY(resync());
        QCOMPARE(f.backend.updates - updates, 1);
        QCOMPARE(f.backend.spec(w3).value(QStringLiteral("replicas")).toInt(), 1);
        QCOMPARE(e.controller->stats().skippedUnchanged, 20 + 19);

        // A widget written since its quiet run goes the whole way, though its page looks the
        // same; w3 too (its last run wrote to the backend).
        const ResourceKey w5{QStringLiteral("Widget"), QStringLiteral("w5")};
        Resource labelled = *f.ws->get(w5);
        labelled.metadata.labels.insert(QStringLiteral("team"), QStringLiteral("storage"));
        StoreError error;
        QVERIFY2(f.ws->update(labelled, &error), qPrintable(error.message));
        QVERIFY(resync());
        QCOMPARE(e.controller->stats().skippedUnchanged, 20 + 19 + 18);
    }

    void pagesBeforeAFailedPageAreUsed()
    {
        EngineFixture f;
        f.backend.listPageSize = 10;
        Engine e(f, m_clock);
        QVERIFY(converge(f, e, 50));
        QTRY_VERIFY(e.controller->isIdle());
        const int gets = f.backend.gets;
        const qint64 reconciles = e.controller->stats().reconciles;
        f.backend.listFailsFrom = 30;
        e.controller->resyncNow();
        QTRY_VERIFY(e.controller->stats().reconciles >= reconciles + 51);
        QTRY_VERIFY(e.controller->isIdle());
        // Three pages observed 30 widgets; the other 20 and the gadget are got one by one.
        QCOMPARE(f.backend.gets - gets, 21);
        QVERIFY(allReady(f));
    }

    void listsWithoutIdsMatchByBackendName()
    {
        EngineFixture f;
        f.backend.listIds = false;
        f.backend.listComplete = false;
        // One widget's backend name differs from its metadata.name.
        Resource named = EngineFixture::widget(QStringLiteral("named"), QStringLiteral("g"));
        named.spec.insert(QStringLiteral("azureName"), QStringLiteral("orders-table"));
        QVERIFY(f.apply({named}));
        Engine e(f, m_clock);
        QVERIFY(converge(f, e, 3));
        const int lists = f.backend.lists;
        e.controller->resyncNow();
        QTRY_VERIFY(f.backend.lists > lists);
        QTRY_VERIFY(e.controller->isIdle());
        // Nothing managed shows up as found, neither right after the owner became Ready nor
        // after the resync.
        QCOMPARE(f.ws->discovered().size(), 0);
        f.backend.put(ResourceKey{QStringLiteral("Widget"), QStringLiteral("stray")},
                      QJsonObject{{QStringLiteral("owner"),
                                   QJsonObject{{QStringLiteral("name"), QStringLiteral("g")}}}});
        e.controller->resyncNow();
        QTRY_COMPARE(f.ws->discovered().size(), 1);
        QCOMPARE(f.ws->discovered().first().name, QStringLiteral("stray"));
    }

    void discoveryStoresEachPageAsItComes()
    {
        // A large account lists page by page: each page is stored as it comes (the window
        // shows the first rows meanwhile); what the listing did not show goes only when it has
        // listed everything, so a listing that fails half way drops nothing.
        EngineFixture f;
        const auto stray = [&f](const QString &name) {
            f.backend.put(
                ResourceKey{QStringLiteral("Widget"), name},
                QJsonObject{{QStringLiteral("owner"),
                             QJsonObject{{QStringLiteral("name"), QStringLiteral("g")}}}});
        };
        for (int i = 0; i < 5; ++i)
            stray(QStringLiteral("stray-%1").arg(i));
        f.backend.listPageSize = 2;
        Engine e(f, m_clock);
        QVERIFY(converge(f, e, 0));
        QTRY_COMPARE(f.ws->discovered().size(), 5);

        {
            QMutexLocker lock(&f.backend.mutex);
            f.backend.objects.remove(QStringLiteral("Widget/stray-0"));
            f.backend.objects.remove(QStringLiteral("Widget/stray-1"));
        }
        stray(QStringLiteral("new-a"));
        stray(QStringLiteral("new-b"));
        f.backend.listFailsFrom = 4; // the third page: new-a, new-b | stray-2, stray-3 | …
        QSignalSpy discovered(e.controller.get(), &Controller::discoveryChanged);
        e.controller->resyncNow();
        QTRY_COMPARE(f.backend.listFailsFrom.load(), -1);
        QTRY_VERIFY(e.controller->isIdle());
        const auto names = [&f] {
            QStringList names;
            for (const DiscoveredResource &d : f.ws->discovered())
                names.append(d.name);
            return names;
        };
        QCOMPARE(names(), (QStringList{QStringLiteral("new-a"), QStringLiteral("new-b"),
                                       QStringLiteral("stray-0"), QStringLiteral("stray-1"),
                                       QStringLiteral("stray-2"), QStringLiteral("stray-3"),
                                       QStringLiteral("stray-4")}));
        // Said after the pages that were stored, at the next flush of the notifications (a
        // tick of the GUI thread's timer, which may come after the controller is idle).
        QTRY_VERIFY(!discovered.isEmpty());

        e.controller->resyncNow();
        QTRY_COMPARE(names(), (QStringList{QStringLiteral("new-a"), QStringLiteral("new-b"),
                                           QStringLiteral("stray-2"), QStringLiteral("stray-3"),
                                           QStringLiteral("stray-4")}));
    }

    void unmanagedResourcesAreDiscovered()
    {
        EngineFixture f;
        const ResourceKey stray{QStringLiteral("Widget"), QStringLiteral("stray")};
        f.backend.put(stray,
                      QJsonObject{{QStringLiteral("owner"),
                                   QJsonObject{{QStringLiteral("name"), QStringLiteral("g")}}},
                                  {QStringLiteral("replicas"), 3},
                                  {QStringLiteral("publicAccess"), QStringLiteral("Blob")}});
        Engine e(f, m_clock);
        QSignalSpy discovered(e.controller.get(), &Controller::discoveryChanged);
        // A newly Ready owner is listed at once: no need to wait for the resync.
        QVERIFY(converge(f, e, 2));
        QTRY_VERIFY(!f.ws->discovered().isEmpty());
        const QList<DiscoveredResource> found = f.ws->discovered();
        QCOMPARE(found.size(), 1); // w0 and w1 are managed
        QCOMPARE(found.first().name, QStringLiteral("stray"));
        QCOMPARE(found.first().kind, QStringLiteral("Widget"));
        QCOMPARE(found.first().owner, (ResourceKey{QStringLiteral("Gadget"), QStringLiteral("g")}));
        QCOMPARE(found.first().resourceId, QStringLiteral("fake://Widget/stray"));
        QCOMPARE(found.first().spec.value(QStringLiteral("replicas")).toInt(), 3);
        QTRY_VERIFY(!discovered.isEmpty());
        QVERIFY(
            discovered.first().first().value<QList<ResourceKey>>().contains(found.first().owner));
        QVERIFY(!f.ws->get(stray)); // discovery never adds to the workspace by itself
    }

    void newlyReadyOwnerIsListedBeforeItsChildren()
    {
        // Its children are queued when it turns Ready; listing what it holds waits for none of
        // them (behind them, a CLI's wait for the children ended with lists in flight).
        // One worker, so that the order is the queue's alone: the owner's create, then its list.
        EngineFixture f;
        Engine e(f, m_clock, fastOptions(1));
        QVERIFY(converge(f, e, 40));
        QVERIFY(f.backend.lists > 0);
        QCOMPARE(f.backend.createsAtFirstList.load(), 1);
    }

    static void putStray(EngineFixture &f, const QString &name)
    {
        f.backend.put(ResourceKey{QStringLiteral("Widget"), name},
                      QJsonObject{{QStringLiteral("owner"),
                                   QJsonObject{{QStringLiteral("name"), QStringLiteral("g")}}}});
    }

    static void removeFromBackend(EngineFixture &f, const QString &name)
    {
        QMutexLocker lock(&f.backend.mutex);
        f.backend.objects.remove(ResourceKey{QStringLiteral("Widget"), name}.toString());
    }

    static QStringList discoveredNames(EngineFixture &f)
    {
        QStringList names;
        for (const DiscoveredResource &item : f.ws->discovered())
            names.append(item.name);
        return names;
    }

    void aPersonsRefreshOrReconcileListsTheAccountAgain_data()
    {
        QTest::addColumn<bool>("refresh");
        QTest::newRow("refresh") << true;
        QTest::newRow("reconcile") << false;
    }

    void aPersonsRefreshOrReconcileListsTheAccountAgain()
    {
        // Created and deleted outside after the account was first listed: a person's action on
        // the account shows both, with no resync and no restart.
        QFETCH(bool, refresh);
        EngineFixture f;
        Engine e(f, m_clock);
        QVERIFY(converge(f, e, 1));
        QTRY_VERIFY(e.controller->isIdle());
        QVERIFY(f.ws->discovered().isEmpty());
        const ResourceKey g{QStringLiteral("Gadget"), QStringLiteral("g")};
        const auto act = [&] {
            if (refresh)
                e.controller->refresh({g});
            else
                e.controller->reconcile({g});
        };
        putStray(f, QStringLiteral("outside"));
        QSignalSpy changed(e.controller.get(), &Controller::discoveryChanged);
        act();
        QTRY_COMPARE(discoveredNames(f), QStringList{QStringLiteral("outside")});
        QTRY_VERIFY(!changed.isEmpty());
        const QDateTime firstSeen = f.ws->discovered().first().firstSeenAt;
        QVERIFY(firstSeen.isValid());

        putStray(f, QStringLiteral("later"));
        act();
        QTRY_COMPARE(discoveredNames(f),
                     (QStringList{QStringLiteral("later"), QStringLiteral("outside")}));
        // Seen again, first seen when it was.
        for (const DiscoveredResource &item : f.ws->discovered()) {
            if (item.name == QStringLiteral("outside")) {
                QCOMPARE(item.firstSeenAt, firstSeen);
                QVERIFY(item.seenAt >= firstSeen);
            }
        }

        removeFromBackend(f, QStringLiteral("outside"));
        removeFromBackend(f, QStringLiteral("later"));
        act();
        QTRY_VERIFY(f.ws->discovered().isEmpty());
        QVERIFY(f.stored(g).status.ready().isReady());
    }

    void isListingUntilWhatWasListedIsStored()
    {
        // The command line's controller stops once a refreshed account's list is stored.
        EngineFixture f;
        Engine e(f, m_clock);
        QVERIFY(converge(f, e, 1));
        QTRY_VERIFY(e.controller->isIdle());
        for (int i = 0; i < 300; ++i)
            putStray(f, QStringLiteral("s%1").arg(i, 3, 10, QLatin1Char('0')));
        f.backend.listPageSize = 1;
        // The listing is held at its 150th page, so that "listing" is a state the test observes
        // for certain rather than one it must catch in passing between two polls.
        f.backend.listHoldsAt = 150;
        const auto release = qScopeGuard([&f] { f.backend.releaseList(); });
        const ResourceKey g{QStringLiteral("Gadget"), QStringLiteral("g")};
        QVERIFY(!e.controller->isListing({g}));
        e.controller->refresh({g});
        QTRY_COMPARE(f.backend.listHeld.available(), 1); // a latch: it stays until released
        QVERIFY(e.controller->isListing({g}));
        f.backend.releaseList();
        QTRY_VERIFY(!e.controller->isListing({g}));
        QCOMPARE(f.ws->discovered().size(), 300);
    }

    void anAccountAppliedAgainIsListedAgain()
    {
        // Connect account or `apply` of an account already in the workspace changes its spec.
        EngineFixture f;
        Engine e(f, m_clock);
        QVERIFY(converge(f, e, 1));
        QTRY_VERIFY(e.controller->isIdle());
        putStray(f, QStringLiteral("outside"));
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g"), QStringLiteral("east"))}));
        e.controller->wake();
        QTRY_COMPARE(discoveredNames(f), QStringList{QStringLiteral("outside")});
    }

    void aResyncAloneDoesNotListTheAccountBeforeItsTime()
    {
        // Runs that nobody asked for (a widget's reconcile, a retry) list nothing: only the
        // periodic resync, the first Ready and a person's action do.
        EngineFixture f;
        Engine e(f, m_clock);
        QVERIFY(converge(f, e, 1));
        QTRY_VERIFY(e.controller->isIdle());
        const int lists = f.backend.lists;
        e.controller->reconcile({ResourceKey{QStringLiteral("Widget"), QStringLiteral("w0")}});
        QTRY_VERIFY(e.controller->isIdle());
        QCOMPARE(f.backend.lists, lists);
    }

    void claimTakesOverWithoutAWrite_data()
    {
        QTest::addColumn<bool>("listComplete");
        QTest::newRow("from the list page") << true;
        QTest::newRow("from a get") << false;
    }

    void claimTakesOverWithoutAWrite()
    {
        QFETCH(bool, listComplete);
        EngineFixture f;
        f.backend.listComplete = listComplete;
        // The workspace already has a Widget named "dup" (backend name "dup-backend"); the
        // backend also has an unmanaged "dup".
        Resource managed = EngineFixture::widget(QStringLiteral("dup"), QStringLiteral("g"));
        managed.spec.insert(QStringLiteral("azureName"), QStringLiteral("dup-backend"));
        QVERIFY(f.apply({managed}));
        const ResourceKey backendKey{QStringLiteral("Widget"), QStringLiteral("dup")};
        f.backend.put(backendKey,
                      QJsonObject{{QStringLiteral("owner"),
                                   QJsonObject{{QStringLiteral("name"), QStringLiteral("g")}}},
                                  {QStringLiteral("replicas"), 3},
                                  {QStringLiteral("publicAccess"), QStringLiteral("Blob")}});
        Engine e(f, m_clock);
        QVERIFY(converge(f, e, 1));
        QTRY_COMPARE(f.ws->discovered().size(), 1);
        const DiscoveredResource item = f.ws->discovered().first();
        QCOMPARE(item.name, QStringLiteral("dup"));
        const int writes = f.backend.writes();
        QSignalSpy finished(e.controller.get(), &Controller::claimFinished);
        e.controller->claim(item);
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.first().at(2).toString(), QString());
        const auto key = finished.first().at(1).value<ResourceKey>();
        QCOMPARE(key, (ResourceKey{QStringLiteral("Widget"), QStringLiteral("dup-2")}));
        QTRY_VERIFY_WITH_TIMEOUT(f.stored(key).status.ready().isReady(), 10000);
        QTRY_VERIFY(e.controller->isIdle());
        const Resource claimed = f.stored(key);
        QCOMPARE(claimed.spec.value(QStringLiteral("azureName")).toString(),
                 QStringLiteral("dup")); // the backend name is kept
        QCOMPARE(claimed.spec.value(QStringLiteral("replicas")).toInt(), 3); // as observed
        QCOMPARE(claimed.spec.value(QStringLiteral("publicAccess")).toString(),
                 QStringLiteral("Blob"));
        QCOMPARE(claimed.metadata.annotations.value(QStringLiteral("converge.dev/resource-id")),
                 QStringLiteral("fake://Widget/dup"));
        QVERIFY(claimed.hasFinalizer());
        QCOMPARE(f.backend.writes(), writes); // no backend write at all
        QVERIFY(f.ws->discovered().isEmpty());
    }

    void phaseRunsAreRecorded()
    {
        EngineFixture f;
        Engine e(f, m_clock);
        QVERIFY(converge(f, e, 1));
        const ResourceKey w0{QStringLiteral("Widget"), QStringLiteral("w0")};
        QTRY_VERIFY(!f.ws->phaseRuns(w0).isEmpty());
        const QList<PhaseRun> runs = f.ws->phaseRuns(w0);
        // Newest first: the create is the oldest run that wrote (earlier ones waited for g).
        auto wrote = std::find_if(runs.crbegin(), runs.crend(),
                                  [](const PhaseRun &run) { return run.backendWrites > 0; });
        QVERIFY(wrote != runs.crend());
        const PhaseRun &created = *wrote;
        QCOMPARE(created.phase, QStringLiteral("createOrUpdate"));
        QCOMPARE(created.outcome, QStringLiteral("Done"));
        QCOMPARE(created.reason, QStringLiteral("Succeeded"));
        QCOMPARE(created.backendWrites, 1);
        QCOMPARE(created.requestId, QStringLiteral("fake-request"));
        QVERIFY(created.startedAt.isValid());
        QVERIFY(!created.reconcileId.isEmpty());
    }

    void convergesAndResyncMakesNoWrites()
    {
        EngineFixture f;
        QList<Resource> objects{EngineFixture::gadget(QStringLiteral("g"))};
        for (int i = 0; i < 20; ++i)
            objects.append(
                EngineFixture::widget(QStringLiteral("w%1").arg(i), QStringLiteral("g")));
        QVERIFY(f.apply(objects));
        Engine e(f, m_clock);
        QVERIFY(e.controller->start());
        QTRY_VERIFY_WITH_TIMEOUT(allReady(f), 10000);
        QTRY_VERIFY(e.controller->isIdle());
        QCOMPARE(f.backend.creates.load(), 21);
        const int writes = f.backend.writes();
        const qint64 reconciles = e.controller->stats().reconciles;
        e.controller->resyncNow();
        QTRY_VERIFY(e.controller->stats().reconciles >= reconciles + 21);
        QTRY_VERIFY(e.controller->isIdle());
        QCOMPARE(f.backend.writes(), writes);
        QCOMPARE(f.backend.concurrentViolations.load(), 0);
        QVERIFY(hasEvent(f, ResourceKey{QStringLiteral("Widget"), QStringLiteral("w3")},
                         QStringLiteral("Created")));
    }

    void childrenWaitForTheirOwner()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"))}));
        Engine e(f, m_clock);
        QVERIFY(e.controller->start());
        const ResourceKey w{QStringLiteral("Widget"), QStringLiteral("w")};
        QTRY_VERIFY(hasEvent(f, w, QStringLiteral("WaitingForOwner")));
        QCOMPARE(f.backend.creates.load(), 0);
        auto ws = Workspace::open(f.path, nullptr);
        QCOMPARE(ws->reconcileState(w).waitingFor, QStringLiteral("owner"));
        QVERIFY(ws->reconcileState(w).attempts >= 1);
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g"))}));
        QTRY_VERIFY_WITH_TIMEOUT(allReady(f), 10000);
        QCOMPARE(f.backend.creates.load(), 2);
        QTRY_COMPARE(ws->reconcileState(w).attempts, 0);
    }

    // A resource its spec names is waited for like an owner, and wakes it when Ready.
    void referencesAreWaitedFor()
    {
        EngineFixture f;
        Resource widget = EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"));
        widget.spec.insert(QStringLiteral("peerRef"),
                           QJsonObject{{QStringLiteral("name"), QStringLiteral("p")}});
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")), widget}));
        Engine e(f, m_clock);
        QVERIFY(e.controller->start());
        const ResourceKey w{QStringLiteral("Widget"), QStringLiteral("w")};
        QTRY_VERIFY(hasEvent(f, w, QStringLiteral("WaitingForReference")));
        auto ws = Workspace::open(f.path, nullptr);
        QCOMPARE(ws->reconcileState(w).waitingFor, QStringLiteral("a reference"));
        QCOMPARE(f.backend.creates.load(), 1); // g's
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("p"))}));
        QTRY_VERIFY_WITH_TIMEOUT(allReady(f), 10000);
        QCOMPARE(f.backend.creates.load(), 3);
    }

    // Released by its owner's verdict, a child whose reference is not Ready yet (its create
    // failed once and is retried at once) waits for that one's verdict too, without a run of its
    // own: a fresh apply of 500 topics and 500 subscriptions recorded 250 WaitingForReference
    // runs before.
    void referencesHeldForTheirVerdictAfterTheOwners()
    {
        EngineFixture f;
        f.backend.latencyMs = 20;
        QList<Resource> objects;
        QList<ResourceKey> keys;
        for (int i = 0; i < 6; ++i) {
            Resource widget =
                EngineFixture::widget(QStringLiteral("w%1").arg(i), QStringLiteral("g"));
            widget.spec.insert(QStringLiteral("peerRef"),
                               QJsonObject{{QStringLiteral("name"), QStringLiteral("p")}});
            objects.append(widget);
            keys.append(widget.key());
        }
        objects.append(EngineFixture::gadget(QStringLiteral("g")));
        objects.append(EngineFixture::gadget(QStringLiteral("p")));
        keys.append({QStringLiteral("Gadget"), QStringLiteral("g")});
        const ResourceKey p{QStringLiteral("Gadget"), QStringLiteral("p")};
        keys.append(p);
        QVERIFY(f.apply(objects));
        f.backend.injectError(
            QStringLiteral("create"), p,
            fakeError(BackendError::Category::Transient, QStringLiteral("ServiceUnavailable")));
        // One worker: the widgets, held for g, go after g's verdict; p's failed create is
        // retried within a second, and they wait for it.
        Engine e(f, m_clock, fastOptions(1));
        e.controller->reconcile(keys);
        QVERIFY(e.controller->start());
        QTRY_VERIFY_WITH_TIMEOUT(allReady(f), 10000);
        for (const ResourceKey &key : std::as_const(keys))
            QVERIFY2(!hasEvent(f, key, QStringLiteral("WaitingForReference")),
                     qPrintable(key.toString()));
    }

    void childrenHeldForTheirOwnersVerdict_data()
    {
        QTest::addColumn<bool>("ownerFails");
        QTest::newRow("owner Ready") << false;
        QTest::newRow("owner fails") << true;
    }

    void childrenHeldForTheirOwnersVerdict()
    {
        // Owner and children applied together, the children asked for first (the CLI queues
        // every key of an apply): while the slow owner runs, its children wait without a run of
        // their own, and go with its verdict.
        QFETCH(bool, ownerFails);
        EngineFixture f;
        f.backend.latencyMs = 150;
        const ResourceKey g{QStringLiteral("Gadget"), QStringLiteral("g")};
        QList<Resource> objects;
        QList<ResourceKey> keys;
        for (int i = 0; i < 12; ++i) {
            objects.append(
                EngineFixture::widget(QStringLiteral("w%1").arg(i), QStringLiteral("g")));
            keys.append(objects.last().key());
        }
        objects.append(EngineFixture::gadget(QStringLiteral("g")));
        keys.append(g);
        QVERIFY(f.apply(objects));
        if (ownerFails) {
            f.backend.injectError(
                QStringLiteral("create"), g,
                fakeError(BackendError::Category::Invalid, QStringLiteral("InvalidLocation")));
        }
        Engine e(f, m_clock);
        e.controller->reconcile(keys);
        QVERIFY(e.controller->start());
        const ResourceKey w0{QStringLiteral("Widget"), QStringLiteral("w0")};
        if (ownerFails) {
            // Held children still say why they wait once the owner has failed.
            QTRY_VERIFY_WITH_TIMEOUT(hasEvent(f, w0, QStringLiteral("WaitingForOwner")), 10000);
            QCOMPARE(f.backend.creates.load(), 1);
            return;
        }
        QTRY_VERIFY_WITH_TIMEOUT(allReady(f), 10000);
        QTRY_VERIFY(e.controller->isIdle());
        for (const ResourceKey &key : std::as_const(keys))
            QVERIFY2(!hasEvent(f, key, QStringLiteral("WaitingForOwner")),
                     qPrintable(key.toString()));
        QCOMPARE(f.backend.creates.load(), 13);
    }

    void childrenHeldForAnOwnerThatIsRemovedRunAnyway()
    {
        // One worker, busy with account "a" while "g" waits its turn with its child held for
        // its verdict; "g" leaves the workspace before it runs: the child must not wait for ever.
        EngineFixture f;
        f.backend.latencyMs = 1000;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("a")),
                         EngineFixture::gadget(QStringLiteral("g")),
                         EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"))}));
        Engine e(f, m_clock, fastOptions(1));
        QVERIFY(e.controller->start());
        QTRY_COMPARE(e.controller->stats().inFlight, 1); // "a"
        StoreError error;
        QVERIFY(f.ws->remove({QStringLiteral("Gadget"), QStringLiteral("g")}, &error));
        const ResourceKey w{QStringLiteral("Widget"), QStringLiteral("w")};
        QTRY_VERIFY_WITH_TIMEOUT(hasEvent(f, w, QStringLiteral("WaitingForOwner")), 10000);
        QCOMPARE(f.backend.creates.load(), 1); // "a" only
    }

    void specChangeIsReconciledAgain()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")),
                         EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"), 1)}));
        Engine e(f, m_clock);
        QVERIFY(e.controller->start());
        QTRY_VERIFY_WITH_TIMEOUT(allReady(f), 10000);
        QVERIFY(f.apply({EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"), 4)}));
        const ResourceKey w{QStringLiteral("Widget"), QStringLiteral("w")};
        QTRY_COMPARE(f.backend.spec(w).value(QStringLiteral("replicas")).toInt(), 4);
        QTRY_VERIFY(allReady(f));
        QCOMPARE(f.backend.updates.load(), 1);
    }

    void retriesWithBackoffThenSucceeds()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g"))}));
        const ResourceKey g{QStringLiteral("Gadget"), QStringLiteral("g")};
        for (int i = 0; i < 3; ++i)
            f.backend.injectError(
                QStringLiteral("create"), g,
                fakeError(BackendError::Category::Transient, QStringLiteral("ServerBusy")));
        ManualClock clock;
        Engine e(f, clock);
        QVERIFY(e.controller->start());
        // Each retry waits for the (manual) clock: nothing happens until time moves.
        QTRY_COMPARE(f.backend.creates.load(), 1);
        QTest::qWait(100);
        QCOMPARE(f.backend.creates.load(), 1);
        auto ws = Workspace::open(f.path, nullptr);
        QTRY_COMPARE(ws->reconcileState(g).attempts, 1);
        QVERIFY(ws->reconcileState(g).nextAttempt > clock.now());
        QCOMPARE(ws->get(g)->status.ready().reason, QStringLiteral("ServerBusy"));
        for (int i = 0; i < 3; ++i) {
            clock.advance(60'000);
            QTRY_COMPARE(f.backend.creates.load(), i + 2);
            // The next retry is scheduled from the clock's time when the run ends: advancing
            // before then would schedule it a minute later and wait forever.
            if (i < 2)
                QTRY_COMPARE(ws->reconcileState(g).attempts, i + 2);
        }
        QTRY_VERIFY(allReady(f));
        QTRY_COMPARE(ws->reconcileState(g).attempts, 0);
    }

    void retryAfterIsHonoured()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g"))}));
        const ResourceKey g{QStringLiteral("Gadget"), QStringLiteral("g")};
        f.backend.injectError(
            QStringLiteral("create"), g,
            fakeError(BackendError::Category::Throttled, QStringLiteral("TooManyRequests"), 40s));
        ManualClock clock;
        const QDateTime start = clock.now();
        Engine e(f, clock);
        QVERIFY(e.controller->start());
        QTRY_COMPARE(f.backend.creates.load(), 1);
        auto ws = Workspace::open(f.path, nullptr);
        QTRY_VERIFY(ws->reconcileState(g).nextAttempt.isValid());
        QCOMPARE(start.msecsTo(ws->reconcileState(g).nextAttempt), 40'000);
        clock.advance(39'000);
        QTest::qWait(100);
        QCOMPARE(f.backend.creates.load(), 1);
        clock.advance(1'000);
        QTRY_COMPARE(f.backend.creates.load(), 2);
    }

    void lastAttemptIsTheLastRunWhateverItChanged()
    {
        // A run that updated the backend and left the same reconcile state (Done, no error)
        // is the last attempt all the same; so is a resync that changed nothing.
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")),
                         EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"), 1)}));
        ManualClock clock;
        Engine e(f, clock);
        QVERIFY(e.controller->start());
        QTRY_VERIFY_WITH_TIMEOUT(allReady(f), 10000);
        QTRY_VERIFY(e.controller->isIdle());
        const ResourceKey w{QStringLiteral("Widget"), QStringLiteral("w")};
        const QDateTime first = f.ws->reconcileState(w).lastAttempt;
        QVERIFY(first.isValid());
        QCOMPARE(f.ws->reconcileState(w).waitingFor, QStringLiteral("resync"));

        // The phase runs' batch stores a run's end (its start on the clock plus its real
        // duration), so a slow run (a sanitizer build) may have put `first` a little past the
        // clock: compare with the clock, not with `first` plus the advance.
        clock.advance(5'000);
        const QDateTime edited = clock.now();
        QVERIFY(f.apply({EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"), 4)}));
        e.controller->wake();
        // Stored with the status, in one transaction: no later write to wait for.
        QTRY_COMPARE(f.stored(w).status.ready().observedGeneration, 2);
        QCOMPARE(f.backend.updates.load(), 1);
        QVERIFY(f.ws->reconcileState(w).lastAttempt >= edited);
        QVERIFY(f.ws->reconcileState(w).lastAttempt > first);
        QTRY_COMPARE(f.ws->phaseRuns(w, 1).value(0).reconcileId,
                     f.ws->reconcileState(w).lastReconcileId);

        QTRY_VERIFY(e.controller->isIdle());
        clock.advance(5'000);
        const QDateTime resynced = clock.now();
        const int writes = f.backend.writes();
        e.controller->resyncNow();
        QTRY_VERIFY(f.ws->reconcileState(w).lastAttempt >= resynced);
        QCOMPARE(f.backend.writes(), writes);
    }

    void waitingRetriesAreCountedApart()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g"))}));
        const ResourceKey g{QStringLiteral("Gadget"), QStringLiteral("g")};
        f.backend.injectError(
            QStringLiteral("create"), g,
            fakeError(BackendError::Category::Throttled, QStringLiteral("TooManyRequests"), 40s));
        ManualClock clock;
        Engine e(f, clock);
        QVERIFY(e.controller->start());
        QTRY_COMPARE(f.backend.creates.load(), 1);
        QTRY_COMPARE(e.controller->stats().waiting, 1);
        QCOMPARE(e.controller->stats().queued, 1);
        QCOMPARE(f.ws->reconcileState(g).waitingFor, QStringLiteral("backoff"));
        clock.advance(40'000);
        QTRY_COMPARE(f.backend.creates.load(), 2);
        QTRY_COMPARE(e.controller->stats().waiting, 0);
    }

    void fatalErrorWaitsForSpecChange()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g"), QStringLiteral("denied"))}));
        Engine e(f, m_clock);
        QVERIFY(e.controller->start());
        const ResourceKey g{QStringLiteral("Gadget"), QStringLiteral("g")};
        auto ws = Workspace::open(f.path, nullptr);
        QTRY_COMPARE(ws->get(g)->status.ready().reason, QStringLiteral("AuthenticationFailed"));
        QCOMPARE(ws->get(g)->status.ready().severity, Condition::Severity::Error);
        const int gets = f.backend.gets;
        QTest::qWait(300);
        QCOMPARE(f.backend.gets.load(), gets); // no retry storm
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g"), QStringLiteral("east"))}));
        QTRY_VERIFY(allReady(f));
    }

    void detachOnDeleteMakesNoBackendCall()
    {
        EngineFixture f;
        Resource gadget = EngineFixture::gadget(QStringLiteral("g"));
        QVERIFY(f.apply({gadget}));
        Engine e(f, m_clock);
        QVERIFY(e.controller->start());
        QTRY_VERIFY(allReady(f));
        const ResourceKey g{QStringLiteral("Gadget"), QStringLiteral("g")};
        gadget.metadata.annotations.insert(Annotations::reconcilePolicy(),
                                           QStringLiteral("detach-on-delete"));
        QVERIFY(f.apply({gadget}));
        QVERIFY(f.ws->requestDeletion(g, nullptr));
        QTRY_VERIFY(!f.ws->get(g));
        QCOMPARE(f.backend.deletes.load(), 0);
        QVERIFY(f.backend.has(g));
        QVERIFY(hasEvent(f, g, QStringLiteral("Detached")));
    }

    void deleteRemovesBackendThenObject()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")),
                         EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"))}));
        f.backend.asyncDeletePolls = 2;
        Engine e(f, m_clock);
        QVERIFY(e.controller->start());
        QTRY_VERIFY(allReady(f));
        const ResourceKey w{QStringLiteral("Widget"), QStringLiteral("w")};
        QVERIFY(f.ws->requestDeletion(w, nullptr));
        QTRY_VERIFY_WITH_TIMEOUT(!f.ws->get(w), 10000);
        QVERIFY(!f.backend.has(w));
        QCOMPARE(f.backend.deletes.load(), 1);
        QVERIFY(hasEvent(f, w, QStringLiteral("Deleted"))); // events outlive the object
    }

    void accountsLeaveWithoutABackendCall()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g"), QStringLiteral("denied"))}));
        Engine e(f, m_clock);
        QVERIFY(e.controller->start());
        const ResourceKey g{QStringLiteral("Gadget"), QStringLiteral("g")};
        QTRY_COMPARE(f.stored(g).status.ready().reason, QStringLiteral("AuthenticationFailed"));
        // A misconfigured account must stay removable: no get, no delete.
        const int calls = f.backend.gets + f.backend.deletes;
        QVERIFY(f.ws->requestDeletion(g, nullptr));
        QTRY_VERIFY(!f.ws->get(g));
        QCOMPARE(f.backend.gets + f.backend.deletes, calls);
    }

    void restartResumesAnOperationInProgress()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g"))}));
        f.backend.asyncPolls = 1'000'000; // stays CREATING while the first engine runs
        const ResourceKey g{QStringLiteral("Gadget"), QStringLiteral("g")};
        {
            Engine first(f, m_clock);
            QVERIFY(first.controller->start());
            auto ws = Workspace::open(f.path, nullptr);
            QTRY_COMPARE(ws->get(g)->status.ready().reason, QStringLiteral("Reconciling"));
            first.controller->stop();
        }
        QCOMPARE(f.backend.creates.load(), 1);
        {
            QMutexLocker lock(&f.backend.mutex);
            f.backend.objects[g.toString()].pendingPolls = 2;
        }
        Engine second(f, m_clock);
        QVERIFY(second.controller->start());
        QTRY_VERIFY_WITH_TIMEOUT(allReady(f), 10000);
        QCOMPARE(f.backend.creates.load(), 1); // resumed by observing, not created again
    }

    void unfinishedIntentsAreResolvedFirst()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g"))}));
        const ResourceKey g{QStringLiteral("Gadget"), QStringLiteral("g")};
        // A previous process died between its intent and the outcome; the create did happen.
        QVERIFY(f.ws->beginIntent(g, QStringLiteral("create"), {}, nullptr) > 0);
        f.backend.put(g, f.stored(g).spec);
        Engine e(f, m_clock);
        QVERIFY(e.controller->start());
        QTRY_VERIFY(allReady(f));
        QVERIFY(f.ws->unfinishedIntents().isEmpty());
        QVERIFY(hasEvent(f, g, QStringLiteral("IntentResolved")));
        QCOMPARE(f.backend.creates.load(), 0); // found, not created twice
    }

    void anIntentWhoseResourceCannotBeReadStays()
    {
        // A read that fails at start is not "the resource left the workspace": the intent
        // stays unfinished, for a start that can read it to resolve.
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g"))}));
        const ResourceKey g{QStringLiteral("Gadget"), QStringLiteral("g")};
        QVERIFY(f.ws->beginIntent(g, QStringLiteral("create"), {}, nullptr) > 0);
        const auto exec = [&f](const QString &sql) {
            bool ok = false;
            {
                QSqlDatabase db =
                    QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("other"));
                db.setDatabaseName(f.path);
                ok = db.open() && QSqlQuery(db).exec(sql);
            }
            QSqlDatabase::removeDatabase(QStringLiteral("other"));
            return ok;
        };
        QVERIFY(exec(QStringLiteral("ALTER TABLE resources RENAME TO resources_away")));
        {
            Engine e(f, m_clock);
            if (e.controller->start())
                QTest::qWait(500);
        }
        QVERIFY(exec(QStringLiteral("ALTER TABLE resources_away RENAME TO resources")));
        QCOMPARE(f.ws->unfinishedIntents().size(), 1);
        QCOMPARE(f.backend.gets.load() + f.backend.creates.load(), 0);

        Engine e(f, m_clock);
        QVERIFY(e.controller->start());
        QTRY_VERIFY(f.ws->unfinishedIntents().isEmpty());
    }

    void userActionsJumpTheQueue()
    {
        EngineFixture f;
        QList<Resource> objects{EngineFixture::gadget(QStringLiteral("g"))};
        for (int i = 0; i < 40; ++i)
            objects.append(
                EngineFixture::widget(QStringLiteral("w%1").arg(i), QStringLiteral("g")));
        QVERIFY(f.apply(objects));
        Engine e(f, m_clock, fastOptions(1));
        QVERIFY(e.controller->start());
        QTRY_VERIFY_WITH_TIMEOUT(allReady(f), 20000);
        QTRY_VERIFY(e.controller->isIdle());
        f.backend.latencyMs = 20;
        const ResourceKey last{QStringLiteral("Widget"), QStringLiteral("w39")};
        const int getsBefore = f.backend.gets;
        e.controller->resyncNow();
        QTRY_VERIFY(f.backend.gets > getsBefore);
        e.controller->refresh({last});
        auto ws = Workspace::open(f.path, nullptr);
        // The refresh runs long before the 41-resource resync (20 ms each) would reach it.
        QTRY_VERIFY_WITH_TIMEOUT(ws->reconcileState(last).lastAttempt.isValid(), 5000);
        QVERIFY(f.backend.gets - getsBefore < 20);
    }

    void cancelRemovesQueuedWork()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g"))}));
        const ResourceKey g{QStringLiteral("Gadget"), QStringLiteral("g")};
        f.backend.injectError(
            QStringLiteral("create"), g,
            fakeError(BackendError::Category::Transient, QStringLiteral("Busy"), 60s));
        Engine e(f, m_clock);
        QVERIFY(e.controller->start());
        QTRY_COMPARE(f.backend.creates.load(), 1);
        // QTRY_* evaluates its expression once more at the end: no side effects in it.
        QTRY_VERIFY(e.controller->stats().queued == 1 && e.controller->stats().inFlight == 0);
        QVERIFY(e.controller->cancel(g));
        QVERIFY(!e.controller->cancel(g));
        QTRY_VERIFY(e.controller->isIdle());
    }

    void oneSlowAccountDoesNotHoldTheOthers()
    {
        EngineFixture f;
        QList<Resource> objects{EngineFixture::gadget(QStringLiteral("slow")),
                                EngineFixture::gadget(QStringLiteral("fast"))};
        for (int i = 0; i < 12; ++i)
            objects.append(
                EngineFixture::widget(QStringLiteral("s%1").arg(i), QStringLiteral("slow")));
        QVERIFY(f.apply(objects));
        Controller::Options options = fastOptions(4);
        options.accountConcurrency = 2;
        Engine e(f, m_clock, options);
        QVERIFY(e.controller->start());
        QTRY_VERIFY_WITH_TIMEOUT(allReady(f), 10000);
        // Now every call is slow; the slow account's 12 widgets may use 2 of the 4 workers.
        f.backend.latencyMs = 200;
        QList<ResourceKey> slow;
        for (int i = 0; i < 12; ++i)
            slow.append(ResourceKey{QStringLiteral("Widget"), QStringLiteral("s%1").arg(i)});
        e.controller->reconcile(slow);
        QTest::qWait(50);
        const ResourceKey fast{QStringLiteral("Widget"), QStringLiteral("f")};
        QVERIFY(f.apply({EngineFixture::widget(QStringLiteral("f"), QStringLiteral("fast"))}));
        QElapsedTimer timer;
        timer.start();
        QTRY_VERIFY_WITH_TIMEOUT(f.backend.has(fast), 5000);
        // 12 slow keys × 2 calls × 200 ms over 2 workers ≈ 2.4 s; the fast one needs ~0.6 s.
        QVERIFY2(timer.elapsed() < 1800, qPrintable(QString::number(timer.elapsed())));
    }

    void observersGetBatches()
    {
        EngineFixture f;
        QList<Resource> objects{EngineFixture::gadget(QStringLiteral("g"))};
        for (int i = 0; i < 200; ++i)
            objects.append(
                EngineFixture::widget(QStringLiteral("w%1").arg(i), QStringLiteral("g")));
        QVERIFY(f.apply(objects));
        Engine e(f, m_clock);
        QSignalSpy changed(e.controller.get(), &Controller::resourcesChanged);
        QSignalSpy events(e.controller.get(), &Controller::eventsRecorded);
        QVERIFY(changed.isValid());
        QElapsedTimer timer;
        timer.start();
        QVERIFY(e.controller->start());
        QTRY_VERIFY_WITH_TIMEOUT(allReady(f), 20000);
        QTRY_VERIFY(e.controller->isIdle());
        QTest::qWait(100);
        const double seconds = timer.elapsed() / 1000.0;
        QVERIFY(changed.count() > 0);
        QVERIFY(events.count() > 0);
        // At most 20 batches a second (one per 50 ms tick), plus one for the final flush.
        QVERIFY2(
            changed.count() <= seconds * 20 + 2,
            qPrintable(QStringLiteral("%1 batches in %2 s").arg(changed.count()).arg(seconds)));
        QSet<ResourceKey> seen;
        for (const QList<QVariant> &args : std::as_const(changed)) {
            for (const ResourceKey &k : args.at(0).value<QList<ResourceKey>>())
                seen.insert(k);
        }
        QCOMPARE(seen.size(), 201);
    }

    void shutdownIsPrompt()
    {
        EngineFixture f;
        QList<Resource> objects{EngineFixture::gadget(QStringLiteral("g"))};
        for (int i = 0; i < 50; ++i)
            objects.append(
                EngineFixture::widget(QStringLiteral("w%1").arg(i), QStringLiteral("g")));
        QVERIFY(f.apply(objects));
        f.backend.latencyMs = 300;
        Engine e(f, m_clock, fastOptions(8));
        QVERIFY(e.controller->start());
        QTRY_VERIFY(f.backend.gets > 0);
        QElapsedTimer timer;
        timer.start();
        e.controller->stop();
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(!e.controller->isRunning());
    }

    void stressNeverTwoWorkersOnOneKey()
    {
        EngineFixture f;
        constexpr int count = 1000;
        QList<Resource> objects{EngineFixture::gadget(QStringLiteral("g"))};
        for (int i = 0; i < count; ++i)
            objects.append(
                EngineFixture::widget(QStringLiteral("w%1").arg(i), QStringLiteral("g")));
        QVERIFY(f.apply(objects));
        Controller::Options options = fastOptions(16);
        options.accountConcurrency = 0;
        Engine e(f, m_clock, options);
        QVERIFY(e.controller->start());

        // Random spec edits while reconciling: every edit must land in the backend.
        QRandomGenerator random(42);
        QHash<QString, int> finalReplicas;
        for (int round = 0; round < 10; ++round) {
            QList<Resource> edits;
            for (int i = 0; i < 50; ++i) {
                const QString name = QStringLiteral("w%1").arg(random.bounded(count));
                const int replicas = 1 + random.bounded(10);
                finalReplicas.insert(name, replicas);
                bool duplicate = false;
                for (Resource &r : edits) {
                    if (r.metadata.name == name) {
                        r.spec.insert(QStringLiteral("replicas"), replicas);
                        duplicate = true;
                    }
                }
                if (!duplicate)
                    edits.append(EngineFixture::widget(name, QStringLiteral("g"), replicas));
            }
            QVERIFY(f.apply(edits));
            QTest::qWait(30);
        }
        QTRY_VERIFY_WITH_TIMEOUT(allReady(f), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(e.controller->isIdle(), 10000);
        QCOMPARE(f.backend.concurrentViolations.load(), 0);
        for (auto it = finalReplicas.cbegin(); it != finalReplicas.cend(); ++it) {
            const ResourceKey key{QStringLiteral("Widget"), it.key()};
            QCOMPARE(f.backend.spec(key).value(QStringLiteral("replicas")).toInt(), it.value());
        }
    }
};

QTEST_GUILESS_MAIN(tst_Controller)
#include "tst_controller.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The memo of quiet runs across controller starts, against the fake Manager and a real
// workspace: the first pass after a start skips what its pages show as the last run left it,
// and never what changed while no controller ran (the backend, the spec, labels or policy, an
// owner, an interrupted write, a removal, a memo of another format).
#include "annotations.h"
#include "clock.h"
#include "controller.h"
#include "enginefixture.h"
#include "factoryregistry.h"
#include "genericreconciler.h"
#include "quietrun.h"

#include <QElapsedTimer>

using namespace converge;
using namespace converge::test;
using namespace std::chrono_literals;

class tst_RunMemo final : public QObject
{
    Q_OBJECT

private:
    static constexpr int widgets = 20;

    struct Engine
    {
        explicit Engine(EngineFixture &f, Clock &clock)
            : reconciler(f.kinds)
        {
            Controller::Options o;
            o.workers = 4;
            o.pollInterval = 20ms;
            o.resyncPeriod = 24h; // only the passes a test asks for
            factories.add(std::make_unique<FakeFactory>(f.backend));
            controller = std::make_unique<Controller>(f.path, f.kinds, factories, reconciler, clock,
                                                      nullptr, o);
        }
        FactoryRegistry factories;
        GenericReconciler reconciler;
        std::unique_ptr<Controller> controller;
    };

    static ResourceKey widget(int i)
    {
        return ResourceKey{QStringLiteral("Widget"), QStringLiteral("w%1").arg(i)};
    }
    static ResourceKey gadget()
    {
        return ResourceKey{QStringLiteral("Gadget"), QStringLiteral("g")};
    }

    /// Waits until `e` has run `count` more reconciles than `before` and is idle.
    static bool passDone(Engine &e, qint64 before, qint64 count)
    {
        return QTest::qWaitFor(
            [&] {
                return e.controller->stats().reconciles >= before + count && e.controller->isIdle();
            },
            20000);
    }

    /// A gadget and its widgets converged, then one resync that judges each widget's page and
    /// leaves its memo; the controller stopped.
    bool leaveMemos(EngineFixture &f)
    {
        QList<Resource> objects{EngineFixture::gadget(QStringLiteral("g"))};
        for (int i = 0; i < widgets; ++i)
            objects.append(
                EngineFixture::widget(QStringLiteral("w%1").arg(i), QStringLiteral("g")));
        if (!f.apply(objects))
            return false;
        Engine e(f, m_clock);
        if (!e.controller->start() || !passDone(e, 0, widgets + 1))
            return false;
        const qint64 before = e.controller->stats().reconciles;
        e.controller->resyncNow();
        if (!passDone(e, before, widgets + 1))
            return false;
        e.controller->stop();
        return f.ws->runMemos().size() == widgets;
    }

    struct FirstPass
    {
        qint64 skipped = 0;
        int gets = 0;
        int updates = 0;
        int writes = 0;
    };
    /// The first pass of a fresh controller over `f`'s workspace.
    FirstPass firstPass(EngineFixture &f, qint64 reconciles = widgets + 1)
    {
        const int gets = f.backend.gets, updates = f.backend.updates, writes = f.backend.writes();
        Engine e(f, m_clock);
        FirstPass pass;
        if (!e.controller->start() || !passDone(e, 0, reconciles)) {
            pass.skipped = -1;
            return pass;
        }
        pass.skipped = e.controller->stats().skippedUnchanged;
        pass.gets = f.backend.gets - gets;
        pass.updates = f.backend.updates - updates;
        pass.writes = f.backend.writes() - writes;
        e.controller->stop();
        return pass;
    }

    bool edit(EngineFixture &f, const ResourceKey &key,
              const std::function<void(Resource &)> &change)
    {
        Resource r = f.stored(key);
        change(r);
        StoreError error;
        if (!f.ws->update(r, &error)) {
            qWarning() << error.message;
            return false;
        }
        return true;
    }

    SystemClock m_clock;

private slots:
    void firstPassSkipsWhatTheLastRunLeftQuiet()
    {
        EngineFixture f;
        QVERIFY(leaveMemos(f));
        const FirstPass pass = firstPass(f);
        QCOMPARE(pass.skipped, widgets);
        QCOMPARE(pass.gets, 1); // the gadget, which no list covers
        QCOMPARE(pass.writes, 0);
        // A pass that skips stores no memo again; the next start skips as well.
        QCOMPARE(f.ws->runMemos().size(), widgets);
        QCOMPARE(firstPass(f).skipped, widgets);
    }

    void backendChangedWhileStoppedIsDrift()
    {
        EngineFixture f;
        QVERIFY(leaveMemos(f));
        QJsonObject drifted = f.backend.spec(widget(3));
        drifted.insert(QStringLiteral("replicas"), 7);
        f.backend.put(widget(3), drifted);
        const FirstPass pass = firstPass(f);
        QCOMPARE(pass.skipped, widgets - 1);
        QCOMPARE(pass.updates, 1);
        QCOMPARE(f.backend.spec(widget(3)).value(QStringLiteral("replicas")).toInt(), 1);
    }

    void workspaceEditedWhileStoppedIsJudgedAgain()
    {
        // Another process (the CLI) edits a spec, labels, the policy: each raises the
        // resourceVersion, and the memo is for the one before.
        EngineFixture f;
        QVERIFY(leaveMemos(f));
        QVERIFY(
            edit(f, widget(5), [](Resource &r) { r.spec.insert(QStringLiteral("replicas"), 2); }));
        QVERIFY(edit(f, widget(6), [](Resource &r) {
            r.metadata.labels.insert(QStringLiteral("team"), QStringLiteral("storage"));
        }));
        QVERIFY(edit(f, widget(7), [](Resource &r) {
            r.metadata.annotations.insert(Annotations::reconcilePolicy(), QStringLiteral("skip"));
        }));
        const FirstPass pass = firstPass(f);
        QCOMPARE(pass.skipped, widgets - 3);
        QCOMPARE(pass.updates, 1); // w5's new replicas; w7 is only observed under skip
        QCOMPARE(f.backend.spec(widget(5)).value(QStringLiteral("replicas")).toInt(), 2);
    }

    void ownerChangedWhileStoppedVoidsTheMemosOfWhatItOwns()
    {
        // The account's labels (or credentials, or endpoints) changed: its children's lists
        // still work, but what their last runs read is not what is stored.
        EngineFixture f;
        QVERIFY(leaveMemos(f));
        QVERIFY(edit(f, gadget(), [](Resource &r) {
            r.metadata.labels.insert(QStringLiteral("moved"), QStringLiteral("yes"));
        }));
        QCOMPARE(firstPass(f).skipped, 0);
        // Judged again, they leave memos for the owner as it is now.
        QCOMPARE(firstPass(f).skipped, widgets);
    }

    void interruptedWriteIsJudgedAgain()
    {
        EngineFixture f;
        QVERIFY(leaveMemos(f));
        QVERIFY(f.ws->beginIntent(widget(9), QStringLiteral("update"), {}, nullptr) > 0);
        const FirstPass pass = firstPass(f);
        QCOMPARE(pass.skipped, widgets - 1);
        QVERIFY(f.ws->unfinishedIntents().isEmpty());
    }

    void removedAndMadeAgainIsJudgedAgain()
    {
        EngineFixture f;
        QVERIFY(leaveMemos(f));
        StoreError error;
        QVERIFY2(f.ws->remove(widget(8), &error), qPrintable(error.message));
        QCOMPARE(f.ws->runMemos().size(), widgets - 1);
        QVERIFY(f.apply({EngineFixture::widget(QStringLiteral("w8"), QStringLiteral("g"))}));
        const FirstPass pass = firstPass(f);
        QCOMPARE(pass.skipped, widgets - 1);
    }

    void memoOfAnotherFormatIsNotUsed()
    {
        EngineFixture f;
        QVERIFY(leaveMemos(f));
        QList<RunMemo> memos = f.ws->runMemos();
        QVERIFY(!memos.isEmpty());
        RunMemo other = memos.first();
        other.memo.insert(QStringLiteral("format"), QuietRun::memoFormat + 1);
        RunMemo older = memos.last();
        older.memo.insert(QStringLiteral("converge"), QStringLiteral("0.0.1"));
        StoreError error;
        QVERIFY2(f.ws->storeRunMemos({other, older}, &error), qPrintable(error.message));
        QCOMPARE(firstPass(f).skipped, widgets - 2);
    }
};

QTEST_GUILESS_MAIN(tst_RunMemo)
#include "tst_runmemo.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The four phases, one rule at a time, over the fake Manager and a real workspace.
#include "enginefixture.h"
#include "eventrecorder.h"
#include "genericreconciler.h"
#include "manualclock.h"

using namespace converge;
using namespace converge::test;
using Category = BackendError::Category;
using PK = PhaseResult::Kind;

Q_DECLARE_METATYPE(BackendError::Category)
Q_DECLARE_METATYPE(PhaseResult::Kind)
Q_DECLARE_METATYPE(Condition::Severity)

class tst_GenericReconciler final : public QObject
{
    Q_OBJECT

private:
    struct Run
    {
        ReconcileContext ctx;
        std::unique_ptr<EventRecorder> events;
    };

    /// A context for `key` as the controller would build it.
    std::unique_ptr<Run> context(EngineFixture &f, const ResourceKey &key)
    {
        auto run = std::make_unique<Run>();
        run->ctx.reconcileId = QStringLiteral("r1");
        run->ctx.target.resource = f.stored(key);
        const QString owner = run->ctx.target.resource.ownerName();
        if (!owner.isEmpty()) {
            if (auto o = f.ws->get(ResourceKey{QStringLiteral("Gadget"), owner}))
                run->ctx.target.owners.append(*o);
        }
        run->ctx.manager = std::make_shared<FakeManager>(f.backend);
        run->ctx.workspace = f.ws.get();
        run->ctx.clock = &m_clock;
        run->events = std::make_unique<EventRecorder>(key, QStringLiteral("r1"), m_clock);
        run->ctx.events = run->events.get();
        return run;
    }

    /// Stores `g` as Ready, as a finished reconcile would.
    void makeReady(EngineFixture &f, const ResourceKey &key)
    {
        ResourceStatus status = f.stored(key).status;
        status.setCondition(Condition::ready(f.stored(key).metadata.generation, m_clock.now()));
        StoreError error;
        QVERIFY2(f.ws->updateStatus(key, status, &error), qPrintable(error.message));
    }

    static bool hasEvent(const Run &run, const QString &reason)
    {
        for (const Event &e : run.events->events()) {
            if (e.reason == reason)
                return true;
        }
        return false;
    }

    ManualClock m_clock;
    const ResourceKey g{QStringLiteral("Gadget"), QStringLiteral("g")};
    const ResourceKey w{QStringLiteral("Widget"), QStringLiteral("w")};

private slots:
    void claimWaitsForMissingOwner()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"))}));
        auto run = context(f, w);
        GenericReconciler reconciler(f.kinds);
        const PhaseResult r = reconciler.claim(run->ctx);
        QCOMPARE(r.kind, PK::Retry);
        QCOMPARE(r.retryClass, Backoff::RetryClass::Fast);
        QCOMPARE(r.waitingFor, QStringLiteral("owner"));
        const Condition ready = run->ctx.target.resource.status.ready();
        QCOMPARE(ready.reason, QStringLiteral("WaitingForOwner"));
        QCOMPARE(ready.severity, Condition::Severity::Warning);
        QVERIFY(ready.message.contains(QStringLiteral("Gadget/g does not exist")));
        QVERIFY(hasEvent(*run, QStringLiteral("WaitingForOwner")));
        QCOMPARE(f.backend.writes(), 0);
    }

    void claimWaitsForOwnerNotReady()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")),
                         EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"))}));
        auto run = context(f, w);
        GenericReconciler reconciler(f.kinds);
        const PhaseResult r = reconciler.claim(run->ctx);
        QCOMPARE(r.kind, PK::Retry);
        QVERIFY(run->ctx.target.resource.status.ready().message.contains(
            QStringLiteral("is not Ready")));
        // An owner on its way is the normal order of things, not a Warning.
        QCOMPARE(run->ctx.target.resource.status.ready().severity, Condition::Severity::Info);
        QVERIFY(hasEvent(*run, QStringLiteral("WaitingForOwner")));
        QCOMPARE(run->events->events().last().type, Event::Type::Normal);
    }

    void claimWarnsWhileTheOwnerFails()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")),
                         EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"))}));
        ResourceStatus status = f.stored(g).status;
        status.setCondition(Condition::notReady(Condition::Severity::Error,
                                                QStringLiteral("Forbidden"), QStringLiteral("no"),
                                                1, m_clock.now()));
        StoreError error;
        QVERIFY2(f.ws->updateStatus(g, status, &error), qPrintable(error.message));
        auto run = context(f, w);
        GenericReconciler reconciler(f.kinds);
        QCOMPARE(reconciler.claim(run->ctx).kind, PK::Retry);
        const Condition ready = run->ctx.target.resource.status.ready();
        QCOMPARE(ready.severity, Condition::Severity::Warning);
        QVERIFY(ready.message.contains(QStringLiteral("(Forbidden)")));
    }

    // A resource its spec names (peerRef) is waited for as an owner is: missing or going is a
    // Warning, on its way is Info, and only one Ready with its backend ID lets the claim go on.
    void claimWaitsForAReferenceUntilItIsReadyWithItsId()
    {
        EngineFixture f;
        const ResourceKey p{QStringLiteral("Gadget"), QStringLiteral("p")};
        Resource widget = EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"));
        widget.spec.insert(QStringLiteral("peerRef"),
                           QJsonObject{{QStringLiteral("name"), QStringLiteral("p")}});
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")), widget}));
        makeReady(f, g);
        GenericReconciler reconciler(f.kinds);
        const auto claim = [&](Condition::Severity severity, const QString &says) {
            auto run = context(f, w);
            if (auto peer = f.ws->get(p))
                run->ctx.target.references = {*peer};
            const PhaseResult r = reconciler.claim(run->ctx);
            const Condition ready = run->ctx.target.resource.status.ready();
            if (says.isEmpty())
                return r.kind == PK::Done && ready.reason != QLatin1String("WaitingForReference");
            return r.kind == PK::Retry && r.waitingOn == std::optional<ResourceKey>(p) &&
                   ready.reason == QLatin1String("WaitingForReference") &&
                   ready.severity == severity && ready.message.contains(says) &&
                   hasEvent(*run, QStringLiteral("WaitingForReference")) &&
                   !run->ctx.target.resource.hasFinalizer();
        };
        QVERIFY(claim(Condition::Severity::Warning, QStringLiteral("does not exist")));
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("p"))}));
        QVERIFY(claim(Condition::Severity::Info, QStringLiteral("is not Ready")));
        makeReady(f, p);
        QVERIFY(claim(Condition::Severity::Info, QStringLiteral("peerId is not known yet")));
        StoreError error;
        QVERIFY(f.ws->updateStatus(p, f.stored(p).status, QStringLiteral("fake://p"), &error));
        QVERIFY(claim(Condition::Severity::Info, QString()));
        QVERIFY(f.ws->requestDeletion(p, &error));
        QVERIFY(claim(Condition::Severity::Warning, QStringLiteral("is being deleted")));
    }

    void claimStoresFinalizerWithTheIntentBeforeAnyWrite()
    {
        // The finalizer is in the store before the backend write, in the transaction of the
        // write's intent (one commit, not two).
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")),
                         EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"))}));
        makeReady(f, g);
        bool finalizerStoredAtWrite = false;
        int intentsAtWrite = -1;
        Workspace *ws = f.ws.get();
        f.backend.onWrite = [&](const QString &, const ResourceKey &key) {
            finalizerStoredAtWrite = ws->get(key)->hasFinalizer();
            intentsAtWrite = int(ws->unfinishedIntents().size());
        };
        auto run = context(f, w);
        GenericReconciler reconciler(f.kinds);
        QCOMPARE(reconciler.claim(run->ctx).kind, PK::Done);
        QVERIFY(run->ctx.target.resource.hasFinalizer());
        QVERIFY(run->ctx.finalizerPending);
        QVERIFY(!f.stored(w).hasFinalizer()); // not yet: with the first intent
        QCOMPARE(f.backend.writes(), 0);
        QCOMPARE(reconciler.createOrUpdate(run->ctx).kind, PK::Done);
        QCOMPARE(f.backend.creates.load(), 1);
        QVERIFY(finalizerStoredAtWrite);
        QCOMPARE(intentsAtWrite, 1);
        QVERIFY(!run->ctx.finalizerPending);
    }

    void finalizerNotStoredMeansNoWrite()
    {
        // The object changed after the run read it (here: deleted): the finalizer cannot be
        // stored, and nothing is created.
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")),
                         EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"))}));
        makeReady(f, g);
        auto run = context(f, w);
        GenericReconciler reconciler(f.kinds);
        QCOMPARE(reconciler.claim(run->ctx).kind, PK::Done);
        QVERIFY(f.ws->remove(w, nullptr));
        const PhaseResult result = reconciler.createOrUpdate(run->ctx);
        QCOMPARE(result.kind, PK::Retry);
        QVERIFY2(result.error.contains(QStringLiteral("finalizer")), qPrintable(result.error));
        QCOMPARE(f.backend.writes(), 0);
        QVERIFY(f.ws->unfinishedIntents().isEmpty());
    }

    void createThenNoOpPassMakesNoWrite()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")),
                         EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"))}));
        makeReady(f, g);
        GenericReconciler reconciler(f.kinds);
        auto run = context(f, w);
        QCOMPARE(reconciler.claim(run->ctx).kind, PK::Done);
        QCOMPARE(reconciler.createOrUpdate(run->ctx).kind, PK::Done);
        QVERIFY(run->ctx.target.resource.status.ready().isReady());
        QVERIFY(hasEvent(*run, QStringLiteral("Created")));
        QCOMPARE(run->ctx.target.resource.metadata.annotations.value(Annotations::resourceId()),
                 QStringLiteral("fake://Widget/w"));
        QVERIFY(f.ws->updateStatus(w, run->ctx.target.resource.status, nullptr));

        auto again = context(f, w);
        QCOMPARE(reconciler.claim(again->ctx).kind, PK::Done);
        QCOMPARE(reconciler.createOrUpdate(again->ctx).kind, PK::Done);
        QCOMPARE(f.backend.writes(), 1);
        QCOMPARE(again->ctx.backendWrites, 0);
        QVERIFY(again->events->events().isEmpty());
    }

    void neverObservedIsCreatedWithoutAGet()
    {
        EngineFixture f;
        f.backend.createAdopts = true;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")),
                         EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"))}));
        makeReady(f, g);
        GenericReconciler reconciler(f.kinds);
        auto run = context(f, w);
        QCOMPARE(reconciler.claim(run->ctx).kind, PK::Done);
        QCOMPARE(reconciler.createOrUpdate(run->ctx).kind, PK::Done);
        QCOMPARE(f.backend.gets.load(), 0);
        QCOMPARE(f.backend.creates.load(), 1);
        QVERIFY(hasEvent(*run, QStringLiteral("Created")));
        QVERIFY(run->ctx.target.resource.status.ready().isReady());
        QVERIFY(f.ws->updateStatus(w, run->ctx.target.resource.status, nullptr));

        // Once observed, a resource is looked at before anything is written.
        auto again = context(f, w);
        QCOMPARE(reconciler.claim(again->ctx).kind, PK::Done);
        QCOMPARE(reconciler.createOrUpdate(again->ctx).kind, PK::Done);
        QCOMPARE(f.backend.gets.load(), 1);
        QCOMPARE(f.backend.writes(), 1);
    }

    void createThatFindsOneAdoptsAndCorrectsIt()
    {
        // Someone made it already, with other replicas: "create" adopts it, and the delta is
        // still sent, without calling it drift.
        EngineFixture f;
        f.backend.createAdopts = true;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")),
                         EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"), 2)}));
        makeReady(f, g);
        QJsonObject theirs = f.stored(w).spec;
        theirs.insert(QStringLiteral("replicas"), 5);
        f.backend.put(w, theirs);
        GenericReconciler reconciler(f.kinds);
        auto run = context(f, w);
        QCOMPARE(reconciler.claim(run->ctx).kind, PK::Done);
        QCOMPARE(reconciler.createOrUpdate(run->ctx).kind, PK::Done);
        QCOMPARE(f.backend.creates.load(), 1);
        QCOMPARE(f.backend.updates.load(), 1);
        QCOMPARE(f.backend.spec(w).value(QStringLiteral("replicas")).toInt(), 2);
        QVERIFY(hasEvent(*run, QStringLiteral("Adopted")));
        QVERIFY(!hasEvent(*run, QStringLiteral("Created")));
        QVERIFY(hasEvent(*run, QStringLiteral("Updated")));
        QVERIFY(!hasEvent(*run, QStringLiteral("DriftDetected")));
        QVERIFY(run->ctx.target.resource.status.ready().isReady());
    }

    void updateSendsTheDelta()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")),
                         EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"), 2)}));
        makeReady(f, g);
        QJsonObject old = f.stored(w).spec;
        old.insert(QStringLiteral("replicas"), 5);
        f.backend.put(w, old);
        GenericReconciler reconciler(f.kinds);
        auto run = context(f, w);
        auto manager = std::make_shared<FakeManager>(f.backend);
        run->ctx.manager = manager;
        QCOMPARE(reconciler.claim(run->ctx).kind, PK::Done);
        QCOMPARE(reconciler.createOrUpdate(run->ctx).kind, PK::Done);
        QCOMPARE(f.backend.updates.load(), 1);
        QCOMPARE(manager->lastDelta(), QStringList{QStringLiteral("spec.replicas")});
        QCOMPARE(f.backend.spec(w).value(QStringLiteral("replicas")).toInt(), 2);
        QVERIFY(hasEvent(*run, QStringLiteral("Updated")));
    }

    void driftIsDetectedAndCorrected()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")),
                         EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"), 2)}));
        makeReady(f, g);
        f.backend.put(w, f.stored(w).spec);
        makeReady(f, w); // Ready at the current generation: the backend matched this spec
        QJsonObject drifted = f.stored(w).spec;
        drifted.insert(QStringLiteral("replicas"), 7);
        f.backend.put(w, drifted);
        GenericReconciler reconciler(f.kinds);
        auto run = context(f, w);
        QCOMPARE(reconciler.claim(run->ctx).kind, PK::Done);
        QCOMPARE(reconciler.createOrUpdate(run->ctx).kind, PK::Done);
        QVERIFY(hasEvent(*run, QStringLiteral("DriftDetected")));
        QCOMPARE(f.backend.spec(w).value(QStringLiteral("replicas")).toInt(), 2);
    }

    void immutableChangeIsFatalWithoutWrite()
    {
        EngineFixture f;
        Resource widget = EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"));
        widget.spec.insert(QStringLiteral("azureName"), QStringLiteral("first"));
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")), widget}));
        makeReady(f, g);
        // The backend (which knows it as "first") says it belongs to another owner.
        QJsonObject observed = f.stored(w).spec;
        observed.insert(QStringLiteral("owner"),
                        QJsonObject{{QStringLiteral("name"), QStringLiteral("elsewhere")}});
        f.backend.put(ResourceKey{QStringLiteral("Widget"), QStringLiteral("first")}, observed);
        GenericReconciler reconciler(f.kinds);
        auto run = context(f, w);
        QCOMPARE(reconciler.claim(run->ctx).kind, PK::Done);
        const PhaseResult r = reconciler.createOrUpdate(run->ctx);
        QCOMPARE(r.kind, PK::Fatal);
        const Condition ready = run->ctx.target.resource.status.ready();
        QCOMPARE(ready.reason, QStringLiteral("ImmutableFieldChanged"));
        QCOMPARE(ready.severity, Condition::Severity::Error);
        QVERIFY(ready.message.contains(QStringLiteral("spec.owner")));
        QCOMPARE(f.backend.writes(), 0);
    }

    void aRenameStoredAnywayWritesNothingAndDeletesWhatWasMade()
    {
        // A workspace written before apply refused such changes (or by hand): the backend name
        // changed after creation. Never a create under the new name, the old one left behind.
        EngineFixture f;
        Resource widget = EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"));
        widget.spec.insert(QStringLiteral("azureName"), QStringLiteral("first"));
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")), widget}));
        makeReady(f, g);
        GenericReconciler reconciler(f.kinds);
        auto run = context(f, w);
        QCOMPARE(reconciler.claim(run->ctx).kind, PK::Done);
        QCOMPARE(reconciler.createOrUpdate(run->ctx).kind, PK::Done);
        QVERIFY(f.ws->updateStatus(w, run->ctx.target.resource.status, nullptr));
        const ResourceKey first{QStringLiteral("Widget"), QStringLiteral("first")};
        const ResourceKey second{QStringLiteral("Widget"), QStringLiteral("second")};
        QVERIFY(f.backend.has(first));

        widget.spec.insert(QStringLiteral("azureName"), QStringLiteral("second"));
        QVERIFY(f.apply({widget}));
        const int requests = f.backend.gets + f.backend.writes();
        auto again = context(f, w);
        // Refused at claim, before anything waits or looks (createOrUpdate would refuse too).
        const PhaseResult r = reconciler.claim(again->ctx);
        QCOMPARE(r.kind, PK::Fatal);
        const Condition ready = again->ctx.target.resource.status.ready();
        QCOMPARE(ready.reason, QStringLiteral("ImmutableFieldChanged"));
        QCOMPARE(ready.severity, Condition::Severity::Error);
        QVERIFY2(ready.message.startsWith(QStringLiteral(
                     "spec.azureName: cannot change after creation (\"first\" → \"second\")")),
                 qPrintable(ready.message));
        QVERIFY(hasEvent(*again, QStringLiteral("ImmutableFieldChanged")));
        QCOMPARE(f.backend.gets + f.backend.writes(), requests); // not even a look
        QVERIFY(f.backend.has(first));
        QVERIFY(!f.backend.has(second));

        // A refresh does not observe "second" as if it were this resource.
        auto refresh = context(f, w);
        QCOMPARE(reconciler.updateStatus(refresh->ctx).kind, PK::Fatal);
        QCOMPARE(f.backend.gets + f.backend.writes(), requests);

        // Deleting deletes what was made.
        f.backend.put(second, f.backend.spec(first)); // someone else's, by the new name
        auto del = context(f, w);
        QCOMPARE(reconciler.deleteResource(del->ctx).kind, PK::Removed);
        QVERIFY(!f.backend.has(first));
        QVERIFY(f.backend.has(second));
    }

    void operationInProgressRequeuesWithHint()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")),
                         EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"))}));
        makeReady(f, g);
        f.backend.asyncPolls = 2;
        GenericReconciler reconciler(f.kinds);
        auto run = context(f, w);
        QCOMPARE(reconciler.claim(run->ctx).kind, PK::Done);
        PhaseResult r = reconciler.createOrUpdate(run->ctx);
        QCOMPARE(r.kind, PK::RequeueAfter);
        Condition ready = run->ctx.target.resource.status.ready();
        QCOMPARE(ready.reason, QStringLiteral("Reconciling"));
        QCOMPARE(ready.severity, Condition::Severity::Info);
        // Later calls resume by observing, without creating again.
        r = reconciler.createOrUpdate(run->ctx);
        QCOMPARE(r.kind, PK::RequeueAfter);
        QCOMPARE(r.after, std::chrono::milliseconds(100)); // the 10 ms hint, clamped to 100 ms
        r = reconciler.createOrUpdate(run->ctx);
        QCOMPARE(r.kind, PK::RequeueAfter);
        r = reconciler.createOrUpdate(run->ctx);
        QCOMPARE(r.kind, PK::Done);
        QVERIFY(run->ctx.target.resource.status.ready().isReady());
        QCOMPARE(f.backend.creates.load(), 1);
    }

    void skipPolicyObservesOnly()
    {
        EngineFixture f;
        Resource widget = EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"));
        widget.metadata.annotations.insert(Annotations::reconcilePolicy(), QStringLiteral("skip"));
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")), widget}));
        GenericReconciler reconciler(f.kinds);
        auto run = context(f, w);
        PhaseResult r = reconciler.updateStatus(run->ctx);
        QCOMPARE(r.kind, PK::Retry);
        QCOMPARE(r.retryClass, Backoff::RetryClass::Slow);
        QCOMPARE(run->ctx.target.resource.status.ready().reason,
                 QStringLiteral("BackendResourceNotFound"));
        QCOMPARE(run->ctx.target.resource.status.ready().severity, Condition::Severity::Warning);

        QJsonObject drifted = f.stored(w).spec;
        drifted.insert(QStringLiteral("replicas"), 9);
        f.backend.put(w, drifted);
        auto again = context(f, w);
        r = reconciler.updateStatus(again->ctx);
        QCOMPARE(r.kind, PK::Done);
        QVERIFY(hasEvent(*again, QStringLiteral("DriftDetected")));
        QCOMPARE(f.backend.writes(), 0);
        QCOMPARE(f.backend.spec(w).value(QStringLiteral("replicas")).toInt(), 9);
    }

    void deleteUntilNotFound()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")),
                         EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"))}));
        f.backend.put(w, f.stored(w).spec);
        f.backend.asyncDeletePolls = 1;
        GenericReconciler reconciler(f.kinds);
        auto run = context(f, w);
        PhaseResult r = reconciler.deleteResource(run->ctx);
        QCOMPARE(r.kind, PK::RequeueAfter);
        QCOMPARE(f.backend.deletes.load(), 1);
        r = reconciler.deleteResource(run->ctx); // still DELETING: no second delete call
        QCOMPARE(r.kind, PK::RequeueAfter);
        QCOMPARE(f.backend.deletes.load(), 1);
        r = reconciler.deleteResource(run->ctx);
        QCOMPARE(r.kind, PK::Removed);
        QVERIFY(!f.backend.has(w));
    }

    void deleteErrorsAreWarnings()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")),
                         EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"))}));
        f.backend.put(w, f.stored(w).spec);
        f.backend.injectError(
            QStringLiteral("delete"), w,
            fakeError(Category::Unauthorized, QStringLiteral("AuthorizationFailure")));
        GenericReconciler reconciler(f.kinds);
        auto run = context(f, w);
        const PhaseResult r = reconciler.deleteResource(run->ctx);
        QCOMPARE(r.kind, PK::Retry);
        QCOMPARE(run->ctx.target.resource.status.ready().severity, Condition::Severity::Warning);
        QCOMPARE(run->ctx.target.resource.status.ready().reason,
                 QStringLiteral("AuthorizationFailure"));
    }

    void errorMessagesSayTheirCodeOnce_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("message");
        // The reason is the code: the message does not repeat it.
        QTest::newRow("PascalCase code")
            << QStringLiteral("AuthorizationFailure") << QStringLiteral("AuthorizationFailure")
            << QStringLiteral("Server failed to authorize.");
        // The reason is the category: the message keeps the code.
        QTest::newRow("other code")
            << QStringLiteral("auth.failed") << QStringLiteral("Unauthorized")
            << QStringLiteral("auth.failed: Server failed to authorize.");
    }

    void errorMessagesSayTheirCodeOnce()
    {
        QFETCH(QString, code);
        QFETCH(QString, reason);
        QFETCH(QString, message);
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")),
                         EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"))}));
        makeReady(f, g);
        BackendError error = fakeError(Category::Unauthorized, code);
        error.message = QStringLiteral("Server failed to authorize.");
        f.backend.injectError(QStringLiteral("get"), w, error);
        GenericReconciler reconciler(f.kinds);
        auto run = context(f, w);
        QCOMPARE(reconciler.claim(run->ctx).kind, PK::Done);
        const PhaseResult r = reconciler.createOrUpdate(run->ctx);
        QCOMPARE(r.kind, PK::Fatal);
        const Condition ready = run->ctx.target.resource.status.ready();
        QCOMPARE(ready.reason, reason);
        QCOMPARE(ready.message, message);
        QCOMPARE(r.error, message);
        QVERIFY(!run->events->events().isEmpty());
        QCOMPARE(run->events->events().last().message, message);
    }

    void refreshOfAMissingResourceSaysWhatRefreshDoes_data()
    {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<QString>("says");
        QTest::newRow("manage") << QStringLiteral("manage")
                                << QStringLiteral("Refresh only observes; Reconcile recreates it");
        QTest::newRow("skip") << QStringLiteral("skip")
                              << QStringLiteral("nothing is written under policy skip");
    }

    void refreshOfAMissingResourceSaysWhatRefreshDoes()
    {
        QFETCH(QString, policy);
        QFETCH(QString, says);
        EngineFixture f;
        Resource widget = EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"));
        widget.metadata.annotations.insert(Annotations::reconcilePolicy(), policy);
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")), widget}));
        makeReady(f, g);
        GenericReconciler reconciler(f.kinds);
        auto run = context(f, w);
        QCOMPARE(reconciler.updateStatus(run->ctx).kind, PK::Retry);
        const Condition ready = run->ctx.target.resource.status.ready();
        QCOMPARE(ready.reason, QStringLiteral("BackendResourceNotFound"));
        QVERIFY2(ready.message.endsWith(says), qPrintable(ready.message));
        QVERIFY(!ready.message.contains(QStringLiteral("this policy")));
        QVERIFY(hasEvent(*run, QStringLiteral("BackendResourceNotFound")));
    }

    void journalRecordsIntentAndOutcome()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")),
                         EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"))}));
        makeReady(f, g);
        int unfinishedDuringWrite = -1;
        Workspace *ws = f.ws.get();
        f.backend.onWrite = [&](const QString &, const ResourceKey &) {
            unfinishedDuringWrite = int(ws->unfinishedIntents().size());
        };
        GenericReconciler reconciler(f.kinds);
        auto run = context(f, w);
        QCOMPARE(reconciler.claim(run->ctx).kind, PK::Done);
        QCOMPARE(reconciler.createOrUpdate(run->ctx).kind, PK::Done);
        QCOMPARE(unfinishedDuringWrite, 1);
        // The outcome goes to the store with the run's status (the controller writes both).
        QCOMPARE(run->ctx.finishedIntents.size(), 1);
        QCOMPARE(run->ctx.finishedIntents.first().second, QStringLiteral("succeeded"));
        QVERIFY(f.ws->finishIntent(run->ctx.finishedIntents.first().first,
                                   run->ctx.finishedIntents.first().second, nullptr));
        QVERIFY(f.ws->unfinishedIntents().isEmpty());
    }

    void errorCategoriesMapToSeverityAndRetry_data()
    {
        QTest::addColumn<BackendError::Category>("category");
        QTest::addColumn<PhaseResult::Kind>("kind");
        QTest::addColumn<Backoff::RetryClass>("retryClass");
        QTest::addColumn<Condition::Severity>("severity");
        QTest::newRow("NotFound") << Category::NotFound << PK::Retry << Backoff::RetryClass::Fast
                                  << Condition::Severity::Warning;
        QTest::newRow("Conflict") << Category::Conflict << PK::Retry << Backoff::RetryClass::Fast
                                  << Condition::Severity::Warning;
        QTest::newRow("Transient") << Category::Transient << PK::Retry << Backoff::RetryClass::Fast
                                   << Condition::Severity::Warning;
        QTest::newRow("Throttled") << Category::Throttled << PK::Retry << Backoff::RetryClass::Slow
                                   << Condition::Severity::Warning;
        QTest::newRow("Unauthorized") << Category::Unauthorized << PK::Fatal
                                      << Backoff::RetryClass::Fast << Condition::Severity::Error;
        QTest::newRow("Invalid") << Category::Invalid << PK::Fatal << Backoff::RetryClass::Fast
                                 << Condition::Severity::Error;
        QTest::newRow("Terminal") << Category::Terminal << PK::Fatal << Backoff::RetryClass::Fast
                                  << Condition::Severity::Error;
    }

    void errorCategoriesMapToSeverityAndRetry()
    {
        QFETCH(BackendError::Category, category);
        QFETCH(PhaseResult::Kind, kind);
        QFETCH(Backoff::RetryClass, retryClass);
        QFETCH(Condition::Severity, severity);
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")),
                         EngineFixture::widget(QStringLiteral("w"), QStringLiteral("g"))}));
        makeReady(f, g);
        f.backend.injectError(
            QStringLiteral("get"), w,
            fakeError(category, QStringLiteral("SomeCode"), std::chrono::milliseconds(7000)));
        GenericReconciler reconciler(f.kinds);
        auto run = context(f, w);
        QCOMPARE(reconciler.claim(run->ctx).kind, PK::Done);
        const PhaseResult r = reconciler.createOrUpdate(run->ctx);
        if (category == Category::NotFound) {
            // NotFound from get means "create it".
            QCOMPARE(r.kind, PK::Done);
            return;
        }
        QCOMPARE(r.kind, kind);
        if (kind == PK::Retry) {
            QCOMPARE(r.retryClass, retryClass);
            QCOMPARE(r.after, std::chrono::milliseconds(7000));
        }
        QCOMPARE(run->ctx.target.resource.status.ready().severity, severity);
        QCOMPARE(run->ctx.target.resource.status.ready().reason, QStringLiteral("SomeCode"));
        QCOMPARE(f.backend.writes(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_GenericReconciler)
#include "tst_genericreconciler.moc"

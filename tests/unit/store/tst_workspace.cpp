// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "workspace.h"

#include <QJsonArray>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <thread>

using namespace converge;

namespace {

/// EventQuery with a few fields set (designated initializers warn about the others).
template<typename Set>
EventQuery queryWith(Set set)
{
    EventQuery query;
    set(query);
    return query;
}

const QDateTime t0 = QDateTime(QDate(2024, 5, 1), QTime(10, 0), Qt::UTC);
const QString apiVersion = QStringLiteral("azure.converge.dev/v1");

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

Resource makeResource(const QString &kind, const QString &name, const QJsonObject &spec = {},
                      const QMap<QString, QString> &labels = {})
{
    Resource r;
    r.apiVersion = apiVersion;
    r.kind = kind;
    r.metadata.name = name;
    r.metadata.labels = labels;
    r.spec = spec;
    return r;
}

Resource container(const QString &name, const QString &access = QStringLiteral("None"))
{
    return makeResource(s("BlobContainer"), name,
                        {{s("publicAccess"), access},
                         {s("owner"), QJsonObject{{s("name"), s("devstore")}}},
                         {s("metadata"), QJsonObject{{s("team"), s("billing")}}}},
                        {{s("app"), s("web")}});
}

Event makeEvent(const ResourceKey &key, Event::Type type, const QString &reason,
                const QString &message, const QDateTime &time)
{
    Event e;
    e.involved = key;
    e.type = type;
    e.reason = reason;
    e.message = message;
    e.phase = s("createOrUpdate");
    e.reconcileId = s("rec-1");
    e.requestId = s("req-1");
    e.firstTime = time;
    e.lastTime = time;
    return e;
}

QMap<QString, QString> toStringMap(const QVariantMap &map)
{
    QMap<QString, QString> result;
    for (auto it = map.cbegin(); it != map.cend(); ++it)
        result.insert(it.key(), it.value().toString());
    return result;
}

} // namespace

class tst_Workspace final : public QObject
{
    Q_OBJECT

private:
    QString path() const { return m_dir->filePath(s("test.converge")); }

    std::unique_ptr<Workspace> openWorkspace()
    {
        StoreError error;
        auto ws = Workspace::open(path(), &error);
        if (!ws)
            qWarning("open failed: %s", qPrintable(error.message));
        return ws;
    }

    bool apply(const QList<Resource> &objects, QList<ApplyOutcome> *outcomes = nullptr)
    {
        StoreError error;
        QList<ApplyOutcome> local;
        const bool ok = m_ws->apply(objects, outcomes ? outcomes : &local, &error);
        if (!ok)
            qWarning("apply failed: %s", qPrintable(error.message));
        return ok;
    }

    /// The ten events that the query tests select from (see eventQueries_data).
    QList<Event> recordQueryFixture()
    {
        const ResourceKey a{s("BlobContainer"), s("a")};
        const ResourceKey b{s("BlobContainer"), s("b")};
        const ResourceKey q{s("Queue"), s("q")};
        using T = Event::Type;
        const struct
        {
            ResourceKey key;
            T type;
            const char *reason;
        } rows[] = {
            {a, T::Normal, "Created"}, {b, T::Normal, "Created"}, {a, T::Warning, "Failed"},
            {q, T::Normal, "Created"}, {a, T::Normal, "Updated"}, {q, T::Warning, "Failed"},
            {b, T::Warning, "Failed"}, {a, T::Normal, "Updated"}, {q, T::Normal, "Deleted"},
            {a, T::Warning, "Failed"},
        };
        QList<Event> events;
        int minute = 0;
        for (const auto &row : rows) {
            events.append(makeEvent(row.key, row.type, s(row.reason),
                                    QStringLiteral("message %1").arg(minute),
                                    t0.addSecs(60 * minute)));
            ++minute;
        }
        StoreError error;
        if (!m_ws->recordEvents(events, &error))
            qWarning("recordEvents failed: %s", qPrintable(error.message));
        return events;
    }

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_ws = openWorkspace();
        QVERIFY(m_ws);
    }

    void cleanup()
    {
        m_ws.reset();
        m_dir.reset();
    }

    // --- Desired state ---------------------------------------------------------------------

    void newWorkspaceIsEmpty()
    {
        QCOMPARE(m_ws->count(), 0);
        QCOMPARE(m_ws->eventCount(), 0);
        QVERIFY(m_ws->list().isEmpty());
        QCOMPARE(m_ws->path(), path());
        QVERIFY(Workspace::schemaVersion() >= 2);
    }

    void applyCreates()
    {
        Resource input = container(s("invoices"));
        // What apply must not take from the input: identity, bookkeeping and status.
        input.metadata.uid = s("made-up");
        input.metadata.generation = 7;
        input.metadata.finalizers = {s("someone/else")};
        input.status.conditions = {Condition::ready(7, t0)};
        const QDateTime before = QDateTime::currentDateTimeUtc().addMSecs(-1);

        QList<ApplyOutcome> outcomes;
        QVERIFY(apply({input, container(s("receipts"))}, &outcomes));
        QCOMPARE(outcomes.size(), 2);
        QCOMPARE(outcomes.at(0).key, input.key());
        QCOMPARE(outcomes.at(0).action, ApplyOutcome::Action::Created);
        QCOMPARE(outcomes.at(0).generation, 1);
        QVERIFY(outcomes.at(0).resourceVersion > 0);
        QVERIFY(outcomes.at(1).resourceVersion > outcomes.at(0).resourceVersion);

        const auto stored = m_ws->get(input.key());
        QVERIFY(stored);
        QCOMPARE(stored->apiVersion, apiVersion);
        QCOMPARE(stored->spec, input.spec);
        QCOMPARE(stored->metadata.labels, input.metadata.labels);
        QCOMPARE(stored->metadata.generation, 1);
        QCOMPARE(stored->metadata.resourceVersion, outcomes.at(0).resourceVersion);
        QVERIFY(!stored->metadata.uid.isEmpty());
        QVERIFY(stored->metadata.uid != input.metadata.uid);
        QVERIFY(stored->metadata.uid != m_ws->get(outcomes.at(1).key)->metadata.uid);
        QVERIFY(stored->metadata.finalizers.isEmpty());
        QVERIFY(stored->status.conditions.isEmpty());
        QVERIFY(stored->metadata.creationTimestamp >= before);
        QVERIFY(stored->metadata.creationTimestamp <= QDateTime::currentDateTimeUtc());
        QVERIFY(!stored->metadata.deletionTimestamp.isValid());
        QCOMPARE(m_ws->count(), 2);
    }

    void applyAgain_data()
    {
        QTest::addColumn<QJsonObject>("spec");
        QTest::addColumn<QVariantMap>("labels");
        QTest::addColumn<QVariantMap>("annotations");
        QTest::addColumn<ApplyOutcome::Action>("action");
        QTest::addColumn<qint64>("generation");

        const Resource base = container(s("invoices"));
        const QVariantMap labels{{s("app"), s("web")}};
        using A = ApplyOutcome::Action;

        QTest::newRow("same object")
            << base.spec << labels << QVariantMap{} << A::Unchanged << qint64(1);
        // Keys inserted in another order make the same QJsonObject: canonical, so no change.
        QJsonObject reordered;
        reordered.insert(s("metadata"), QJsonObject{{s("team"), s("billing")}});
        reordered.insert(s("owner"), QJsonObject{{s("name"), s("devstore")}});
        reordered.insert(s("publicAccess"), s("None"));
        QTest::newRow("spec keys in another order")
            << reordered << labels << QVariantMap{} << A::Unchanged << qint64(1);
        QTest::newRow("spec value changed") << container(s("invoices"), s("Blob")).spec << labels
                                            << QVariantMap{} << A::Updated << qint64(2);
        QJsonObject nested = base.spec;
        nested.insert(s("metadata"), QJsonObject{{s("team"), s("payments")}});
        QTest::newRow("nested spec value changed")
            << nested << labels << QVariantMap{} << A::Updated << qint64(2);
        QJsonObject added = base.spec;
        added.insert(s("azureName"), s("invoices-2024"));
        QTest::newRow("spec field added")
            << added << labels << QVariantMap{} << A::Updated << qint64(2);
        QJsonObject typed = base.spec;
        typed.insert(s("publicAccess"), QJsonValue::Null);
        QTest::newRow("spec value became null")
            << typed << labels << QVariantMap{} << A::Updated << qint64(2);
        QTest::newRow("label changed") << base.spec << QVariantMap{{s("app"), s("api")}}
                                       << QVariantMap{} << A::Updated << qint64(1);
        QTest::newRow("label removed")
            << base.spec << QVariantMap{} << QVariantMap{} << A::Updated << qint64(1);
        QTest::newRow("annotation added")
            << base.spec << labels << QVariantMap{{s("converge.dev/reconcile-policy"), s("skip")}}
            << A::Updated << qint64(1);
        QTest::newRow("spec and label changed") << nested << QVariantMap{{s("app"), s("api")}}
                                                << QVariantMap{} << A::Updated << qint64(2);
    }

    void applyAgain()
    {
        QFETCH(QJsonObject, spec);
        QFETCH(QVariantMap, labels);
        QFETCH(QVariantMap, annotations);
        QFETCH(ApplyOutcome::Action, action);
        QFETCH(qint64, generation);

        QList<ApplyOutcome> first;
        QVERIFY(apply({container(s("invoices"))}, &first));
        const Resource before = *m_ws->get(first.at(0).key);

        Resource again = container(s("invoices"));
        again.spec = spec;
        again.metadata.labels = toStringMap(labels);
        again.metadata.annotations = toStringMap(annotations);
        QList<ApplyOutcome> second;
        QVERIFY(apply({again}, &second));
        QCOMPARE(second.size(), 1);
        QCOMPARE(second.at(0).action, action);
        QCOMPARE(second.at(0).generation, generation);

        const Resource after = *m_ws->get(again.key());
        QCOMPARE(after.metadata.generation, generation);
        QCOMPARE(after.metadata.resourceVersion, second.at(0).resourceVersion);
        QCOMPARE(after.metadata.uid, before.metadata.uid);
        QCOMPARE(after.metadata.creationTimestamp, before.metadata.creationTimestamp);
        if (action == ApplyOutcome::Action::Unchanged) {
            QCOMPARE(after, before);
        } else {
            QVERIFY(after.metadata.resourceVersion > before.metadata.resourceVersion);
            QCOMPARE(after.spec, spec);
            QCOMPARE(after.metadata.labels, again.metadata.labels);
            QCOMPARE(after.metadata.annotations, again.metadata.annotations);
        }
    }

    void applyKeepsStatusFinalizersAndUid()
    {
        QVERIFY(apply({container(s("invoices"))}));
        Resource stored = *m_ws->get({s("BlobContainer"), s("invoices")});
        stored.metadata.finalizers = {s("converge.dev/finalizer")};
        StoreError error;
        QVERIFY2(m_ws->update(stored, &error), qPrintable(error.message));
        ResourceStatus status;
        status.conditions = {Condition::ready(1, t0)};
        status.observed = {{s("etag"), s("0x1")}};
        QVERIFY2(m_ws->updateStatus(stored.key(), status, &error), qPrintable(error.message));

        Resource input = container(s("invoices"), s("Blob"));
        input.metadata.uid = s("other");
        input.metadata.finalizers = {};
        input.status = {};
        QVERIFY(apply({input}));
        const Resource after = *m_ws->get(input.key());
        QCOMPARE(after.metadata.uid, stored.metadata.uid);
        QCOMPARE(after.metadata.finalizers, QStringList{s("converge.dev/finalizer")});
        QCOMPARE(after.status, status);
        QCOMPARE(after.metadata.generation, 2);
        QCOMPARE(after.spec, input.spec);
    }

    void applyIsAllOrNothing_data()
    {
        QTest::addColumn<QList<Resource>>("batch");
        QTest::addColumn<bool>("failingTrigger");
        QTest::addColumn<StoreError::Code>("code");

        const Resource changed = container(s("existing"), s("Container"));
        QTest::newRow("same kind/name twice")
            << QList<Resource>{changed, container(s("new1")), container(s("new1"), s("Blob"))}
            << false << StoreError::Code::Invalid;
        QTest::newRow("object without a name")
            << QList<Resource>{changed, container(s("new1")), container(QString())} << false
            << StoreError::Code::Invalid;
        QTest::newRow("object without a kind")
            << QList<Resource>{changed, makeResource(QString(), s("x"))} << false
            << StoreError::Code::Invalid;
        // The database refuses the third object after two rows were written in the transaction.
        QTest::newRow("database refuses an object half-way")
            << QList<Resource>{changed, container(s("new1")), container(s("boom")),
                               container(s("new2"))}
            << true << StoreError::Code::Invalid;
    }

    void applyIsAllOrNothing()
    {
        QFETCH(QList<Resource>, batch);
        QFETCH(bool, failingTrigger);
        QFETCH(StoreError::Code, code);

        QList<ApplyOutcome> first;
        QVERIFY(apply({container(s("existing"))}, &first));
        const QList<Resource> before = m_ws->list();
        if (failingTrigger) {
            QSqlDatabase raw = QSqlDatabase::addDatabase(s("QSQLITE"), s("trigger"));
            raw.setDatabaseName(path());
            QVERIFY(raw.open());
            QSqlQuery q(raw);
            QVERIFY(q.exec(s("CREATE TRIGGER refuse_boom BEFORE INSERT ON resources"
                             " WHEN NEW.name = 'boom' BEGIN"
                             " SELECT RAISE(ABORT, 'refused by the test'); END")));
            q.finish();
            raw.close();
        }
        QSqlDatabase::removeDatabase(s("trigger"));

        QList<ApplyOutcome> outcomes{ApplyOutcome{}};
        StoreError error;
        QVERIFY(!m_ws->apply(batch, &outcomes, &error));
        QCOMPARE(error.code, code);
        QVERIFY(!error.message.isEmpty());
        QVERIFY(outcomes.isEmpty());
        QCOMPARE(m_ws->list(), before);

        // The resourceVersion counter was rolled back with everything else.
        QList<ApplyOutcome> next;
        QVERIFY(apply({container(s("later"))}, &next));
        QCOMPARE(next.at(0).resourceVersion, first.at(0).resourceVersion + 1);
    }

    void applyManyAndList()
    {
        QList<Resource> batch;
        for (int i = 1999; i >= 0; --i) {
            batch.append(makeResource(i % 2 ? s("Queue") : s("BlobContainer"),
                                      QStringLiteral("r%1").arg(i, 4, 10, QLatin1Char('0')),
                                      {{s("index"), i}}));
        }
        QList<ApplyOutcome> outcomes;
        QVERIFY(apply(batch, &outcomes));
        QCOMPARE(outcomes.size(), 2000);
        QCOMPARE(m_ws->count(), 2000);

        const QList<Resource> all = m_ws->list();
        QCOMPARE(all.size(), 2000);
        for (qsizetype i = 1; i < all.size(); ++i)
            QVERIFY2(all.at(i - 1).key() < all.at(i).key(), qPrintable(all.at(i).key().toString()));
        QCOMPARE(all.first().key().toString(), s("BlobContainer/r0000"));
        QCOMPARE(all.last().key().toString(), s("Queue/r1999"));

        const QList<Resource> queues = m_ws->list(s("Queue"));
        QCOMPARE(queues.size(), 1000);
        for (const Resource &r : queues)
            QCOMPARE(r.kind, s("Queue"));
        QVERIFY(m_ws->list(s("Table")).isEmpty());
        QCOMPARE(m_ws->get({s("Queue"), s("r0007")})->spec.value(s("index")).toInt(), 7);
        QVERIFY(!m_ws->get({s("Queue"), s("r0008")}));
    }

    void update_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<qint64>("generation");
        QTest::addColumn<bool>("written");

        QTest::newRow("nothing") << s("nothing") << qint64(1) << false;
        QTest::newRow("spec") << s("spec") << qint64(2) << true;
        QTest::newRow("labels") << s("labels") << qint64(1) << true;
        QTest::newRow("annotations") << s("annotations") << qint64(1) << true;
        QTest::newRow("finalizers") << s("finalizers") << qint64(1) << true;
        QTest::newRow("apiVersion") << s("apiVersion") << qint64(1) << true;
    }

    void update()
    {
        QFETCH(QString, change);
        QFETCH(qint64, generation);
        QFETCH(bool, written);

        QVERIFY(apply({container(s("invoices"))}));
        const Resource before = *m_ws->get({s("BlobContainer"), s("invoices")});
        Resource r = before;
        if (change == QLatin1String("spec"))
            r.spec.insert(s("publicAccess"), s("Blob"));
        else if (change == QLatin1String("labels"))
            r.metadata.labels.insert(s("tier"), s("gold"));
        else if (change == QLatin1String("annotations"))
            r.metadata.annotations.insert(s("converge.dev/resource-id"), s("/x"));
        else if (change == QLatin1String("finalizers"))
            r.metadata.finalizers.append(s("converge.dev/finalizer"));
        else if (change == QLatin1String("apiVersion"))
            r.apiVersion = s("azure.converge.dev/v2");

        StoreError error;
        QVERIFY2(m_ws->update(r, &error), qPrintable(error.message));
        QVERIFY(!error.isError());
        QCOMPARE(r.metadata.generation, generation);
        QCOMPARE(r.metadata.resourceVersion > before.metadata.resourceVersion, written);
        const Resource after = *m_ws->get(r.key());
        QCOMPARE(after.metadata.generation, generation);
        QCOMPARE(after.metadata.resourceVersion, r.metadata.resourceVersion);
        QCOMPARE(after.spec, r.spec);
        QCOMPARE(after.metadata.labels, r.metadata.labels);
        QCOMPARE(after.metadata.annotations, r.metadata.annotations);
        QCOMPARE(after.metadata.finalizers, r.metadata.finalizers);
        QCOMPARE(after.apiVersion, r.apiVersion);
        QCOMPARE(after.metadata.uid, before.metadata.uid);
    }

    void updateConflictsAcrossConnections()
    {
        QVERIFY(apply({container(s("invoices"))}));
        const ResourceKey key{s("BlobContainer"), s("invoices")};
        const auto other = openWorkspace();
        QVERIFY(other);

        Resource mine = *m_ws->get(key);
        Resource theirs = *other->get(key);
        QCOMPARE(mine, theirs);

        theirs.spec.insert(s("publicAccess"), s("Container"));
        StoreError error;
        QVERIFY2(other->update(theirs, &error), qPrintable(error.message));

        mine.spec.insert(s("publicAccess"), s("Blob"));
        const Resource stale = mine;
        QVERIFY(!m_ws->update(mine, &error));
        QCOMPARE(error.code, StoreError::Code::Conflict);
        QVERIFY(error.message.contains(key.toString()));
        QCOMPARE(mine, stale); // a failed update leaves the caller's copy alone
        QCOMPARE(m_ws->get(key)->spec.value(s("publicAccess")).toString(), s("Container"));
        QCOMPARE(m_ws->get(key)->metadata.resourceVersion, theirs.metadata.resourceVersion);

        // Read again, retry: now it is ours.
        mine = *m_ws->get(key);
        mine.spec.insert(s("publicAccess"), s("Blob"));
        QVERIFY2(m_ws->update(mine, &error), qPrintable(error.message));
        QCOMPARE(other->get(key)->spec.value(s("publicAccess")).toString(), s("Blob"));
        QCOMPARE(other->get(key)->metadata.generation, 3);
    }

    void updateRejectsAnotherObjectWithTheSameName()
    {
        QVERIFY(apply({container(s("invoices"))}));
        const ResourceKey key{s("BlobContainer"), s("invoices")};
        Resource old = *m_ws->get(key);
        StoreError error;
        QVERIFY(m_ws->remove(key, &error));
        QVERIFY(apply({container(s("invoices"))}));
        const Resource recreated = *m_ws->get(key);
        QVERIFY(recreated.metadata.resourceVersion != old.metadata.resourceVersion);
        QVERIFY(recreated.metadata.uid != old.metadata.uid);
        old.metadata.resourceVersion = recreated.metadata.resourceVersion;
        QVERIFY(!m_ws->update(old, &error)); // same token, but another uid
        QCOMPARE(error.code, StoreError::Code::Conflict);
    }

    void setFinalizersWritesThemAlone()
    {
        QVERIFY(apply({container(s("invoices"))}));
        const ResourceKey key{s("BlobContainer"), s("invoices")};
        const Resource before = *m_ws->get(key);
        Resource r = before;
        r.metadata.finalizers.append(s("converge.dev/finalizer"));
        r.spec.insert(s("publicAccess"), s("Blob")); // not the claim's to write
        r.metadata.labels.insert(s("tier"), s("gold"));
        StoreError error;
        QVERIFY2(m_ws->setFinalizers(r, &error), qPrintable(error.message));
        QVERIFY(r.metadata.resourceVersion > before.metadata.resourceVersion);
        const Resource after = *m_ws->get(key);
        QCOMPARE(after.metadata.finalizers, QStringList{s("converge.dev/finalizer")});
        QCOMPARE(after.metadata.resourceVersion, r.metadata.resourceVersion);
        QCOMPARE(after.spec, before.spec);
        QCOMPARE(after.metadata.labels, before.metadata.labels);
        QCOMPARE(after.metadata.generation, before.metadata.generation);
        // Seen as a change by those who follow the workspace.
        QCOMPARE(m_ws->listChangedSince(before.metadata.resourceVersion).size(), 1);

        // The rules of update(): a stale copy, another object of the same name, none at all.
        Resource stale = before;
        stale.metadata.finalizers = {s("x.example/finalizer")};
        QVERIFY(!m_ws->setFinalizers(stale, &error));
        QCOMPARE(error.code, StoreError::Code::Conflict);
        QVERIFY(error.message.contains(key.toString()));
        QCOMPARE(stale.metadata.resourceVersion, before.metadata.resourceVersion);
        QCOMPARE(m_ws->get(key)->metadata.finalizers, after.metadata.finalizers);

        Resource other = after;
        other.metadata.uid = s("another-uid");
        QVERIFY(!m_ws->setFinalizers(other, &error));
        QCOMPARE(error.code, StoreError::Code::Conflict);

        QVERIFY(m_ws->remove(key, &error));
        Resource gone = after;
        QVERIFY(!m_ws->setFinalizers(gone, &error));
        QCOMPARE(error.code, StoreError::Code::NotFound);
    }

    void updateMissing()
    {
        Resource r = container(s("ghost"));
        StoreError error;
        QVERIFY(!m_ws->update(r, &error));
        QCOMPARE(error.code, StoreError::Code::NotFound);
        QVERIFY(!m_ws->updateStatus(r.key(), {}, &error));
        QCOMPARE(error.code, StoreError::Code::NotFound);
        QVERIFY(!m_ws->requestDeletion(r.key(), &error));
        QCOMPARE(error.code, StoreError::Code::NotFound);
        QVERIFY(!m_ws->remove(r.key(), &error));
        QCOMPARE(error.code, StoreError::Code::NotFound);
        QVERIFY(!m_ws->setReconcileState(r.key(), {}, &error));
        QCOMPARE(error.code, StoreError::Code::NotFound);
        QCOMPARE(m_ws->count(), 0);
    }

    // --- Status and condition transitions --------------------------------------------------

    void statusTransition_data()
    {
        using S = Condition::Severity;
        QTest::addColumn<bool>("hasStored");
        QTest::addColumn<Condition>("stored");
        QTest::addColumn<Condition>("incoming");
        QTest::addColumn<bool>("transition");

        const Condition reconciling =
            Condition::notReady(S::Info, s("Reconciling"), s("creating"), 1, t0);
        const auto with = [&](auto change) {
            Condition c = reconciling;
            change(c);
            return c;
        };
        QTest::newRow("first Ready") << false << Condition() << reconciling << true;
        QTest::newRow("equivalent, later time")
            << true << reconciling
            << with([](Condition &c) { c.lastTransitionTime = t0.addSecs(60); }) << false;
        QTest::newRow("status") << true << reconciling << Condition::ready(1, t0) << true;
        QTest::newRow("severity") << true << reconciling
                                  << with([](Condition &c) { c.severity = S::Warning; }) << true;
        QTest::newRow("reason") << true << reconciling
                                << with([](Condition &c) { c.reason = s("WaitingForOwner"); })
                                << true;
        QTest::newRow("message") << true << reconciling
                                 << with([](Condition &c) { c.message = s("still creating"); })
                                 << true;
        QTest::newRow("observedGeneration")
            << true << reconciling << with([](Condition &c) { c.observedGeneration = 2; }) << true;
        QTest::newRow("another condition type")
            << false << Condition() << with([](Condition &c) { c.type = s("Synced"); }) << false;
    }

    void statusTransition()
    {
        QFETCH(bool, hasStored);
        QFETCH(Condition, stored);
        QFETCH(Condition, incoming);
        QFETCH(bool, transition);

        QVERIFY(apply({container(s("invoices"))}));
        const ResourceKey key{s("BlobContainer"), s("invoices")};
        StoreError error;
        if (hasStored) {
            ResourceStatus first;
            first.conditions = {stored};
            QVERIFY2(m_ws->updateStatus(key, first, &error), qPrintable(error.message));
        }
        const qsizetype historyBefore = m_ws->conditionHistory(key).size();
        const qint64 versionBefore = m_ws->get(key)->metadata.resourceVersion;

        ResourceStatus next;
        next.conditions = {incoming};
        next.observed = {{s("etag"), s("0x2")}}; // the status itself always changes here
        QVERIFY2(m_ws->updateStatus(key, next, &error), qPrintable(error.message));

        const Resource after = *m_ws->get(key);
        QCOMPARE(after.status, next);
        QVERIFY(after.metadata.resourceVersion > versionBefore);
        QCOMPARE(after.metadata.generation, 1); // status never bumps the generation
        const QList<ConditionTransition> history = m_ws->conditionHistory(key);
        QCOMPARE(history.size(), historyBefore + (transition ? 1 : 0));
        if (transition) {
            QCOMPARE(history.last().key, key);
            QCOMPARE(history.last().condition, incoming);
        }
    }

    void statusHistoryInOrder()
    {
        QVERIFY(apply({container(s("invoices")), container(s("receipts"))}));
        const ResourceKey key{s("BlobContainer"), s("invoices")};
        const QList<Condition> sequence{
            Condition::unknown(s("NotReconciled"), s("new"), 1, t0),
            Condition::notReady(Condition::Severity::Info, s("Reconciling"), s("creating"), 1,
                                t0.addSecs(1)),
            Condition::ready(1, t0.addSecs(2)),
            Condition::notReady(Condition::Severity::Error, s("Invalid"), s("bad name"), 2,
                                t0.addSecs(3)),
        };
        StoreError error;
        for (const Condition &c : sequence) {
            ResourceStatus status;
            status.conditions = {c};
            QVERIFY2(m_ws->updateStatus(key, status, &error), qPrintable(error.message));
            // Writing the same status again is not a change, and adds no transition.
            const qint64 version = m_ws->get(key)->metadata.resourceVersion;
            QVERIFY(m_ws->updateStatus(key, status, &error));
            QCOMPARE(m_ws->get(key)->metadata.resourceVersion, version);
        }
        const QList<ConditionTransition> history = m_ws->conditionHistory(key);
        QCOMPARE(history.size(), sequence.size());
        for (qsizetype i = 0; i < history.size(); ++i) {
            QCOMPARE(history.at(i).condition, sequence.at(i));
            if (i > 0)
                QVERIFY(history.at(i).id > history.at(i - 1).id);
        }
        QVERIFY(m_ws->conditionHistory({s("BlobContainer"), s("receipts")}).isEmpty());

        // History outlives the object.
        QVERIFY(m_ws->remove(key, &error));
        QCOMPARE(m_ws->conditionHistory(key).size(), sequence.size());
    }

    // --- Deletion ---------------------------------------------------------------------------

    void requestDeletionThenRemove()
    {
        QVERIFY(apply({container(s("invoices"))}));
        const ResourceKey key{s("BlobContainer"), s("invoices")};
        const qint64 version = m_ws->get(key)->metadata.resourceVersion;
        StoreError error;
        QVERIFY2(m_ws->requestDeletion(key, &error), qPrintable(error.message));
        const Resource deleting = *m_ws->get(key);
        QVERIFY(deleting.metadata.isBeingDeleted());
        QVERIFY(deleting.metadata.resourceVersion > version);

        // Once: a second request keeps the first time and writes nothing.
        QVERIFY(m_ws->requestDeletion(key, &error));
        QCOMPARE(*m_ws->get(key), deleting);
        // Apply of a terminating object keeps it terminating.
        QVERIFY(apply({container(s("invoices"), s("Blob"))}));
        QCOMPARE(m_ws->get(key)->metadata.deletionTimestamp, deleting.metadata.deletionTimestamp);

        QList<Event> events{makeEvent(key, Event::Type::Normal, s("Deleting"), s("bye"), t0)};
        QVERIFY(m_ws->recordEvents(events, &error));
        ReconcileState state;
        state.attempts = 2;
        QVERIFY(m_ws->setReconcileState(key, state, &error));

        QVERIFY2(m_ws->remove(key, &error), qPrintable(error.message));
        QVERIFY(!m_ws->get(key));
        QCOMPARE(m_ws->count(), 0);
        QCOMPARE(m_ws->events(queryWith([&](EventQuery &q) { q.involved = key; })).size(),
                 1);                                           // events stay
        QCOMPARE(m_ws->reconcileState(key), ReconcileState{}); // bookkeeping goes
        QVERIFY(!m_ws->remove(key, &error));
        QCOMPARE(error.code, StoreError::Code::NotFound);
    }

    // --- Phase runs and discovery ------------------------------------------------------------

    void phaseRunsNewestFirstAndCapped()
    {
        QVERIFY(apply({container(s("invoices")), container(s("archive"))}));
        const ResourceKey key{s("BlobContainer"), s("invoices")};
        const ResourceKey other{s("BlobContainer"), s("archive")};
        QList<PhaseRun> runs;
        for (int i = 0; i < 205; ++i) {
            PhaseRun run;
            run.key = key;
            run.reconcileId = QStringLiteral("r%1").arg(i);
            run.phase = s("createOrUpdate");
            run.startedAt = t0.addSecs(i);
            run.durationMs = i;
            run.outcome = i == 204 ? s("Retry") : s("Done");
            run.reason = s("Succeeded");
            run.backendWrites = i % 2;
            run.backendCode = i == 204 ? s("ServerBusy") : QString();
            run.requestId = QStringLiteral("req-%1").arg(i);
            runs.append(run);
        }
        PhaseRun otherRun = runs.first();
        otherRun.key = other;
        runs.append(otherRun);
        StoreError error;
        QVERIFY2(m_ws->recordPhaseRuns(runs, &error), qPrintable(error.message));
        QVERIFY(runs.first().id > 0);

        const QList<PhaseRun> stored = m_ws->phaseRuns(key);
        QCOMPARE(stored.size(), 200); // the oldest five went
        QCOMPARE(stored.first().reconcileId, s("r204"));
        QCOMPARE(stored.first().outcome, s("Retry"));
        QCOMPARE(stored.first().backendCode, s("ServerBusy"));
        QCOMPARE(stored.first().requestId, s("req-204"));
        QCOMPARE(stored.first().startedAt, t0.addSecs(204));
        QCOMPARE(stored.first().durationMs, 204);
        QCOMPARE(stored.last().reconcileId, s("r5"));
        QCOMPARE(m_ws->phaseRuns(key, 3).size(), 3);
        QCOMPARE(m_ws->phaseRuns(key, 0).size(), 200); // all that is stored
        QCOMPARE(m_ws->phaseRuns(other).size(), 1);    // another resource's runs are its own

        // A second batch through the same prepared statements prunes again.
        QList<PhaseRun> more = runs.mid(0, 3);
        for (int i = 0; i < more.size(); ++i)
            more[i].reconcileId = QStringLiteral("r%1").arg(205 + i);
        QVERIFY2(m_ws->recordPhaseRuns(more, &error), qPrintable(error.message));
        QVERIFY(more.last().id > runs.last().id);
        const QList<PhaseRun> after = m_ws->phaseRuns(key, 0);
        QCOMPARE(after.size(), 200);
        QCOMPARE(after.first().reconcileId, s("r207"));
        QCOMPARE(after.last().reconcileId, s("r8"));

        QVERIFY(m_ws->remove(key, &error));
        QVERIFY(m_ws->phaseRuns(key).isEmpty());
        QCOMPARE(m_ws->phaseRuns(other).size(), 1);
    }

    void quietRunsRepeatTheNewestRun()
    {
        QVERIFY(apply({container(s("invoices"))}));
        const ResourceKey key{s("BlobContainer"), s("invoices")};
        auto quiet = [&](int i) {
            PhaseRun run;
            run.key = key;
            run.reconcileId = QStringLiteral("r%1").arg(i);
            run.phase = s("createOrUpdate");
            run.startedAt = t0.addSecs(i * 60);
            run.durationMs = i;
            run.outcome = s("Done");
            run.reason = s("Succeeded");
            run.requestId = QStringLiteral("req-%1").arg(i);
            return run;
        };
        PhaseRun created = quiet(0);
        created.backendWrites = 1; // the create: never repeated by a quiet run
        QList<PhaseRun> runs{created, quiet(1), quiet(2)};
        StoreError error;
        QVERIFY2(m_ws->recordPhaseRuns(runs, &error), qPrintable(error.message));
        QList<PhaseRun> more{quiet(3)};
        QVERIFY2(m_ws->recordPhaseRuns(more, &error), qPrintable(error.message));
        QCOMPARE(more.first().id, runs.at(1).id); // folded into the row of the first quiet run
        QCOMPARE(runs.at(2).id, runs.at(1).id);

        QList<PhaseRun> stored = m_ws->phaseRuns(key);
        QCOMPARE(stored.size(), 2);
        QCOMPARE(stored.at(0).repeats, 3);
        QCOMPARE(stored.at(0).firstStartedAt, t0.addSecs(60));
        QCOMPARE(stored.at(0).startedAt, t0.addSecs(180)); // the last of them
        QCOMPARE(stored.at(0).reconcileId, s("r3"));
        QCOMPARE(stored.at(0).requestId, s("req-3"));
        QCOMPARE(stored.at(0).durationMs, 3);
        QCOMPARE(stored.at(1).repeats, 1);
        QCOMPARE(stored.at(1).firstStartedAt, stored.at(1).startedAt);
        QCOMPARE(stored.at(1).backendWrites, 1);

        // Anything else the run says is a row of its own, and the quiet runs after it too.
        PhaseRun other = quiet(4);
        other.message = s("ready again");
        PhaseRun failed = quiet(5);
        failed.outcome = s("Retry");
        QList<PhaseRun> rest{other, failed, quiet(6), quiet(7)};
        QVERIFY2(m_ws->recordPhaseRuns(rest, &error), qPrintable(error.message));
        stored = m_ws->phaseRuns(key);
        QCOMPARE(stored.size(), 5);
        QCOMPARE(stored.at(0).repeats, 2);
        QCOMPARE(stored.at(0).reconcileId, s("r7"));
        QCOMPARE(stored.at(1).outcome, s("Retry"));
        QCOMPARE(stored.at(2).message, s("ready again"));
        QCOMPARE(stored.at(2).repeats, 1);
    }

    void getManyInOneRead()
    {
        Resource odd = container(s("quote\"d-é"));
        QVERIFY(apply({container(s("b")), container(s("a")), odd,
                       makeResource(s("Queue"), s("a"),
                                    {{s("owner"), QJsonObject{{s("name"), s("devstore")}}}})}));
        const QList<Resource> read =
            m_ws->get(QList<ResourceKey>{{s("Queue"), s("a")},
                                         {s("BlobContainer"), s("b")},
                                         {s("BlobContainer"), s("missing")},
                                         odd.key(),
                                         {s("Queue"), s("b")}});
        QCOMPARE(read.size(), 3);
        QCOMPARE(read.at(0).key(), (ResourceKey{s("BlobContainer"), s("b")}));
        QCOMPARE(read.at(1).key(), odd.key());
        QCOMPARE(read.at(2).key(), (ResourceKey{s("Queue"), s("a")}));
        QCOMPARE(read.at(1), *m_ws->get(odd.key()));
        QVERIFY(m_ws->get(QList<ResourceKey>{}).isEmpty());
    }

    void listOwnedBy()
    {
        Resource elsewhere = container(s("elsewhere"));
        elsewhere.spec.insert(s("owner"), QJsonObject{{s("name"), s("other")}});
        QVERIFY(apply({container(s("b")), container(s("a")), elsewhere,
                       makeResource(s("Queue"), s("q"),
                                    {{s("owner"), QJsonObject{{s("name"), s("devstore")}}}})}));
        const QList<Resource> owned = m_ws->listOwnedBy(s("BlobContainer"), s("devstore"));
        QCOMPARE(owned.size(), 2);
        QCOMPARE(owned.at(0).metadata.name, s("a"));
        QCOMPARE(owned.at(1).metadata.name, s("b"));
        QCOMPARE(m_ws->listOwnedBy(s("BlobContainer"), s("other")).size(), 1);
        QVERIFY(m_ws->listOwnedBy(s("BlobContainer"), s("nobody")).isEmpty());
    }

    void listedPageByPage()
    {
        QVERIFY(apply({container(s("c")), container(s("a")), container(s("b")),
                       makeResource(s("Queue"), s("q")),
                       makeResource(s("StorageAccount"), s("devstore"))}));
        QCOMPARE(m_ws->kinds(), (QStringList{s("BlobContainer"), s("Queue"), s("StorageAccount")}));
        const auto names = [](const QList<Resource> &page) {
            QStringList names;
            for (const Resource &r : page)
                names.append(r.metadata.name);
            return names;
        };
        const QString kind = s("BlobContainer");
        QCOMPARE(names(m_ws->listPage(kind, QString(), 2)), (QStringList{s("a"), s("b")}));
        QCOMPARE(names(m_ws->listPage(kind, s("b"), 2)), QStringList{s("c")});
        QVERIFY(m_ws->listPage(kind, s("c"), 2).isEmpty());
        QCOMPARE(names(m_ws->listPage(s("Queue"), QString(), 2)), QStringList{s("q")});

        // The states of a page: after its start, up to its last name.
        StoreError error;
        for (const QString &name : {s("a"), s("b"), s("c")}) {
            ReconcileState state;
            state.attempts = int(name.at(0).unicode() - u'a') + 1;
            QVERIFY2(m_ws->setReconcileState({kind, name}, state, &error),
                     qPrintable(error.message));
        }
        const QHash<ResourceKey, ReconcileState> states =
            m_ws->reconcileStates(kind, s("a"), s("c"));
        QCOMPARE(states.size(), 2);
        QCOMPARE(states.value({kind, s("b")}).attempts, 2);
        QCOMPARE(states.value({kind, s("c")}).attempts, 3);
        QCOMPARE(m_ws->reconcileStates(kind, QString(), s("a")).size(), 1);
    }

    void discoveredStoredPageByPage()
    {
        // A large account's listing stores each page as it comes (the window shows the first
        // rows meanwhile) and drops what it did not show at its end.
        QVERIFY(apply({makeResource(s("StorageAccount"), s("devstore"))}));
        const ResourceKey devstore{s("StorageAccount"), s("devstore")};
        const auto item = [](const QString &name, const QDateTime &seen) {
            DiscoveredResource d;
            d.kind = s("BlobContainer");
            d.name = name;
            d.spec = QJsonObject{{s("publicAccess"), s("None")}};
            d.seenAt = seen;
            return d;
        };
        StoreError error;
        QVERIFY2(m_ws->mergeDiscovered(devstore, s("BlobContainer"),
                                       {item(s("a"), t0), item(s("b"), t0)}, &error),
                 qPrintable(error.message));
        QVERIFY(m_ws->mergeDiscovered(devstore, s("Queue"), {item(s("q"), t0)}, &error));
        // The next listing: page one shows `a` again, page two `c`; `b` is gone.
        const QDateTime t1 = t0.addSecs(60);
        QVERIFY(m_ws->mergeDiscovered(devstore, s("BlobContainer"), {item(s("a"), t1)}, &error));
        QCOMPARE(m_ws->discovered(devstore).size(), 3); // nothing dropped in the middle
        QVERIFY(m_ws->mergeDiscovered(devstore, s("BlobContainer"), {item(s("c"), t1.addMSecs(5))},
                                      &error));
        // Only what was seen since a time is read whole; the names of all, cheaply.
        QList<DiscoveredResource> since = m_ws->discovered(devstore, nullptr, t1);
        QCOMPARE(since.size(), 2);
        QCOMPARE(since.at(0).name, s("a"));
        QCOMPARE(since.at(0).firstSeenAt, t0); // kept across listings
        QCOMPARE(since.at(0).seenAt, t1);
        QCOMPARE(since.at(1).name, s("c"));
        QCOMPARE(since.at(1).firstSeenAt, t1.addMSecs(5));
        QCOMPARE(m_ws->discoveredNames(devstore).size(), 4);

        QVERIFY(m_ws->pruneDiscovered(devstore, s("BlobContainer"), {s("a"), s("c")}, &error));
        const QList<DiscoveredName> names = m_ws->discoveredNames(devstore);
        QCOMPARE(names.size(), 3);
        QVERIFY(!names.contains(DiscoveredName{s("BlobContainer"), s("b")}));
        QVERIFY(names.contains(DiscoveredName{s("Queue"), s("q")})); // another kind stays
        // Pruning compares names, not times: a listing at the same instant still drops rows.
        QVERIFY(m_ws->pruneDiscovered(devstore, s("BlobContainer"), {s("c")}, &error));
        QCOMPARE(m_ws->discoveredNames(devstore).size(), 2);
    }

    void discoveredStampedAfterWhatWasStoredBefore()
    {
        // Two kinds' listings side by side: a page stamped earlier (its listing started
        // first) can be stored after a page of the other. The store stamps it after everything
        // stored under the owner before, so a reader that has read up to a stamp finds it.
        QVERIFY(apply({makeResource(s("StorageAccount"), s("devstore"))}));
        const ResourceKey devstore{s("StorageAccount"), s("devstore")};
        const auto item = [](const QString &kind, const QString &name, const QDateTime &seen) {
            DiscoveredResource d;
            d.kind = kind;
            d.name = name;
            d.seenAt = seen;
            return d;
        };
        StoreError error;
        const QDateTime t1 = t0.addSecs(60);
        QVERIFY2(m_ws->mergeDiscovered(devstore, s("BlobContainer"),
                                       {item(s("BlobContainer"), s("a"), t1)}, &error),
                 qPrintable(error.message));
        const QList<DiscoveredResource> read = m_ws->discovered(devstore);
        QCOMPARE(read.size(), 1);
        const QDateTime mark = read.constFirst().seenAt;
        QVERIFY(
            m_ws->mergeDiscovered(devstore, s("Queue"), {item(s("Queue"), s("q"), t0)}, &error));
        const QList<DiscoveredResource> since = m_ws->discovered(devstore, nullptr, mark);
        QCOMPARE(since.size(), 2); // the mark's own row again, and the queue stored after it
        QCOMPARE(since.at(1).name, s("q"));
        QVERIFY(since.at(1).seenAt > mark);
        QCOMPARE(since.at(1).firstSeenAt, since.at(1).seenAt);
    }

    void discoveredReplacedPerOwnerAndKind()
    {
        QVERIFY(apply({makeResource(s("StorageAccount"), s("devstore")),
                       makeResource(s("StorageAccount"), s("other"))}));
        const ResourceKey devstore{s("StorageAccount"), s("devstore")};
        const ResourceKey other{s("StorageAccount"), s("other")};
        const auto item = [](const QString &kind, const QString &name) {
            DiscoveredResource d;
            d.kind = kind;
            d.name = name;
            d.resourceId = QStringLiteral("http://backend/") + name;
            d.spec = QJsonObject{{s("publicAccess"), s("None")}};
            d.details = QJsonObject{{s("etag"), s("0x1")}};
            d.seenAt = t0;
            return d;
        };
        StoreError error;
        QVERIFY2(m_ws->replaceDiscovered(
                     devstore, s("BlobContainer"),
                     {item(s("BlobContainer"), s("logs")), item(s("BlobContainer"), s("backups"))},
                     &error),
                 qPrintable(error.message));
        QVERIFY(
            m_ws->replaceDiscovered(devstore, s("Queue"), {item(s("Queue"), s("jobs"))}, &error));
        QVERIFY(m_ws->replaceDiscovered(other, s("BlobContainer"),
                                        {item(s("BlobContainer"), s("logs"))}, &error));

        QList<DiscoveredResource> all = m_ws->discovered();
        QCOMPARE(all.size(), 4);
        QCOMPARE(all.at(0).name, s("backups")); // owner, kind, name order
        QCOMPARE(all.at(0).owner, devstore);
        QCOMPARE(all.at(0).spec.value(s("publicAccess")).toString(), s("None"));
        QCOMPARE(all.at(0).details.value(s("etag")).toString(), s("0x1"));
        QCOMPARE(all.at(0).seenAt, t0);
        QCOMPARE(all.at(2).kind, s("Queue"));
        QCOMPARE(m_ws->discovered(other).size(), 1);

        QCOMPARE(all.at(0).firstSeenAt, t0);

        // A new list of one kind under one owner replaces only that set; what it shows again
        // keeps the time it was first seen.
        DiscoveredResource again = item(s("BlobContainer"), s("logs"));
        again.seenAt = t0.addSecs(60);
        QVERIFY(m_ws->replaceDiscovered(devstore, s("BlobContainer"), {again}, &error));
        QCOMPARE(m_ws->discovered(devstore).size(), 2);
        QCOMPARE(m_ws->discovered().size(), 3);
        QCOMPARE(m_ws->discovered(devstore).at(0).name, s("logs"));
        QCOMPARE(m_ws->discovered(devstore).at(0).seenAt, t0.addSecs(60));
        QCOMPARE(m_ws->discovered(devstore).at(0).firstSeenAt, t0);
        // Gone from a list and back: first seen anew.
        QVERIFY(m_ws->replaceDiscovered(devstore, s("BlobContainer"), {}, &error));
        QVERIFY(m_ws->replaceDiscovered(devstore, s("BlobContainer"), {again}, &error));
        QCOMPARE(m_ws->discovered(devstore).at(0).firstSeenAt, t0.addSecs(60));

        // Claiming (a resource that records the backend ID) drops the row, in the same commit.
        Resource claimed = container(s("logs"));
        claimed.metadata.annotations.insert(s("converge.dev/resource-id"),
                                            s("http://backend/logs"));
        QVERIFY(apply({claimed}));
        QCOMPARE(m_ws->discovered().size(), 1); // both "logs" rows had that ID
        // … and a later list leaves managed IDs out.
        QVERIFY(m_ws->replaceDiscovered(
            devstore, s("BlobContainer"),
            {item(s("BlobContainer"), s("logs")), item(s("BlobContainer"), s("backups"))}, &error));
        all = m_ws->discovered(devstore);
        QCOMPARE(all.size(), 2);
        QCOMPARE(all.at(0).name, s("backups"));

        // The controller recording a resource's ID with its status does the same.
        QVERIFY(apply({container(s("backups"))}));
        QVERIFY(m_ws->updateStatus({s("BlobContainer"), s("backups")}, {},
                                   s("http://backend/backups"), &error));
        all = m_ws->discovered(devstore);
        QCOMPARE(all.size(), 1);
        QVERIFY(all.at(0).name != s("backups"));

        // An apply that claims several at once drops each.
        QVERIFY(m_ws->replaceDiscovered(
            devstore, s("BlobContainer"),
            {item(s("BlobContainer"), s("media")), item(s("BlobContainer"), s("photos"))}, &error));
        QCOMPARE(m_ws->discovered(devstore).size(), 3);
        QList<Resource> both{container(s("media")), container(s("photos"))};
        for (Resource &r : both)
            r.metadata.annotations.insert(s("converge.dev/resource-id"),
                                          s("http://backend/") + r.metadata.name);
        QVERIFY(apply(both));
        all = m_ws->discovered(devstore);
        QCOMPARE(all.size(), 1);
        QCOMPARE(all.at(0).kind, s("Queue"));

        // An owner that leaves the workspace takes its discoveries along.
        QVERIFY(m_ws->remove(devstore, &error));
        QVERIFY(m_ws->discovered(devstore).isEmpty());
    }

    // --- Reconcile state --------------------------------------------------------------------

    void reconcileState()
    {
        QVERIFY(apply({container(s("invoices"))}));
        const ResourceKey key{s("BlobContainer"), s("invoices")};
        QCOMPARE(m_ws->reconcileState(key), ReconcileState{});

        ReconcileState state;
        state.attempts = 3;
        state.lastAttempt = t0;
        state.nextAttempt = t0.addSecs(30);
        state.lastError = s("Throttled: slow down");
        state.waitingFor = s("backoff");
        state.lastReconcileId = s("rec-42");
        StoreError error;
        QVERIFY2(m_ws->setReconcileState(key, state, &error), qPrintable(error.message));
        QCOMPARE(m_ws->reconcileState(key), state);
        QCOMPARE(openWorkspace()->reconcileState(key), state);

        ReconcileState cleared;
        cleared.lastAttempt = t0.addSecs(31);
        cleared.lastReconcileId = s("rec-43");
        QVERIFY(m_ws->setReconcileState(key, cleared, &error));
        QCOMPARE(m_ws->reconcileState(key), cleared);
        QVERIFY(!m_ws->reconcileState(key).nextAttempt.isValid());
    }

    void runMemosLastWhileTheirResourceIsAsItWas()
    {
        QVERIFY(apply({container(s("invoices")), container(s("receipts"))}));
        const ResourceKey invoices{s("BlobContainer"), s("invoices")};
        const ResourceKey receipts{s("BlobContainer"), s("receipts")};
        const auto memoOf = [this](const ResourceKey &key) {
            return RunMemo{key, m_ws->get(key)->metadata.resourceVersion,
                           QJsonObject{{s("reason"), s("Succeeded")}}};
        };
        StoreError error;
        QVERIFY2(m_ws->storeRunMemos({memoOf(invoices), memoOf(receipts)}, &error),
                 qPrintable(error.message));
        QCOMPARE(openWorkspace()->runMemos().size(), 2);

        // Any write of the resource (here its status) raises its resourceVersion: the memo is
        // for the one before.
        ResourceStatus status;
        status.setCondition(Condition::ready(1, t0));
        QVERIFY(m_ws->updateStatus(invoices, status, &error));
        QList<RunMemo> memos = m_ws->runMemos();
        QCOMPARE(memos.size(), 1);
        QCOMPARE(memos.first().key, receipts);
        QCOMPARE(memos.first().memo.value(s("reason")).toString(), s("Succeeded"));

        // An empty memo drops the row; so does the resource's removal.
        QVERIFY(m_ws->storeRunMemos({memoOf(invoices)}, &error));
        QCOMPARE(m_ws->runMemos().size(), 2);
        QVERIFY(m_ws->storeRunMemos({RunMemo{invoices, 0, {}}}, &error));
        QCOMPARE(m_ws->runMemos().size(), 1);
        QVERIFY(m_ws->remove(receipts, &error));
        QVERIFY(m_ws->runMemos().isEmpty());
        QSqlDatabase db = QSqlDatabase::addDatabase(s("QSQLITE"), s("memos"));
        {
            db.setDatabaseName(path());
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(s("SELECT count(*) FROM run_memos")) && q.next());
            QCOMPARE(q.value(0).toInt(), 0);
        }
        db.close();
        db = {};
        QSqlDatabase::removeDatabase(s("memos"));
    }

    void updateStatusRecordsTheResourceId()
    {
        Resource r = container(s("invoices"));
        r.metadata.annotations.insert(s("team"), s("billing"));
        QVERIFY(apply({r}));
        const ResourceKey key{s("BlobContainer"), s("invoices")};
        const qint64 before = m_ws->get(key)->metadata.resourceVersion;
        ResourceStatus status;
        status.setCondition(Condition::ready(1, t0));
        const QString id = s("http://127.0.0.1:10000/devstoreaccount1/invoices");
        StoreError error;
        QVERIFY2(m_ws->updateStatus(key, status, id, &error), qPrintable(error.message));
        const Resource stored = *m_ws->get(key);
        QCOMPARE(stored.metadata.annotations.value(Annotations::resourceId()), id);
        QCOMPARE(stored.metadata.annotations.value(s("team")), s("billing"));
        QVERIFY(stored.status.ready().isReady());
        QVERIFY(stored.metadata.resourceVersion > before);
        QCOMPARE(stored.metadata.generation, 1); // metadata of ours, not a spec change
        // The same again changes nothing.
        QVERIFY(m_ws->updateStatus(key, status, id, &error));
        QCOMPARE(m_ws->get(key)->metadata.resourceVersion, stored.metadata.resourceVersion);
    }

    void writeTogetherIsOneTransaction()
    {
        QVERIFY(apply({container(s("invoices"))}));
        const ResourceKey key{s("BlobContainer"), s("invoices")};
        auto other = openWorkspace();
        QVERIFY(other);
        ResourceStatus status;
        status.setCondition(Condition::ready(1, t0));
        QList<Event> events{makeEvent(key, Event::Type::Normal, s("Created"), s("made"), t0)};
        StoreError inner;
        StoreError missing;
        bool seenMidway = true;
        StoreError error;
        QVERIFY2(m_ws->writeTogether(
                     [&] {
                         QVERIFY(m_ws->updateStatus(key, status, &inner));
                         // A call that fails rolls back only itself.
                         QVERIFY(!m_ws->updateStatus({s("Queue"), s("nowhere")}, status, &missing));
                         QVERIFY(m_ws->recordEvents(events, &inner));
                         seenMidway =
                             other->get(key)->status.ready().isReady() || other->eventCount() > 0;
                     },
                     &error),
                 qPrintable(error.message));
        QCOMPARE(missing.code, StoreError::Code::NotFound);
        QVERIFY2(!seenMidway, "another connection saw the writes before the batch ended");
        QVERIFY(other->get(key)->status.ready().isReady());
        QCOMPARE(other->eventCount(), 1);
        QCOMPARE(other->conditionHistory(key).size(), 1);
    }

    // --- Journal ----------------------------------------------------------------------------

    void journal()
    {
        const ResourceKey key{s("BlobContainer"), s("invoices")};
        const QJsonObject details{{s("resourceId"), s("/devstore/invoices")}, {s("attempt"), 1}};
        const QDateTime before = QDateTime::currentDateTimeUtc().addMSecs(-1);
        StoreError error;
        const qint64 create = m_ws->beginIntent(key, s("create"), details, &error);
        QVERIFY2(create > 0, qPrintable(error.message));
        const qint64 update = m_ws->beginIntent(key, s("update"), {}, &error);
        QVERIFY(update > create);
        QCOMPARE(m_ws->unfinishedIntents().size(), 2);

        QVERIFY2(m_ws->finishIntent(create, s("succeeded"), &error), qPrintable(error.message));
        const QList<JournalEntry> open = m_ws->unfinishedIntents();
        QCOMPARE(open.size(), 1);
        QCOMPARE(open.at(0).id, update);
        QCOMPARE(open.at(0).key, key);
        QCOMPARE(open.at(0).operation, s("update"));
        QVERIFY(open.at(0).startedAt >= before);
        QVERIFY(!open.at(0).finishedAt.isValid());

        // The intent is durable: another connection (a restart) sees it.
        m_ws.reset();
        m_ws = openWorkspace();
        QCOMPARE(m_ws->unfinishedIntents().size(), 1);
        QCOMPARE(m_ws->unfinishedIntents().at(0).id, update);

        QVERIFY(!m_ws->finishIntent(create, s("failed: again"), &error));
        QCOMPARE(error.code, StoreError::Code::Invalid);
        QVERIFY(!m_ws->finishIntent(update + 100, s("succeeded"), &error));
        QCOMPARE(error.code, StoreError::Code::NotFound);
        QVERIFY(m_ws->finishIntent(update, s("resolved: exists"), &error));
        QVERIFY(m_ws->unfinishedIntents().isEmpty());
        QCOMPARE(m_ws->beginIntent(key, QString(), {}, &error), 0);
        QCOMPARE(error.code, StoreError::Code::Invalid);
    }

    void journalDetailsRoundTrip()
    {
        const QJsonObject details{{s("resourceId"), s("/devstore/invoices")},
                                  {s("nested"), QJsonObject{{s("a"), QJsonArray{1, 2}}}}};
        StoreError error;
        QVERIFY(m_ws->beginIntent({s("Blob"), s("b")}, s("delete"), details, &error) > 0);
        QCOMPARE(m_ws->unfinishedIntents().at(0).details, details);
    }

    // --- Events -----------------------------------------------------------------------------

    void eventRoundTrip()
    {
        Event e = makeEvent({s("Queue"), s("orders")}, Event::Type::Warning, s("Throttled"),
                            s("429 from the backend"), t0);
        e.lastTime = t0.addSecs(5);
        e.count = 3;
        QList<Event> batch{e};
        StoreError error;
        QVERIFY2(m_ws->recordEvents(batch, &error), qPrintable(error.message));
        QVERIFY(batch.at(0).id > 0);
        e.id = batch.at(0).id;
        QCOMPARE(batch.at(0), e);
        QCOMPARE(m_ws->events({}), QList<Event>{e});
        QCOMPARE(m_ws->eventCount(), 1);
    }

    // Phases and request IDs are stored in a compact form when they have one; whatever was
    // recorded comes back as it was, new or aggregated, one row per statement or many.
    void eventCompactFieldsRoundTrip_data()
    {
        QTest::addColumn<QString>("phase");
        QTest::addColumn<QString>("requestId");
        const QString uuid = s("0f8fad5b-d9cb-469f-a165-70867728950e");
        QTest::newRow("azure") << s("createOrUpdate") << uuid;
        QTest::newRow("uppercase uuid") << s("claim") << uuid.toUpper();
        QTest::newRow("uuid in braces") << s("delete") << (s("{") + uuid + s("}"));
        QTest::newRow("nil uuid") << s("updateStatus") << s("00000000-0000-0000-0000-000000000000");
        QTest::newRow("not hex") << s("recovery") << s("0f8fad5b-d9cb-469f-a165-70867728950z");
        QTest::newRow("dynamodb") << s("apply")
                                  << s("3S5QDU1DJM9O9R2N1GRQ3SDQ3NVV4KQNSO5AEMVJF66Q9ASUAAJG");
        QTest::newRow("none") << QString() << QString();
        QTest::newRow("unknown phase") << s("custom") << s("req-1");
        QTest::newRow("phase that looks like a code") << s("2") << s("1");
    }

    void eventCompactFieldsRoundTrip()
    {
        QFETCH(QString, phase);
        QFETCH(QString, requestId);
        QList<Event> expected;
        // 33 new events: one statement of many rows and one of a single row.
        QList<Event> batch;
        for (int i = 0; i < 33; ++i) {
            Event e = makeEvent({s("Queue"), s("q%1").arg(i)}, Event::Type::Normal, s("Created"),
                                s("created"), t0);
            e.phase = phase;
            e.requestId = requestId;
            batch.append(e);
        }
        StoreError error;
        QVERIFY2(m_ws->recordEvents(batch, &error), qPrintable(error.message));
        // A repeat takes the phase and request ID of the newest sighting: an UPDATE.
        Event first = makeEvent({s("Queue"), s("repeated")}, Event::Type::Normal, s("Synced"),
                                s("synced"), t0);
        first.phase = s("claim");
        first.requestId = s("other");
        QList<Event> once{first};
        QVERIFY2(m_ws->recordEvents(once, &error), qPrintable(error.message));
        Event repeat = first;
        repeat.firstTime = repeat.lastTime = t0.addSecs(1);
        repeat.phase = phase;
        repeat.requestId = requestId;
        QList<Event> again{repeat};
        QVERIFY2(m_ws->recordEvents(again, &error), qPrintable(error.message));
        QCOMPARE(again.at(0).id, once.at(0).id);

        const QList<Event> stored = m_ws->events({});
        QCOMPARE(stored.size(), 34);
        for (const Event &e : stored) {
            QCOMPARE(e.phase, phase);
            QCOMPARE(e.requestId, requestId);
        }
        QCOMPARE(stored.constLast().count, 2);
        QCOMPARE(stored.constLast().firstTime, t0);
        QCOMPARE(stored.constLast().lastTime, t0.addSecs(1));
        for (qsizetype i = 0; i < batch.size(); ++i)
            QCOMPARE(stored.at(i), batch.at(i));
    }

    void eventWithoutTimesGetsNow()
    {
        Event e;
        e.involved = {s("Queue"), s("orders")};
        e.reason = s("Created");
        QList<Event> batch{e};
        const QDateTime before = QDateTime::currentDateTimeUtc().addMSecs(-1);
        QVERIFY(m_ws->recordEvents(batch, nullptr));
        const Event stored = m_ws->events({}).value(0);
        QVERIFY(stored.firstTime >= before);
        QCOMPARE(stored.lastTime, stored.firstTime);
        QCOMPARE(stored.count, 1);
    }

    void eventAggregation_data()
    {
        QTest::addColumn<Event>("second");
        QTest::addColumn<bool>("aggregated");

        const Event first = makeEvent({s("BlobContainer"), s("a")}, Event::Type::Warning,
                                      s("Failed"), s("403 Forbidden"), t0);
        const auto with = [&](auto change) {
            Event e = first;
            change(e);
            return e;
        };
        const auto at = [&](qint64 seconds) {
            return with([&](Event &e) { e.firstTime = e.lastTime = t0.addSecs(seconds); });
        };
        QTest::newRow("same, 5 minutes later") << at(5 * 60) << true;
        QTest::newRow("same, exactly 10 minutes later") << at(10 * 60) << true;
        QTest::newRow("same, 11 minutes later") << at(11 * 60) << false;
        QTest::newRow("same, earlier") << at(-60) << true;
        QTest::newRow("other message")
            << with([](Event &e) { e.message = s("404 Not Found"); }) << false;
        QTest::newRow("other reason") << with([](Event &e) { e.reason = s("Retrying"); }) << false;
        QTest::newRow("other type")
            << with([](Event &e) { e.type = Event::Type::Normal; }) << false;
        QTest::newRow("other resource")
            << with([](Event &e) { e.involved.name = s("b"); }) << false;
        QTest::newRow("other kind")
            << with([](Event &e) { e.involved.kind = s("Queue"); }) << false;
        QTest::newRow("other phase and ids aggregate") << with([](Event &e) {
            e.phase = s("claim");
            e.reconcileId = s("rec-2");
            e.requestId = s("req-2");
            e.count = 4;
        }) << true;
    }

    void eventAggregation()
    {
        QFETCH(Event, second);
        QFETCH(bool, aggregated);

        const Event first = makeEvent({s("BlobContainer"), s("a")}, Event::Type::Warning,
                                      s("Failed"), s("403 Forbidden"), t0);
        QList<Event> one{first};
        StoreError error;
        QVERIFY(m_ws->recordEvents(one, &error));
        QList<Event> two{second};
        QVERIFY2(m_ws->recordEvents(two, &error), qPrintable(error.message));

        QCOMPARE(m_ws->eventCount(), aggregated ? 1 : 2);
        QCOMPARE(two.at(0).id == one.at(0).id, aggregated);
        const QList<Event> stored = m_ws->events({});
        if (aggregated) {
            QCOMPARE(stored.size(), 1);
            const Event &e = stored.at(0);
            QCOMPARE(e.count, 1 + second.count);
            QCOMPARE(e.firstTime, std::min(first.firstTime, second.firstTime));
            QCOMPARE(e.lastTime, std::max(first.lastTime, second.lastTime));
            QCOMPARE(e.reconcileId, second.reconcileId); // the newest run's ids
            QCOMPARE(e.requestId, second.requestId);
            QCOMPARE(two.at(0), e); // written back as stored
        } else {
            QCOMPARE(stored.at(0).count, 1);
            QCOMPARE(stored.at(1).count, second.count);
        }
    }

    void eventAggregationWithinOneBatch()
    {
        const Event e = makeEvent({s("Queue"), s("q")}, Event::Type::Normal, s("WaitingForOwner"),
                                  s("owner devstore is not Ready"), t0);
        Event later = e;
        later.firstTime = later.lastTime = t0.addSecs(30);
        const Event other = makeEvent({s("Queue"), s("q")}, Event::Type::Normal, s("Created"),
                                      s("created"), t0.addSecs(31));
        QList<Event> batch{e, later, other, later};
        StoreError error;
        QVERIFY(m_ws->recordEvents(batch, &error));
        QCOMPARE(m_ws->eventCount(), 2);
        QCOMPARE(batch.at(1).id, batch.at(0).id);
        QCOMPARE(batch.at(3).id, batch.at(0).id);
        QVERIFY(batch.at(2).id > batch.at(0).id);
        QCOMPARE(batch.at(3).count, 3);
        QCOMPARE(m_ws->events(queryWith([&](EventQuery &q) { q.reason = s("WaitingForOwner"); }))
                     .value(0)
                     .count,
                 3);
    }

    // Two keys whose 32-bit aggregation hashes are equal (found by search) stay two events,
    // within one batch and across batches: the whole key is compared, not the hash.
    void eventAggregationHashCollision()
    {
        const ResourceKey key{s("Queue"), s("orders")};
        const Event a = makeEvent(key, Event::Type::Normal, s("Synced"), s("synced 252881"), t0);
        const Event b =
            makeEvent(key, Event::Type::Normal, s("Synced"), s("synced 424990"), t0.addSecs(1));
        QList<Event> together{a, b};
        StoreError error;
        QVERIFY2(m_ws->recordEvents(together, &error), qPrintable(error.message));
        QVERIFY(together.at(0).id != together.at(1).id);
        QList<Event> later{b, a};
        later[0].firstTime = later[0].lastTime = t0.addSecs(2);
        later[1].firstTime = later[1].lastTime = t0.addSecs(3);
        QVERIFY2(m_ws->recordEvents(later, &error), qPrintable(error.message));
        QCOMPARE(later.at(0).id, together.at(1).id);
        QCOMPARE(later.at(1).id, together.at(0).id);
        QCOMPARE(m_ws->eventCount(), 2);
        for (const Event &e : m_ws->events({})) {
            QCOMPARE(e.count, 2);
            QCOMPARE(e.message, e.id == together.at(0).id ? a.message : b.message);
        }
    }

    void eventAggregationAcrossConnections()
    {
        const Event e =
            makeEvent({s("Queue"), s("q")}, Event::Type::Normal, s("Synced"), s("ok"), t0);
        QList<Event> mine{e};
        QVERIFY(m_ws->recordEvents(mine, nullptr));
        auto other = openWorkspace();
        QList<Event> theirs{e};
        QVERIFY(other->recordEvents(theirs, nullptr));
        QCOMPARE(theirs.at(0).id, mine.at(0).id);
        QCOMPARE(m_ws->events({}).value(0).count, 2);
    }

    void eventQueries_data()
    {
        QTest::addColumn<QString>("involved");
        QTest::addColumn<int>("type"); // -1: any
        QTest::addColumn<QString>("reason");
        QTest::addColumn<int>("sinceMinute"); // -1: none
        QTest::addColumn<int>("untilMinute"); // -1: none
        QTest::addColumn<int>("afterIndex");  // -1: none
        QTest::addColumn<int>("limit");
        QTest::addColumn<bool>("newestFirst");
        QTest::addColumn<QList<int>>("expected");

        const int W = int(Event::Type::Warning);
        // clang-format off
        QTest::newRow("all") << QString() << -1 << QString() << -1 << -1 << -1 << 1000 << false
                             << QList<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        QTest::newRow("resource") << s("BlobContainer/a") << -1 << QString() << -1 << -1 << -1
                                  << 1000 << false << QList<int>{0, 2, 4, 7, 9};
        QTest::newRow("type") << QString() << W << QString() << -1 << -1 << -1 << 1000 << false
                              << QList<int>{2, 5, 6, 9};
        QTest::newRow("reason") << QString() << -1 << s("Updated") << -1 << -1 << -1 << 1000
                                << false << QList<int>{4, 7};
        QTest::newRow("resource and type") << s("BlobContainer/a") << W << QString() << -1 << -1
                                           << -1 << 1000 << false << QList<int>{2, 9};
        QTest::newRow("since") << QString() << -1 << QString() << 5 << -1 << -1 << 1000 << false
                               << QList<int>{5, 6, 7, 8, 9};
        QTest::newRow("until") << QString() << -1 << QString() << -1 << 3 << -1 << 1000 << false
                               << QList<int>{0, 1, 2};
        QTest::newRow("time range") << QString() << -1 << QString() << 2 << 5 << -1 << 1000
                                    << false << QList<int>{2, 3, 4};
        QTest::newRow("resource in a time range") << s("Queue/q") << -1 << QString() << 4 << 9
                                                  << -1 << 1000 << false << QList<int>{5, 8};
        QTest::newRow("afterId") << QString() << -1 << QString() << -1 << -1 << 6 << 1000 << false
                                 << QList<int>{7, 8, 9};
        QTest::newRow("limit") << QString() << -1 << QString() << -1 << -1 << -1 << 3 << false
                               << QList<int>{0, 1, 2};
        QTest::newRow("newest first") << QString() << -1 << QString() << -1 << -1 << -1 << 3
                                      << true << QList<int>{9, 8, 7};
        QTest::newRow("newest first of a resource") << s("BlobContainer/b") << -1 << QString()
                                                    << -1 << -1 << -1 << 1000 << true
                                                    << QList<int>{6, 1};
        QTest::newRow("page after an id") << QString() << -1 << QString() << -1 << -1 << 2 << 2
                                          << false << QList<int>{3, 4};
        QTest::newRow("no limit") << QString() << -1 << QString() << -1 << -1 << -1 << 0 << true
                                  << QList<int>{9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
        QTest::newRow("unknown resource") << s("Queue/none") << -1 << QString() << -1 << -1 << -1
                                          << 1000 << false << QList<int>{};
        QTest::newRow("empty range") << QString() << -1 << QString() << 5 << 5 << -1 << 1000
                                     << false << QList<int>{};
        // clang-format on
    }

    void eventQueries()
    {
        QFETCH(QString, involved);
        QFETCH(int, type);
        QFETCH(QString, reason);
        QFETCH(int, sinceMinute);
        QFETCH(int, untilMinute);
        QFETCH(int, afterIndex);
        QFETCH(int, limit);
        QFETCH(bool, newestFirst);
        QFETCH(QList<int>, expected);

        const QList<Event> fixture = recordQueryFixture();
        QCOMPARE(m_ws->eventCount(), fixture.size());

        EventQuery query;
        if (!involved.isEmpty())
            query.involved = ResourceKey::fromString(involved);
        if (type >= 0)
            query.type = Event::Type(type);
        query.reason = reason;
        if (sinceMinute >= 0)
            query.since = t0.addSecs(60 * sinceMinute);
        if (untilMinute >= 0)
            query.until = t0.addSecs(60 * untilMinute);
        if (afterIndex >= 0)
            query.afterId = fixture.at(afterIndex).id;
        query.limit = limit;
        query.newestFirst = newestFirst;

        QList<Event> wanted;
        for (int i : expected)
            wanted.append(fixture.at(i));
        QCOMPARE(m_ws->events(query), wanted);
    }

    void pruneEvents_data()
    {
        QTest::addColumn<qint64>("maxCount");
        QTest::addColumn<qint64>("maxAgeDays");
        QTest::addColumn<QList<int>>("kept");

        QTest::newRow("no limits")
            << qint64(0) << qint64(0) << QList<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        QTest::newRow("count") << qint64(4) << qint64(0) << QList<int>{6, 7, 8, 9};
        QTest::newRow("count above size")
            << qint64(10) << qint64(0) << QList<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        QTest::newRow("count of one") << qint64(1) << qint64(0) << QList<int>{9};
        QTest::newRow("age 90 days") << qint64(0) << qint64(90) << QList<int>{4, 5, 6, 7, 8, 9};
        QTest::newRow("age 7 days") << qint64(0) << qint64(7) << QList<int>{7, 8, 9};
        QTest::newRow("count and age") << qint64(2) << qint64(90) << QList<int>{8, 9};
        QTest::newRow("age keeps more than count") << qint64(5) << qint64(7) << QList<int>{7, 8, 9};
    }

    void pruneEvents()
    {
        QFETCH(qint64, maxCount);
        QFETCH(qint64, maxAgeDays);
        QFETCH(QList<int>, kept);

        // Four events 100 days old, three 30 days old, three from now; ids in that order.
        const QDateTime now = QDateTime::currentDateTimeUtc();
        QList<Event> events;
        for (int i = 0; i < 10; ++i) {
            const int age = i < 4 ? 100 : (i < 7 ? 30 : 0);
            events.append(makeEvent({s("Queue"), s("q")}, Event::Type::Normal, s("Synced"),
                                    QStringLiteral("event %1").arg(i), now.addDays(-age)));
        }
        StoreError error;
        QVERIFY(m_ws->recordEvents(events, &error));

        m_ws->setRetention({maxCount, maxAgeDays});
        QCOMPARE(m_ws->retention().maxCount, maxCount);
        QCOMPARE(m_ws->retention().maxAgeDays, maxAgeDays);
        QCOMPARE(m_ws->pruneEvents(&error), 10 - kept.size());
        QVERIFY(!error.isError());
        QList<Event> wanted;
        for (int i : kept)
            wanted.append(events.at(i));
        QCOMPARE(m_ws->events({}), wanted);
        QCOMPARE(m_ws->pruneEvents(&error), 0); // nothing more to do
    }

    void retentionDefaults()
    {
        QCOMPARE(m_ws->retention().maxCount, 1'000'000);
        QCOMPARE(m_ws->retention().maxAgeDays, 90);
    }

    void eventIdsNeverGoBack()
    {
        QList<Event> events{makeEvent({s("Queue"), s("q")}, Event::Type::Normal, s("Synced"),
                                      s("one"), t0.addDays(-400))};
        QVERIFY(m_ws->recordEvents(events, nullptr));
        const qint64 firstId = events.at(0).id;
        m_ws->setRetention({0, 1});
        QCOMPARE(m_ws->pruneEvents(nullptr), 1);
        QCOMPARE(m_ws->eventCount(), 0);
        // A follower that saw firstId must still see what comes next.
        QList<Event> next{makeEvent({s("Queue"), s("q")}, Event::Type::Normal, s("Synced"),
                                    s("two"), QDateTime::currentDateTimeUtc())};
        QVERIFY(m_ws->recordEvents(next, nullptr));
        QVERIFY(next.at(0).id > firstId);
        QCOMPARE(m_ws->events(queryWith([&](EventQuery &q) { q.afterId = firstId; })).size(), 1);
    }

    // --- Several connections ----------------------------------------------------------------

    void dataVersionSeesOtherConnections()
    {
        auto other = openWorkspace();
        QVERIFY(other);
        const qint64 start = m_ws->dataVersion();
        QCOMPARE(m_ws->dataVersion(), start); // reading changes nothing

        QVERIFY(other->apply({container(s("invoices"))}, nullptr, nullptr));
        const qint64 afterApply = m_ws->dataVersion();
        QVERIFY(afterApply != start);
        QVERIFY(m_ws->get({s("BlobContainer"), s("invoices")}));

        QList<Event> events{
            makeEvent({s("Queue"), s("q")}, Event::Type::Normal, s("Synced"), s("ok"), t0)};
        QVERIFY(other->recordEvents(events, nullptr));
        QVERIFY(m_ws->dataVersion() != afterApply);
        QCOMPARE(m_ws->eventCount(), 1);
    }

    void writersInTwoThreads()
    {
        // Each thread has its own connection; BEGIN IMMEDIATE plus the busy timeout serialise
        // them without a single failed write.
        std::atomic<int> failures{0};
        const auto writer = [&](const QString &prefix) {
            StoreError error;
            auto ws = Workspace::open(path(), &error);
            if (!ws) {
                ++failures;
                return;
            }
            for (int i = 0; i < 100; ++i) {
                QList<Event> events{makeEvent({s("Queue"), prefix}, Event::Type::Normal,
                                              s("Synced"), QStringLiteral("%1").arg(i), t0)};
                if (!ws->apply({container(prefix + QString::number(i))}, nullptr, &error) ||
                    !ws->recordEvents(events, &error)) {
                    qWarning("%s", qPrintable(error.message));
                    ++failures;
                }
            }
        };
        std::thread a(writer, s("a"));
        std::thread b(writer, s("b"));
        a.join();
        b.join();
        QCOMPARE(failures.load(), 0);
        QCOMPARE(m_ws->count(), 200);
        QCOMPARE(m_ws->eventCount(), 200);
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Workspace> m_ws;
};

QTEST_GUILESS_MAIN(tst_Workspace)
#include "tst_workspace.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

// Every declared kind of a provider on its emulator, driven by its test data
// (tests/data/declared/…/KIND.json) and nothing else: adding a kind adds a declaration and a data
// file, no C++. For each kind: create, read back as declared, each update through the Delta,
// drift made behind Converge's back and corrected, adoption of an existing resource, listing,
// deletion; through the whole engine: Ready, an immutable field refused without a write,
// detach-on-delete, skip, no value given by reference in the workspace; and each model
// constraint refused at validation with file:line:column. A provider's test (tst_declaredkinds
// for AWS on moto, tst_gcpdeclaredkinds for Google Cloud on its emulators) says which backend.

#include "annotations.h"
#include "clock.h"
#include "controller.h"
#include "countingfactory.h"
#include "delta.h"
#include "discoveredclaim.h"
#include "emulators.h"
#include "factory.h"
#include "factoryregistry.h"
#include "genericreconciler.h"
#include "httpclient.h"
#include "kindregistry.h"
#include "manifestreader.h"
#include "schemavalidator.h"
#include "workspace.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>

namespace converge::test {

using namespace std::chrono_literals;

inline constexpr int settleTimeoutMs = 20000;

inline QJsonObject mergedSpec(QJsonObject base, const QJsonObject &change)
{
    for (auto it = change.begin(); it != change.end(); ++it)
        base.insert(it.key(), it.value());
    return base;
}

/// "cvg-<what>-<random>": resources of concurrent test runs on one emulator never meet.
inline QString uniqueResourceName(const QString &what)
{
    return QStringLiteral("cvg-%1-%2")
        .arg(what)
        .arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'));
}

/// One kind's test data. In its specs, "$name" in a string stands for the resource's name (a
/// subscription's endpoint: a nameless kind is told apart by its spec), and "$KEY" for the name
/// of the resource `needs` declares under KEY (what a reference names).
struct KindData
{
    QString kind;
    QJsonObject spec;
    QList<QJsonObject> updates;
    QJsonObject drift;
    QJsonObject immutable;
    QJsonArray refused;
    QJsonObject needs; ///< KEY: {kind, spec}, made before the kind's resources and gone after
    QString notListed; ///< why list() does not find the kind's resource; empty when it does
    /// Environment variables the specs' values by reference name (`secretString: {env: X}`).
    QJsonObject environment;
    /// What the emulator cannot check of the kind (said in the test's output, not hidden).
    QString notChecked;

    void setEnvironment() const
    {
        for (auto it = environment.begin(); it != environment.end(); ++it)
            qputenv(it.key().toLocal8Bit().constData(), it.value().toString().toUtf8());
    }

    static KindData read(const QString &path)
    {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            qFatal("cannot read %s", qPrintable(path));
        const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
        KindData d;
        d.kind = o.value(QStringLiteral("kind")).toString();
        d.spec = o.value(QStringLiteral("spec")).toObject();
        for (const QJsonValue &u : o.value(QStringLiteral("updates")).toArray())
            d.updates << u.toObject();
        d.drift = o.value(QStringLiteral("drift")).toObject();
        d.immutable = o.value(QStringLiteral("immutable")).toObject();
        d.refused = o.value(QStringLiteral("refused")).toArray();
        d.needs = o.value(QStringLiteral("needs")).toObject();
        d.environment = o.value(QStringLiteral("environment")).toObject();
        d.notListed = o.value(QStringLiteral("notListed")).toString();
        d.notChecked = o.value(QStringLiteral("notChecked")).toString();
        return d;
    }
};

/// `value` with "$name" in its strings as `name`, "$KEY" as `names`' KEY, and "$testdata" as
/// the folder of the tests' data (a function's code).
inline QJsonValue substituted(const QJsonValue &value, const QString &name,
                              const QMap<QString, QString> &names)
{
    if (value.isString()) {
        const QString text = value.toString().replace(QStringLiteral("$testdata"),
                                                      qEnvironmentVariable("CONVERGE_TEST_DATA"));
        if (text.startsWith(QLatin1Char('$')) && names.contains(text.mid(1)))
            return names.value(text.mid(1));
        QString out = text;
        for (auto it = names.begin(); it != names.end(); ++it)
            out.replace(QLatin1Char('$') + it.key(), it.value());
        return out.replace(QStringLiteral("$name"), name);
    }
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue &item : value.toArray())
            out.append(substituted(item, name, names));
        return out;
    }
    if (value.isObject()) {
        QJsonObject out;
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            out.insert(it.key(), substituted(it.value(), name, names));
        return out;
    }
    return value;
}

class DeclaredKindsSuite : public QObject
{
    Q_OBJECT

protected:
    /// Why the backend is not there ("skipped: …" follows), or empty.
    virtual QString missingBackend() const = 0;
    /// Why `kind` cannot be tried here though the suite runs (its own emulator is missing:
    /// Spanner's beside Pub/Sub's); empty when it can.
    virtual QString missingFor(const QString &kind) const
    {
        Q_UNUSED(kind)
        return {};
    }
    /// The account (an AwsAccount, a GcpProject) of the fixture's emulator, named `name`, or
    /// accountName() when empty.
    virtual Resource account(const QString &name = {}) const = 0;
    virtual QString accountName() const = 0;
    /// The provider's factory, polling fast.
    virtual std::unique_ptr<Factory> makeFactory() const = 0;
    virtual QString apiVersion() const = 0;
    /// The provider's declared kinds, each of which has test data.
    virtual QStringList declaredKinds() const = 0;
    /// The folder of the kinds' test data under tests/data.
    virtual QString dataFolder() const = 0;

    /// `resources` applied to a new workspace at `path` and reconciled by a controller with the
    /// provider's factory until every one is Ready: the workspace, or null when one is not (it
    /// says which and why).
    std::unique_ptr<Workspace> reconciledUntilReady(const QString &path,
                                                    const QList<Resource> &resources) const
    {
        auto ws = Workspace::open(path, nullptr);
        StoreError error;
        if (!ws || !ws->apply(resources, nullptr, &error)) {
            qWarning() << "cannot apply:" << error.message;
            return nullptr;
        }
        FactoryRegistry factories;
        factories.add(makeFactory());
        GenericReconciler reconciler(m_kinds);
        SystemClock clock;
        Controller::Options o;
        o.workers = 2;
        o.pollInterval = std::chrono::milliseconds(20);
        Controller controller(path, m_kinds, factories, reconciler, clock, nullptr, o);
        if (!controller.start())
            return nullptr;
        QString notReady;
        const auto allReady = [&] {
            for (const Resource &r : resources) {
                const std::optional<Resource> stored = ws->get(r.key());
                if (!stored || !stored->status.ready().isReady()) {
                    notReady = r.key().toString() + QStringLiteral(": ") +
                               (stored ? stored->status.ready().message : QString());
                    return false;
                }
            }
            return true;
        };
        QElapsedTimer timer;
        timer.start();
        while (!allReady() && timer.elapsed() < settleTimeoutMs)
            QTest::qWait(50);
        controller.stop();
        if (!allReady()) {
            qWarning("not Ready: %s", qPrintable(notReady));
            return nullptr;
        }
        return ws;
    }

    QStringList declaredKindData() const
    {
        const QDir dir(qEnvironmentVariable("CONVERGE_TEST_DATA") + QLatin1Char('/') +
                       dataFolder());
        QStringList files;
        for (const QString &name :
             dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
            files << dir.filePath(name);
        return files;
    }

    Emulators m_emulators = Emulators::fromEnvironment();
    KindRegistry m_kinds;
    std::unique_ptr<HttpClient> m_http;
    std::unique_ptr<Factory> m_factory;

    Resource resource(const KindData &data, const QString &name, const QJsonObject &spec,
                      const QMap<QString, QString> &names = {}) const
    {
        Resource r;
        r.apiVersion = apiVersion();
        r.kind = data.kind;
        r.metadata.name = name;
        r.spec = substituted(spec, name, names).toObject();
        r.spec.insert(QStringLiteral("owner"),
                      QJsonObject{{QStringLiteral("name"), accountName()}});
        validated(r);
        return r;
    }

    /// `r` as apply stores it: defaults filled in, values in their one spelling (an instant).
    void validated(Resource &r) const
    {
        SchemaValidator validator(m_kinds);
        const auto errors = validator.validate(r);
        if (!errors.isEmpty())
            qWarning() << "invalid test resource:" << errors.first().toString();
    }

    /// What a kind's resources name (KindData::needs), made under names of their own.
    struct Needs
    {
        QMap<QString, QString> names; ///< KEY: the resource's name
        QList<Resource> resources;    ///< with their backend IDs, as the workspace holds them
    };

    /// `data`'s needs as resources, not yet made.
    Needs needs(const KindData &data) const
    {
        Needs out;
        for (auto it = data.needs.begin(); it != data.needs.end(); ++it) {
            const QJsonObject need = it.value().toObject();
            const KindData needData{
                need.value(QStringLiteral("kind")).toString(), {}, {}, {}, {}, {}, {}, {}, {}, {}};
            const QString name = uniqueResourceName(needData.kind.toLower());
            out.names.insert(it.key(), name);
            out.resources << resource(needData, name,
                                      need.value(QStringLiteral("spec")).toObject());
        }
        return out;
    }

    /// `data`'s needs made in the backend, with their IDs as the engine records them.
    Needs madeNeeds(const KindData &data)
    {
        Needs made = needs(data);
        for (Resource &r : made.resources) {
            auto created = manager(r.kind)->create(Target{r, {account()}});
            if (!created)
                qFatal("cannot make %s: %s", qPrintable(r.key().toString()),
                       qPrintable(created.error().toString()));
            r.metadata.annotations.insert(Annotations::resourceId(), created.value().resourceId);
        }
        return made;
    }

    void dropNeeds(const Needs &made)
    {
        for (const Resource &r : made.resources) {
            auto m = manager(r.kind);
            const Target target{r, {account()}};
            if (auto seen = m->get(target))
                m->deleteResource(target, seen.value());
        }
    }

    std::shared_ptr<Manager> manager(const QString &kind)
    {
        ManagerEnvironment env;
        env.http = m_http.get();
        auto made = m_factory->manager(kind, account(), env);
        if (!made)
            qFatal("no manager for %s: %s", qPrintable(kind), qPrintable(made.error().message));
        return made.value();
    }

    /// `seen` recorded in `target`'s status as the engine records what a Manager answers.
    static void recorded(Target &target, const Observation &seen)
    {
        if (!seen.inProgress)
            target.resource.status.observed = QJsonObject{{QStringLiteral("spec"), seen.spec}};
    }

    /// get() until no operation runs, or the error it ends with; what it observed is recorded
    /// in `target`'s status as the engine records it (what a Spanner database's applied
    /// statements are read from).
    static Outcome<Observation> settled(Manager &m, Target &target)
    {
        QElapsedTimer timer;
        timer.start();
        for (;;) {
            auto seen = m.get(target);
            if (!seen || !seen.value().inProgress || timer.elapsed() > settleTimeoutMs) {
                if (seen)
                    recorded(target, seen.value());
                return seen;
            }
            QTest::qWait(50);
        }
    }
    static Outcome<Observation> settled(Manager &m, const Target &target)
    {
        Target copy = target;
        return settled(m, copy);
    }

    QStringList drift(const Kind &kind, const QJsonObject &desired, const Observation &seen) const
    {
        return Delta::between(kind.spec, desired, seen.spec);
    }
    /// What differs between `desired` and `seen`, with both, or nothing when they agree.
    static QByteArray differs(const Kind &kind, const QJsonObject &desired, const Observation &seen)
    {
        const QStringList delta = Delta::between(kind.spec, desired, seen.spec);
        if (delta.isEmpty())
            return {};
        return delta.join(QStringLiteral(", ")).toUtf8() + " differ; desired " +
               QJsonDocument(desired).toJson(QJsonDocument::Compact) + " observed " +
               QJsonDocument(seen.spec).toJson(QJsonDocument::Compact);
    }

private slots:
    void initTestCase()
    {
        if (const QString missing = missingBackend(); !missing.isEmpty())
            QSKIP(qPrintable(QStringLiteral("skipped: ") + missing));
        m_factory = makeFactory();
        m_factory->registerKinds(m_kinds);
        m_http = std::make_unique<HttpClient>();
        QVERIFY2(!declaredKindData().isEmpty(), "no test data in tests/data/declared");
    }

    void everyDeclaredKindHasTestData()
    {
        QStringList tested;
        for (const QString &file : declaredKindData())
            tested << KindData::read(file).kind;
        for (const QString &kind : declaredKinds())
            QVERIFY2(tested.contains(kind), qPrintable(kind + QStringLiteral(" has no test data")));
    }

    void lifecycle_data()
    {
        QTest::addColumn<QString>("file");
        // Named by the file: a kind may have several (SSMParameter's String and SecureString).
        for (const QString &file : declaredKindData())
            QTest::newRow(qPrintable(QFileInfo(file).completeBaseName())) << file;
    }

    // Manager by Manager: what the engine relies on.
    void lifecycle()
    {
        QFETCH(QString, file);
        const KindData data = KindData::read(file);
        if (const QString missing = missingFor(data.kind); !missing.isEmpty())
            QSKIP(qPrintable(QStringLiteral("skipped: ") + missing));
        data.setEnvironment();
        if (!data.notChecked.isEmpty())
            qInfo("not checked on this emulator: %s", qPrintable(data.notChecked));
        const Kind *kind = m_kinds.find(data.kind);
        QVERIFY(kind);
        auto m = manager(data.kind);
        const QString name = uniqueResourceName(data.kind.toLower());
        const Needs made = madeNeeds(data);
        const auto dropped = qScopeGuard([&] { dropNeeds(made); });
        Target target{resource(data, name, data.spec, made.names), {account()}, made.resources};

        auto created = m->create(target);
        QVERIFY2(created, qPrintable(created ? QString() : created.error().toString()));
        QVERIFY(!created.value().existed);
        recorded(target, created.value());
        // As the engine records it (a kind known by its ID alone is read by nothing else).
        target.resource.metadata.annotations.insert(Annotations::resourceId(),
                                                    created.value().resourceId);
        auto seen = settled(*m, target);
        QVERIFY2(seen, qPrintable(seen ? QString() : seen.error().toString()));
        // A create that ran asynchronously leaves what its call cannot carry to the next
        // reconcile, as the engine does.
        if (const QStringList left = drift(*kind, target.resource.spec, seen.value());
            !left.isEmpty()) {
            QVERIFY(m->update(target, seen.value(), left));
            seen = settled(*m, target);
            QVERIFY(seen);
        }
        QVERIFY2(!seen.value().resourceId.isEmpty(), "no backend ID");
        // A kind without a backend name (a subscription) is known by its ID alone.
        const QString backendName =
            target.resource.spec.value(kind->backendNameField).toString(name);
        if (!kind->backendNameField.isEmpty())
            QCOMPARE(seen.value().name, backendName);
        target.resource.metadata.annotations.insert(Annotations::resourceId(),
                                                    seen.value().resourceId);
        QVERIFY2(differs(*kind, target.resource.spec, seen.value()).isEmpty(),
                 differs(*kind, target.resource.spec, seen.value()).constData());

        // Each update through the Delta, and seen done.
        for (const QJsonObject &change : data.updates) {
            target.resource.spec =
                mergedSpec(target.resource.spec, substituted(change, name, made.names).toObject());
            validated(target.resource);
            const QStringList delta = drift(*kind, target.resource.spec, seen.value());
            QVERIFY2(!delta.isEmpty(), QJsonDocument(change).toJson().constData());
            auto updated = m->update(target, seen.value(), delta);
            QVERIFY2(updated, qPrintable(updated ? QString() : updated.error().toString()));
            recorded(target, updated.value());
            seen = settled(*m, target);
            QVERIFY(seen);
            QVERIFY2(differs(*kind, target.resource.spec, seen.value()).isEmpty(),
                     differs(*kind, target.resource.spec, seen.value()).constData());
        }

        // Drift made behind Converge's back is seen, and corrected by an update.
        if (!data.drift.isEmpty()) {
            Target outside = target;
            outside.resource.spec = mergedSpec(
                target.resource.spec, substituted(data.drift, name, made.names).toObject());
            const auto changed =
                m->update(outside, seen.value(), drift(*kind, outside.resource.spec, seen.value()));
            QVERIFY2(changed, qPrintable(changed ? QString() : changed.error().toString()));
            seen = settled(*m, target);
            const QStringList drifted = drift(*kind, target.resource.spec, seen.value());
            QVERIFY2(!drifted.isEmpty(), "the drift was not observed");
            QVERIFY(m->update(target, seen.value(), drifted));
            seen = settled(*m, target);
            QVERIFY2(differs(*kind, target.resource.spec, seen.value()).isEmpty(),
                     differs(*kind, target.resource.spec, seen.value()).constData());
        }

        // A field that cannot change is refused without a write.
        if (!data.immutable.isEmpty()) {
            Target renamed = target;
            renamed.resource.spec = mergedSpec(target.resource.spec, data.immutable);
            const QStringList delta = drift(*kind, renamed.resource.spec, seen.value());
            QVERIFY(!Delta::immutablePaths(kind->spec, delta).isEmpty());
        }

        // Creating what exists adopts it.
        if (m->createAdopts()) {
            auto again = m->create(target);
            QVERIFY2(again, qPrintable(again ? QString() : again.error().toString()));
            // Found by its "already exists" answer, or made again by a create that is
            // idempotent (SQS's CreateQueue with the same attributes): the same resource.
            QCOMPARE(again.value().resourceId, seen.value().resourceId);
        }

        // The list finds it, page by page.
        bool listed = false;
        Observation listedItem;
        ListScope scope;
        scope.owners = target.owners;
        for (int pages = 0; pages < 100 && !listed; ++pages) {
            auto page = m->list(scope);
            QVERIFY2(page, qPrintable(page ? QString() : page.error().toString()));
            for (const Observation &item : page.value().items) {
                if (!listed &&
                    (kind->backendNameField.isEmpty() ? item.resourceId == seen.value().resourceId
                                                      : item.name == backendName)) {
                    listed = true;
                    listedItem = item;
                }
            }
            scope.continuation = page.value().continuation;
            if (scope.continuation.isEmpty())
                break;
        }
        if (data.notListed.isEmpty())
            QVERIFY2(listed, "list() does not find it");
        else
            qInfo("not listed: %s", qPrintable(data.notListed));

        // What the listing found reads for a claim as the window's Claim reads it, whatever the
        // kind knows it by (a subscription has no name, only the ID the listing gave).
        if (listed) {
            DiscoveredResource found;
            found.kind = data.kind;
            found.name = listedItem.name;
            found.resourceId = listedItem.resourceId;
            found.spec = listedItem.spec;
            const auto claimed =
                m->get(Target{DiscoveredClaim::probe(found, target.owners.first()), target.owners});
            QVERIFY2(claimed, qPrintable(claimed ? QString() : claimed.error().toString()));
            QCOMPARE(claimed.value().resourceId, seen.value().resourceId);
        }

        // Deleted, and gone.
        auto deleted = m->deleteResource(target, seen.value());
        QVERIFY2(deleted, qPrintable(deleted ? QString() : deleted.error().toString()));
        auto gone = settled(*m, target);
        QVERIFY(!gone);
        QCOMPARE(gone.error().category, BackendError::Category::NotFound);
        QVERIFY(m->deleteResource(target, seen.value())); // NotFound counts as gone
    }

    void refusedAtValidation_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("says");
        int rows = 0; // a field may be refused for several values
        for (const QString &file : declaredKindData()) {
            const KindData data = KindData::read(file);
            for (const QJsonValue &r : data.refused) {
                const QString field = r[QStringLiteral("field")].toString();
                QTest::newRow(qPrintable(QFileInfo(file).completeBaseName() + QLatin1Char('.') +
                                         field + QLatin1Char('#') + QString::number(++rows)))
                    << file << data.kind << field
                    << QString::fromUtf8(QJsonDocument(QJsonArray{r[QStringLiteral("value")]})
                                             .toJson(QJsonDocument::Compact)
                                             .chopped(1)
                                             .mid(1))
                    << r[QStringLiteral("says")].toString();
            }
        }
    }

    // A manifest with one bad value: refused where it is, with the field and the model's rule.
    void refusedAtValidation()
    {
        QFETCH(QString, file);
        QFETCH(QString, kind);
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, says);
        // The kind's good spec (its required fields), a field a line (JSON values are YAML),
        // and the bad value last.
        QString manifest = QStringLiteral("apiVersion: %2\nkind: %1\nmetadata:\n"
                                          "  name: refused\nspec:\n  owner: {name: %3}\n")
                               .arg(kind, apiVersion(), accountName());
        int line = 7;
        const KindData data = KindData::read(file);
        QMap<QString, QString> needed;
        for (auto it = data.needs.begin(); it != data.needs.end(); ++it)
            needed.insert(it.key(), QStringLiteral("refused-") + it.key());
        const QJsonObject good =
            substituted(data.spec, QStringLiteral("refused"), needed).toObject();
        for (auto it = good.begin(); it != good.end(); ++it) {
            if (it.key() == field)
                continue;
            manifest += QStringLiteral("  %1: %2\n")
                            .arg(it.key(), QString::fromUtf8(QJsonDocument(QJsonArray{it.value()})
                                                                 .toJson(QJsonDocument::Compact)
                                                                 .chopped(1)
                                                                 .mid(1)));
            ++line;
        }
        manifest += QStringLiteral("  %1: %2\n").arg(field, value);
        const ManifestReader reader(m_kinds);
        const auto result = reader.read(manifest.toUtf8(), QStringLiteral("refused.yaml"));
        QVERIFY2(result.errors.size() == 1, qPrintable(manifest));
        const QString error = result.errors.first().toString();
        QVERIFY2(error.startsWith(QStringLiteral("refused.yaml:%1:").arg(line)), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("spec.") + field), qPrintable(error));
        QVERIFY2(error.contains(says), qPrintable(error));
    }

    void throughTheEngine_data() { lifecycle_data(); }

    // Ready through the Controller; detach-on-delete leaves the resource; skip writes nothing;
    // delete removes it.
    void throughTheEngine()
    {
        QFETCH(QString, file);
        const KindData data = KindData::read(file);
        if (const QString missing = missingFor(data.kind); !missing.isEmpty())
            QSKIP(qPrintable(QStringLiteral("skipped: ") + missing));
        data.setEnvironment();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("declared.converge"));
        auto ws = Workspace::open(path, nullptr);
        QVERIFY(ws);
        FactoryRegistry factories;
        CallCounts counts;
        factories.add(std::make_unique<CountingFactory>(counts, makeFactory()));
        GenericReconciler reconciler(m_kinds);
        SystemClock clock;
        Controller::Options o;
        o.workers = 2;
        o.pollInterval = 20ms;
        o.backoff.fastBase = 50ms;
        o.backoff.fastCap = 200ms;
        Controller controller(path, m_kinds, factories, reconciler, clock, nullptr, o);

        const QString kept = uniqueResourceName(data.kind.toLower());
        const QString removed = uniqueResourceName(data.kind.toLower());
        // What it names is declared beside it, and made by the engine first.
        const Needs needed = needs(data);
        const auto dropped = qScopeGuard([&] { dropNeeds(needed); });
        Resource detach = resource(data, kept, data.spec, needed.names);
        detach.metadata.annotations.insert(Annotations::reconcilePolicy(),
                                           QStringLiteral("detach-on-delete"));
        QList<ApplyOutcome> outcomes;
        StoreError error;
        QVERIFY(ws->apply(
            QList<Resource>{account(), detach, resource(data, removed, data.spec, needed.names)} +
                needed.resources,
            &outcomes, &error));
        QVERIFY(controller.start());
        const auto ready = [&](const QString &name) {
            const auto r = ws->get(ResourceKey{data.kind, name});
            return r && r->status.ready().isReady() &&
                   r->status.ready().observedGeneration == r->metadata.generation;
        };
        QTRY_VERIFY_WITH_TIMEOUT(ready(kept) && ready(removed), settleTimeoutMs);

        // A resync observes them from list pages where the kind's list is complete (what the
        // page holds, with what the workspace knows and the backend does not say): still
        // Ready, nothing written. (Other kinds' resyncs are reads, as every run's.)
        if (manager(data.kind)->listIsComplete()) {
            const int writes = counts.writes();
            const qint64 lists = controller.stats().listCalls;
            controller.resyncNow();
            QTRY_VERIFY_WITH_TIMEOUT(controller.stats().listCalls > lists && controller.isIdle(),
                                     settleTimeoutMs);
            QVERIFY2(ready(kept) && ready(removed),
                     qPrintable(ws->get(ResourceKey{data.kind, kept})->status.ready().message));
            QCOMPARE(counts.writes(), writes);
        }

        // Each field that cannot change, changed in the workspace as an older version or an
        // edit by hand would have stored it (apply refuses it since): ImmutableFieldChanged
        // before any write, the resource still there; restored, Ready again without a write.
        const Kind *kind = m_kinds.find(data.kind);
        QVERIFY(kind);
        for (const FieldSchema &field : kind->spec.fields) {
            if (!field.immutable)
                continue;
            QJsonValue value = data.immutable.value(field.name);
            QList<Resource> extra;
            if (field.name == QLatin1String("owner")) {
                const Resource other = account(kept + QStringLiteral("-other"));
                value = QJsonObject{{QStringLiteral("name"), other.metadata.name}};
                extra = {other};
            }
            if (value.isUndefined())
                QFAIL(qPrintable(QStringLiteral("%1 gives no changed value for %2's spec.%3")
                                     .arg(file, data.kind, field.name)));
            const int writes = counts.writes();
            // With the annotations the engine keeps (the backend ID), as apply keeps them.
            const Resource stored = *ws->get(ResourceKey{data.kind, kept});
            Resource changed = stored;
            changed.spec.insert(field.name, value);
            QVERIFY(ws->apply(extra + QList<Resource>{changed}, &outcomes, &error));
            const auto refused = [&] {
                const auto r = ws->get(ResourceKey{data.kind, kept});
                return r && r->status.ready().observedGeneration == r->metadata.generation &&
                       r->status.ready().reason == QLatin1String("ImmutableFieldChanged");
            };
            QTRY_VERIFY2_WITH_TIMEOUT(
                refused(),
                qPrintable(field.name + QStringLiteral(": ") +
                           ws->get(ResourceKey{data.kind, kept})->status.ready().reason),
                settleTimeoutMs);
            QCOMPARE(counts.writes(), writes);
            QVERIFY(ws->apply({stored}, &outcomes, &error));
            QTRY_VERIFY_WITH_TIMEOUT(ready(kept), settleTimeoutMs);
            QVERIFY2(counts.writes() == writes, qPrintable(field.name));
        }

        // Under the skip policy nothing is written: a resource that does not exist is not made.
        const QString skipped = uniqueResourceName(data.kind.toLower());
        Resource observeOnly = resource(data, skipped, data.spec, needed.names);
        observeOnly.metadata.annotations.insert(Annotations::reconcilePolicy(),
                                                QStringLiteral("skip"));
        const int writesBefore = counts.writes();
        QVERIFY(ws->apply({observeOnly}, &outcomes, &error));
        // Its first run is over when its condition speaks of its generation.
        const auto observed = [&] {
            const auto r = ws->get(ResourceKey{data.kind, skipped});
            return r && r->status.ready().observedGeneration == r->metadata.generation &&
                   r->status.ready().reason != QLatin1String("Reconciling");
        };
        QTRY_VERIFY_WITH_TIMEOUT(observed(), settleTimeoutMs);
        QCOMPARE(ws->get(ResourceKey{data.kind, skipped})->status.ready().reason,
                 QStringLiteral("BackendResourceNotFound"));
        QCOMPARE(counts.writes(), writesBefore);

        // As the workspace holds them: with the IDs the engine recorded (a kind known by its ID
        // alone has no other way to be found).
        const Resource keptStored = *ws->get(ResourceKey{data.kind, kept});
        const Resource removedStored = *ws->get(ResourceKey{data.kind, removed});
        auto m = manager(data.kind);
        // The references as the engine resolves them: with the IDs it recorded.
        QList<Resource> references;
        for (const Resource &r : needed.resources)
            references << *ws->get(r.key());
        QCOMPARE(m->get(Target{observeOnly, {account()}, references}).error().category,
                 BackendError::Category::NotFound);
        const Target keptTarget{keptStored, {account()}, references};
        const Target removedTarget{removedStored, {account()}, references};
        QVERIFY(ws->requestDeletion(ResourceKey{data.kind, kept}, &error));
        QVERIFY(ws->requestDeletion(ResourceKey{data.kind, removed}, &error));
        QTRY_VERIFY_WITH_TIMEOUT(!ws->get(ResourceKey{data.kind, kept}) &&
                                     !ws->get(ResourceKey{data.kind, removed}),
                                 settleTimeoutMs);
        QVERIFY2(m->get(keptTarget), "detach-on-delete deleted the resource");
        auto gone = settled(*m, removedTarget);
        QVERIFY(!gone && gone.error().category == BackendError::Category::NotFound);
        QVERIFY(m->deleteResource(keptTarget, m->get(keptTarget).value()));

        // No value given by reference reached the workspace (a secret's, a function's
        // environment's): neither as asked nor as observed.
        // Every file of it (SQLite's journal too), events and conditions included.
        QByteArray stored;
        for (const QFileInfo &info : QDir(dir.path()).entryInfoList(QDir::Files)) {
            QFile file(info.filePath());
            QVERIFY(file.open(QIODevice::ReadOnly));
            stored += file.readAll();
        }
        QVERIFY(!stored.isEmpty());
        for (auto it = data.environment.begin(); it != data.environment.end(); ++it)
            QVERIFY2(!stored.contains(it.value().toString().toUtf8()),
                     qPrintable(it.key() + QStringLiteral("'s value is in the workspace file")));
    }
};

} // namespace converge::test

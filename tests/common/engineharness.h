// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

// The real engine (controller and generic reconciler) over one provider on a temporary
// workspace, for the integration and reliability tests; providers wrap it (AzureEngine,
// AwsEngine) with their factory.

#include "clock.h"
#include "controller.h"
#include "factory.h"
#include "factoryregistry.h"
#include "genericreconciler.h"
#include "kindregistry.h"
#include "schemavalidator.h"
#include "workspace.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace converge::test {

/// Validates (filling defaults); prints what is wrong.
inline bool validate(const KindRegistry &kinds, Resource &r)
{
    const QList<ValidationError> errors = SchemaValidator(kinds).validate(r);
    for (const ValidationError &e : errors)
        qWarning() << r.key().toString() << e.toString();
    return errors.isEmpty();
}

struct EngineHarness
{
    EngineHarness()
        : reconciler(kinds)
    {}
    virtual ~EngineHarness() { stop(); }
    Q_DISABLE_COPY_MOVE(EngineHarness)

    /// Registers the provider and opens the workspace `fileName` in a temporary folder.
    void install(std::unique_ptr<Factory> factory, const QString &fileName)
    {
        factory->registerKinds(kinds);
        factories.add(std::move(factory));
        path = dir.filePath(fileName);
        ws = Workspace::open(path, nullptr);
    }

    static Controller::Options fastOptions()
    {
        using namespace std::chrono_literals;
        Controller::Options o;
        o.workers = 4;
        o.pollInterval = 20ms;
        o.backoff.fastBase = 20ms;
        o.backoff.fastCap = 200ms;
        o.backoff.slowBase = 50ms;
        o.backoff.slowCap = 300ms;
        return o;
    }

    bool start(Controller::Options options = fastOptions())
    {
        controller = std::make_unique<Controller>(path, kinds, factories, reconciler, clock,
                                                  nullptr, options);
        return controller->start();
    }
    void stop()
    {
        if (controller)
            controller->stop();
        controller.reset();
    }

    bool apply(QList<Resource> resources)
    {
        for (Resource &r : resources) {
            if (!validate(kinds, r))
                return false;
        }
        StoreError error;
        if (!ws->apply(resources, nullptr, &error)) {
            qWarning() << "apply failed:" << error.message;
            return false;
        }
        if (controller)
            controller->wake();
        return true;
    }

    std::optional<Resource> get(const Resource &r) const { return ws->get(r.key()); }

    bool isReady(const Resource &r) const
    {
        const std::optional<Resource> stored = get(r);
        if (!stored)
            return false;
        const Condition ready = stored->status.ready();
        return ready.isReady() && ready.observedGeneration == stored->metadata.generation;
    }
    bool allReady() const
    {
        for (const Resource &r : ws->list()) {
            if (!isReady(r))
                return false;
        }
        return true;
    }
    Condition ready(const Resource &r) const
    {
        const std::optional<Resource> stored = get(r);
        return stored ? stored->status.ready() : Condition{};
    }
    QString describe() const
    {
        QStringList lines;
        for (const Resource &r : ws->list()) {
            const Condition c = r.status.ready();
            lines << QStringLiteral("%1: %2 %3 %4 (gen %5/%6)")
                         .arg(r.key().toString(), Condition::statusName(c.status), c.reason,
                              c.message)
                         .arg(c.observedGeneration)
                         .arg(r.metadata.generation);
        }
        return lines.join(QLatin1Char('\n'));
    }
    /// How many `reason` events the key has (aggregated ones counted in full).
    int events(const ResourceKey &key, const QString &reason) const
    {
        EventQuery q;
        q.involved = key;
        q.reason = reason;
        q.limit = 0;
        int count = 0;
        for (const Event &event : ws->events(q))
            count += event.count;
        return count;
    }
    bool hasEvent(const Resource &r, const QString &reason) const
    {
        return events(r.key(), reason) > 0;
    }

    /// Runs one resync of everything and waits until it is over.
    bool resyncAndWait()
    {
        const qint64 before = controller->stats().reconciles;
        const qint64 count = ws->count();
        controller->resyncNow();
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < 20000) {
            if (controller->stats().reconciles >= before + count && controller->isIdle())
                return true;
            QTest::qWait(20);
        }
        return false;
    }

    QTemporaryDir dir;
    QString path;
    KindRegistry kinds;
    FactoryRegistry factories;
    GenericReconciler reconciler;
    SystemClock clock;
    std::unique_ptr<Workspace> ws;
    std::unique_ptr<Controller> controller;
};

} // namespace converge::test

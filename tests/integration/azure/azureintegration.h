// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

// Shared set-up for the Azure integration tests: resources aimed at the fixture's Azurite,
// unique names (the tests share one Azurite), a request counter, Managers on the test thread
// for out-of-band changes, and the real engine (Controller + GenericReconciler +
// FactoryRegistry with the AzureFactory) on a temporary workspace.

#include "azurefactory.h"
#include "azurekinds.h"
#include "clock.h"
#include "controller.h"
#include "emulators.h"
#include "factoryregistry.h"
#include "genericreconciler.h"
#include "httpclient.h"
#include "kindregistry.h"
#include "schemavalidator.h"
#include "workspace.h"

#include <QMutex>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

#include <atomic>
#include <memory>

namespace converge::test {

/// Counts the requests the Azure Managers send (every attempt, after signing).
struct RequestCounter
{
    std::atomic<int> total{0};
    std::atomic<int> writes{0}; ///< PUT, POST, DELETE, MERGE, PATCH
    mutable QMutex mutex;
    QStringList log; ///< "METHOD path?query", for failure messages

    AzureStorageClient::RequestObserver observer()
    {
        return [this](const HttpRequest &request) {
            ++total;
            const QByteArray m = request.method.toUpper();
            if (m != "GET" && m != "HEAD")
                ++writes;
            QMutexLocker lock(&mutex);
            log << QString::fromLatin1(m) + QLatin1Char(' ') +
                       request.url.toString(QUrl::RemoveScheme | QUrl::RemoveAuthority);
        };
    }
    QString since(qsizetype from) const
    {
        QMutexLocker lock(&mutex);
        return log.mid(from).join(QStringLiteral("; "));
    }
    qsizetype size() const
    {
        QMutexLocker lock(&mutex);
        return log.size();
    }
};

inline QString uniqueStem()
{
    // Lower-case letters and digits: valid in every kind's names.
    static const QString stem = QStringLiteral("t%1").arg(
        QRandomGenerator::global()->generate() % 0xFFFFFF, 6, 16, QLatin1Char('0'));
    return stem;
}

inline Resource azureResource(const QString &kind, const QString &name, const QJsonObject &spec)
{
    Resource r;
    r.apiVersion = AzureKinds::apiVersion();
    r.kind = kind;
    r.metadata.name = name;
    r.spec = spec;
    return r;
}

inline QJsonObject ownedBy(const QString &owner, QJsonObject spec = {})
{
    spec.insert(QStringLiteral("owner"), QJsonObject{{QStringLiteral("name"), owner}});
    return spec;
}

inline Resource
emulatorAccount(const Emulators &e, const QString &name = QStringLiteral("devstore"),
                const QJsonObject &credential = {{QStringLiteral("emulator"), true}})
{
    return azureResource(AzureKinds::storageAccount(), name,
                         {{QStringLiteral("accountName"), devAccountName()},
                          {QStringLiteral("endpoints"),
                           QJsonObject{{QStringLiteral("blob"), e.blobEndpoint().toString()},
                                       {QStringLiteral("queue"), e.queueEndpoint().toString()},
                                       {QStringLiteral("table"), e.tableEndpoint().toString()}}},
                          {QStringLiteral("credential"), credential}});
}

/// Validates (filling defaults) like an apply would; fails the test on errors.
inline bool validate(const KindRegistry &kinds, Resource &r)
{
    const QList<ValidationError> errors = SchemaValidator(kinds).validate(r);
    for (const ValidationError &e : errors)
        qWarning() << r.key().toString() << e.toString();
    return errors.isEmpty();
}

/// Managers on the calling (test) thread, for observing and changing Azurite out of band.
struct DirectAccess
{
    explicit DirectAccess(const Emulators &e, AzureFactory::Options options = {},
                          std::optional<Resource> otherAccount = {})
        : factory(std::move(options))
        , emulators(e)
    {
        AzureKinds::registerAll(kinds);
        account = otherAccount ? *otherAccount : emulatorAccount(e);
        validate(kinds, account);
    }

    std::shared_ptr<Manager> manager(const QString &kind)
    {
        ManagerEnvironment env;
        env.http = &http;
        auto made = factory.manager(kind, account, env);
        if (!made)
            qWarning() << made.error().toString();
        return made ? made.value() : nullptr;
    }

    Target target(Resource resource, const QList<Resource> &owners = {})
    {
        validate(kinds, resource);
        Target t;
        t.resource = resource;
        t.owners = owners.isEmpty() ? QList<Resource>{account} : owners;
        return t;
    }

    /// Sends one signed request with the emulator key (what another tool would do).
    HttpResponse send(AzureAccount::Service service, const QByteArray &method, const QString &path,
                      const AzureStorageClient::Query &query = {},
                      const HttpRequest::Headers &headers = {}, const QByteArray &body = {})
    {
        const Outcome<AzureAccount> resolved = AzureAccount::fromSpec(account.spec, nullptr);
        AzureStorageClient client(resolved.value(), &http, {}, {});
        HttpRequest r = AzureStorageClient::request(method, client.url(service, path, query));
        for (const auto &[name, value] : headers)
            r.setHeader(name, value);
        r.body = body;
        return client.send(service, r);
    }

    AzureFactory factory;
    Emulators emulators;
    KindRegistry kinds;
    HttpClient http;
    Resource account;
};

/// The real engine on a temporary workspace with the Azure provider.
struct AzureEngine
{
    explicit AzureEngine(AzureFactory::Options factoryOptions = {})
        : reconciler(kinds)
    {
        factoryOptions.requestObserver = requests.observer();
        auto factory = std::make_unique<AzureFactory>(std::move(factoryOptions));
        factory->registerKinds(kinds);
        factories.add(std::move(factory));
        path = dir.filePath(QStringLiteral("azure.converge"));
        ws = Workspace::open(path, nullptr);
    }

    ~AzureEngine() { stop(); }

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
    bool hasEvent(const Resource &r, const QString &reason) const
    {
        EventQuery q;
        q.involved = r.key();
        q.limit = 0;
        for (const Event &e : ws->events(q)) {
            if (e.reason == reason)
                return true;
        }
        return false;
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
    RequestCounter requests;
    std::unique_ptr<Workspace> ws;
    std::unique_ptr<Controller> controller;
};

} // namespace converge::test

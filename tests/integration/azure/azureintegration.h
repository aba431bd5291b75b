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
#include "engineharness.h"
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

/// The real engine on a temporary workspace with the Azure provider, counting its requests.
struct AzureEngine final : EngineHarness
{
    explicit AzureEngine(AzureFactory::Options factoryOptions = {})
    {
        factoryOptions.requestObserver = requests.observer();
        install(std::make_unique<AzureFactory>(std::move(factoryOptions)),
                QStringLiteral("azure.converge"));
    }
    ~AzureEngine() override { stop(); } // before `requests`, which the workers report to

    /// What keeps the controller busy, for a failed wait: its counters, each resource's
    /// condition and the last requests sent.
    QString busyWith() const
    {
        const Controller::Stats st = controller->stats();
        const qsizetype sent = requests.size();
        return QStringLiteral(
                   "queued %1 (waiting %2), in flight %3, listing %4\n%5\nlast requests: %6")
            .arg(st.queued)
            .arg(st.waiting)
            .arg(st.inFlight)
            .arg(st.listCalls)
            .arg(describe(), requests.since(std::max<qsizetype>(0, sent - 10)));
    }

    RequestCounter requests;
};

} // namespace converge::test

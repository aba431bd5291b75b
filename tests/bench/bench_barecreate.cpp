// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// The emulator's own limit for benchmark 1 (scripts/bench.sh): the same creates as Converge's
// `apply --wait` and the SDK script (containers, queues and tables, named as
// tests/bench/peers/lib.js names them), sent by Converge's bare HttpClient and SharedKeySigner
// with no reconcile logic, no store and no events, WORKERS threads each with its own client.
//
//   bench_barecreate EMULATORS_ENV [COUNT=1000] [WORKERS=8] [OUT.json]
//
// EMULATORS_ENV is the file tests/fixtures/emulators.js writes. Prints a line and, when OUT is
// given, {seconds, created, requests, writes, failures} as JSON. Exit 1 when a create failed
// (a resource that exists already counts as created: the peers are idempotent too).

#include "azureaccount.h"
#include "httpclient.h"
#include "sharedkeysigner.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <QThread>
#include <QUrl>

#include <atomic>
#include <memory>
#include <vector>

using namespace converge;

namespace {

int fail(const QString &what)
{
    QTextStream(stderr) << "bench_barecreate: " << what << Qt::endl;
    return 1;
}

QHash<QString, QString> readEnvFile(const QString &path)
{
    QHash<QString, QString> env;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return env;
    for (const QByteArray &line : file.readAll().split('\n')) {
        const qsizetype at = line.indexOf('=');
        if (at > 0)
            env.insert(QString::fromUtf8(line.left(at)), QString::fromUtf8(line.mid(at + 1)));
    }
    return env;
}

enum class Service { Blob, Queue, Table };

struct Create
{
    Service service;
    QString name;
};

/// The same split and names as azureNames() in tests/bench/peers/lib.js.
QList<Create> createsFor(int count)
{
    QList<Create> creates;
    int perKind[3] = {0, 0, 0};
    for (int i = 0; i < count; ++i) {
        const auto service = static_cast<Service>(i % 3);
        const QString n = QStringLiteral("%1").arg(perKind[i % 3]++, 5, 10, QLatin1Char('0'));
        switch (service) {
        case Service::Blob:
            creates.append({service, QStringLiteral("bench-container-") + n});
            break;
        case Service::Queue:
            creates.append({service, QStringLiteral("bench-queue-") + n});
            break;
        case Service::Table:
            creates.append({service, QStringLiteral("benchtable") + n});
            break;
        }
    }
    return creates;
}

struct Shared
{
    QList<Create> creates;
    QString baseUrl[3];
    std::atomic<int> next{0};
    std::atomic<int> requests{0};
    std::atomic<int> created{0};
    std::atomic<int> failures{0};
    QString firstFailure; // written once, by the worker that flips `failures` from 0
};

void worker(Shared &shared)
{
    HttpClient http;
    const Signer blobQueue =
        SharedKeySigner(AzureAccount::emulatorAccountName(), AzureAccount::emulatorKey(),
                        SharedKeySigner::Scheme::BlobQueue)
            .signer();
    const Signer table =
        SharedKeySigner(AzureAccount::emulatorAccountName(), AzureAccount::emulatorKey(),
                        SharedKeySigner::Scheme::Table)
            .signer();
    for (int i = shared.next++; i < shared.creates.size(); i = shared.next++) {
        const Create &create = shared.creates.at(i);
        HttpRequest request;
        request.clientRequestId = HttpRequest::ClientRequestId::Azure;
        request.setHeader(QByteArrayLiteral("x-ms-version"), SharedKeySigner::apiVersion());
        const QString base = shared.baseUrl[static_cast<int>(create.service)];
        int exists = 409;
        switch (create.service) {
        case Service::Blob:
            request.method = QByteArrayLiteral("PUT");
            request.url =
                QUrl(base + QLatin1Char('/') + create.name + QStringLiteral("?restype=container"));
            break;
        case Service::Queue:
            request.method = QByteArrayLiteral("PUT");
            request.url = QUrl(base + QLatin1Char('/') + create.name);
            exists = 204; // an existing queue with the same metadata
            break;
        case Service::Table:
            request.method = QByteArrayLiteral("POST");
            request.url = QUrl(base + QStringLiteral("/Tables"));
            request.setHeader(QByteArrayLiteral("Accept"),
                              QByteArrayLiteral("application/json;odata=nometadata"));
            request.setHeader(QByteArrayLiteral("Content-Type"),
                              QByteArrayLiteral("application/json"));
            request.setHeader(QByteArrayLiteral("Prefer"), QByteArrayLiteral("return-no-content"));
            request.body = QJsonDocument(QJsonObject{{QStringLiteral("TableName"), create.name}})
                               .toJson(QJsonDocument::Compact);
            break;
        }
        const HttpResponse response =
            http.send(request, create.service == Service::Table ? table : blobQueue);
        shared.requests += std::max(response.attempts, 1);
        if (response.isSuccess() || response.status == exists) {
            ++shared.created;
        } else if (shared.failures++ == 0) {
            shared.firstFailure =
                QStringLiteral("%1 %2: HTTP %3 %4")
                    .arg(QString::fromLatin1(request.method), request.url.toString())
                    .arg(response.status)
                    .arg(response.toError().message);
        }
    }
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 2)
        return fail(
            QStringLiteral("usage: bench_barecreate EMULATORS_ENV [COUNT] [WORKERS] [OUT]"));
    const QHash<QString, QString> env = readEnvFile(args.at(1));
    const QString host = env.value(QStringLiteral("CONVERGE_EMULATOR_HOST"));
    if (host.isEmpty())
        return fail(QStringLiteral("no emulators in %1").arg(args.at(1)));
    const int count = args.size() > 2 ? args.at(2).toInt() : 1000;
    const int workers = args.size() > 3 ? args.at(3).toInt() : 8;
    if (count < 1 || workers < 1 || workers > 64)
        return fail(QStringLiteral("COUNT must be positive and WORKERS 1 to 64"));

    Shared shared;
    shared.creates = createsFor(count);
    const char *const portKeys[3] = {"CONVERGE_AZURITE_BLOB_PORT", "CONVERGE_AZURITE_QUEUE_PORT",
                                     "CONVERGE_AZURITE_TABLE_PORT"};
    for (int s = 0; s < 3; ++s)
        shared.baseUrl[s] = QStringLiteral("http://%1:%2/%3")
                                .arg(host, env.value(QString::fromLatin1(portKeys[s])),
                                     AzureAccount::emulatorAccountName());

    QElapsedTimer timer;
    timer.start();
    std::vector<std::unique_ptr<QThread>> threads;
    for (int w = 0; w < workers; ++w) {
        threads.emplace_back(QThread::create([&shared] { worker(shared); }));
        threads.back()->start();
    }
    for (const auto &thread : threads)
        thread->wait();
    const double seconds = timer.nsecsElapsed() / 1e9;

    QTextStream(stdout) << QStringLiteral("bench_barecreate: %1 creates in %2 s (%3/s), %4 "
                                          "requests, %5 workers, %6 failed\n")
                               .arg(shared.created.load())
                               .arg(seconds, 0, 'f', 3)
                               .arg(shared.created / seconds, 0, 'f', 0)
                               .arg(shared.requests.load())
                               .arg(workers)
                               .arg(shared.failures.load());
    if (args.size() > 4) {
        const QJsonObject json{{QStringLiteral("seconds"), seconds},
                               {QStringLiteral("created"), shared.created.load()},
                               {QStringLiteral("requests"), shared.requests.load()},
                               {QStringLiteral("writes"), shared.requests.load()},
                               {QStringLiteral("failures"), shared.failures.load()}};
        QFile file(args.at(4));
        if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(json).toJson()) < 0)
            return fail(QStringLiteral("cannot write %1").arg(file.fileName()));
    }
    if (shared.failures > 0)
        return fail(QStringLiteral("%1 creates failed; the first: %2")
                        .arg(shared.failures.load())
                        .arg(shared.firstFailure));
    return 0;
}

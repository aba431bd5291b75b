// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

// Shared by the reliability tests: sizes (default or long), engine options with short HTTP
// timeouts, storage accounts aimed at fault proxies, and checks over a proxy's request log.

#include "azureintegration.h"
#include "faultproxy.h"

#include <QJsonObject>
#include <QStringList>

namespace converge::test {

/// CONVERGE_LONG_RELIABILITY=ON (CMake) selects the full sizes.
constexpr bool longReliability = CONVERGE_LONG_RELIABILITY;

/// The size (or timeout) for this build. Use it for QTRY_*_WITH_TIMEOUT timeouts rather than a
/// `?:` expression: Qt 6.4's QTRY_IMPL does not parenthesize its timeout, so `long ? a : b`
/// there made its polling step the whole timeout (a 900 s qWait) in the long variants.
constexpr int pick(int normal, int full)
{
    return longReliability ? full : normal;
}

/// The client's per-request timeouts in these tests: a silenced request is cut after this long.
constexpr std::chrono::milliseconds requestTimeout{2000};

/// The engine with short timeouts and quick retries, so that faults cost seconds, not minutes.
inline Controller::Options reliabilityOptions()
{
    using namespace std::chrono_literals;
    Controller::Options o;
    o.workers = 8;
    o.pollInterval = 50ms;
    o.backoff.fastBase = 100ms;
    o.backoff.fastCap = 2000ms;
    o.backoff.slowBase = 200ms;
    o.backoff.slowCap = 3000ms;
    o.http.connectTimeout = requestTimeout;
    o.http.transferTimeout = requestTimeout;
    o.http.retry.baseDelay = 100ms;
    // Retry-After: 1 (1000 ms) is then left to the engine's requeue, x-ms-retry-after-ms (400) is
    // waited for in-process: both paths are exercised.
    o.http.retry.maxDelay = 800ms;
    return o;
}

inline QString endpointOf(const QString &base)
{
    return base + QLatin1Char('/') + devAccountName();
}

/// A StorageAccount whose blob and queue endpoints are the given base URLs (a proxy or the
/// emulator); tables go straight to the emulator.
inline Resource accountVia(const Emulators &e, const QString &name, const QString &blobBase,
                           const QString &queueBase)
{
    return azureResource(
        AzureKinds::storageAccount(), name,
        {{QStringLiteral("accountName"), devAccountName()},
         {QStringLiteral("endpoints"),
          QJsonObject{{QStringLiteral("blob"), endpointOf(blobBase)},
                      {QStringLiteral("queue"), endpointOf(queueBase)},
                      {QStringLiteral("table"), e.tableEndpoint().toString()}}},
         {QStringLiteral("credential"), QJsonObject{{QStringLiteral("emulator"), true}}}});
}

inline QString baseOf(const QUrl &endpoint)
{
    return QStringLiteral("http://%1:%2").arg(endpoint.host()).arg(endpoint.port());
}

/// `count` resources under `account`: alternately a BlobContainer and a Queue named
/// PREFIX-c-N / PREFIX-q-N.
inline QList<Resource> containersAndQueues(const QString &account, const QString &prefix, int count)
{
    QList<Resource> out;
    for (int i = 0; i < count; ++i) {
        const bool container = i % 2 == 0;
        const QString name = QStringLiteral("%1-%2-%3")
                                 .arg(prefix, container ? QStringLiteral("c") : QStringLiteral("q"))
                                 .arg(i / 2);
        out << azureResource(container ? AzureKinds::blobContainer() : AzureKinds::queue(), name,
                             ownedBy(account));
    }
    return out;
}

/// "3 ServerBusy, 2 Silence, …" for messages.
inline QString faultSummary(const QList<FaultProxy::Record> &records)
{
    QMap<QString, int> counts;
    for (const FaultProxy::Record &r : records)
        ++counts[FaultProxy::faultName(r.fault)];
    QStringList parts;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        parts << QStringLiteral("%1 %2").arg(it.value()).arg(it.key());
    return parts.join(QStringLiteral(", "));
}

/// Requests for one resource (a path below the account) sent before the wait hint of a reply
/// to an earlier request for it had passed; "" when there are none.
inline QString earlyRetries(const QList<FaultProxy::Record> &records)
{
    QStringList problems;
    for (qsizetype i = 0; i < records.size(); ++i) {
        const FaultProxy::Record &hinted = records.at(i);
        // The account's own path is shared by unrelated requests (list pages, probes).
        if (!hinted.retryAfter || hinted.path.count(QLatin1Char('/')) < 2)
            continue;
        for (qsizetype j = i + 1; j < records.size(); ++j) {
            const FaultProxy::Record &next = records.at(j);
            if (next.path != hinted.path)
                continue;
            if (next.received < hinted.finished + hinted.retryAfter->count()) {
                problems << QStringLiteral("%1 %2 again after %3 ms, asked to wait %4 ms")
                                .arg(QString::fromLatin1(next.method), next.path)
                                .arg(next.received - hinted.finished)
                                .arg(hinted.retryAfter->count());
            }
            break; // only the first request after the hinted reply matters
        }
    }
    return problems.join(QLatin1Char('\n'));
}

/// Requests that stayed open longer than `limit` (or are still open); "" when none.
inline QString overlongRequests(const QList<FaultProxy::Record> &records,
                                std::chrono::milliseconds limit)
{
    QStringList problems;
    for (const FaultProxy::Record &r : records) {
        if (r.finished < 0 || r.finished - r.received > limit.count()) {
            problems << QStringLiteral("%1 %2 (%3) open for %4 ms")
                            .arg(QString::fromLatin1(r.method), r.path,
                                 FaultProxy::faultName(r.fault))
                            .arg(r.finished < 0 ? -1 : r.finished - r.received);
        }
    }
    return problems.join(QLatin1Char('\n'));
}

} // namespace converge::test

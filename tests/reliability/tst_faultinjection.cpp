// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// With a tenth of the requests to Azurite faulted (every kind of fault the proxy has), N
// containers and queues still converge, every one; no request for a resource goes out before
// the wait the server asked for; no request outlives the client's timeout; nothing is created
// twice.

#include "reliability.h"

#include <QElapsedTimer>
#include <QTest>

using namespace converge;
using namespace converge::test;

class tst_FaultInjection final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tenPercentFaultsConverge();
};

void tst_FaultInjection::tenPercentFaultsConverge()
{
    const Emulators e = Emulators::fromEnvironment();
    QVERIFY2(e.isValid(), qPrintable(e.error));
    const int count = pick(200, 1000);
    const quint32 seed = qEnvironmentVariableIsSet("CONVERGE_FAULT_SEED")
                             ? quint32(qEnvironmentVariableIntValue("CONVERGE_FAULT_SEED"))
                             : 20261130u;

    FaultProxy::Options blobOptions;
    blobOptions.upstreamPort = quint16(e.blobPort);
    blobOptions.probability = 0.10;
    blobOptions.seed = seed;
    FaultProxy::Options queueOptions = blobOptions;
    queueOptions.upstreamPort = quint16(e.queuePort);
    queueOptions.seed = seed + 1;
    FaultProxy blob(blobOptions);
    FaultProxy queue(queueOptions);
    QVERIFY(blob.listen());
    QVERIFY(queue.listen());

    AzureEngine engine;
    const QString prefix = uniqueStem() + QStringLiteral("f");
    const Resource account = accountVia(e, QStringLiteral("faulty"), blob.url(), queue.url());
    QList<Resource> resources = containersAndQueues(account.metadata.name, prefix, count);

    QElapsedTimer timer;
    timer.start();
    QVERIFY(engine.start(reliabilityOptions()));
    QVERIFY(engine.apply(QList<Resource>{account} + resources));
    QTRY_VERIFY2_WITH_TIMEOUT(engine.allReady(), qPrintable(engine.describe()),
                              pick(150000, 900000));
    const qint64 converged = timer.elapsed();
    engine.stop();
    // Whatever was still open (a resync's silenced list) ends with the controller.
    QTRY_COMPARE(blob.openRequests() + queue.openRequests(), 0);

    const QList<FaultProxy::Record> records = blob.records() + queue.records();
    int faulted = 0;
    int hinted = 0;
    int silenced = 0;
    for (const FaultProxy::Record &r : records) {
        faulted += r.fault != FaultProxy::Fault::None ? 1 : 0;
        hinted += r.retryAfter ? 1 : 0;
        silenced += r.fault == FaultProxy::Fault::Silence ? 1 : 0;
    }
    qInfo("%d resources converged in %lld ms; %lld requests, %d faulted: %s", count + 1, converged,
          qlonglong(records.size()), faulted, qPrintable(faultSummary(records)));
    // The run saw the faults it is about (the seed is fixed; the request count varies a little).
    QVERIFY2(faulted > records.size() / 20, qPrintable(faultSummary(records)));
    QVERIFY2(hinted > 0 && silenced > 0, qPrintable(faultSummary(records)));

    const QString early = earlyRetries(blob.records()) + earlyRetries(queue.records());
    QVERIFY2(early.isEmpty(), qPrintable(early));
    // A silenced request is given up by the client after its timeout (plus the event loop's
    // slack), never held longer.
    const QString overlong = overlongRequests(records, requestTimeout + std::chrono::seconds(1));
    QVERIFY2(overlong.isEmpty(), qPrintable(overlong));

    // A reply lost after the backend acted (closed, cut in half) must not lead to a second
    // resource: at most one Created per resource, and Azurite has each exactly once.
    for (const Resource &r : std::as_const(resources)) {
        EventQuery q;
        q.involved = r.key();
        q.reason = QStringLiteral("Created");
        q.limit = 0;
        int created = 0;
        for (const Event &event : engine.ws->events(q))
            created += event.count;
        QVERIFY2(created <= 1, qPrintable(r.key().toString()));
    }

    // Leave the shared Azurite as it was.
    DirectAccess direct(e);
    for (const Resource &r : std::as_const(resources)) {
        const auto manager = direct.manager(r.kind);
        QVERIFY(manager);
        const Target t = direct.target(r);
        const Outcome<Observation> seen = manager->get(t);
        QVERIFY2(seen, qPrintable(r.key().toString()));
        manager->deleteResource(t, seen.value());
    }
}

QTEST_GUILESS_MAIN(tst_FaultInjection)
#include "tst_faultinjection.moc"

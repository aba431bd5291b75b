// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// The per-account budget: an account whose endpoint has gone silent (every request hangs until
// the client's timeout) must not slow down a healthy account beside it. The healthy account's
// resources converge about as fast as in a run without the sick one.

#include "reliability.h"

#include <QElapsedTimer>
#include <QTest>

using namespace converge;
using namespace converge::test;

class tst_AccountBudget final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void sickAccountDoesNotSlowHealthyOne();

private:
    /// Applies `healthy` (with their account) and returns how long until all were Ready, or -1.
    qint64 convergeHealthy(AzureEngine &engine, const QList<Resource> &healthy);

    Emulators m_emulators;
    int m_count = 0;
};

void tst_AccountBudget::initTestCase()
{
    m_emulators = Emulators::fromEnvironment();
    QVERIFY2(m_emulators.isValid(), qPrintable(m_emulators.error));
    m_count = pick(100, 400);
}

qint64 tst_AccountBudget::convergeHealthy(AzureEngine &engine, const QList<Resource> &healthy)
{
    QElapsedTimer timer;
    timer.start();
    if (!engine.apply(healthy))
        return -1;
    const auto allReady = [&] {
        for (const Resource &r : healthy) {
            if (!engine.isReady(r))
                return false;
        }
        return true;
    };
    while (!allReady()) {
        if (timer.elapsed() > 120000)
            return -1;
        QTest::qWait(10);
    }
    return timer.elapsed();
}

void tst_AccountBudget::sickAccountDoesNotSlowHealthyOne()
{
    const Emulators &e = m_emulators;
    const QString stem = uniqueStem();

    // Baseline: the healthy account alone.
    qint64 alone = 0;
    {
        AzureEngine engine;
        const Resource account = emulatorAccount(e, QStringLiteral("healthy"));
        QVERIFY(engine.start(reliabilityOptions()));
        QVERIFY(engine.apply({account}));
        QTRY_VERIFY_WITH_TIMEOUT(engine.isReady(account), 10000);
        alone = convergeHealthy(engine, containersAndQueues(account.metadata.name,
                                                            stem + QStringLiteral("a"), m_count));
        QVERIFY2(alone >= 0, qPrintable(engine.describe()));
    }

    // Now beside an account whose endpoints stop answering once it is Ready.
    FaultProxy::Options options;
    options.upstreamPort = quint16(e.blobPort);
    FaultProxy blob(options);
    options.upstreamPort = quint16(e.queuePort);
    FaultProxy queue(options);
    QVERIFY(blob.listen());
    QVERIFY(queue.listen());

    AzureEngine engine;
    const Resource sick = accountVia(e, QStringLiteral("sick"), blob.url(), queue.url());
    const Resource healthy = emulatorAccount(e, QStringLiteral("healthy"));
    QVERIFY(engine.start(reliabilityOptions()));
    QVERIFY(engine.apply({sick, healthy}));
    QTRY_VERIFY_WITH_TIMEOUT(engine.isReady(sick) && engine.isReady(healthy), 10000);
    for (FaultProxy *proxy : {&blob, &queue}) {
        proxy->setFaults({FaultProxy::Fault::Silence});
        proxy->setProbability(1.0);
    }
    const QList<Resource> sickChildren =
        containersAndQueues(sick.metadata.name, stem + QStringLiteral("s"), m_count);
    // The sick account's work is queued first: it is ahead of the healthy work.
    QVERIFY(engine.apply(sickChildren));
    QTRY_VERIFY_WITH_TIMEOUT(blob.openRequests() + queue.openRequests() > 0, 10000);
    const qint64 beside = convergeHealthy(
        engine, containersAndQueues(healthy.metadata.name, stem + QStringLiteral("h"), m_count));
    QVERIFY2(beside >= 0, qPrintable(engine.describe()));
    const int hanging = blob.openRequests() + queue.openRequests();
    qInfo("%d healthy resources: %lld ms alone, %lld ms beside a silent account (%d of its "
          "requests hanging at the end)",
          m_count, alone, beside, hanging);
    // Generous: the machine is shared, and the sick account's workers still cost something.
    QVERIFY2(
        beside <= 3 * alone + 3000,
        qPrintable(
            QStringLiteral("%1 ms beside the sick account, %2 ms alone").arg(beside).arg(alone)));
    // The sick account's resources were really being worked on, not waiting for their owner.
    QVERIFY(blob.records().size() + queue.records().size() > 2);
    engine.stop();

    // Leave the shared Azurite as it was.
    DirectAccess direct(e);
    for (const QString &prefix : {QStringLiteral("a"), QStringLiteral("h")}) {
        for (const Resource &r :
             containersAndQueues(healthy.metadata.name, stem + prefix, m_count)) {
            const auto manager = direct.manager(r.kind);
            const Target t = direct.target(r);
            if (const Outcome<Observation> seen = manager->get(t))
                manager->deleteResource(t, seen.value());
        }
    }
}

QTEST_GUILESS_MAIN(tst_AccountBudget)
#include "tst_accountbudget.moc"

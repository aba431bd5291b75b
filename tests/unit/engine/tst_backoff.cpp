// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "backoff.h"

#include <QTest>

#include <climits>

using namespace converge;
using namespace std::chrono_literals;
using std::chrono::milliseconds;

namespace {

// -1 for "no retry", so that QCOMPARE prints both sides.
qint64 msecs(std::optional<milliseconds> delay)
{
    return delay ? qint64(delay->count()) : -1;
}

} // namespace

class tst_Backoff final : public QObject
{
    Q_OBJECT

private slots:
    void delay_data();
    void delay();
    void defaultRandomStaysWithinJitter();
    void customSettings();
};

void tst_Backoff::delay_data()
{
    // classes: 0 Fast, 1 Slow, 2 Fatal; retryAfter and expected in ms, -1 for none
    QTest::addColumn<int>("retryClass");
    QTest::addColumn<int>("failures");
    QTest::addColumn<double>("random");
    QTest::addColumn<qint64>("retryAfter");
    QTest::addColumn<qint64>("expected");

    // random 0.5 gives the factor 1.0: the bare doubling and caps
    QTest::newRow("fast 1") << 0 << 1 << 0.5 << -1LL << 1000LL;
    QTest::newRow("fast 2") << 0 << 2 << 0.5 << -1LL << 2000LL;
    QTest::newRow("fast 3") << 0 << 3 << 0.5 << -1LL << 4000LL;
    QTest::newRow("fast 5") << 0 << 5 << 0.5 << -1LL << 16000LL;
    QTest::newRow("fast 6 capped") << 0 << 6 << 0.5 << -1LL << 30000LL;
    QTest::newRow("fast 7 capped") << 0 << 7 << 0.5 << -1LL << 30000LL;
    QTest::newRow("slow 1") << 1 << 1 << 0.5 << -1LL << 5000LL;
    QTest::newRow("slow 2") << 1 << 2 << 0.5 << -1LL << 10000LL;
    QTest::newRow("slow 6") << 1 << 6 << 0.5 << -1LL << 160000LL;
    QTest::newRow("slow 7 capped") << 1 << 7 << 0.5 << -1LL << 180000LL;
    QTest::newRow("slow 20 capped") << 1 << 20 << 0.5 << -1LL << 180000LL;
    QTest::newRow("fatal") << 2 << 1 << 0.5 << -1LL << -1LL;
    QTest::newRow("fatal ignores retry-after") << 2 << 3 << 0.5 << 5000LL << -1LL;

    QTest::newRow("failures 0 counts as 1") << 0 << 0 << 0.5 << -1LL << 1000LL;
    QTest::newRow("negative failures count as 1") << 1 << -5 << 0.5 << -1LL << 5000LL;
    QTest::newRow("fast 1000 no overflow") << 0 << 1000 << 0.5 << -1LL << 30000LL;
    QTest::newRow("slow 1000 no overflow") << 1 << 1000 << 0.5 << -1LL << 180000LL;
    QTest::newRow("fast 63 no overflow") << 0 << 63 << 0.5 << -1LL << 30000LL;
    QTest::newRow("fast INT_MAX no overflow") << 0 << INT_MAX << 0.5 << -1LL << 30000LL;

    // jitter: factor = 0.8 + random * 0.4, applied after the cap
    QTest::newRow("fast 1 lowest jitter") << 0 << 1 << 0.0 << -1LL << 800LL;
    QTest::newRow("fast 3 jitter 1.1") << 0 << 3 << 0.75 << -1LL << 4400LL;
    QTest::newRow("fast cap lowest jitter") << 0 << 10 << 0.0 << -1LL << 24000LL;
    QTest::newRow("fast cap jitter above cap") << 0 << 10 << 0.75 << -1LL << 33000LL;
    QTest::newRow("slow cap jitter 0.9") << 1 << 8 << 0.25 << -1LL << 162000LL;

    // retry-after wins only when longer than the jittered delay, and then exactly
    QTest::newRow("retry-after longer") << 0 << 1 << 0.5 << 5000LL << 5000LL;
    QTest::newRow("retry-after shorter") << 0 << 2 << 0.5 << 500LL << 2000LL;
    QTest::newRow("retry-after between base and jittered") << 0 << 1 << 0.75 << 1050LL << 1100LL;
    QTest::newRow("retry-after above jittered, no jitter") << 0 << 1 << 0.0 << 900LL << 900LL;
    QTest::newRow("retry-after beyond cap") << 1 << 50 << 0.99 << 600000LL << 600000LL;
    QTest::newRow("retry-after zero") << 0 << 1 << 0.5 << 0LL << 1000LL;
}

void tst_Backoff::delay()
{
    QFETCH(int, retryClass);
    QFETCH(int, failures);
    QFETCH(double, random);
    QFETCH(qint64, retryAfter);
    QFETCH(qint64, expected);

    const Backoff backoff{{}, [random] { return random; }};
    const auto retryAfterMs =
        retryAfter < 0 ? std::nullopt : std::optional<milliseconds>(milliseconds(retryAfter));
    const auto delay =
        backoff.delay(static_cast<Backoff::RetryClass>(retryClass), failures, retryAfterMs);
    QCOMPARE(msecs(delay), expected);
}

void tst_Backoff::defaultRandomStaysWithinJitter()
{
    const Backoff backoff;
    bool sawLow = false;
    bool sawHigh = false;
    for (int i = 0; i < 1000; ++i) {
        const milliseconds delay = backoff.delay(Backoff::RetryClass::Slow, 2).value();
        QVERIFY2(delay >= 8000ms && delay <= 12000ms, QByteArray::number(qint64(delay.count())));
        sawLow = sawLow || delay < 9000ms;
        sawHigh = sawHigh || delay > 11000ms;
    }
    // Not a constant factor: both ends of the range show up in 1000 draws.
    QVERIFY(sawLow);
    QVERIFY(sawHigh);
}

void tst_Backoff::customSettings()
{
    Backoff::Settings settings;
    settings.fastBase = 100ms;
    settings.fastCap = 250ms;
    settings.jitterMin = 1.0;
    settings.jitterMax = 1.0;
    const Backoff backoff{settings, [] { return 0.3; }};
    QCOMPARE(qint64(backoff.settings().fastCap.count()), 250);
    QCOMPARE(msecs(backoff.delay(Backoff::RetryClass::Fast, 1)), 100);
    QCOMPARE(msecs(backoff.delay(Backoff::RetryClass::Fast, 2)), 200);
    QCOMPARE(msecs(backoff.delay(Backoff::RetryClass::Fast, 3)), 250);
    QCOMPARE(msecs(backoff.delay(Backoff::RetryClass::Slow, 1)), 5000);
}

QTEST_GUILESS_MAIN(tst_Backoff)
#include "tst_backoff.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "retrypolicy.h"

#include <QTest>
#include <QTimeZone>

using namespace converge;
using namespace std::chrono_literals;

namespace {

/// "name: value" lines to headers.
RetryPolicy::Headers headersFrom(const QByteArray &lines)
{
    RetryPolicy::Headers headers;
    for (const QByteArray &line : lines.split('\n')) {
        const qsizetype colon = line.indexOf(':');
        if (colon > 0)
            headers.append({line.left(colon).trimmed(), line.mid(colon + 1).trimmed()});
    }
    return headers;
}

const QDateTime now(QDate(2026, 11, 30), QTime(3, 48, 11), QTimeZone::utc());

} // namespace

class tst_RetryPolicy final : public QObject
{
    Q_OBJECT

private slots:
    void delayFor_data()
    {
        QTest::addColumn<int>("attempt");
        QTest::addColumn<QByteArray>("headers");
        QTest::addColumn<double>("random");
        QTest::addColumn<int>("baseMs");
        QTest::addColumn<int>("maxMs");
        QTest::addColumn<bool>("retry");
        QTest::addColumn<qint64>("delayMs");
        QTest::addColumn<qint64>("retryAfterMs"); // -1: none

        // Computed: base × 2^(attempt-1) × (0.8 + 0.5 × random), capped.
        QTest::newRow("1st, lowest jitter")
            << 1 << QByteArray() << 0.0 << 800 << 60000 << true << qint64(640) << qint64(-1);
        QTest::newRow("1st, highest jitter")
            << 1 << QByteArray() << 1.0 << 800 << 60000 << true << qint64(1040) << qint64(-1);
        QTest::newRow("1st, middle")
            << 1 << QByteArray() << 0.5 << 800 << 60000 << true << qint64(840) << qint64(-1);
        QTest::newRow("2nd doubles")
            << 2 << QByteArray() << 0.5 << 800 << 60000 << true << qint64(1680) << qint64(-1);
        QTest::newRow("3rd doubles again")
            << 3 << QByteArray() << 0.5 << 800 << 60000 << true << qint64(3360) << qint64(-1);
        QTest::newRow("capped") << 3 << QByteArray() << 0.5 << 800 << 2000 << true << qint64(2000)
                                << qint64(-1);
        QTest::newRow("jitter never exceeds the cap")
            << 1 << QByteArray() << 1.0 << 1000 << 1000 << true << qint64(1000) << qint64(-1);
        QTest::newRow("4th attempt: out of retries")
            << 4 << QByteArray() << 0.5 << 800 << 60000 << false << qint64(0) << qint64(-1);
        QTest::newRow("out of retries keeps the hint")
            << 4 << QByteArray("retry-after-ms: 5000") << 0.5 << 800 << 60000 << false << qint64(0)
            << qint64(5000);

        // Server hints, in order of precedence.
        QTest::newRow("retry-after-ms") << 1 << QByteArray("retry-after-ms: 1500") << 0.5 << 800
                                        << 60000 << true << qint64(1500) << qint64(-1);
        QTest::newRow("x-ms-retry-after-ms") << 1 << QByteArray("x-ms-retry-after-ms: 2500") << 0.5
                                             << 800 << 60000 << true << qint64(2500) << qint64(-1);
        QTest::newRow("retry-after-ms before x-ms-retry-after-ms")
            << 1 << QByteArray("x-ms-retry-after-ms: 2500\nretry-after-ms: 1500") << 0.5 << 800
            << 60000 << true << qint64(1500) << qint64(-1);
        QTest::newRow("x-ms-retry-after-ms before Retry-After")
            << 1 << QByteArray("Retry-After: 9\nx-ms-retry-after-ms: 700") << 0.5 << 800 << 60000
            << true << qint64(700) << qint64(-1);
        QTest::newRow("Retry-After seconds") << 2 << QByteArray("Retry-After: 7") << 0.5 << 800
                                             << 60000 << true << qint64(7000) << qint64(-1);
        QTest::newRow("Retry-After HTTP date")
            << 1 << QByteArray("Retry-After: Mon, 30 Nov 2026 03:48:41 GMT") << 0.5 << 800 << 60000
            << true << qint64(30000) << qint64(-1);
        QTest::newRow("Retry-After date in the past")
            << 1 << QByteArray("Retry-After: Sun, 29 Nov 2026 03:48:41 GMT") << 0.5 << 800 << 60000
            << true << qint64(0) << qint64(-1);
        QTest::newRow("names are case-insensitive")
            << 1 << QByteArray("RETRY-AFTER-MS: 100") << 0.5 << 800 << 60000 << true << qint64(100)
            << qint64(-1);
        QTest::newRow("garbage hint is ignored")
            << 1 << QByteArray("Retry-After: soon\nretry-after-ms: -5") << 0.5 << 800 << 60000
            << true << qint64(840) << qint64(-1);
        QTest::newRow("hint at the cap is waited for")
            << 1 << QByteArray("retry-after-ms: 60000") << 0.5 << 800 << 60000 << true
            << qint64(60000) << qint64(-1);
        QTest::newRow("hint beyond the cap goes to the engine")
            << 1 << QByteArray("Retry-After: 120") << 0.5 << 800 << 60000 << false << qint64(0)
            << qint64(120000);
        QTest::newRow("date beyond the cap goes to the engine")
            << 1 << QByteArray("Retry-After: Mon, 30 Nov 2026 03:58:11 GMT") << 0.5 << 800 << 60000
            << false << qint64(0) << qint64(600000);
    }

    void delayFor()
    {
        QFETCH(int, attempt);
        QFETCH(QByteArray, headers);
        QFETCH(double, random);
        QFETCH(int, baseMs);
        QFETCH(int, maxMs);
        QFETCH(bool, retry);
        QFETCH(qint64, delayMs);
        QFETCH(qint64, retryAfterMs);

        RetryPolicy::Options options;
        options.baseDelay = std::chrono::milliseconds(baseMs);
        options.maxDelay = std::chrono::milliseconds(maxMs);
        const RetryPolicy policy(options, [random] { return random; });
        const RetryPolicy::Decision decision = policy.delayFor(attempt, headersFrom(headers), now);
        QCOMPARE(decision.retry, retry);
        if (retry)
            QCOMPARE(decision.delay.count(), delayMs);
        QCOMPARE(decision.retryAfter.has_value(), retryAfterMs >= 0);
        if (retryAfterMs >= 0)
            QCOMPARE(decision.retryAfter->count(), retryAfterMs);
    }

    void defaultsFollowTheAzureGuideline()
    {
        const RetryPolicy policy;
        QCOMPARE(policy.options().maxRetries, 3);
        QCOMPARE(policy.options().baseDelay, 800ms);
        QCOMPARE(policy.options().maxDelay, 60s);
        // The default random source stays within the jitter band.
        for (int i = 0; i < 200; ++i) {
            const auto decision = policy.delayFor(1, {}, now);
            QVERIFY(decision.retry);
            QVERIFY(decision.delay >= 640ms && decision.delay <= 1040ms);
        }
    }

    void largeAttemptsDoNotOverflow()
    {
        RetryPolicy::Options options;
        options.maxRetries = 1000;
        const RetryPolicy policy(options, [] { return 0.0; });
        QCOMPARE(policy.delayFor(999, {}, now).delay, 60s);
    }

    void retriableStatuses_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<bool>("retriable");
        for (int status : {408, 429, 500, 502, 503, 504})
            QTest::addRow("%d", status) << status << true;
        for (int status : {200, 201, 301, 400, 401, 403, 404, 409, 412, 501, 505})
            QTest::addRow("%d", status) << status << false;
    }

    void retriableStatuses()
    {
        QFETCH(int, status);
        QFETCH(bool, retriable);
        QCOMPARE(RetryPolicy::isRetriableStatus(status), retriable);
    }

    void retriableTransportErrors()
    {
        QVERIFY(RetryPolicy::isRetriableTransportError(QNetworkReply::ConnectionRefusedError));
        QVERIFY(RetryPolicy::isRetriableTransportError(QNetworkReply::RemoteHostClosedError));
        QVERIFY(RetryPolicy::isRetriableTransportError(QNetworkReply::TimeoutError));
        QVERIFY(!RetryPolicy::isRetriableTransportError(QNetworkReply::HostNotFoundError));
        QVERIFY(!RetryPolicy::isRetriableTransportError(QNetworkReply::SslHandshakeFailedError));
        QVERIFY(!RetryPolicy::isRetriableTransportError(QNetworkReply::OperationCanceledError));
    }
};

QTEST_GUILESS_MAIN(tst_RetryPolicy)
#include "tst_retrypolicy.moc"

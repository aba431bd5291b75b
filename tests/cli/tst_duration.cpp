// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "duration.h"

#include <QTest>

using namespace converge;
using namespace std::chrono_literals;

class tst_Duration final : public QObject
{
    Q_OBJECT

private slots:
    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<qint64>("ms");
        QTest::newRow("seconds") << QStringLiteral("30s") << true << qint64(30'000);
        QTest::newRow("minutes") << QStringLiteral("2m") << true << qint64(120'000);
        QTest::newRow("hours") << QStringLiteral("1h") << true << qint64(3'600'000);
        QTest::newRow("days") << QStringLiteral("2d") << true << qint64(172'800'000);
        QTest::newRow("milliseconds") << QStringLiteral("250ms") << true << qint64(250);
        QTest::newRow("combined") << QStringLiteral("1h30m") << true << qint64(5'400'000);
        QTest::newRow("combined, all units")
            << QStringLiteral("1d2h3m4s5ms") << true << qint64(93'784'005);
        QTest::newRow("fraction") << QStringLiteral("1.5h") << true << qint64(5'400'000);
        QTest::newRow("zero") << QStringLiteral("0") << true << qint64(0);
        QTest::newRow("zero seconds") << QStringLiteral("0s") << true << qint64(0);
        QTest::newRow("bare number") << QStringLiteral("30") << false << qint64(0);
        QTest::newRow("empty") << QString() << false << qint64(0);
        QTest::newRow("negative") << QStringLiteral("-5s") << false << qint64(0);
        QTest::newRow("unknown unit") << QStringLiteral("5w") << false << qint64(0);
        QTest::newRow("upper case") << QStringLiteral("5M") << false << qint64(0);
        QTest::newRow("space") << QStringLiteral("5 s") << false << qint64(0);
        QTest::newRow("trailing garbage") << QStringLiteral("5sx") << false << qint64(0);
        QTest::newRow("unit only") << QStringLiteral("s") << false << qint64(0);
        QTest::newRow("too long") << QStringLiteral("99999999d") << false << qint64(0);
    }

    void parse()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(qint64, ms);
        const std::optional<std::chrono::milliseconds> d = Duration::parse(text);
        QCOMPARE(d.has_value(), valid);
        if (valid)
            QCOMPARE(d->count(), ms);
    }

    void format_data()
    {
        QTest::addColumn<qint64>("ms");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << qint64(0) << QStringLiteral("0s");
        QTest::newRow("five minutes") << qint64(300'000) << QStringLiteral("5m");
        QTest::newRow("mixed") << qint64(5'400'000) << QStringLiteral("1h30m");
        QTest::newRow("milliseconds") << qint64(1'500) << QStringLiteral("1s500ms");
        QTest::newRow("a day and a second") << qint64(86'401'000) << QStringLiteral("1d1s");
    }

    void format()
    {
        QFETCH(qint64, ms);
        QFETCH(QString, text);
        QCOMPARE(Duration::format(std::chrono::milliseconds(ms)), text);
        // What format() writes, parse() reads back.
        QCOMPARE(Duration::parse(text)->count(), ms);
    }

    void human_data()
    {
        QTest::addColumn<qint64>("seconds");
        QTest::addColumn<QString>("text");
        QTest::newRow("negative (skew)") << qint64(-5) << QStringLiteral("0s");
        QTest::newRow("seconds") << qint64(45) << QStringLiteral("45s");
        QTest::newRow("under two minutes") << qint64(119) << QStringLiteral("119s");
        QTest::newRow("minutes and seconds") << qint64(330) << QStringLiteral("5m30s");
        QTest::newRow("whole minutes") << qint64(300) << QStringLiteral("5m");
        QTest::newRow("minutes") << qint64(95 * 60) << QStringLiteral("95m");
        QTest::newRow("hours and minutes") << qint64(7 * 3600 + 12 * 60) << QStringLiteral("7h12m");
        QTest::newRow("hours") << qint64(30 * 3600) << QStringLiteral("30h");
        QTest::newRow("days and hours") << qint64(5 * 86400 + 4 * 3600) << QStringLiteral("5d4h");
        QTest::newRow("days") << qint64(400 * 86400) << QStringLiteral("400d");
        QTest::newRow("years and days") << qint64(760 * 86400) << QStringLiteral("2y30d");
    }

    void human()
    {
        QFETCH(qint64, seconds);
        QFETCH(QString, text);
        QCOMPARE(Duration::human(std::chrono::seconds(seconds)), text);
    }
};

QTEST_GUILESS_MAIN(tst_Duration)
#include "tst_duration.moc"

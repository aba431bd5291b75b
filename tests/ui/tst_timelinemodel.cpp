// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The Timeline tab's model: one row per phase run in the order given, every column, failures
// marked, durations readable.
#include "timelinemodel.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace converge;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

PhaseRun run(const char *outcome, const char *code = "")
{
    PhaseRun r;
    r.key = {s("Widget"), s("w1")};
    r.reconcileId = s("rec-1");
    r.phase = s("createOrUpdate");
    r.startedAt = QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5, 600), Qt::UTC);
    r.durationMs = 75;
    r.outcome = s(outcome);
    r.reason = s("Reason");
    r.message = s("a message");
    r.backendWrites = 2;
    r.backendCode = s(code);
    r.requestId = s("req-9");
    return r;
}

} // namespace

class tst_TimelineModel final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void failures_data()
    {
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<QString>("code");
        QTest::addColumn<bool>("failed");
        QTest::newRow("Done") << s("Done") << QString() << false;
        QTest::newRow("RequeueAfter") << s("RequeueAfter") << QString() << false;
        QTest::newRow("Removed") << s("Removed") << QString() << false;
        QTest::newRow("Cancelled") << s("Cancelled") << QString() << false;
        QTest::newRow("Retry") << s("Retry") << QString() << true;
        QTest::newRow("Fatal") << s("Fatal") << QString() << true;
        QTest::newRow("Done with a backend code") << s("Done") << s("Busy") << true;
    }

    void failures()
    {
        QFETCH(QString, outcome);
        QFETCH(QString, code);
        QFETCH(bool, failed);
        PhaseRun r = run("");
        r.outcome = outcome;
        r.backendCode = code;
        QCOMPARE(TimelineModel::isFailure(r), failed);
        TimelineModel model;
        model.setRuns({r});
        QCOMPARE(model.index(0, 0).data(TimelineModel::FailedRole).toBool(), failed);
        QCOMPARE(!model.index(0, 0).data(Qt::DecorationRole).isNull(), failed);
    }

    void durations_data()
    {
        QTest::addColumn<qint64>("ms");
        QTest::addColumn<QString>("text");
        QTest::newRow("0") << qint64(0) << s("0 ms");
        QTest::newRow("999") << qint64(999) << s("999 ms");
        QTest::newRow("1 s") << qint64(1000) << s("1.0 s");
        QTest::newRow("4.26 s") << qint64(4260) << s("4.3 s");
        QTest::newRow("just under a minute") << qint64(59'000) << s("59.0 s");
        QTest::newRow("3 min 5 s") << qint64(185'400) << s("3 min 5 s");
        QTest::newRow("negative") << qint64(-5) << s("0 ms");
    }

    void durations()
    {
        QFETCH(qint64, ms);
        QFETCH(QString, text);
        QCOMPARE(TimelineModel::durationText(ms), text);
    }

    void rows()
    {
        TimelineModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRuns({run("Retry", "ServerBusy"), run("Done")});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(TimelineModel::ColumnCount));
        auto text = [&model](int row, int column) {
            return model.index(row, column).data().toString();
        };
        QCOMPARE(text(0, TimelineModel::StartedColumn),
                 run("").startedAt.toLocalTime().toString(s("yyyy-MM-dd HH:mm:ss.zzz")));
        QCOMPARE(text(0, TimelineModel::PhaseColumn), s("createOrUpdate"));
        QCOMPARE(text(0, TimelineModel::DurationColumn), s("75 ms"));
        QCOMPARE(text(0, TimelineModel::OutcomeColumn), s("Retry"));
        QCOMPARE(text(0, TimelineModel::ReasonColumn), s("Reason"));
        QCOMPARE(text(0, TimelineModel::BackendCodeColumn), s("ServerBusy"));
        QCOMPARE(text(0, TimelineModel::RequestIdColumn), s("req-9"));
        QCOMPARE(text(0, TimelineModel::WritesColumn), s("2"));
        QCOMPARE(text(0, TimelineModel::MessageColumn), s("a message"));
        QCOMPARE(text(1, TimelineModel::OutcomeColumn), s("Done"));
        QVERIFY(model.index(0, 0).data(TimelineModel::FailedRole).toBool());
        QVERIFY(!model.index(1, 0).data(TimelineModel::FailedRole).toBool());
        QVERIFY(model.index(0, 0).data(Qt::ToolTipRole).toString().contains(s("rec-1")));
        QCOMPARE(model.headerData(TimelineModel::RequestIdColumn, Qt::Horizontal).toString(),
                 s("Request ID"));
        model.setRuns({run("Done")});
        QCOMPARE(model.rowCount(), 1);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void repeatsShowTheirCountAndSpan()
    {
        TimelineModel model;
        PhaseRun quiet = run("Done");
        quiet.backendWrites = 0;
        quiet.repeats = 12;
        quiet.firstStartedAt = quiet.startedAt.addSecs(-3600);
        model.setRuns({quiet, run("Done")});
        QCOMPARE(model.index(0, TimelineModel::OutcomeColumn).data().toString(), s("Done ×12"));
        QCOMPARE(model.index(1, TimelineModel::OutcomeColumn).data().toString(), s("Done"));
        const QString tip =
            model.index(0, TimelineModel::StartedColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(s("12 runs that found nothing to do")), qPrintable(tip));
        QVERIFY2(
            tip.contains(quiet.firstStartedAt.toLocalTime().toString(s("yyyy-MM-dd HH:mm:ss"))),
            qPrintable(tip));
        QVERIFY2(tip.contains(s("Last reconcile rec-1")), qPrintable(tip));
        QVERIFY(!model.index(1, TimelineModel::StartedColumn)
                     .data(Qt::ToolTipRole)
                     .toString()
                     .contains(s("nothing to do")));
    }

    void todaysRunsShowTheirTimeAlone()
    {
        // The column stays narrow for the runs a person looks at most; the tip has the date.
        TimelineModel model;
        PhaseRun now = run("Done");
        now.startedAt = QDateTime::currentDateTimeUtc();
        model.setRuns({now, run("Done")});
        const QString local = now.startedAt.toLocalTime().toString(s("HH:mm:ss.zzz"));
        QCOMPARE(model.index(0, TimelineModel::StartedColumn).data().toString(), local);
        QVERIFY(
            model.index(0, TimelineModel::StartedColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .startsWith(now.startedAt.toLocalTime().toString(s("yyyy-MM-dd HH:mm:ss.zzz"))));
        QCOMPARE(model.index(1, TimelineModel::StartedColumn).data().toString(),
                 run("").startedAt.toLocalTime().toString(s("yyyy-MM-dd HH:mm:ss.zzz")));
    }
};

QTEST_MAIN(tst_TimelineModel)
#include "tst_timelinemodel.moc"

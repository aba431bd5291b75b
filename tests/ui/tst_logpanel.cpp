// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The log panel follows as a log viewer does (journalctl -f, less +F, KSystemLog): with Follow on,
// new rows and repeats scroll the view to the newest row; scrolling up stops following and new
// rows leave the view where it is; scrolling to the bottom or the Follow button follows again;
// the button's last choice is kept in the window's settings.
#include "logpanel.h"

#include "eventlogfilterproxy.h"
#include "eventlogmodel.h"
#include "eventlogview.h"
#include "workspace.h"
#include "workspacerunner.h"

#include <QAbstractItemModelTester>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace converge;

namespace {

Event logPanelEvent(int i)
{
    Event e;
    e.involved = ResourceKey{QStringLiteral("Widget"), QStringLiteral("w%1").arg(i)};
    e.type = Event::Type::Normal;
    e.reason = QStringLiteral("Created");
    e.message = QStringLiteral("event number %1").arg(i);
    e.phase = QStringLiteral("createOrUpdate");
    e.firstTime = e.lastTime = QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5), Qt::UTC).addSecs(i);
    return e;
}

struct Panel
{
    Panel()
        : path(dir.filePath(QStringLiteral("log.converge")))
        , ws(Workspace::open(path, nullptr))
        , runner(path)
        , model(runner, 500)
        , tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest)
        , panel(model)
    {
        panel.resize(900, 300);
        panel.show();
    }

    QList<Event> record(int first, int n)
    {
        QList<Event> events;
        for (int i = first; i < first + n; ++i)
            events.append(logPanelEvent(i));
        if (!ws->recordEvents(events, nullptr))
            qWarning() << "cannot record events";
        return events;
    }

    bool load(int n)
    {
        record(1, n);
        model.reload();
        return QTest::qWaitFor([this] { return !model.isLoading(); }, 10000);
    }

    QScrollBar *bar() const { return panel.view()->verticalScrollBar(); }
    QToolButton *follow() const
    {
        return panel.findChild<QToolButton *>(QStringLiteral("followLogButton"));
    }
    bool atBottom() const { return bar()->maximum() > 0 && bar()->value() == bar()->maximum(); }
    /// The id of the top row in sight.
    qint64 topId() const
    {
        return panel.view()->indexAt(QPoint(1, 1)).data(EventLogModel::EventIdRole).toLongLong();
    }
    qint64 lastId() const
    {
        const QAbstractItemModel *shown = panel.view()->model();
        return shown->index(shown->rowCount() - 1, 0).data(EventLogModel::EventIdRole).toLongLong();
    }
    /// Whether the newest row is in the viewport.
    bool lastInSight() const
    {
        const QAbstractItemModel *shown = panel.view()->model();
        const QRect rect = panel.view()->visualRect(shown->index(shown->rowCount() - 1, 0));
        return rect.isValid() && panel.view()->viewport()->rect().contains(rect);
    }

    QTemporaryDir dir;
    QString path;
    std::unique_ptr<Workspace> ws;
    WorkspaceRunner runner;
    EventLogModel model;
    QAbstractItemModelTester tester;
    LogPanel panel;
};

} // namespace

class tst_LogPanel final : public QObject
{
    Q_OBJECT

private slots:
    void followIsOnByDefaultAndSaysWhatItDoes()
    {
        Panel p;
        QVERIFY(p.follow());
        QVERIFY(p.follow()->isCheckable());
        QVERIFY(p.follow()->isChecked());
        QVERIFY(p.follow()->isVisible());
        QVERIFY(!p.follow()->toolTip().isEmpty());
        QVERIFY(p.panel.view()->isFollowing());
        QVERIFY(p.load(200));
        QTRY_VERIFY(p.atBottom());
        QVERIFY(p.lastInSight());
    }

    void newRowScrollsToTheBottomWhileFollowing()
    {
        Panel p;
        QVERIFY(p.load(200));
        QTRY_VERIFY(p.atBottom());
        const int before = p.bar()->value();
        p.model.appendEvents(p.record(201, 3));
        QCOMPARE(p.lastId(), 203);
        QVERIFY(p.bar()->value() > before);
        QVERIFY(p.atBottom());
        QVERIFY(p.lastInSight());
        QVERIFY(p.follow()->isChecked());

        // A repeat moves to the bottom, and the view stays on it.
        QList<Event> again{logPanelEvent(50)};
        QVERIFY(p.ws->recordEvents(again, nullptr));
        p.model.appendEvents(again);
        QCOMPARE(p.lastId(), 50);
        QVERIFY(p.atBottom());
        QVERIFY(p.lastInSight());
    }

    void scrollingUpStopsFollowing()
    {
        Panel p;
        QVERIFY(p.load(200));
        QTRY_VERIFY(p.atBottom());
        // As a person does: a page up on the scroll bar.
        p.bar()->triggerAction(QAbstractSlider::SliderPageStepSub);
        QVERIFY(!p.atBottom());
        QVERIFY(!p.panel.view()->isFollowing());
        QVERIFY(!p.follow()->isChecked());
        const int value = p.bar()->value();
        const qint64 top = p.topId();
        QVERIFY(top > 0);

        p.model.appendEvents(p.record(201, 5));
        QCOMPARE(p.lastId(), 205);
        QCOMPARE(p.bar()->value(), value);
        QCOMPARE(p.topId(), top);
        QVERIFY(!p.lastInSight());

        // A repeat of a row below the view moves to the bottom: the rows in sight stay.
        QList<Event> again{logPanelEvent(199)};
        QVERIFY(p.ws->recordEvents(again, nullptr));
        p.model.appendEvents(again);
        QCOMPARE(p.lastId(), 199);
        QCOMPARE(p.topId(), top);
        // ...and so they do when the repeat was above them.
        QList<Event> older{logPanelEvent(2)};
        QVERIFY(p.ws->recordEvents(older, nullptr));
        p.model.appendEvents(older);
        QCOMPARE(p.lastId(), 2);
        QCOMPARE(p.topId(), top);
        QVERIFY(!p.follow()->isChecked());

        // Back at the bottom it follows again.
        p.bar()->triggerAction(QAbstractSlider::SliderToMaximum);
        QVERIFY(p.panel.view()->isFollowing());
        QVERIFY(p.follow()->isChecked());
        p.model.appendEvents(p.record(206, 1));
        QVERIFY(p.atBottom());
        QVERIFY(p.lastInSight());
    }

    void followButtonStopsAndStarts()
    {
        Panel p;
        QVERIFY(p.load(200));
        QTRY_VERIFY(p.atBottom());
        QTest::mouseClick(p.follow(), Qt::LeftButton);
        QVERIFY(!p.follow()->isChecked());
        QVERIFY(!p.panel.view()->isFollowing());
        const int value = p.bar()->value();
        p.model.appendEvents(p.record(201, 5));
        QCOMPARE(p.bar()->value(), value);
        QVERIFY(!p.lastInSight());

        p.bar()->triggerAction(QAbstractSlider::SliderToMinimum);
        QVERIFY(!p.follow()->isChecked());
        QTest::mouseClick(p.follow(), Qt::LeftButton);
        QVERIFY(p.follow()->isChecked());
        QVERIFY(p.panel.view()->isFollowing());
        QVERIFY(p.atBottom());
        QVERIFY(p.lastInSight());
    }

    void theButtonsChoiceIsKept()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("ui.ini")), QSettings::IniFormat);
        {
            Panel p;
            p.panel.restoreState(settings);
            QVERIFY(p.follow()->isChecked()); // nothing stored: on
            QTest::mouseClick(p.follow(), Qt::LeftButton);
            p.panel.saveState(settings);
        }
        QCOMPARE(settings.value(QStringLiteral("logFollow")).toBool(), false);
        {
            Panel p;
            p.panel.restoreState(settings);
            QVERIFY(!p.follow()->isChecked());
            QVERIFY(!p.panel.view()->isFollowing());
            QTest::mouseClick(p.follow(), Qt::LeftButton);
            p.panel.saveState(settings);
        }
        QCOMPARE(settings.value(QStringLiteral("logFollow")).toBool(), true);
    }
};

QTEST_MAIN(tst_LogPanel)
#include "tst_logpanel.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The log model over a real workspace: the newest page first, older pages on fetchMore, live
// batches appended with one insertion each, repeats moved to the bottom with their count (as a
// log viewer shows the newest occurrence last); and its filter proxy.
#include "eventlogmodel.h"

#include "eventlogfilterproxy.h"
#include "workspace.h"
#include "workspacerunner.h"

#include <QAbstractItemModelTester>
#include <QIcon>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace converge;

namespace {

const QDateTime t0 = QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5), Qt::UTC);

Event makeEvent(int i, Event::Type type = Event::Type::Normal)
{
    Event e;
    e.involved = ResourceKey{QStringLiteral("Widget"), QStringLiteral("w%1").arg(i % 7)};
    e.type = type;
    e.reason =
        type == Event::Type::Normal ? QStringLiteral("Created") : QStringLiteral("Throttled");
    e.message = QStringLiteral("event number %1").arg(i);
    e.phase = QStringLiteral("createOrUpdate");
    e.firstTime = e.lastTime = t0.addSecs(i);
    return e;
}

struct Setup
{
    // QAbstractItemModelTester calls fetchMore() after every change, which loads every page at
    // once; the paging tests watch the model through the log's proxy instead, whose fetchMore()
    // does nothing (as in the window).
    enum class Tester { OnModel, OnProxy };

    explicit Setup(int pageSize = 500, Tester on = Tester::OnModel)
        : path(dir.filePath(QStringLiteral("log.converge")))
        , ws(Workspace::open(path, nullptr))
        , runner(path)
        , model(runner, pageSize)
    {
        proxy.setSourceModel(&model);
        tester = std::make_unique<QAbstractItemModelTester>(
            on == Tester::OnModel ? static_cast<QAbstractItemModel *>(&model) : &proxy,
            QAbstractItemModelTester::FailureReportingMode::QtTest);
    }

    /// Records `n` distinct events (ids in order) and returns them with their ids.
    QList<Event> record(int first, int n, Event::Type type = Event::Type::Normal)
    {
        QList<Event> events;
        for (int i = first; i < first + n; ++i)
            events.append(makeEvent(i, type));
        StoreError error;
        if (!ws->recordEvents(events, &error))
            qWarning() << error.message;
        return events;
    }

    bool settle()
    {
        return QTest::qWaitFor([this] { return !model.isLoading(); }, 10000);
    }

    qint64 idAt(int row) const
    {
        return model.index(row, 0).data(EventLogModel::EventIdRole).toLongLong();
    }

    bool ascending() const
    {
        for (int row = 1; row < model.rowCount(); ++row) {
            if (idAt(row) <= idAt(row - 1)) {
                qWarning() << "not ascending at row" << row << idAt(row - 1) << idAt(row);
                return false;
            }
        }
        return true;
    }

    QTemporaryDir dir;
    QString path;
    std::unique_ptr<Workspace> ws;
    WorkspaceRunner runner;
    EventLogModel model;
    EventLogFilterProxy proxy;
    std::unique_ptr<QAbstractItemModelTester> tester;
};

} // namespace

class tst_EventLogModel final : public QObject
{
    Q_OBJECT

private slots:
    void newestPageFirstThenOlderPages()
    {
        Setup s(500, Setup::Tester::OnProxy);
        s.record(1, 1200);
        QSignalSpy pages{&s.model, &EventLogModel::pageLoaded};
        QVERIFY(pages.isValid());
        s.model.reload();
        QVERIFY(!s.model.canFetchMore({})); // not while the first page loads
        QVERIFY(pages.wait());
        QCOMPARE(s.model.rowCount(), 500);
        QCOMPARE(s.idAt(0), 701);
        QCOMPARE(s.idAt(499), 1200); // newest last
        QVERIFY(s.ascending());
        QVERIFY(s.model.canFetchMore({}));

        QSignalSpy inserted{&s.model, &QAbstractItemModel::rowsInserted};
        s.model.fetchMore({});
        QVERIFY(!s.model.canFetchMore({}));
        s.model.fetchMore({}); // ignored while a page loads
        QVERIFY(s.settle());
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(inserted.at(0).at(1).toInt(), 0);
        QCOMPARE(inserted.at(0).at(2).toInt(), 499);
        QCOMPARE(s.model.rowCount(), 1000);
        QCOMPARE(s.idAt(0), 201);
        QVERIFY(s.ascending());

        s.model.fetchMore({});
        QVERIFY(s.settle());
        QCOMPARE(inserted.count(), 2);
        QCOMPARE(inserted.at(1).at(2).toInt(), 199);
        QCOMPARE(s.model.rowCount(), 1200);
        QCOMPARE(s.idAt(0), 1);
        QVERIFY(s.ascending());
        QVERIFY(!s.model.canFetchMore({}));
    }

    void testerFetchingEverythingStaysConsistent()
    {
        Setup s(100, Setup::Tester::OnModel);
        s.record(1, 450);
        s.model.reload();
        QTRY_COMPARE(s.model.rowCount(), 450);
        QVERIFY(s.ascending());
        QVERIFY(!s.model.canFetchMore({}));
        s.model.appendEvents(s.record(451, 3));
        QCOMPARE(s.model.rowCount(), 453);
    }

    void displayAndRoles()
    {
        Setup s;
        s.record(1, 3);
        s.record(4, 1, Event::Type::Warning);
        s.model.reload();
        QVERIFY(s.settle());
        QCOMPARE(s.model.rowCount(), 4);
        QVERIFY(!s.model.canFetchMore({}));
        const auto cell = [&s](int column) { return s.model.index(3, column).data().toString(); };
        QCOMPARE(cell(EventLogModel::TypeColumn), QStringLiteral("Warning"));
        QCOMPARE(cell(EventLogModel::ResourceColumn), QStringLiteral("Widget/w4"));
        QCOMPARE(cell(EventLogModel::PhaseColumn), QStringLiteral("createOrUpdate"));
        QCOMPARE(cell(EventLogModel::ReasonColumn), QStringLiteral("Throttled"));
        QCOMPARE(cell(EventLogModel::MessageColumn), QStringLiteral("event number 4"));
        QCOMPARE(cell(EventLogModel::CountColumn), QStringLiteral("1"));
        QVERIFY(!cell(EventLogModel::TimeColumn).isEmpty());
        const QModelIndex row = s.model.index(3, 0);
        QCOMPARE(row.data(EventLogModel::KeyRole).value<ResourceKey>(),
                 (ResourceKey{QStringLiteral("Widget"), QStringLiteral("w4")}));
        QCOMPARE(row.data(EventLogModel::TypeRole).toInt(), int(Event::Type::Warning));
        QCOMPARE(row.data(EventLogModel::LastTimeRole).toDateTime(), t0.addSecs(4));
        QVERIFY(!s.model.index(3, EventLogModel::TypeColumn)
                     .data(Qt::DecorationRole)
                     .value<QIcon>()
                     .pixmap(16, 16)
                     .isNull());
        QVERIFY(!s.model.index(0, EventLogModel::TypeColumn).data(Qt::DecorationRole).isValid());
        QCOMPARE(s.model.headerData(EventLogModel::CountColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Count"));
    }

    void liveBatchIsOneInsertion()
    {
        Setup s;
        s.record(1, 10);
        s.model.reload();
        QVERIFY(s.settle());
        QSignalSpy inserted{&s.model, &QAbstractItemModel::rowsInserted};
        QSignalSpy changed{&s.model, &QAbstractItemModel::dataChanged};
        const QList<Event> batch = s.record(11, 5);
        s.model.appendEvents(batch);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(inserted.at(0).at(1).toInt(), 10);
        QCOMPARE(inserted.at(0).at(2).toInt(), 14);
        QCOMPARE(changed.count(), 0);
        QCOMPARE(s.model.rowCount(), 15);
        QCOMPARE(s.idAt(14), 15);
    }

    void repeatMovesToTheBottom()
    {
        Setup s;
        s.record(1, 10);
        s.model.reload();
        QVERIFY(s.settle());
        // A view's selection and current row are persistent indexes: they follow the rows.
        const QPersistentModelIndex repeated = s.model.index(3, EventLogModel::ReasonColumn);
        const QPersistentModelIndex below = s.model.index(4, 0);
        const QPersistentModelIndex above = s.model.index(2, 0);
        QSignalSpy inserted{&s.model, &QAbstractItemModel::rowsInserted};
        QSignalSpy removed{&s.model, &QAbstractItemModel::rowsRemoved};
        QSignalSpy layout{&s.model, &QAbstractItemModel::layoutChanged};

        // The same event again: the workspace aggregates it (same id, count 2, a later time).
        QList<Event> again{makeEvent(4)};
        again[0].lastTime = t0.addSecs(100);
        QVERIFY(s.ws->recordEvents(again, nullptr));
        QCOMPARE(again.at(0).id, 4);
        QCOMPARE(again.at(0).count, 2);
        s.model.appendEvents(again);
        QCOMPARE(s.model.rowCount(), 10);
        QCOMPARE(inserted.count(), 0);
        QCOMPARE(removed.count(), 0);
        QCOMPARE(layout.count(), 1);
        QCOMPARE(s.idAt(9), 4); // last, with its count and its last time
        QCOMPARE(s.model.index(9, EventLogModel::CountColumn).data().toString(),
                 QStringLiteral("2"));
        QCOMPARE(s.model.index(9, 0).data(EventLogModel::LastTimeRole).toDateTime(),
                 t0.addSecs(100));
        QCOMPARE(s.idAt(3), 5); // the rows below it moved up by one
        QCOMPARE(s.idAt(8), 10);
        QCOMPARE(repeated.row(), 9);
        QCOMPARE(repeated.column(), int(EventLogModel::ReasonColumn));
        QCOMPARE(below.row(), 3);
        QCOMPARE(above.row(), 2);

        // A batch of repeats and new events ends the log in arrival order, one insertion.
        QList<Event> batch{makeEvent(2), makeEvent(11), makeEvent(7)};
        QVERIFY(s.ws->recordEvents(batch, nullptr));
        QCOMPARE(batch.at(1).id, 11);
        s.model.appendEvents(batch);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(layout.count(), 2);
        QCOMPARE(s.model.rowCount(), 11);
        const QList<qint64> expected{1, 3, 5, 6, 8, 9, 10, 4, 2, 11, 7};
        for (int row = 0; row < s.model.rowCount(); ++row)
            QCOMPARE(s.idAt(row), expected.at(row));
        QCOMPARE(repeated.row(), 7);
        QCOMPARE(s.model.index(8, EventLogModel::CountColumn).data().toString(),
                 QStringLiteral("2"));

        // The same event twice in one batch is one row, where its last occurrence puts it.
        QList<Event> twice{makeEvent(1), makeEvent(12)};
        QVERIFY(s.ws->recordEvents(twice, nullptr));
        QList<Event> thrice{makeEvent(1)};
        QVERIFY(s.ws->recordEvents(thrice, nullptr));
        QCOMPARE(thrice.at(0).count, 3);
        s.model.appendEvents(twice + thrice);
        QCOMPARE(s.model.rowCount(), 12);
        QCOMPARE(s.idAt(10), 12);
        QCOMPARE(s.idAt(11), 1);
        QCOMPARE(s.model.index(11, EventLogModel::CountColumn).data().toString(),
                 QStringLiteral("3"));
    }

    void repeatMovesToTheBottomThroughTheFilter()
    {
        Setup s;
        s.record(1, 6);
        s.record(7, 2, Event::Type::Warning);
        s.model.reload();
        QVERIFY(s.settle());
        QAbstractItemModelTester tester(&s.proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        s.proxy.setTypeFilter(Event::Type::Warning);
        QCOMPARE(s.proxy.rowCount(), 2);
        const QPersistentModelIndex first = s.proxy.index(0, 0);
        QList<Event> again{makeEvent(7, Event::Type::Warning)};
        QVERIFY(s.ws->recordEvents(again, nullptr));
        s.model.appendEvents(again);
        QCOMPARE(s.proxy.rowCount(), 2);
        QCOMPARE(s.proxy.index(1, 0).data(EventLogModel::EventIdRole).toLongLong(), 7);
        QCOMPARE(s.proxy.index(1, EventLogModel::CountColumn).data().toString(),
                 QStringLiteral("2"));
        QCOMPARE(first.row(), 1);
        QCOMPARE(s.proxy.index(0, 0).data(EventLogModel::EventIdRole).toLongLong(), 8);
    }

    void liveEventsDuringFirstLoadWait()
    {
        Setup s;
        const QList<Event> stored = s.record(1, 20);
        s.model.reload();
        // Delivered before the first page is in: some were read by the page too.
        const QList<Event> newer = s.record(21, 3);
        s.model.appendEvents(stored.mid(18) + newer);
        QCOMPARE(s.model.rowCount(), 0);
        QVERIFY(s.settle());
        QCOMPARE(s.model.rowCount(), 23);
        QVERIFY(s.ascending());
    }

    void repeatOfUnloadedHistoryComesAtTheBottom()
    {
        Setup s(10, Setup::Tester::OnProxy);
        s.record(1, 30);
        s.model.reload();
        QVERIFY(s.settle());
        QCOMPARE(s.model.rowCount(), 10);
        QList<Event> again{makeEvent(3)};
        QVERIFY(s.ws->recordEvents(again, nullptr));
        QCOMPARE(again.at(0).id, 3);
        s.model.appendEvents(again);
        QCOMPARE(s.model.rowCount(), 11);
        QCOMPARE(s.idAt(10), 3);
        // Paging the history in leaves out what is shown already.
        s.model.fetchMore({});
        QVERIFY(s.settle());
        s.model.fetchMore({});
        QVERIFY(s.settle());
        QCOMPARE(s.model.rowCount(), 30);
        QVERIFY(!s.model.canFetchMore({}));
        QCOMPARE(s.idAt(29), 3);
        QCOMPARE(s.model.index(29, EventLogModel::CountColumn).data().toString(),
                 QStringLiteral("2"));
        QCOMPARE(s.idAt(2), 4);
        // It repeats again: found where it is now.
        QList<Event> more{makeEvent(3), makeEvent(31)};
        QVERIFY(s.ws->recordEvents(more, nullptr));
        s.model.appendEvents(more);
        QCOMPARE(s.model.rowCount(), 31);
        QCOMPARE(s.idAt(29), 3);
        QCOMPARE(s.idAt(30), 31);
        QCOMPARE(s.model.index(29, EventLogModel::CountColumn).data().toString(),
                 QStringLiteral("3"));
    }

    void prunedHistoryEndsPaging()
    {
        Setup s(500, Setup::Tester::OnProxy);
        s.record(1, 1200);
        s.ws->setRetention(EventRetention{700, 0});
        QCOMPARE(s.ws->pruneEvents(nullptr), 500);
        s.model.reload();
        QVERIFY(s.settle());
        QCOMPARE(s.idAt(0), 701);
        QVERIFY(s.model.canFetchMore({}));
        s.model.fetchMore({});
        QVERIFY(s.settle());
        QCOMPARE(s.model.rowCount(), 700);
        QCOMPARE(s.idAt(0), 501);
        QVERIFY(!s.model.canFetchMore({}));
    }

    void fetchNewerAppendsOtherWriters()
    {
        Setup s;
        s.record(1, 5);
        s.model.reload();
        QVERIFY(s.settle());
        s.record(6, 4);
        QSignalSpy inserted{&s.model, &QAbstractItemModel::rowsInserted};
        s.model.fetchNewer();
        QVERIFY(s.settle());
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(s.model.rowCount(), 9);
        QCOMPARE(s.idAt(8), 9);
    }

    void emptyWorkspace()
    {
        Setup s;
        s.model.reload();
        QVERIFY(s.settle());
        QCOMPARE(s.model.rowCount(), 0);
        QVERIFY(!s.model.canFetchMore({}));
        s.model.appendEvents(s.record(1, 2));
        QCOMPARE(s.model.rowCount(), 2);
    }

    void filterProxy()
    {
        Setup s;
        s.record(1, 6);
        s.record(7, 2, Event::Type::Warning);
        s.model.reload();
        QVERIFY(s.settle());
        EventLogFilterProxy &proxy = s.proxy;
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(proxy.rowCount(), 8);
        proxy.setTypeFilter(Event::Type::Warning);
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setTextFilter(QStringLiteral("  NUMBER 8 "));
        QCOMPARE(proxy.rowCount(), 1);
        QCOMPARE(proxy.index(0, 0).data(EventLogModel::EventIdRole).toLongLong(), 8);
        proxy.setTypeFilter(std::nullopt);
        proxy.setTextFilter(QStringLiteral("widget/w1"));
        QCOMPARE(proxy.rowCount(), 2); // events 1 and 8 are about w1
        proxy.setTextFilter(QString());
        QCOMPARE(proxy.rowCount(), 8);
        // Live rows pass through the filter as they come.
        proxy.setTypeFilter(Event::Type::Warning);
        s.model.appendEvents(s.record(9, 3, Event::Type::Warning));
        QCOMPARE(proxy.rowCount(), 5);
        // The view, not the proxy, decides when to page history.
        QVERIFY(!proxy.canFetchMore({}));
        proxy.fetchMore({});
        QVERIFY(!s.model.isLoading());
    }
};

QTEST_MAIN(tst_EventLogModel)
#include "tst_eventlogmodel.moc"

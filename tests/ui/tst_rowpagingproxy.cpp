// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The tree a window at a time: each parent shows a run of its sorted, filtered whole, at first
// its first page, more on showMore(), showEarlier() and reveal(), fewer on hideFirst() and
// hideLast(); what changes outside a window is not told, and ScrollFetcher keeps the windows
// around what a view has in sight. Over a sorting and filtering proxy, as in the window, every
// change checked by QAbstractItemModelTester, and a seeded run of random changes compared with
// the source after each.
#include "rowpagingproxy.h"

#include "scrollfetcher.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTest>
#include <QTreeView>

#include <memory>

using namespace converge;

namespace {

QString name(int i)
{
    return QStringLiteral("r%1").arg(i, 3, 10, QLatin1Char('0'));
}

/// A tree of named rows, sorted and filtered as the window's, paged three rows at a time,
/// every change checked by QAbstractItemModelTester.
struct Paged
{
    Paged()
    {
        sorted.setSourceModel(&source);
        sorted.setRecursiveFilteringEnabled(true);
        sorted.setDynamicSortFilter(true);
        sorted.sort(0);
        pages.setPageSize(3);
        pages.setSourceModel(&sorted);
        tester = std::make_unique<QAbstractItemModelTester>(
            &pages, QAbstractItemModelTester::FailureReportingMode::QtTest);
    }
    QStandardItem *add(QStandardItem *parent, const QString &text)
    {
        auto *item = new QStandardItem(text);
        parent->appendRow(item);
        return item;
    }
    QStandardItem *root() { return source.invisibleRootItem(); }
    /// A row `text` at the top level with `rows` rows under it, named r000 on.
    QStandardItem *addParent(const QString &text, int rows)
    {
        QStandardItem *parent = add(root(), text);
        for (int i = 0; i < rows; ++i)
            add(parent, name(i));
        return parent;
    }
    /// The texts shown under `parent` (an index of the pages).
    QStringList shown(const QModelIndex &parent = {}) const
    {
        QStringList texts;
        for (int row = 0; row < pages.rowCount(parent); ++row)
            texts.append(pages.index(row, 0, parent).data().toString());
        return texts;
    }

    QStandardItemModel source;
    QSortFilterProxyModel sorted;
    RowPagingProxy pages;
    std::unique_ptr<QAbstractItemModelTester> tester;
};

/// A tree view over the pages, as the window's (uniform rows, a ScrollFetcher), shown `rows`
/// rows tall.
struct Viewed
{
    Viewed(Paged &p, int rows)
    {
        view.setUniformRowHeights(true);
        view.setModel(&p.pages);
        fetcher = new ScrollFetcher(&view, &p.pages);
        view.resize(300, view.header()->sizeHint().height() + rows * view.sizeHintForRow(0) +
                             2 * view.frameWidth());
        view.show();
    }

    QTreeView view;
    ScrollFetcher *fetcher = nullptr; // the view's child
};

} // namespace

class tst_RowPagingProxy final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aParentShowsAPageAndAPageMoreOnEachFetch()
    {
        Paged p;
        for (int i = 0; i < 8; ++i)
            p.add(p.root(), name(i));
        QCOMPARE(p.shown(), QStringList({name(0), name(1), name(2)}));
        QCOMPARE(p.pages.rowsNotShown({}), 5);
        QVERIFY(!p.pages.canFetchMore({})); // the source's: pages are shown, not fetched
        p.pages.showMore({});
        QCOMPARE(p.pages.rowCount(), 6);
        p.pages.showMore({});
        QCOMPARE(p.pages.rowCount(), 8);
        p.pages.showMore({});
        QCOMPARE(p.pages.rowCount(), 8);
        QCOMPARE(p.pages.rowsNotShown({}), 0);
    }

    void rowsPastThePageTellNothing()
    {
        Paged p;
        for (int i = 0; i < 5; ++i)
            p.add(p.root(), name(i * 10));
        QSignalSpy inserted(&p.pages, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&p.pages, &QAbstractItemModel::rowsRemoved);
        QSignalSpy changed(&p.pages, &QAbstractItemModel::dataChanged);
        QSignalSpy layout(&p.pages, &QAbstractItemModel::layoutChanged);
        p.add(p.root(), name(45));           // sorts after the third row
        p.source.item(4)->setText(name(44)); // the fifth row, past the page, re-sorted
        QCOMPARE(inserted.size(), 0);
        QCOMPARE(removed.size(), 0);
        QCOMPARE(changed.size(), 0);
        QCOMPARE(layout.size(), 0);
        QCOMPARE(p.pages.rowsNotShown({}), 3);
    }

    void aRowThatSortsIntoThePagePushesItsLastRowOut()
    {
        Paged p;
        for (int i = 1; i <= 5; ++i)
            p.add(p.root(), name(i * 10));
        QPersistentModelIndex last = p.pages.index(2, 0);
        QSignalSpy inserted(&p.pages, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&p.pages, &QAbstractItemModel::rowsRemoved);
        p.add(p.root(), name(5));
        QCOMPARE(p.shown(), QStringList({name(5), name(10), name(20)}));
        QCOMPARE(removed.size(), 1);
        QCOMPARE(removed.at(0).at(1).toInt(), 2);
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(inserted.at(0).at(1).toInt(), 0);
        QVERIFY(!last.isValid()); // r030 left the page
    }

    void aRemovalBringsTheNextRowsUpIntoThePage()
    {
        Paged p;
        for (int i = 0; i < 5; ++i)
            p.add(p.root(), name(i));
        p.source.removeRows(0, 2); // the sorted order is the source's here
        QCOMPARE(p.shown(), QStringList({name(2), name(3), name(4)}));
        p.source.removeRows(0, 1);
        QCOMPARE(p.shown(), QStringList({name(3), name(4)}));
        QCOMPARE(p.pages.rowsNotShown({}), 0);
    }

    void aSortShowsTheFirstRowsOfTheNewOrderAndKeepsTheRowsThatStay()
    {
        Paged p;
        for (int i = 0; i < 6; ++i)
            p.add(p.root(), name(i));
        const QPersistentModelIndex first = p.pages.index(0, 0);
        const QPersistentModelIndex third = p.pages.index(2, 0);
        p.sorted.sort(0, Qt::DescendingOrder);
        QCOMPARE(p.shown(), QStringList({name(5), name(4), name(3)}));
        QVERIFY(!first.isValid()); // r000 sorts past the page now
        QVERIFY(!third.isValid());
        p.pages.showMore({});
        const QPersistentModelIndex shownAgain = p.pages.index(5, 0);
        p.sorted.sort(0, Qt::AscendingOrder);
        QCOMPARE(shownAgain.data().toString(), name(0));
        QCOMPARE(shownAgain.row(), 0);
    }

    void aFilterFindsRowsPastThePage()
    {
        Paged p;
        p.addParent(QStringLiteral("account"), 10);
        const QModelIndex shownAccount = p.pages.index(0, 0);
        QCOMPARE(p.pages.rowCount(shownAccount), 3);
        p.sorted.setFilterRegularExpression(QRegularExpression(name(8)));
        QCOMPARE(p.shown(p.pages.index(0, 0)), QStringList({name(8)}));
        p.sorted.setFilterRegularExpression(QRegularExpression());
        QCOMPARE(p.pages.rowCount(p.pages.index(0, 0)), 3);
    }

    void revealShowsARowPastThePagesOfItsOwners()
    {
        Paged p;
        QStandardItem *deep = nullptr;
        for (int a = 0; a < 7; ++a) {
            QStandardItem *account = p.add(p.root(), QStringLiteral("account%1").arg(a));
            for (int i = 0; i < 9; ++i) {
                QStandardItem *item = p.add(account, name(i));
                if (a == 6 && i == 7)
                    deep = item;
            }
        }
        QVERIFY(deep);
        const QModelIndex wanted = p.sorted.mapFromSource(p.source.indexFromItem(deep));
        QVERIFY(!p.pages.mapFromSource(wanted).isValid()); // past both pages
        const QModelIndex shown = p.pages.reveal(wanted);
        QVERIFY(shown.isValid());
        QCOMPARE(shown.data().toString(), name(7));
        QCOMPARE(shown.parent().data().toString(), QStringLiteral("account6"));
        QCOMPARE(p.pages.rowCount(), 7);               // two pages up to the seventh account
        QCOMPARE(p.pages.rowCount(shown.parent()), 9); // three pages up to the eighth row
        QCOMPARE(p.pages.mapToSource(shown), wanted);
    }

    /// QTreeView would fetch a page at each layout of an expanded parent; ScrollFetcher shows
    /// more of the parents whose last row is in sight, whichever they are.
    void aViewShowsMoreOfTheParentsWhoseLastRowIsInSight()
    {
        Paged p;
        p.pages.setPageSize(5);
        for (int a = 0; a < 2; ++a)
            p.addParent(QStringLiteral("account%1").arg(a), 60);
        // Eight rows in sight: the second account's rows are out of it.
        Viewed viewed(p, 8);
        QTreeView &view = viewed.view;
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QModelIndex first = p.pages.index(0, 0);
        const QModelIndex second = p.pages.index(1, 0);
        view.expand(first);
        view.expand(second);
        // The first account's last row was in sight until it showed a page or two more; the
        // second one went out of sight below it.
        QTRY_VERIFY(view.visualRect(p.pages.index(p.pages.rowCount(first) - 1, 0, first)).top() >=
                    view.viewport()->height());
        const int firstShown = p.pages.rowCount(first);
        QVERIFY2(firstShown > 5 && firstShown < 60, qPrintable(QString::number(firstShown)));
        QCOMPARE(p.pages.rowCount(second), 5);
        // Layouts do not show more by themselves.
        for (int i = 0; i < 5; ++i) {
            p.add(p.source.item(0), name(100 + i));
            QCoreApplication::processEvents();
        }
        QCOMPARE(p.pages.rowCount(first), firstShown);
        // Scrolled to the end of the first account: more of it, not of the second.
        view.scrollTo(p.pages.index(firstShown - 1, 0, first), QAbstractItemView::PositionAtBottom);
        QTRY_VERIFY(p.pages.rowCount(first) > firstShown);
        QCOMPARE(p.pages.rowCount(second), 5);
    }

    /// Rows that arrive past a parent's page while its end is in sight (a bucket's next pages,
    /// listed on while a person sits at the end of the first) are shown: the view says nothing
    /// of them, and a scroll bar already at its end cannot move.
    void rowsArrivingWhileTheEndIsInSightAreShown()
    {
        Paged p;
        p.pages.setPageSize(5);
        QStandardItem *bucket = p.addParent(QStringLiteral("bucket"), 5);
        Viewed viewed(p, 12);
        QTreeView &view = viewed.view;
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QModelIndex parent = p.pages.index(0, 0);
        view.expand(parent);
        QCoreApplication::processEvents();
        QCOMPARE(p.pages.rowCount(parent), 5);
        for (int i = 5; i < 20; ++i)
            p.add(bucket, name(i));
        QTRY_VERIFY(p.pages.rowCount(parent) > 5);
    }

    /// A window moved off a parent's first rows: rows that come or go before it move it and
    /// tell nothing; rows that go in it bring the next ones up, and at the end the ones before.
    void aWindowMovesWithTheRowsBeforeIt()
    {
        Paged p;
        for (int i = 0; i < 10; ++i)
            p.add(p.root(), name(i * 10));
        p.pages.showMore({});
        p.pages.showMore({});
        QCOMPARE(p.pages.rowCount(), 9);
        p.pages.hideFirst({}, 4);
        QCOMPARE(p.pages.rowsBefore({}), 4);
        QCOMPARE(p.shown(), QStringList({name(40), name(50), name(60), name(70), name(80)}));
        QCOMPARE(p.pages.rowsNotShown({}), 1);
        const QPersistentModelIndex r60 = p.pages.index(2, 0);
        QSignalSpy inserted(&p.pages, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&p.pages, &QAbstractItemModel::rowsRemoved);
        p.add(p.root(), name(5));  // sorts before the window
        p.source.removeRows(1, 1); // r010, before it too
        QCOMPARE(inserted.size(), 0);
        QCOMPARE(removed.size(), 0);
        QCOMPARE(p.pages.rowsBefore({}), 4);
        QCOMPARE(p.shown(), QStringList({name(40), name(50), name(60), name(70), name(80)}));
        QCOMPARE(r60.data().toString(), name(60));
        QCOMPARE(r60.row(), 2);
        // r050 goes: r090, past the window, comes up into it.
        p.source.removeRows(4, 1);
        QCOMPARE(p.shown(), QStringList({name(40), name(60), name(70), name(80), name(90)}));
        QCOMPARE(r60.row(), 1);
        // The rows from r060 on go: a page is left, the rows before the window come back.
        p.source.removeRows(4, 4); // the source's rows are in the order they were added
        QCOMPARE(p.pages.rowsBefore({}), 2);
        QCOMPARE(p.shown(), QStringList({name(20), name(30), name(40)}));
        QVERIFY(!r60.isValid());
    }

    void showEarlierHideLastAndRevealMoveTheWindowBack()
    {
        Paged p;
        p.addParent(QStringLiteral("bucket"), 12);
        const QModelIndex parent = p.pages.index(0, 0);
        for (int i = 0; i < 3; ++i)
            p.pages.showMore(parent);
        p.pages.hideFirst(parent, 9);
        QCOMPARE(p.shown(parent), QStringList({name(9), name(10), name(11)})); // a page stays
        p.pages.showEarlier(parent);
        QCOMPARE(p.pages.rowsBefore(parent), 6);
        QCOMPARE(p.pages.rowCount(parent), 6);
        p.pages.hideLast(parent, 3);
        QCOMPARE(p.shown(parent), QStringList({name(6), name(7), name(8)}));
        QCOMPARE(p.pages.rowsNotShown(parent), 3);
        const QModelIndex wanted = p.sorted.index(1, 0, p.pages.mapToSource(parent));
        const QModelIndex shown = p.pages.reveal(wanted);
        QCOMPARE(shown.data().toString(), name(1));
        QCOMPARE(p.pages.rowsBefore(parent), 0);
        QCOMPARE(p.shown(parent).first(), name(0));
        QCOMPARE(p.shown(parent).last(), name(8));
    }

    /// Scrolled through many rows, a view is given a window of them; the row at the top stays
    /// there as pages come and go; back at the start, the first rows show again; a selected row
    /// keeps its page.
    void aViewIsGivenAWindowAroundWhatIsInSight()
    {
        Paged p;
        p.pages.setPageSize(20);
        p.addParent(QStringLiteral("bucket"), 600);
        Viewed viewed(p, 10);
        viewed.fetcher->setWindowRows(100);
        QTreeView &view = viewed.view;
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QModelIndex parent = p.pages.index(0, 0);
        view.expand(parent);
        int most = 0;
        QString lastTop;
        for (int i = 0; i < 200 && p.pages.rowsNotShown(parent) > 0; ++i) {
            view.scrollToBottom();
            lastTop = view.indexAt(QPoint(0, 0)).data().toString();
            QCoreApplication::processEvents();
            // Whatever came or went, the row at the top is the one scrolled to.
            QCOMPARE(view.indexAt(QPoint(0, 0)).data().toString(), lastTop);
            most = std::max(most, p.pages.rowCount(parent));
        }
        QCOMPARE(p.pages.rowsNotShown(parent), 0);
        QVERIFY2(most <= 100 + 20, qPrintable(QString::number(most)));
        QVERIFY(p.pages.rowsBefore(parent) >= 480);
        for (int i = 0; i < 200 && p.pages.rowsBefore(parent) > 0; ++i) {
            view.scrollToTop();
            QCoreApplication::processEvents();
            most = std::max(most, p.pages.rowCount(parent));
        }
        QCOMPARE(p.pages.rowsBefore(parent), 0);
        QCOMPARE(p.pages.index(0, 0, parent).data().toString(), name(0));
        QVERIFY2(most <= 100 + 20, qPrintable(QString::number(most)));

        // A selected row's page stays as the view scrolls past it.
        const QModelIndex selected = p.pages.index(30, 0, parent);
        view.setCurrentIndex(selected);
        QCOMPARE(view.selectionModel()->selectedRows().size(), 1);
        for (int i = 0; i < 200 && p.pages.rowsNotShown(parent) > 0; ++i) {
            view.scrollToBottom();
            QCoreApplication::processEvents();
        }
        QCOMPARE(p.pages.rowsNotShown(parent), 0);
        QVERIFY(p.pages.rowsBefore(parent) <= 30); // the rows before its page may go
        QCOMPARE(view.currentIndex().data().toString(), name(30));
        QCOMPARE(view.selectionModel()->selectedRows().size(), 1);

        // Collapsed and opened again, the bucket starts from its first rows; with a selected
        // row past them, as it was.
        const int heldShown = p.pages.rowCount(parent);
        view.collapse(parent);
        QCOMPARE(p.pages.rowCount(parent), heldShown);
        view.clearSelection();
        view.setCurrentIndex({});
        view.expand(parent);
        for (int i = 0; i < 10; ++i) {
            view.scrollToBottom();
            QCoreApplication::processEvents();
        }
        QVERIFY(p.pages.rowsBefore(parent) > 0);
        view.collapse(parent);
        QCOMPARE(p.pages.rowsBefore(parent), 0);
        QCOMPARE(p.pages.rowCount(parent), 20);
        view.expand(parent);
        QCOMPARE(p.pages.index(0, 0, parent).data().toString(), name(0));
    }

    /// Random inserts, removals, renames (re-sorts), filters, fetches, reveals and windows
    /// moved under two levels; after each, every parent shows a run of the sorted source, at
    /// least a page of it, and rows kept persistent still show the item they showed.
    void randomChangesKeepEachWindowARunOfTheSource()
    {
        const quint32 seed = qEnvironmentVariableIsSet("CONVERGE_PAGING_SEED")
                                 ? quint32(qEnvironmentVariableIntValue("CONVERGE_PAGING_SEED"))
                                 : 20261202;
        QRandomGenerator random(seed);
        Paged p;
        QTreeView view; // a view's expanded rows and layouts over the pages, as the window's
        view.setModel(&p.pages);
        view.resize(300, 200);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        int next = 0;
        for (int a = 0; a < 4; ++a)
            p.add(p.root(), QStringLiteral("account%1").arg(a));
        // Rows revealed, and the source's item each showed: a persistent row keeps showing it.
        QList<std::pair<QPersistentModelIndex, QPersistentModelIndex>> kept;
        int steppedPastAPage = 0;    // steps × accounts with rows past their window
        int steppedPastTheStart = 0; // steps × accounts with rows before it
        for (int step = 0; step < 600; ++step) {
            QStandardItem *parent = p.source.item(int(random.bounded(p.source.rowCount())));
            const int op = int(random.bounded(12));
            if (op < 4 || parent->rowCount() == 0) {
                const int count = 1 + int(random.bounded(4));
                QList<QStandardItem *> items;
                for (int i = 0; i < count; ++i)
                    items.append(new QStandardItem(name(int(random.bounded(1000))) +
                                                   QStringLiteral("-%1").arg(next++)));
                for (QStandardItem *item : items)
                    parent->insertRow(int(random.bounded(parent->rowCount() + 1)), item);
            } else if (op < 6) {
                const int row = int(random.bounded(parent->rowCount()));
                parent->removeRows(row,
                                   std::min(parent->rowCount() - row, 1 + int(random.bounded(3))));
            } else if (op == 6) {
                parent->child(int(random.bounded(parent->rowCount())))
                    ->setText(name(int(random.bounded(1000))) + QStringLiteral("-%1").arg(next++));
            } else if (op == 7) {
                const QModelIndex shown =
                    p.pages.mapFromSource(p.sorted.mapFromSource(p.source.indexFromItem(parent)));
                if (shown.isValid()) {
                    view.expand(shown);
                    p.pages.showMore(shown);
                }
            } else if (op == 8) {
                const QModelIndex sortedParent =
                    p.sorted.mapFromSource(p.source.indexFromItem(parent));
                const int rows = p.sorted.rowCount(sortedParent);
                if (rows > 0) {
                    const QModelIndex wanted =
                        p.sorted.index(int(random.bounded(rows)), 0, sortedParent);
                    const QModelIndex shown = p.pages.reveal(wanted);
                    QCOMPARE(p.pages.mapToSource(shown), wanted);
                    kept.append({QPersistentModelIndex(shown),
                                 QPersistentModelIndex(p.sorted.mapToSource(wanted))});
                }
            } else if (op >= 10) {
                const QModelIndex shown =
                    p.pages.mapFromSource(p.sorted.mapFromSource(p.source.indexFromItem(parent)));
                const int how = int(random.bounded(3));
                const int rows = 1 + int(random.bounded(6));
                if (shown.isValid() && how == 0)
                    p.pages.hideFirst(shown, rows);
                else if (shown.isValid() && how == 1)
                    p.pages.hideLast(shown, rows);
                else if (shown.isValid() && rows == 1)
                    p.pages.showFirstPage(shown);
                else if (shown.isValid())
                    p.pages.showEarlier(shown);
            } else {
                const bool filtering = random.bounded(2) == 0;
                p.sorted.setFilterRegularExpression(
                    filtering ? QRegularExpression(QStringLiteral("%1").arg(random.bounded(10)))
                              : QRegularExpression());
            }
            QCoreApplication::processEvents();
            checkEachWindowIsARunOfTheSource(p, {}, seed, step);
            for (int row = 0; row < p.pages.rowCount(); ++row) {
                steppedPastAPage += p.pages.rowsNotShown(p.pages.index(row, 0)) > 0 ? 1 : 0;
                steppedPastTheStart += p.pages.rowsBefore(p.pages.index(row, 0)) > 0 ? 1 : 0;
            }
            for (const auto &[index, item] : std::as_const(kept)) {
                if (index.isValid())
                    QCOMPARE(p.sorted.mapToSource(p.pages.mapToSource(index)), QModelIndex(item));
            }
            if (QTest::currentTestFailed())
                return;
        }
        // Most of the run has rows past a page.
        QVERIFY2(steppedPastAPage > 600, qPrintable(QString::number(steppedPastAPage)));
        QVERIFY2(steppedPastTheStart > 300, qPrintable(QString::number(steppedPastTheStart)));
    }

private:
    static void checkEachWindowIsARunOfTheSource(const Paged &p, const QModelIndex &parent,
                                                 quint32 seed, int step)
    {
        const QModelIndex sortedParent = p.pages.mapToSource(parent);
        const int shown = p.pages.rowCount(parent);
        const int all = p.sorted.rowCount(sortedParent);
        const int before = p.pages.rowsBefore(parent);
        const QString where = QStringLiteral("seed %1, step %2, under %3")
                                  .arg(seed)
                                  .arg(step)
                                  .arg(parent.data().toString());
        QVERIFY2(before >= 0 && before + shown <= all && shown >= std::min(all, p.pages.pageSize()),
                 qPrintable(where));
        QCOMPARE(p.pages.rowsNotShown(parent), all - before - shown);
        for (int row = 0; row < shown; ++row) {
            const QModelIndex index = p.pages.index(row, 0, parent);
            QVERIFY2(p.pages.mapToSource(index) == p.sorted.index(before + row, 0, sortedParent),
                     qPrintable(where));
            QVERIFY2(p.pages.mapFromSource(p.sorted.index(before + row, 0, sortedParent)) == index,
                     qPrintable(where));
            checkEachWindowIsARunOfTheSource(p, index, seed, step);
        }
    }
};

QTEST_MAIN(tst_RowPagingProxy)
#include "tst_rowpagingproxy.moc"

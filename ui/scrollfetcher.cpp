// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "scrollfetcher.h"

#include "rowpagingproxy.h"

#include <QEvent>
#include <QItemSelectionModel>
#include <QScrollBar>
#include <QTimer>
#include <QTreeView>

#include <algorithm>
#include <limits>
#include <vector>

namespace converge {

ScrollFetcher::ScrollFetcher(QTreeView *view, RowPagingProxy *pages)
    : QObject(view)
    , m_view(view)
    , m_pages(pages)
{
    Q_ASSERT(view && pages && view->model() == pages);
    connect(view->verticalScrollBar(), &QScrollBar::valueChanged, this, &ScrollFetcher::schedule);
    connect(view, &QTreeView::expanded, this, &ScrollFetcher::schedule);
    // Opened again, a parent starts from its first rows (Home goes to the top of what a view
    // holds, which is a window), unless it holds a selected row past them.
    connect(view, &QTreeView::collapsed, this, [this](const QModelIndex &parent) {
        if (!m_pages || parent.model() != m_pages)
            return;
        const int lastHeld = heldRows(parent).second;
        if (lastHeld < 0 || m_pages->rowsBefore(parent) + lastHeld < m_pages->pageSize())
            m_pages->showFirstPage(parent);
    });
    QAbstractItemModel *model = view->model();
    connect(model, &QAbstractItemModel::rowsInserted, this, &ScrollFetcher::schedule);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &ScrollFetcher::schedule);
    connect(model, &QAbstractItemModel::layoutChanged, this, &ScrollFetcher::schedule);
    connect(model, &QAbstractItemModel::modelReset, this, &ScrollFetcher::schedule);
    // Rows past a parent's page go in without a word to the view (a bucket's next pages, listed
    // on while a person sits at the end of the first): the end in sight shows them.
    if (QAbstractItemModel *source = pages->sourceModel())
        connect(source, &QAbstractItemModel::rowsInserted, this, &ScrollFetcher::schedule);
    view->viewport()->installEventFilter(this);
}

bool ScrollFetcher::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Resize || event->type() == QEvent::Show)
        schedule();
    return QObject::eventFilter(watched, event);
}

void ScrollFetcher::schedule()
{
    if (m_scheduled)
        return;
    m_scheduled = true;
    QTimer::singleShot(0, this, [this] {
        m_scheduled = false;
        fetchInSight();
    });
}

void ScrollFetcher::fetchInSight()
{
    if (!m_view || !m_pages || !m_view->isVisible() || m_view->model() != m_pages)
        return;
    const int bottom = m_view->viewport()->height();
    /// A parent (the root, or a row that may go while pages come and go).
    struct Parent
    {
        QPersistentModelIndex index;
        bool root = false;
        int row = 0; // its first row in sight, or owning one
        bool isThere() const { return root || index.isValid(); }
    };
    std::vector<Parent> inSight;
    std::vector<Parent> ends;   // parents whose last row is in sight
    std::vector<Parent> starts; // parents whose first row is, with rows before it
    const auto parentOf = [](const QModelIndex &row) {
        return Parent{row.parent(), !row.parent().isValid(), row.row()};
    };
    const QPersistentModelIndex top = m_view->indexAt(QPoint(0, 0));
    for (QModelIndex row = top; row.isValid(); row = m_view->indexBelow(row)) {
        if (m_view->visualRect(row).top() >= bottom)
            break;
        for (QModelIndex owned = row; owned.isValid(); owned = owned.parent()) {
            if (std::none_of(inSight.cbegin(), inSight.cend(),
                             [&](const Parent &seen) { return seen.index == owned.parent(); }))
                inSight.push_back(parentOf(owned));
        }
        if (row.row() == 0 && m_pages->rowsBefore(row.parent()) > 0)
            starts.push_back(parentOf(row));
        if (row.row() == m_pages->rowCount(row.parent()) - 1)
            ends.push_back(parentOf(row));
    }
    // Showing more moves the rows below: the rows in sight were read first.
    for (const Parent &parent : ends) {
        if (!parent.isThere())
            continue;
        if (m_pages->rowsNotShown(parent.index) > 0)
            m_pages->showMore(parent.index);
        else if (m_pages->canFetchMore(parent.index))
            m_pages->fetchMore(parent.index);
    }
    for (const Parent &parent : starts) {
        if (parent.isThere())
            m_pages->showEarlier(parent.index);
    }
    for (const Parent &parent : inSight) {
        if (parent.isThere())
            trim(parent.index, parent.row);
    }
    // Rows that came or went above what was in sight: the same row stays at the top.
    if (top.isValid() && m_view->indexAt(QPoint(0, 0)) != top)
        m_view->scrollTo(top, QAbstractItemView::PositionAtTop);
}

void ScrollFetcher::trim(const QModelIndex &parent, int nearRow)
{
    const int shown = m_pages->rowCount(parent);
    const int page = m_pages->pageSize();
    const int window = std::max(m_windowRows, 2 * page);
    if (shown <= window)
        return;
    const int row = std::clamp(nearRow, 0, shown - 1);
    const auto [firstHeld, lastHeld] = heldRows(parent);
    const int excess = shown - window;
    // Whole pages, a page's margin from what is in sight, and none that holds a held row.
    const int before = std::min({row - page, firstHeld, excess}) / page * page;
    if (2 * row >= shown && before > 0) {
        m_pages->hideFirst(parent, before);
        return;
    }
    const int after =
        std::min({shown - 1 - row - page, shown - 1 - lastHeld, excess}) / page * page;
    if (after > 0)
        m_pages->hideLast(parent, after);
}

std::pair<int, int> ScrollFetcher::heldRows(const QModelIndex &parent) const
{
    int first = std::numeric_limits<int>::max();
    int last = -1;
    const auto hold = [&](QModelIndex index) {
        // The row of `parent` that is `index` or owns it.
        for (; index.isValid(); index = index.parent()) {
            if (index.parent() == parent) {
                first = std::min(first, index.row());
                last = std::max(last, index.row());
                return;
            }
        }
    };
    if (const QItemSelectionModel *selection = m_view->selectionModel()) {
        hold(selection->currentIndex());
        for (const QItemSelectionRange &range : selection->selection()) {
            hold(range.topLeft());
            hold(range.bottomRight());
        }
    }
    return {first, last};
}

} // namespace converge

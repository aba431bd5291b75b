// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "scrollfetcher.h"

#include "rowpagingproxy.h"

#include <QEvent>
#include <QScrollBar>
#include <QTimer>
#include <QTreeView>

namespace converge {

ScrollFetcher::ScrollFetcher(QTreeView *view, RowPagingProxy *pages)
    : QObject(view)
    , m_view(view)
    , m_pages(pages)
{
    Q_ASSERT(view && pages && view->model() == pages);
    connect(view->verticalScrollBar(), &QScrollBar::valueChanged, this, &ScrollFetcher::schedule);
    connect(view, &QTreeView::expanded, this, &ScrollFetcher::schedule);
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
    QList<QPersistentModelIndex> parents;
    bool root = false;
    for (QModelIndex row = m_view->indexAt(QPoint(0, 0)); row.isValid();
         row = m_view->indexBelow(row)) {
        if (m_view->visualRect(row).top() >= bottom)
            break;
        const QModelIndex parent = row.parent();
        if (row.row() != m_pages->rowCount(parent) - 1)
            continue; // not the last row its parent shows
        if (parent.isValid())
            parents.append(parent);
        else
            root = true;
    }
    // Showing more moves the rows below: the rows in sight were read first.
    const auto more = [this](const QModelIndex &parent) {
        if (m_pages->rowsNotShown(parent) > 0)
            m_pages->showMore(parent);
        else if (m_pages->canFetchMore(parent))
            m_pages->fetchMore(parent);
    };
    for (const QPersistentModelIndex &parent : std::as_const(parents)) {
        if (parent.isValid())
            more(parent);
    }
    if (root)
        more({});
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "eventlogview.h"

#include "eventlogmodel.h"

#include <QScrollBar>

#include <utility>

namespace converge {

EventLogView::EventLogView(QWidget *parent)
    : QTableView(parent)
{
    setShowGrid(false);
    setWordWrap(false);
    setAlternatingRowColors(true);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    // Every row the same height, never measured: appending stays cheap however long the log.
    QHeaderView *rows = verticalHeader();
    rows->hide();
    rows->setSectionResizeMode(QHeaderView::Fixed);
    rows->setDefaultSectionSize(fontMetrics().height() + 6);
    horizontalHeader()->setHighlightSections(false);
    horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
}

void EventLogView::setHistoryModel(EventLogModel *history)
{
    m_history = history;
}

void EventLogView::setModel(QAbstractItemModel *model)
{
    if (QAbstractItemModel *old = this->model())
        disconnect(old, nullptr, this, nullptr);
    QTableView::setModel(model);
    if (!model)
        return;
    connect(model, &QAbstractItemModel::rowsAboutToBeInserted, this,
            [this](const QModelIndex &parent, int first, int) { aboutToInsert(parent, first); });
    connect(model, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &parent, int first, int) { inserted(parent, first); });
    connect(model, &QAbstractItemModel::layoutAboutToBeChanged, this, &EventLogView::aboutToLayOut);
    connect(model, &QAbstractItemModel::layoutChanged, this, &EventLogView::laidOut);
}

void EventLogView::setFollowing(bool following)
{
    if (following)
        scrollQuietly([this] { scrollToBottom(); });
    if (following == m_following)
        return;
    m_following = following;
    Q_EMIT followingChanged(following);
}

template<typename Scroll>
void EventLogView::scrollQuietly(Scroll scroll)
{
    const bool was = std::exchange(m_scrolling, true);
    scroll();
    m_scrolling = was;
    m_lastValue = verticalScrollBar()->value();
}

void EventLogView::verticalScrollbarValueChanged(int value)
{
    QTableView::verticalScrollbarValueChanged(value);
    const QScrollBar *bar = verticalScrollBar();
    const int last = std::exchange(m_lastValue, value);
    if (!m_scrolling) {
        // As less +F and KSystemLog: up stops following, the bottom starts it again.
        if (value >= bar->maximum())
            setFollowing(true);
        else if (value < last)
            setFollowing(false);
    }
    if (value == bar->minimum() && bar->maximum() > bar->minimum() && m_history &&
        m_history->canFetchMore({}))
        m_history->fetchMore({});
}

void EventLogView::aboutToInsert(const QModelIndex &parent, int first)
{
    if (parent.isValid())
        return;
    m_anchor = first == 0 && !m_following ? QPersistentModelIndex(indexAt(QPoint(1, 1)))
                                          : QPersistentModelIndex();
}

void EventLogView::inserted(const QModelIndex &parent, int first)
{
    if (parent.isValid())
        return;
    if (m_following) {
        scrollQuietly([this] { scrollToBottom(); });
    } else if (first == 0 && m_anchor.isValid()) {
        // Older rows came in above: keep the rows that were in sight where they were.
        scrollQuietly([this] { scrollTo(m_anchor, QAbstractItemView::PositionAtTop); });
    }
    // Else new rows came in below: the view stays where the person left it.
    m_anchor = QPersistentModelIndex();
}

void EventLogView::aboutToLayOut()
{
    // Repeats move to the bottom: a person reading further up keeps the rows in sight.
    m_anchor = m_following ? QPersistentModelIndex() : QPersistentModelIndex(indexAt(QPoint(1, 1)));
    m_anchorRow = m_anchor.row();
}

void EventLogView::laidOut()
{
    if (m_following) {
        scrollQuietly([this] { scrollToBottom(); });
    } else if (m_anchor.isValid() && m_anchor.row() <= m_anchorRow) {
        // (The top row itself may have moved to the bottom: then the view stays as it is.)
        scrollQuietly([this] { scrollTo(m_anchor, QAbstractItemView::PositionAtTop); });
    }
    m_anchor = QPersistentModelIndex();
    m_anchorRow = -1;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "eventlogview.h"

#include "eventlogmodel.h"

#include <QScrollBar>

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
}

void EventLogView::verticalScrollbarValueChanged(int value)
{
    QTableView::verticalScrollbarValueChanged(value);
    const QScrollBar *bar = verticalScrollBar();
    m_following = value >= bar->maximum();
    if (value == bar->minimum() && bar->maximum() > bar->minimum() && m_history &&
        m_history->canFetchMore({}))
        m_history->fetchMore({});
}

void EventLogView::aboutToInsert(const QModelIndex &parent, int first)
{
    if (parent.isValid())
        return;
    const QScrollBar *bar = verticalScrollBar();
    m_following = bar->value() >= bar->maximum();
    m_anchor = first == 0 && !m_following ? QPersistentModelIndex(indexAt(QPoint(1, 1)))
                                          : QPersistentModelIndex();
}

void EventLogView::inserted(const QModelIndex &parent, int first)
{
    if (parent.isValid())
        return;
    if (m_following) {
        scrollToBottom();
    } else if (first == 0 && m_anchor.isValid()) {
        // Older rows came in above: keep the rows that were in sight where they were.
        scrollTo(m_anchor, QAbstractItemView::PositionAtTop);
    }
    m_anchor = QPersistentModelIndex();
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QHeaderView>
#include <QPersistentModelIndex>
#include <QTableView>

namespace converge {

class EventLogModel;

/// The log panel's view: follows new events while it is scrolled to the bottom, and asks the
/// history model for older events when scrolled to the top, keeping the rows in sight where
/// they were.
///
/// A table, not a tree: QTreeView lays out every row again when rows are appended at the top
/// level, which at 300,000 rows stalled the GUI thread for over 100 ms per batch of events.
class EventLogView final : public QTableView
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EventLogView)

public:
    explicit EventLogView(QWidget *parent = nullptr);

    /// The model whose older pages are fetched (the source behind the view's proxy); not owned.
    void setHistoryModel(EventLogModel *history);
    void setModel(QAbstractItemModel *model) override;
    /// The column header (as QTreeView calls it).
    QHeaderView *header() const { return horizontalHeader(); }

    /// Whether new rows scroll the view (true while it is at the bottom).
    bool isFollowing() const { return m_following; }

protected:
    void verticalScrollbarValueChanged(int value) override;

private:
    void aboutToInsert(const QModelIndex &parent, int first);
    void inserted(const QModelIndex &parent, int first);

    EventLogModel *m_history = nullptr; // not owned
    bool m_following = true;
    QPersistentModelIndex m_anchor;
};

} // namespace converge

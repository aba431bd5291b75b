// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QHeaderView>
#include <QPersistentModelIndex>
#include <QTableView>

namespace converge {

class EventLogModel;

/// The log panel's view: follows new events as `journalctl -f` and KSystemLog do, and asks the
/// history model for older events when scrolled to the top, keeping the rows in sight where
/// they were.
///
/// Following keeps the newest row in sight: new rows and repeats moved to the bottom scroll the
/// view down. Scrolling up (wheel, scroll bar, keys) stops following, and from then on new rows
/// leave the view where it is; scrolling back to the bottom, or setFollowing(true) (the log
/// panel's Follow button), follows again.
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

    /// Whether new rows scroll the view to the bottom.
    bool isFollowing() const { return m_following; }
    /// Starts (and scrolls to the bottom) or stops following.
    void setFollowing(bool following);

Q_SIGNALS:
    void followingChanged(bool following);

protected:
    void verticalScrollbarValueChanged(int value) override;

private:
    void aboutToInsert(const QModelIndex &parent, int first);
    void inserted(const QModelIndex &parent, int first);
    void aboutToLayOut();
    void laidOut();
    /// Scrolls without the scroll counting as the person's.
    template<typename Scroll>
    void scrollQuietly(Scroll scroll);

    EventLogModel *m_history = nullptr; // not owned
    bool m_following = true;
    bool m_scrolling = false; // the view scrolls itself: not a reason to stop following
    int m_lastValue = 0;
    QPersistentModelIndex m_anchor;
    int m_anchorRow = -1;
};

} // namespace converge

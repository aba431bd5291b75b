// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QPointer>

#include <utility>

class QTreeView;

namespace converge {

class RowPagingProxy;

/// Keeps the rows a tree view is given around what is in sight, as a person scrolls, expands or
/// resizes: each parent whose last row comes into sight shows more (a page more of the rows a
/// RowPagingProxy holds back, else what the model fetches: a bucket's next page of objects),
/// each parent whose first row comes into sight shows the page before it, and a parent that
/// shows more than a window of rows (5,000 by default) hides pages at the far end, out of sight,
/// so a view's layout stays a few milliseconds however far a person scrolls. The rows in sight
/// stay where they are on the screen. A page that holds a selected row, the current row or
/// one of their owners is never hidden: the details stay on them.
/// QTreeView fetches by itself only for the parents of the very last row, when the scroll bar
/// reaches its end: an account in the middle of the tree would never show past its first page.
class ScrollFetcher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ScrollFetcher)

public:
    /// `pages` must be the view's model, set before; neither is owned. Lives as the view's
    /// child.
    ScrollFetcher(QTreeView *view, RowPagingProxy *pages);

    /// How many rows a parent shows at most once it is scrolled through (at least two pages).
    void setWindowRows(int rows) { m_windowRows = rows; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// Looks once the event loop is back: a batch of changes is looked at once.
    void schedule();
    void fetchInSight();
    /// Hides rows of `parent` that are out of sight past a page's margin, from the end away from
    /// `nearRow` (a row of it in sight or nearest to it), while it shows more than the window.
    void trim(const QModelIndex &parent, int nearRow);
    /// The first and last rows of `parent` that are selected, current, or own such a row.
    std::pair<int, int> heldRows(const QModelIndex &parent) const;

    QPointer<QTreeView> m_view;
    QPointer<RowPagingProxy> m_pages;
    int m_windowRows = 5000;
    bool m_scheduled = false;
};

} // namespace converge

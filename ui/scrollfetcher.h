// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QPointer>

class QTreeView;

namespace converge {

class RowPagingProxy;

/// Shows more rows under each parent whose last row comes into sight of a tree view, as a
/// person scrolls, expands or resizes: a page more of the rows a RowPagingProxy holds back, else
/// what the model fetches (fetchMore: a container's next page of blobs). QTreeView fetches by
/// itself only for the parents of the very last row, when the scroll bar reaches its end: an
/// account in the middle of the tree would never show past its first page.
class ScrollFetcher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ScrollFetcher)

public:
    /// `pages` must be the view's model, set before; neither is owned. Lives as the view's
    /// child.
    ScrollFetcher(QTreeView *view, RowPagingProxy *pages);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// Looks once the event loop is back: a batch of changes is looked at once.
    void schedule();
    void fetchInSight();

    QPointer<QTreeView> m_view;
    QPointer<RowPagingProxy> m_pages;
    bool m_scheduled = false;
};

} // namespace converge

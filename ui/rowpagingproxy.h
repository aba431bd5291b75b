// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractProxyModel>
#include <QList>
#include <QPersistentModelIndex>

#include <algorithm>
#include <utility>
#include <vector>

namespace converge {

/// A tree's rows a page at a time: each parent shows its first rows (a page, 500 by default),
/// a page more each time it is asked (showMore(): ScrollFetcher asks as a person scrolls to the
/// end of what a parent shows) and as far as a row asked for by name (reveal()). QTreeView lays
/// out every row it is given each time rows go in under an expanded parent: with a hundred
/// thousand rows under an account each paint took tens of milliseconds. Rows past a parent's
/// page change nothing a view sees.
///
/// Rows are the source's, in its order: under a sorting and filtering proxy the first rows
/// shown are the first ones of the sorted, filtered whole, so a filter still finds every row.
/// What a parent shows only grows, until its rows are removed or the source resets. Everything
/// but the row counts is the source's (an identity mapping by the source's internal pointers),
/// canFetchMore() and fetchMore() too: QTreeView calls fetchMore() on every expanded parent at
/// each layout, which would show every page within a few paints.
/// The source should not move rows (a QSortFilterProxyModel never does: it tells a sort as a
/// layout change); a move is told as a reset.
class RowPagingProxy final : public QAbstractProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RowPagingProxy)

public:
    explicit RowPagingProxy(QObject *parent = nullptr);

    void setSourceModel(QAbstractItemModel *source) override;
    /// How many rows a parent shows at first, and how many each showMore() adds (at least 1).
    /// Every parent starts again from one page (a reset).
    void setPageSize(int rows);
    int pageSize() const { return m_pageSize; }
    /// The row of `source` here, with the pages of its parent and of the parent's owners grown
    /// to show it; invalid for an invalid index.
    QModelIndex reveal(const QModelIndex &source);
    /// How many of the source's rows under `parent` (an index of this model) are not shown yet.
    int rowsNotShown(const QModelIndex &parent) const;
    /// Shows a page more under `parent` (an index of this model), if it has rows not shown.
    /// Asked while a change is being told (by a listener of it), once the event loop is back.
    void showMore(const QModelIndex &parent);

    QModelIndex mapToSource(const QModelIndex &proxy) const override;
    /// Invalid for a row past its parent's page, or under a parent past its own.
    QModelIndex mapFromSource(const QModelIndex &source) const override;
    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    QModelIndex sibling(int row, int column, const QModelIndex &index) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;

private:
    /// How many rows `sourceParent` may show: a page, or what showMore() and reveal() grew it
    /// to.
    int limitOf(const QModelIndex &sourceParent) const;
    /// How many rows `sourceParent` shows: what was told last while a change is being told,
    /// else the source's count up to the limit.
    int shownOf(const QModelIndex &sourceParent) const;
    /// The row `source` is told at under its parent (its own row but while rows before it are
    /// being told), or -1 for a row not told yet.
    int shownRowOf(const QModelIndex &source) const;
    /// Shows up to `limit` rows under `sourceParent` (a parent shown here), telling the rows
    /// that come; asked while a change is told, once the event loop is back.
    void grow(const QModelIndex &sourceParent, int limit);
    /// Whether a change is being told (then a growth waits for the event loop).
    bool isTelling() const;
    /// Whether `sourceParent` is the root or a row shown here (its page and its owners' pages
    /// hold it).
    bool isShown(const QModelIndex &sourceParent) const;
    void forgetLimits();
    void forgetInvalidLimits();

    void sourceRowsInserted(const QModelIndex &parent, int first, int last);
    void sourceRowsAboutToBeRemoved(const QModelIndex &parent, int first, int last);
    void sourceRowsRemoved(const QModelIndex &parent, int first, int last);
    void sourceDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
                           const QList<int> &roles);
    void sourceLayoutAboutToBeChanged(const QList<QPersistentModelIndex> &parents,
                                      QAbstractItemModel::LayoutChangeHint hint);
    void sourceLayoutChanged(const QList<QPersistentModelIndex> &parents,
                             QAbstractItemModel::LayoutChangeHint hint);

    /// While a change under a parent is told in steps: how many rows it has been told to have.
    /// A stack: a listener may change the source while it hears of a change.
    struct Told
    {
        QPersistentModelIndex parent;
        int rows = 0;
        int shiftFrom = 0; ///< source rows from here on are `shift` further than told
        int shift = 0;
    };
    class Telling;

    int m_pageSize = 500;
    /// Grown parents (a handful) and what they may show; the root's apart (its key is invalid,
    /// as a removed parent's is).
    std::vector<std::pair<QPersistentModelIndex, int>> m_limits;
    int m_rootLimit = 0;
    std::vector<Told> m_told;
    /// A removal being told: the shown rows it removes and the rows shown before.
    struct Removal
    {
        int first = 0;
        int last = -1;
        int shownBefore = 0;
    };
    std::vector<Removal> m_removals;
    /// Of a layout change being told: this model's persistent indexes and their source rows.
    QModelIndexList m_layoutFrom;
    QList<QPersistentModelIndex> m_layoutSources;
    QList<QPersistentModelIndex> m_layoutParents;
    bool m_layoutTold = false;
    bool m_resetting = false;    // a reset (or a move, told as one) is being told
    std::vector<bool> m_columns; // per column change being told: whether it is told here
};

} // namespace converge

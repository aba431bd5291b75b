// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractProxyModel>
#include <QList>
#include <QPersistentModelIndex>

#include <algorithm>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace converge {

/// A tree's rows a window at a time: each parent shows a run of its rows, at first its first
/// page (500 rows by default), a page more at its end each time it is asked (showMore():
/// ScrollFetcher asks as a person scrolls to the end of what a parent shows), a page more at its
/// start (showEarlier()), fewer at either end (hideFirst(), hideLast(): ScrollFetcher keeps a
/// window of a few thousand rows around what is in sight), its first page again
/// (showFirstPage()) and as far as a row asked for by name (reveal()). QTreeView lays out every row
/// it is given each time rows go in or out under an expanded parent, about 0.3 µs a row: with a
/// hundred thousand rows under a bucket each page shown took over 30 ms. Rows outside a parent's
/// window change nothing a view sees.
///
/// Rows are the source's, in its order: under a sorting and filtering proxy the rows shown are a
/// run of the sorted, filtered whole, so a filter still finds every row. The window moves with
/// its rows when rows go in or out before it, and takes the rows after it when rows in it go, or
/// the rows before it at the end of the source; it shows at least a page while the parent has
/// one. Everything but the rows is the source's (an identity mapping by the source's internal
/// pointers), canFetchMore() and fetchMore() too: QTreeView calls fetchMore() on every expanded
/// parent at each layout, which would show every page within a few paints.
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
    /// How many of the source's rows under `parent` (an index of this model) come after the
    /// ones shown.
    int rowsNotShown(const QModelIndex &parent) const;
    /// How many of the source's rows under `parent` (an index of this model) come before the
    /// ones shown: the source's row of its first row here.
    int rowsBefore(const QModelIndex &parent) const;
    /// Shows a page more at the end of `parent` (an index of this model), if rows come after.
    /// Asked while a change is being told (by a listener of it), once the event loop is back; so
    /// are the three below.
    void showMore(const QModelIndex &parent);
    /// Shows a page more at the start of `parent`, if rows come before.
    void showEarlier(const QModelIndex &parent);
    /// Shows `rows` fewer at the start of `parent`, or at its end; a page stays shown.
    void hideFirst(const QModelIndex &parent, int rows);
    void hideLast(const QModelIndex &parent, int rows);
    /// Shows the first page of `parent` again, and nothing past it (ScrollFetcher asks when a
    /// person collapses a parent: opened again, it starts from its first rows).
    void showFirstPage(const QModelIndex &parent);

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
    /// A parent's window: its first row shown, and how many rows it may show from there.
    struct Window
    {
        QPersistentModelIndex parent; // of the source; invalid for the root
        int first = 0;
        int limit = 0; // at least a page
    };
    /// Whether `parent` may be asked about here: an index of this model, or the root.
    bool isParentHere(const QModelIndex &parent) const;
    /// `sourceParent`'s window (the root's is always there), or null when it has none.
    const Window *findWindow(const QModelIndex &sourceParent) const;
    /// `sourceParent`'s window, made (a page from the first row) when it has none.
    Window &windowOf(const QModelIndex &sourceParent);
    /// Moves `window`'s first row (what mapToSource() found last is forgotten).
    void setFirst(Window &window, int first);
    /// The source's row of the first row `sourceParent` shows.
    int firstOf(const QModelIndex &sourceParent) const;
    /// Whether some parent's window does not start at its first row.
    bool anyWindowMoved() const;
    /// How many rows `sourceParent` may show: a page, or what showMore() and reveal() grew it
    /// to.
    int limitOf(const QModelIndex &sourceParent) const;
    /// How many rows `sourceParent` shows: what was told last while a change is being told,
    /// else the source's rows from the window's first up to the limit.
    int shownOf(const QModelIndex &sourceParent) const;
    /// The row `source` is told at under its parent (its row past its window's first, but
    /// while rows before it are being told), or -1 for a row not told yet; negative or past
    /// shownOf() for a row outside the window.
    int shownRowOf(const QModelIndex &source) const;
    /// Shows up to `limit` rows under `sourceParent` (a parent shown here), telling the rows
    /// that come; asked while a change is told, once the event loop is back.
    void grow(const QModelIndex &sourceParent, int limit);
    /// Moves the start of `sourceParent`'s window to the source's row `first`, telling the rows
    /// that come or go there; asked while a change is told, once the event loop is back.
    void moveFirst(const QModelIndex &sourceParent, int first);
    /// Shows `rows` fewer at the end of `sourceParent`, as hideLast().
    void shrink(const QModelIndex &sourceParent, int rows);
    /// Runs `change` once no change is being told: now, or once the event loop is back if
    /// `sourceParent` (the root, or a parent still there then) is still there.
    bool deferWhileTelling(const QModelIndex &sourceParent,
                           std::function<void(const QModelIndex &)> change);
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
    /// The windows of parents grown, shrunk or moved (a handful); the root's apart (its key is
    /// invalid, as a removed parent's is).
    std::vector<Window> m_windows;
    Window m_root;
    /// The first row of the window mapToSource() found last, by the source's internal pointer.
    struct LastFirst
    {
        std::optional<const void *> pointer;
        int first = 0;
    };
    mutable LastFirst m_lastFirst;
    std::vector<Told> m_told;
    /// A removal being told: the shown rows it removes and the rows shown before.
    struct Removal
    {
        int first = 0; // rows here
        int last = -1;
        int shownBefore = 0;
        int beforeWindow = 0; // of the source's rows removed, how many came before the window
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

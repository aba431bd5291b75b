// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "rowpagingproxy.h"

#include <algorithm>

namespace converge {

/// Tells that `parent` has `rows` rows for as long as it lives.
class RowPagingProxy::Telling
{
public:
    /// `rows` told so far; the `shift` source rows from `shiftFrom` on are not told yet (the
    /// rows after them are told where they were).
    Telling(RowPagingProxy &proxy, const QModelIndex &parent, int rows, int shiftFrom = 0,
            int shift = 0)
        : m_proxy(proxy)
    {
        m_proxy.m_told.push_back({QPersistentModelIndex(parent), rows, shiftFrom, shift});
    }
    ~Telling() { m_proxy.m_told.pop_back(); }
    Q_DISABLE_COPY_MOVE(Telling)

    void set(int rows, int shift = 0)
    {
        m_proxy.m_told.back().rows = rows;
        m_proxy.m_told.back().shift = shift;
    }

private:
    RowPagingProxy &m_proxy;
};

RowPagingProxy::RowPagingProxy(QObject *parent)
    : QAbstractProxyModel(parent)
{}

void RowPagingProxy::setSourceModel(QAbstractItemModel *source)
{
    beginResetModel();
    if (QAbstractItemModel *old = sourceModel())
        disconnect(old, nullptr, this, nullptr);
    forgetLimits();
    QAbstractProxyModel::setSourceModel(source);
    if (source) {
        // What mapToSource() found last holds until the source's rows change (a removed
        // parent's internal pointer may come back as another's); first, before any listener.
        const auto forgetOn = [this, source](auto... changes) {
            (connect(source, changes, this, [this] { m_lastFirst.pointer.reset(); }), ...);
        };
        forgetOn(&QAbstractItemModel::rowsAboutToBeInserted, &QAbstractItemModel::rowsInserted,
                 &QAbstractItemModel::rowsAboutToBeRemoved, &QAbstractItemModel::rowsRemoved,
                 &QAbstractItemModel::layoutAboutToBeChanged, &QAbstractItemModel::layoutChanged,
                 &QAbstractItemModel::modelAboutToBeReset, &QAbstractItemModel::modelReset,
                 &QAbstractItemModel::rowsMoved, &QAbstractItemModel::columnsRemoved);
        connect(source, &QAbstractItemModel::rowsInserted, this,
                &RowPagingProxy::sourceRowsInserted);
        connect(source, &QAbstractItemModel::rowsAboutToBeRemoved, this,
                &RowPagingProxy::sourceRowsAboutToBeRemoved);
        connect(source, &QAbstractItemModel::rowsRemoved, this, &RowPagingProxy::sourceRowsRemoved);
        connect(source, &QAbstractItemModel::dataChanged, this, &RowPagingProxy::sourceDataChanged);
        connect(source, &QAbstractItemModel::headerDataChanged, this,
                &QAbstractItemModel::headerDataChanged);
        connect(source, &QAbstractItemModel::layoutAboutToBeChanged, this,
                &RowPagingProxy::sourceLayoutAboutToBeChanged);
        connect(source, &QAbstractItemModel::layoutChanged, this,
                &RowPagingProxy::sourceLayoutChanged);
        // Columns are not paged: told as they come, under the parents shown.
        const auto followColumns = [this, source](auto aboutToChange, auto changed, auto begin,
                                                  auto end) {
            connect(source, aboutToChange, this,
                    [this, begin](const QModelIndex &parent, int first, int last) {
                        m_columns.push_back(isShown(parent));
                        if (m_columns.back())
                            (this->*begin)(mapFromSource(parent), first, last);
                    });
            connect(source, changed, this, [this, end] {
                // Popped once told: a listener's showMore() waits until every listener heard.
                if (m_columns.back())
                    (this->*end)();
                m_columns.pop_back();
            });
        };
        followColumns(&QAbstractItemModel::columnsAboutToBeInserted,
                      &QAbstractItemModel::columnsInserted, &RowPagingProxy::beginInsertColumns,
                      &RowPagingProxy::endInsertColumns);
        followColumns(&QAbstractItemModel::columnsAboutToBeRemoved,
                      &QAbstractItemModel::columnsRemoved, &RowPagingProxy::beginRemoveColumns,
                      &RowPagingProxy::endRemoveColumns);
        // A reset starts every parent again from a page; moves are told as a reset (a sorting
        // proxy, the usual source, never moves rows; the tree's columns are fixed).
        const auto resetBefore = [this] {
            m_resetting = true;
            beginResetModel();
        };
        const auto resetAfter = [this] {
            forgetLimits();
            endResetModel();
            m_resetting = false;
        };
        connect(source, &QAbstractItemModel::modelAboutToBeReset, this, resetBefore);
        connect(source, &QAbstractItemModel::modelReset, this, resetAfter);
        connect(source, &QAbstractItemModel::rowsAboutToBeMoved, this, resetBefore);
        connect(source, &QAbstractItemModel::rowsMoved, this, resetAfter);
        connect(source, &QAbstractItemModel::columnsAboutToBeMoved, this, resetBefore);
        connect(source, &QAbstractItemModel::columnsMoved, this, resetAfter);
    }
    endResetModel();
}

void RowPagingProxy::setPageSize(int rows)
{
    beginResetModel();
    m_pageSize = std::max(1, rows);
    forgetLimits();
    endResetModel();
}

QModelIndex RowPagingProxy::reveal(const QModelIndex &source)
{
    if (!source.isValid() || source.model() != sourceModel())
        return {};
    QModelIndexList chain; // the row and its owners, the top one last
    for (QModelIndex s = source; s.isValid(); s = s.parent())
        chain.append(s);
    for (auto it = chain.crbegin(); it != chain.crend(); ++it) {
        const QModelIndex parent = it->parent();
        // Whole pages: the rows around the one asked for show with it.
        const int first = firstOf(parent);
        if (it->row() < first)
            moveFirst(parent, it->row() - it->row() % m_pageSize);
        else if (it->row() >= first + shownOf(parent))
            grow(parent, ((it->row() - first) / m_pageSize + 1) * m_pageSize);
    }
    return mapFromSource(source);
}

int RowPagingProxy::rowsNotShown(const QModelIndex &parent) const
{
    if (!sourceModel())
        return 0;
    const QModelIndex sourceParent = mapToSource(parent);
    return sourceModel()->rowCount(sourceParent) - firstOf(sourceParent) - shownOf(sourceParent);
}

int RowPagingProxy::rowsBefore(const QModelIndex &parent) const
{
    return sourceModel() ? firstOf(mapToSource(parent)) : 0;
}

QModelIndex RowPagingProxy::mapToSource(const QModelIndex &proxy) const
{
    if (!proxy.isValid() || !sourceModel())
        return {};
    Q_ASSERT(proxy.model() == this);
    const QModelIndex source =
        createSourceIndex(proxy.row(), proxy.column(), proxy.internalPointer());
    if (m_told.empty() && !anyWindowMoved())
        return source;
    if (m_told.empty()) {
        // A layout asks for every row of a parent in turn: the parent's first row, found once.
        // The source's internal pointer stands for the parent here (or for the row, whose
        // parent is as fixed until the source's rows change).
        if (m_lastFirst.pointer != proxy.internalPointer())
            m_lastFirst = {proxy.internalPointer(), firstOf(source.parent())};
        const int row = proxy.row() + m_lastFirst.first;
        return row == proxy.row() ? source : source.siblingAtRow(row);
    }
    const QModelIndex sourceParent = source.parent();
    int row = proxy.row() + firstOf(sourceParent);
    for (auto it = m_told.crbegin(); it != m_told.crend(); ++it) {
        if (it->shift > 0 && row >= it->shiftFrom && it->parent == sourceParent) {
            row += it->shift;
            break;
        }
    }
    return row == proxy.row() ? source : source.siblingAtRow(row);
}

QModelIndex RowPagingProxy::mapFromSource(const QModelIndex &source) const
{
    if (!source.isValid() || source.model() != sourceModel())
        return {};
    for (QModelIndex s = source; s.isValid(); s = s.parent()) {
        const int row = shownRowOf(s);
        if (row < 0 || row >= shownOf(s.parent()))
            return {};
    }
    return createIndex(shownRowOf(source), source.column(), source.internalPointer());
}

QModelIndex RowPagingProxy::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || !sourceModel())
        return {};
    const QModelIndex sourceParent = mapToSource(parent);
    if (row >= shownOf(sourceParent))
        return {};
    const QModelIndex source =
        sourceModel()->index(row + firstOf(sourceParent), column, sourceParent);
    if (!source.isValid())
        return {};
    return createIndex(row, column, source.internalPointer());
}

QModelIndex RowPagingProxy::parent(const QModelIndex &child) const
{
    // A row is only made under a parent that is shown: no need to check the parent's page.
    const QModelIndex sourceParent = mapToSource(child).parent();
    if (!sourceParent.isValid())
        return {};
    return createIndex(shownRowOf(sourceParent), sourceParent.column(),
                       sourceParent.internalPointer());
}

QModelIndex RowPagingProxy::sibling(int row, int column, const QModelIndex &index) const
{
    return this->index(row, column, parent(index));
}

int RowPagingProxy::rowCount(const QModelIndex &parent) const
{
    if (!isParentHere(parent))
        return 0;
    return shownOf(mapToSource(parent));
}

int RowPagingProxy::columnCount(const QModelIndex &parent) const
{
    if (!isParentHere(parent))
        return 0;
    return sourceModel()->columnCount(mapToSource(parent));
}

bool RowPagingProxy::hasChildren(const QModelIndex &parent) const
{
    return sourceModel() && sourceModel()->hasChildren(mapToSource(parent));
}

void RowPagingProxy::showMore(const QModelIndex &parent)
{
    if (!isParentHere(parent))
        return;
    const QModelIndex sourceParent = mapToSource(parent);
    if (firstOf(sourceParent) + shownOf(sourceParent) < sourceModel()->rowCount(sourceParent))
        grow(sourceParent, limitOf(sourceParent) + m_pageSize);
}

void RowPagingProxy::showEarlier(const QModelIndex &parent)
{
    if (!isParentHere(parent))
        return;
    const QModelIndex sourceParent = mapToSource(parent);
    if (const int first = firstOf(sourceParent); first > 0)
        moveFirst(sourceParent, std::max(0, first - m_pageSize));
}

void RowPagingProxy::hideFirst(const QModelIndex &parent, int rows)
{
    if (!isParentHere(parent) || rows <= 0)
        return;
    const QModelIndex sourceParent = mapToSource(parent);
    const int shown = shownOf(sourceParent);
    rows = std::min(rows, shown - std::min(shown, m_pageSize));
    if (rows > 0)
        moveFirst(sourceParent, firstOf(sourceParent) + rows);
}

void RowPagingProxy::hideLast(const QModelIndex &parent, int rows)
{
    if (!isParentHere(parent) || rows <= 0)
        return;
    shrink(mapToSource(parent), rows);
}

void RowPagingProxy::showFirstPage(const QModelIndex &parent)
{
    if (!isParentHere(parent))
        return;
    const QModelIndex sourceParent = mapToSource(parent);
    if (deferWhileTelling(sourceParent, [this](const QModelIndex &source) {
            if (isShown(source))
                showFirstPage(mapFromSource(source));
        }))
        return;
    if (firstOf(sourceParent) == 0 && limitOf(sourceParent) <= m_pageSize)
        return;
    // The rows shown go, then the first page comes: two short changes, however far the window
    // had moved.
    const int shown = shownOf(sourceParent);
    Telling telling(*this, sourceParent, shown);
    if (shown > 0) {
        beginRemoveRows(parent, 0, shown - 1);
        telling.set(0);
        endRemoveRows();
    }
    Window &window = windowOf(sourceParent);
    setFirst(window, 0);
    window.limit = m_pageSize;
    const int page = std::min(sourceModel()->rowCount(sourceParent), m_pageSize);
    if (page > 0) {
        beginInsertRows(parent, 0, page - 1);
        telling.set(page);
        endInsertRows();
    }
}

bool RowPagingProxy::isParentHere(const QModelIndex &parent) const
{
    return sourceModel() && (!parent.isValid() || parent.model() == this);
}

const RowPagingProxy::Window *RowPagingProxy::findWindow(const QModelIndex &sourceParent) const
{
    if (!sourceParent.isValid())
        return &m_root;
    const auto it = std::find_if(m_windows.cbegin(), m_windows.cend(), [&](const Window &window) {
        return window.parent == sourceParent;
    });
    return it == m_windows.cend() ? nullptr : &*it;
}

RowPagingProxy::Window &RowPagingProxy::windowOf(const QModelIndex &sourceParent)
{
    if (!sourceParent.isValid()) {
        m_root.limit = std::max(m_root.limit, m_pageSize);
        return m_root;
    }
    if (const Window *window = findWindow(sourceParent))
        return const_cast<Window &>(*window);
    return m_windows.emplace_back(Window{QPersistentModelIndex(sourceParent), 0, m_pageSize});
}

int RowPagingProxy::firstOf(const QModelIndex &sourceParent) const
{
    const Window *window = findWindow(sourceParent);
    return window ? window->first : 0;
}

bool RowPagingProxy::anyWindowMoved() const
{
    return m_root.first > 0 || std::any_of(m_windows.cbegin(), m_windows.cend(),
                                           [](const Window &window) { return window.first > 0; });
}

int RowPagingProxy::limitOf(const QModelIndex &sourceParent) const
{
    const Window *window = findWindow(sourceParent);
    return window ? std::max(window->limit, m_pageSize) : m_pageSize;
}

int RowPagingProxy::shownRowOf(const QModelIndex &source) const
{
    int row = source.row();
    const bool moved = anyWindowMoved();
    if (!m_told.empty() || moved) {
        const QModelIndex sourceParent = source.parent();
        for (auto it = m_told.crbegin(); it != m_told.crend(); ++it) {
            if (it->shift > 0 && row >= it->shiftFrom && it->parent == sourceParent) {
                if (row - it->shiftFrom < it->shift)
                    return -1;
                row -= it->shift;
                break;
            }
        }
        if (moved)
            row -= firstOf(sourceParent);
    }
    return row;
}

int RowPagingProxy::shownOf(const QModelIndex &sourceParent) const
{
    for (auto it = m_told.crbegin(); it != m_told.crend(); ++it) {
        if (it->parent == sourceParent)
            return it->rows;
    }
    return std::clamp(sourceModel()->rowCount(sourceParent) - firstOf(sourceParent), 0,
                      limitOf(sourceParent));
}

bool RowPagingProxy::deferWhileTelling(const QModelIndex &sourceParent,
                                       std::function<void(const QModelIndex &)> change)
{
    if (!isTelling())
        return false;
    // Asked by a listener while a change is told: rows may not go in or out in the middle of
    // another change, nor before every listener heard of it. Once it is told.
    QMetaObject::invokeMethod(
        this,
        [parent = QPersistentModelIndex(sourceParent), root = !sourceParent.isValid(),
         change = std::move(change)] {
            if (root || parent.isValid())
                change(parent);
        },
        Qt::QueuedConnection);
    return true;
}

void RowPagingProxy::grow(const QModelIndex &sourceParent, int limit)
{
    if (deferWhileTelling(sourceParent,
                          [this, limit](const QModelIndex &parent) { grow(parent, limit); }))
        return;
    const int before = shownOf(sourceParent);
    Window &window = windowOf(sourceParent);
    window.limit = std::max(window.limit, limit);
    if (!isShown(sourceParent))
        return;
    const int after = shownOf(sourceParent);
    if (after <= before)
        return;
    Telling telling(*this, sourceParent, before);
    beginInsertRows(mapFromSource(sourceParent), before, after - 1);
    telling.set(after);
    endInsertRows();
}

void RowPagingProxy::moveFirst(const QModelIndex &sourceParent, int first)
{
    if (deferWhileTelling(sourceParent,
                          [this, first](const QModelIndex &parent) { moveFirst(parent, first); }))
        return;
    const int rows = sourceModel()->rowCount(sourceParent);
    first = std::clamp(first, 0, rows);
    Window &window = windowOf(sourceParent);
    const int was = window.first;
    if (first == was)
        return;
    const bool shown = isShown(sourceParent);
    const QModelIndex parent = shown ? mapFromSource(sourceParent) : QModelIndex();
    // The window keeps its end: what comes or goes is between the two starts.
    if (first < was) {
        if (shown)
            beginInsertRows(parent, 0, was - first - 1);
        setFirst(window, first);
        window.limit += was - first;
        if (shown)
            endInsertRows();
    } else {
        const int last = std::min(first, was + shownOf(sourceParent)) - was - 1;
        if (shown && last >= 0)
            beginRemoveRows(parent, 0, last);
        setFirst(window, first);
        window.limit = std::max(m_pageSize, window.limit - (first - was));
        if (shown && last >= 0)
            endRemoveRows();
    }
}

void RowPagingProxy::shrink(const QModelIndex &sourceParent, int rows)
{
    if (deferWhileTelling(sourceParent,
                          [this, rows](const QModelIndex &parent) { shrink(parent, rows); }))
        return;
    const int shown = shownOf(sourceParent);
    rows = std::min(rows, shown - std::min(shown, m_pageSize));
    if (rows <= 0)
        return;
    Window &window = windowOf(sourceParent);
    const bool told = isShown(sourceParent);
    if (told)
        beginRemoveRows(mapFromSource(sourceParent), shown - rows, shown - 1);
    window.limit = shown - rows;
    if (told)
        endRemoveRows();
}

bool RowPagingProxy::isTelling() const
{
    return !m_told.empty() || !m_removals.empty() || !m_columns.empty() || m_layoutTold ||
           m_resetting;
}

bool RowPagingProxy::isShown(const QModelIndex &sourceParent) const
{
    return !sourceParent.isValid() || mapFromSource(sourceParent).isValid();
}

void RowPagingProxy::setFirst(Window &window, int first)
{
    window.first = first;
    m_lastFirst.pointer.reset();
}

void RowPagingProxy::forgetLimits()
{
    m_lastFirst.pointer.reset();
    m_windows.clear();
    m_root = {};
}

void RowPagingProxy::forgetInvalidLimits()
{
    std::erase_if(m_windows, [](const Window &window) { return !window.parent.isValid(); });
}

void RowPagingProxy::sourceRowsInserted(const QModelIndex &parent, int first, int last)
{
    const int count = last - first + 1;
    const int windowFirst = firstOf(parent);
    if (first < windowFirst) {
        // Rows before the window: it moves with its rows.
        Window &window = windowOf(parent);
        setFirst(window, window.first + count);
        return;
    }
    if (!isShown(parent))
        return;
    const int limit = limitOf(parent);
    const int at = first - windowFirst; // where the rows come here
    const int before = std::clamp(sourceModel()->rowCount(parent) - count - windowFirst, 0, limit);
    if (at > before)
        return; // past the window (the source adds rows at most at its end: first <= its count)
    // The rows that come into the window push as many off its end.
    const int coming = std::min(count, limit - at);
    const int pushed = std::max(0, before + coming - limit);
    if (coming <= 0)
        return;
    const QModelIndex proxy = mapFromSource(parent);
    // The source has its new rows already: until they are told, the rows after them are told
    // where they were.
    Telling telling(*this, parent, before, first, count);
    if (pushed > 0) {
        beginRemoveRows(proxy, before - pushed, before - 1);
        telling.set(before - pushed, count);
        endRemoveRows();
    }
    beginInsertRows(proxy, at, at + coming - 1);
    telling.set(before - pushed + coming);
    endInsertRows();
}

void RowPagingProxy::sourceRowsAboutToBeRemoved(const QModelIndex &parent, int first, int last)
{
    const int windowFirst = firstOf(parent);
    Removal removal{0, -1, 0, std::max(0, std::min(last, windowFirst - 1) - first + 1)};
    if (isShown(parent)) {
        removal.shownBefore = shownOf(parent);
        removal.first = std::max(first, windowFirst) - windowFirst;
        removal.last = std::min(last - windowFirst, removal.shownBefore - 1);
    }
    m_removals.push_back(removal); // first: a listener's showMore() waits
    if (removal.first <= removal.last)
        beginRemoveRows(mapFromSource(parent), removal.first, removal.last);
}

void RowPagingProxy::sourceRowsRemoved(const QModelIndex &parent, int first, int last)
{
    Q_UNUSED(first);
    Q_UNUSED(last);
    forgetInvalidLimits(); // a removed parent's key is invalid now, and would stand for the root
    Q_ASSERT(!m_removals.empty());
    const Removal removal = m_removals.back();
    m_removals.pop_back();
    if (removal.beforeWindow > 0) {
        Window &window = windowOf(parent);
        setFirst(window, window.first - removal.beforeWindow);
    }
    if (removal.first <= removal.last) {
        // Rows past the window move up into it.
        const int left = removal.shownBefore - (removal.last - removal.first + 1);
        Telling telling(*this, parent, left);
        endRemoveRows();
        const int after =
            std::clamp(sourceModel()->rowCount(parent) - firstOf(parent), 0, limitOf(parent));
        if (after > left && isShown(parent)) {
            beginInsertRows(mapFromSource(parent), left, after - 1);
            telling.set(after);
            endInsertRows();
        }
    }
    // A window at the end of fewer rows than a page takes the rows before it.
    const int rows = sourceModel()->rowCount(parent);
    if (const int windowFirst = firstOf(parent); windowFirst > 0 && rows - windowFirst < m_pageSize)
        moveFirst(parent, std::max(0, rows - m_pageSize));
}

void RowPagingProxy::sourceDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
                                       const QList<int> &roles)
{
    const QModelIndex parent = topLeft.parent();
    if (!isShown(parent))
        return;
    const int shown = shownOf(parent);
    const int windowFirst = firstOf(parent);
    const int top = std::max(topLeft.row() - windowFirst, 0);
    const int bottom = std::min(bottomRight.row() - windowFirst, shown - 1);
    if (top > bottom)
        return;
    const QModelIndex proxy = mapFromSource(parent);
    emit dataChanged(index(top, topLeft.column(), proxy),
                     index(bottom, bottomRight.column(), proxy), roles);
}

void RowPagingProxy::sourceLayoutAboutToBeChanged(const QList<QPersistentModelIndex> &parents,
                                                  QAbstractItemModel::LayoutChangeHint hint)
{
    QList<QPersistentModelIndex> shownParents;
    for (const QPersistentModelIndex &parent : parents) {
        const QModelIndex proxy = mapFromSource(parent);
        if (proxy.isValid() || !parent.isValid())
            shownParents.append(proxy);
    }
    // Changes under parents none of which shows change nothing here.
    m_layoutTold = parents.isEmpty() || !shownParents.isEmpty();
    if (!m_layoutTold)
        return;
    m_layoutParents = shownParents;
    emit layoutAboutToBeChanged(m_layoutParents, hint);
    m_layoutFrom = persistentIndexList();
    m_layoutSources.clear();
    m_layoutSources.reserve(m_layoutFrom.size());
    for (const QModelIndex &index : std::as_const(m_layoutFrom))
        m_layoutSources.append(QPersistentModelIndex(mapToSource(index)));
}

void RowPagingProxy::sourceLayoutChanged(const QList<QPersistentModelIndex> &parents,
                                         QAbstractItemModel::LayoutChangeHint hint)
{
    Q_UNUSED(parents);
    if (!m_layoutTold)
        return;
    forgetInvalidLimits();
    QModelIndexList to;
    to.reserve(m_layoutSources.size());
    // A row that left its parent's page (sorted past it) is no longer here.
    for (const QPersistentModelIndex &source : std::as_const(m_layoutSources))
        to.append(mapFromSource(source));
    changePersistentIndexList(m_layoutFrom, to);
    m_layoutFrom.clear();
    m_layoutSources.clear();
    emit layoutChanged(std::exchange(m_layoutParents, {}), hint);
    m_layoutTold = false;
}

} // namespace converge

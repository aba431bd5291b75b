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
        if (it->row() >= shownOf(parent)) {
            // Whole pages: the rows around the one asked for show with it.
            const int pages = it->row() / m_pageSize + 1;
            grow(parent, pages * m_pageSize);
        }
    }
    return mapFromSource(source);
}

int RowPagingProxy::rowsNotShown(const QModelIndex &parent) const
{
    if (!sourceModel())
        return 0;
    const QModelIndex sourceParent = mapToSource(parent);
    return sourceModel()->rowCount(sourceParent) - shownOf(sourceParent);
}

QModelIndex RowPagingProxy::mapToSource(const QModelIndex &proxy) const
{
    if (!proxy.isValid() || !sourceModel())
        return {};
    Q_ASSERT(proxy.model() == this);
    const QModelIndex source =
        createSourceIndex(proxy.row(), proxy.column(), proxy.internalPointer());
    for (auto it = m_told.crbegin(); it != m_told.crend(); ++it) {
        if (it->shift > 0 && source.row() >= it->shiftFrom && it->parent == source.parent())
            return source.siblingAtRow(source.row() + it->shift);
    }
    return source;
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
    const QModelIndex source = sourceModel()->index(row, column, sourceParent);
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
    if (!sourceModel() || (parent.isValid() && parent.model() != this))
        return 0;
    return shownOf(mapToSource(parent));
}

int RowPagingProxy::columnCount(const QModelIndex &parent) const
{
    if (!sourceModel() || (parent.isValid() && parent.model() != this))
        return 0;
    return sourceModel()->columnCount(mapToSource(parent));
}

bool RowPagingProxy::hasChildren(const QModelIndex &parent) const
{
    return sourceModel() && sourceModel()->hasChildren(mapToSource(parent));
}

void RowPagingProxy::showMore(const QModelIndex &parent)
{
    if (!sourceModel() || (parent.isValid() && parent.model() != this))
        return;
    const QModelIndex sourceParent = mapToSource(parent);
    if (shownOf(sourceParent) < sourceModel()->rowCount(sourceParent))
        grow(sourceParent, limitOf(sourceParent) + m_pageSize);
}

int RowPagingProxy::limitOf(const QModelIndex &sourceParent) const
{
    if (!sourceParent.isValid())
        return std::max(m_rootLimit, m_pageSize);
    for (const auto &[parent, limit] : m_limits) {
        if (parent == sourceParent)
            return limit;
    }
    return m_pageSize;
}

int RowPagingProxy::shownRowOf(const QModelIndex &source) const
{
    for (auto it = m_told.crbegin(); it != m_told.crend(); ++it) {
        if (it->shift > 0 && source.row() >= it->shiftFrom && it->parent == source.parent()) {
            const int past = source.row() - it->shiftFrom;
            return past < it->shift ? -1 : source.row() - it->shift;
        }
    }
    return source.row();
}

int RowPagingProxy::shownOf(const QModelIndex &sourceParent) const
{
    for (auto it = m_told.crbegin(); it != m_told.crend(); ++it) {
        if (it->parent == sourceParent)
            return it->rows;
    }
    return std::min(sourceModel()->rowCount(sourceParent), limitOf(sourceParent));
}

void RowPagingProxy::grow(const QModelIndex &sourceParent, int limit)
{
    if (isTelling()) {
        // Asked by a listener while a change is told: rows may not go in in the middle of
        // another change, nor before every listener heard of it. Once it is told.
        QMetaObject::invokeMethod(
            this,
            [this, parent = QPersistentModelIndex(sourceParent), root = !sourceParent.isValid(),
             limit] {
                if (root || parent.isValid())
                    grow(parent, limit);
            },
            Qt::QueuedConnection);
        return;
    }
    const int before = shownOf(sourceParent);
    if (!sourceParent.isValid()) {
        m_rootLimit = std::max(m_rootLimit, limit);
    } else if (auto it =
                   std::find_if(m_limits.begin(), m_limits.end(),
                                [&](const auto &entry) { return entry.first == sourceParent; });
               it == m_limits.end()) {
        m_limits.emplace_back(QPersistentModelIndex(sourceParent), limit);
    } else {
        it->second = std::max(it->second, limit);
    }
    if (!isShown(sourceParent))
        return;
    const int after = std::min(sourceModel()->rowCount(sourceParent), limitOf(sourceParent));
    if (after <= before)
        return;
    Telling telling(*this, sourceParent, before);
    beginInsertRows(mapFromSource(sourceParent), before, after - 1);
    telling.set(after);
    endInsertRows();
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

void RowPagingProxy::forgetLimits()
{
    m_limits.clear();
    m_rootLimit = 0;
}

void RowPagingProxy::forgetInvalidLimits()
{
    std::erase_if(m_limits, [](const auto &entry) { return !entry.first.isValid(); });
}

void RowPagingProxy::sourceRowsInserted(const QModelIndex &parent, int first, int last)
{
    if (!isShown(parent))
        return;
    const int count = last - first + 1;
    const int limit = limitOf(parent);
    const int before = std::min(sourceModel()->rowCount(parent) - count, limit);
    if (first > before)
        return; // past the page (the source adds rows at most at its end: first <= its count)
    // The rows that come into the page push as many off its end.
    const int coming = std::min(count, limit - first);
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
    beginInsertRows(proxy, first, first + coming - 1);
    telling.set(before - pushed + coming);
    endInsertRows();
}

void RowPagingProxy::sourceRowsAboutToBeRemoved(const QModelIndex &parent, int first, int last)
{
    Removal removal{first, -1, 0};
    if (isShown(parent)) {
        removal.shownBefore = shownOf(parent);
        removal.last = std::min(last, removal.shownBefore - 1);
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
    if (removal.first <= removal.last) {
        // Rows past the page move up into it.
        const int left = removal.shownBefore - (removal.last - removal.first + 1);
        Telling telling(*this, parent, left);
        endRemoveRows();
        const int after = std::min(sourceModel()->rowCount(parent), limitOf(parent));
        if (after > left && isShown(parent)) {
            beginInsertRows(mapFromSource(parent), left, after - 1);
            telling.set(after);
            endInsertRows();
        }
    }
}

void RowPagingProxy::sourceDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
                                       const QList<int> &roles)
{
    const QModelIndex parent = topLeft.parent();
    if (!isShown(parent))
        return;
    const int shown = shownOf(parent);
    if (topLeft.row() >= shown)
        return;
    const QModelIndex proxy = mapFromSource(parent);
    emit dataChanged(index(topLeft.row(), topLeft.column(), proxy),
                     index(std::min(bottomRight.row(), shown - 1), bottomRight.column(), proxy),
                     roles);
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

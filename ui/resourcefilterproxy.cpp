// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "resourcefilterproxy.h"

#include "resourcetreemodel.h"

namespace converge {

ResourceFilterProxy::ResourceFilterProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setRecursiveFilteringEnabled(true);
    setDynamicSortFilter(true);
    setSortCaseSensitivity(Qt::CaseInsensitive);
    // The model lists ResourceRole in every dataChanged that touches a resource: re-filter then.
    setFilterRole(ResourceTreeModel::ResourceRole);
}

void ResourceFilterProxy::setSourceModel(QAbstractItemModel *model)
{
    m_tree = qobject_cast<const ResourceTreeModel *>(model);
    Q_ASSERT(!model || m_tree);
    QSortFilterProxyModel::setSourceModel(model);
}

QModelIndex ResourceFilterProxy::mapFromSource(const QModelIndex &source) const
{
    const QModelIndex parent = source.parent();
    if (parent.isValid() && !mapFromSource(parent).isValid())
        return {};
    return QSortFilterProxyModel::mapFromSource(source);
}

void ResourceFilterProxy::setFilter(const ResourceFilter &filter)
{
    if (filter == m_filter)
        return;
    m_filter = filter;
    invalidateFilter();
}

void ResourceFilterProxy::setFilterText(const QString &text)
{
    ResourceFilter f = m_filter;
    f.setText(text);
    setFilter(f);
}

void ResourceFilterProxy::setQuickFilter(ResourceFilter::Quick quick)
{
    ResourceFilter f = m_filter;
    f.setQuick(quick);
    setFilter(f);
}

bool ResourceFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (!m_tree || m_filter.isEmpty())
        return true;
    const QModelIndex index = m_tree->index(sourceRow, 0, sourceParent);
    if (const DiscoveredResource *discovered = m_tree->discoveredAt(index))
        return m_filter.matches(*discovered);
    const Resource *resource = m_tree->resourceAt(index);
    const ReconcileState *state = m_tree->reconcileStateAt(index);
    return resource && state && m_filter.matches(*resource, *state);
}

bool ResourceFilterProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    // Folders first, as file browsers show them.
    const bool leftFolder = left.data(ResourceTreeModel::IsFolderRole).toBool();
    if (leftFolder != right.data(ResourceTreeModel::IsFolderRole).toBool())
        return leftFolder;
    const int c =
        QString::compare(left.data().toString(), right.data().toString(), Qt::CaseInsensitive);
    if (c != 0)
        return c < 0;
    return m_tree && m_tree->keyAt(left) < m_tree->keyAt(right);
}

} // namespace converge

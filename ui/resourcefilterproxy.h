// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcefilter.h"

#include <QSortFilterProxyModel>

namespace converge {

class ResourceTreeModel;

/// The tree as the filter box and quick filters leave it. The rules are ResourceFilter's (core,
/// unit-tested), for managed and discovered rows alike; this proxy only applies them,
/// recursively so that the owners of a match stay visible, and sorts rows by the shown text
/// (case-insensitive, then by key).
class ResourceFilterProxy final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ResourceFilterProxy)

public:
    explicit ResourceFilterProxy(QObject *parent = nullptr);

    /// The source must be a ResourceTreeModel.
    void setSourceModel(QAbstractItemModel *model) override;

    ResourceFilter filter() const { return m_filter; }
    void setFilter(const ResourceFilter &filter);
    void setFilterText(const QString &text);
    void setQuickFilter(ResourceFilter::Quick quick);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    const ResourceTreeModel *m_tree = nullptr; // the source; not owned
    ResourceFilter m_filter;
};

} // namespace converge

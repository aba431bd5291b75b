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
    /// Invalid for a row whose owner the filter hides, as for one it hides itself. Qt 6.4's
    /// mapFromSource() makes a mapping for the parent of any row it maps, hidden or not; with
    /// recursive filtering, rows that match nothing and go in under a hidden parent leave
    /// that mapping as it was, so that once the parent shows it misses them and the next
    /// insertion under it is "invalid inserted rows" (a crash soon after). Asking for the
    /// parent first makes a mapping only under parents that show.
    QModelIndex mapFromSource(const QModelIndex &source) const override;

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

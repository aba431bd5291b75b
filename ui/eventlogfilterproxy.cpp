// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "eventlogfilterproxy.h"

#include "eventlogmodel.h"

namespace converge {

EventLogFilterProxy::EventLogFilterProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setDynamicSortFilter(true);
}

void EventLogFilterProxy::setSourceModel(QAbstractItemModel *model)
{
    m_log = qobject_cast<const EventLogModel *>(model);
    Q_ASSERT(!model || m_log);
    QSortFilterProxyModel::setSourceModel(model);
}

void EventLogFilterProxy::setTypeFilter(std::optional<Event::Type> type)
{
    if (type == m_type)
        return;
    m_type = type;
    invalidateFilter();
}

void EventLogFilterProxy::setTextFilter(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed == m_text)
        return;
    m_text = trimmed;
    invalidateFilter();
}

bool EventLogFilterProxy::canFetchMore(const QModelIndex &) const
{
    return false;
}

void EventLogFilterProxy::fetchMore(const QModelIndex &) {}

bool EventLogFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (!m_log || sourceParent.isValid())
        return true;
    const Event &e = m_log->eventAt(sourceRow);
    if (m_type && e.type != *m_type)
        return false;
    if (m_text.isEmpty())
        return true;
    const auto has = [this](const QString &field) {
        return field.contains(m_text, Qt::CaseInsensitive);
    };
    return has(e.involved.toString()) || has(e.phase) || has(e.reason) || has(e.message);
}

} // namespace converge

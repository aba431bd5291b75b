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
    return accepts(m_log->eventAt(sourceRow), m_type, m_text);
}

bool EventLogFilterProxy::accepts(const Event &e, std::optional<Event::Type> type,
                                  const QString &text)
{
    if (type && e.type != *type)
        return false;
    if (text.isEmpty())
        return true;
    const auto has = [&text](const QString &field) {
        return field.contains(text, Qt::CaseInsensitive);
    };
    return has(e.involved.toString()) || has(e.phase) || has(e.reason) || has(e.message);
}

} // namespace converge

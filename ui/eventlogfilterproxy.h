// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "event.h"

#include <QSortFilterProxyModel>

#include <optional>

namespace converge {

class EventLogModel;

/// The log panel's filter: one event type or all, and a case-insensitive substring over the
/// resource, phase, reason and message. Keeps the source's order (no sorting).
///
/// canFetchMore() is false and fetchMore() does nothing, on purpose: a view asks for more when
/// it is scrolled to the bottom, which in a newest-last log is where it follows live events.
/// EventLogView asks the source for older history when it is scrolled to the top instead.
class EventLogFilterProxy final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EventLogFilterProxy)

public:
    explicit EventLogFilterProxy(QObject *parent = nullptr);

    /// The source must be an EventLogModel.
    void setSourceModel(QAbstractItemModel *model) override;

    std::optional<Event::Type> typeFilter() const { return m_type; }
    void setTypeFilter(std::optional<Event::Type> type);
    QString textFilter() const { return m_text; }
    void setTextFilter(const QString &text);

    /// The rule, for anything that filters events the same way (the export).
    static bool accepts(const Event &event, std::optional<Event::Type> type, const QString &text);

    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    const EventLogModel *m_log = nullptr; // the source; not owned
    std::optional<Event::Type> m_type;
    QString m_text;
};

} // namespace converge

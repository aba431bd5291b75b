// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "statusicons.h"
#include "workspacetypes.h"

#include <QAbstractTableModel>
#include <QList>

namespace converge {

/// A resource's phase runs (Workspace::phaseRuns), newest first: when each started, which
/// phase, how long it took, its outcome (×N when quiet resyncs repeated it: PhaseRun::repeats),
/// the Ready reason after it, the backend's error code and request ID, how many writes it made
/// and its message. Failed runs (outcome Retry or Fatal, or a backend error code) are marked
/// with an icon and FailedRole.
class TimelineModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TimelineModel)

public:
    enum Column {
        StartedColumn,
        PhaseColumn,
        DurationColumn,
        OutcomeColumn,
        ReasonColumn,
        BackendCodeColumn,
        RequestIdColumn,
        WritesColumn,
        MessageColumn,
        ColumnCount
    };
    enum Role { FailedRole = Qt::UserRole + 1, RunIdRole };

    explicit TimelineModel(QObject *parent = nullptr);
    ~TimelineModel() override;

    /// Replaces the rows; `runs` newest first, as the workspace returns them.
    void setRuns(const QList<PhaseRun> &runs);
    void clear();
    const PhaseRun &run(int row) const { return m_rows.at(row).run; }

    /// Whether a run's outcome is a failure.
    static bool isFailure(const PhaseRun &run);
    /// "850 ms", "4.2 s", "3 min 5 s".
    static QString durationText(qint64 milliseconds);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        PhaseRun run;
        QStringList text; ///< display text per column, built once
        bool failed = false;
    };

    QList<Row> m_rows;
    StatusIcons m_icons;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "timelinemodel.h"

#include "localtime.h"

#include <QBrush>
#include <QColor>
#include <QStringList>

namespace converge {

namespace {

// The outcome of a run (the engine's names, stored as such) in the window's language.
QString outcomeText(const QString &outcome)
{
    if (outcome == QLatin1String("Done"))
        return TimelineModel::tr("Done");
    if (outcome == QLatin1String("RequeueAfter"))
        return TimelineModel::tr("Requeued");
    if (outcome == QLatin1String("Retry"))
        return TimelineModel::tr("Retry");
    if (outcome == QLatin1String("Fatal"))
        return TimelineModel::tr("Fatal");
    if (outcome == QLatin1String("Removed"))
        return TimelineModel::tr("Removed");
    return outcome;
}

} // namespace

TimelineModel::TimelineModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

TimelineModel::~TimelineModel() = default;

bool TimelineModel::isFailure(const PhaseRun &run)
{
    return run.outcome == QLatin1String("Retry") || run.outcome == QLatin1String("Fatal") ||
           !run.backendCode.isEmpty();
}

QString TimelineModel::durationText(qint64 ms)
{
    if (ms < 1000)
        return tr("%1 ms").arg(std::max<qint64>(0, ms));
    if (ms < 60'000)
        return tr("%1 s").arg(QString::number(double(ms) / 1000.0, 'f', 1));
    const qint64 seconds = ms / 1000;
    return tr("%1 min %2 s").arg(seconds / 60).arg(seconds % 60);
}

void TimelineModel::setRuns(const QList<PhaseRun> &runs)
{
    beginResetModel();
    m_rows.clear();
    m_rows.reserve(runs.size());
    for (const PhaseRun &r : runs) {
        Row row;
        row.run = r;
        row.failed = isFailure(r);
        // Today's runs by their time alone, so that the column leaves room for what they did.
        row.text = {shortTimeText(r.startedAt, QStringLiteral("HH:mm:ss.zzz"),
                                  QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")),
                    r.phase,
                    durationText(r.durationMs),
                    r.repeats > 1 ? tr("%1 ×%2").arg(outcomeText(r.outcome)).arg(r.repeats)
                                  : outcomeText(r.outcome),
                    r.reason,
                    r.backendCode,
                    r.requestId,
                    QString::number(r.backendWrites),
                    r.message};
        m_rows.append(row);
    }
    endResetModel();
}

void TimelineModel::clear()
{
    setRuns({});
}

int TimelineModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int TimelineModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TimelineModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return row.text.at(index.column());
    case Qt::ToolTipRole:
        if (index.column() == MessageColumn)
            return row.run.message;
        if (index.column() == RequestIdColumn && !row.run.requestId.isEmpty())
            return row.run.requestId;
        if (index.column() == StartedColumn || index.column() == OutcomeColumn) {
            QStringList lines;
            const auto shown = [](const QDateTime &at) {
                return at.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
            };
            if (index.column() == StartedColumn && row.run.startedAt.isValid())
                lines << row.run.startedAt.toLocalTime().toString(
                    QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
            if (row.run.repeats > 1)
                lines << tr("%n runs that found nothing to do, the first at %1, the last at %2",
                            nullptr, row.run.repeats)
                             .arg(shown(row.run.firstStartedAt), shown(row.run.startedAt));
            if (!row.run.reconcileId.isEmpty())
                lines << (row.run.repeats > 1 ? tr("Last reconcile %1") : tr("Reconcile %1"))
                             .arg(row.run.reconcileId);
            return lines.isEmpty() ? QVariant() : QVariant(lines.join(QLatin1Char('\n')));
        }
        return {};
    case Qt::DecorationRole:
        if (index.column() == StartedColumn && row.failed)
            return m_icons.icon(row.run.outcome == QLatin1String("Fatal") ? StatusKind::Error
                                                                          : StatusKind::Warning);
        return {};
    case Qt::ForegroundRole:
        if (row.failed && index.column() == OutcomeColumn)
            return QBrush(QColor(0xd3, 0x2f, 0x2f));
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == DurationColumn || index.column() == WritesColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case FailedRole:
        return row.failed;
    case RunIdRole:
        return row.run.id;
    default:
        return {};
    }
}

QVariant TimelineModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StartedColumn:
        return tr("Started");
    case PhaseColumn:
        return tr("Phase");
    case DurationColumn:
        return tr("Duration");
    case OutcomeColumn:
        return tr("Outcome");
    case ReasonColumn:
        return tr("Reason");
    case BackendCodeColumn:
        return tr("Backend code");
    case RequestIdColumn:
        return tr("Request ID");
    case WritesColumn:
        return tr("Writes");
    case MessageColumn:
        return tr("Message");
    default:
        return {};
    }
}

} // namespace converge

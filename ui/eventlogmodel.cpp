// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "eventlogmodel.h"

#include "controller.h"
#include "localtime.h"
#include "workspace.h"
#include "workspacerunner.h"

#include <QLoggingCategory>

#include <algorithm>

namespace converge {

Q_LOGGING_CATEGORY(lcEventLog, "converge.ui.eventlog")

struct EventLogModel::Page
{
    quint64 epoch = 0;
    QList<Event> events; ///< ascending ids
    qint64 minId = 0;
    qint64 scannedFrom = 0;
    QString error;
};

namespace {

qint64 oldestId(const Workspace &ws)
{
    EventQuery q;
    q.limit = 1;
    const QList<Event> first = ws.events(q);
    return first.isEmpty() ? 0 : first.constFirst().id;
}

// Older pages need an upper bound that EventQuery lacks; a range of at most `pageSize` ids read
// forward from its lower end gives exactly the events of that range. Empty ranges (pruned ids)
// are skipped so that one call shows something whenever older events exist.
EventLogModel::Page olderPage(const Workspace &ws, qint64 upper, int pageSize)
{
    EventLogModel::Page page;
    page.minId = oldestId(ws);
    qint64 lower = upper;
    for (int step = 0; step < 100000 && upper > page.minId; ++step) {
        lower = std::max<qint64>(1, upper - pageSize);
        EventQuery q;
        q.afterId = std::max<qint64>(0, lower - 1);
        q.limit = pageSize;
        for (const Event &e : ws.events(q)) {
            if (e.id < upper)
                page.events.append(e);
        }
        if (!page.events.isEmpty() || lower <= page.minId)
            break;
        upper = lower;
    }
    page.scannedFrom = lower;
    return page;
}

} // namespace

EventLogModel::EventLogModel(WorkspaceRunner &runner, int pageSize, QObject *parent)
    : QAbstractTableModel(parent)
    , m_runner(runner)
    , m_pageSize(std::max(1, pageSize))
{}

EventLogModel::~EventLogModel() = default;

void EventLogModel::follow(Controller *controller)
{
    if (controller)
        connect(controller, &Controller::eventsRecorded, this, &EventLogModel::appendEvents);
}

EventLogModel::Row EventLogModel::makeRow(const Event &event)
{
    // Only the event: the texts are made when a row is shown. Formatting a local time costs
    // tens of microseconds, which for a batch of a thousand events stalled the GUI thread.
    return Row{event};
}

QString EventLogModel::typeText(Event::Type type)
{
    // As the log's type filter says it; files and the command line keep Kubernetes' words.
    return type == Event::Type::Warning ? tr("Warning") : tr("Normal");
}

QString EventLogModel::displayText(const Event &event, int column)
{
    switch (column) {
    case TimeColumn:
        return localTimeText(event.lastTime);
    case TypeColumn:
        return typeText(event.type);
    case ResourceColumn:
        return event.involved.toString();
    case PhaseColumn:
        return event.phase;
    case ReasonColumn:
        return event.reason;
    case MessageColumn:
        return event.message;
    case CountColumn:
        return QString::number(event.count);
    default:
        return {};
    }
}

void EventLogModel::reload()
{
    ++m_epoch;
    beginResetModel();
    m_rows.clear();
    m_seqById.clear();
    m_firstSeq = m_nextSeq = 0;
    m_waiting.clear();
    m_minId = m_scannedFrom = m_lastId = 0;
    endResetModel();
    m_loadingFirst = true;
    m_loadingOlder = m_loadingNewer = false;
    m_runner.run(
        [epoch = m_epoch, pageSize = m_pageSize](Workspace *ws, const StoreError &error) {
            Page page;
            page.epoch = epoch;
            if (!ws) {
                page.error = error.message;
                return page;
            }
            EventQuery q;
            q.newestFirst = true;
            q.limit = pageSize;
            StoreError readError;
            page.events = ws->events(q, &readError);
            if (readError.isError()) {
                page.error = readError.message;
                page.events.clear();
                return page;
            }
            std::reverse(page.events.begin(), page.events.end());
            page.minId = oldestId(*ws);
            page.scannedFrom = page.events.size() < pageSize || page.events.isEmpty()
                                   ? page.minId
                                   : page.events.constFirst().id;
            return page;
        },
        this, [this](Page page) { applyFirst(std::move(page)); });
}

void EventLogModel::applyFirst(Page page)
{
    if (page.epoch != m_epoch)
        return;
    m_loadingFirst = false;
    if (!page.error.isEmpty()) {
        qCWarning(lcEventLog) << "cannot read events:" << page.error;
        Q_EMIT loadFailed(page.error);
    } else {
        m_minId = page.minId;
        m_scannedFrom = page.scannedFrom;
        QList<Row> rows;
        rows.reserve(page.events.size());
        for (const Event &e : std::as_const(page.events))
            rows.append(makeRow(e));
        appendRows(std::move(rows));
    }
    if (!m_waiting.isEmpty())
        integrate(std::exchange(m_waiting, {}));
    Q_EMIT pageLoaded();
}

bool EventLogModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_loadingFirst && !m_loadingOlder && m_scannedFrom > m_minId;
}

void EventLogModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    m_loadingOlder = true;
    m_runner.run(
        [epoch = m_epoch, upper = m_scannedFrom, pageSize = m_pageSize](Workspace *ws,
                                                                        const StoreError &error) {
            Page page;
            if (ws)
                page = olderPage(*ws, upper, pageSize);
            else
                page.error = error.message;
            page.epoch = epoch;
            return page;
        },
        this, [this](Page page) { applyOlder(std::move(page)); });
}

void EventLogModel::applyOlder(Page page)
{
    if (page.epoch != m_epoch)
        return;
    m_loadingOlder = false;
    if (!page.error.isEmpty()) {
        qCWarning(lcEventLog) << "cannot read older events:" << page.error;
        Q_EMIT loadFailed(page.error);
        return;
    }
    m_minId = page.minId;
    m_scannedFrom = page.scannedFrom;
    // A live repeat may have shown one of these already; the history keeps its place.
    QList<Row> older;
    older.reserve(page.events.size());
    for (const Event &e : std::as_const(page.events)) {
        if (!m_seqById.contains(e.id))
            older.append(makeRow(e));
    }
    if (!older.isEmpty()) {
        const auto n = older.size();
        beginInsertRows({}, 0, int(n) - 1);
        m_firstSeq -= n;
        for (qsizetype i = 0; i < n; ++i) {
            older[i].seq = m_firstSeq + i;
            m_seqById.insert(older.at(i).event.id, older.at(i).seq);
        }
        m_rows.insert(m_rows.begin(), std::make_move_iterator(older.begin()),
                      std::make_move_iterator(older.end()));
        endInsertRows();
    }
    Q_EMIT pageLoaded();
}

void EventLogModel::fetchNewer()
{
    if (m_loadingFirst || m_loadingNewer)
        return;
    m_loadingNewer = true;
    m_runner.run(
        [epoch = m_epoch, after = m_lastId](Workspace *ws, const StoreError &error) {
            Page page;
            page.epoch = epoch;
            if (!ws) {
                page.error = error.message;
                return page;
            }
            EventQuery q;
            q.afterId = after;
            q.limit = 0;
            StoreError readError;
            page.events = ws->events(q, &readError);
            if (readError.isError())
                page.error = readError.message;
            return page;
        },
        this,
        [this](Page page) {
            if (page.epoch != m_epoch)
                return;
            m_loadingNewer = false;
            if (!page.error.isEmpty())
                Q_EMIT loadFailed(page.error);
            else
                integrate(page.events);
        });
}

void EventLogModel::appendEvents(const QList<Event> &events)
{
    if (m_loadingFirst) {
        m_waiting.append(events);
        return;
    }
    integrate(events);
}

void EventLogModel::integrate(const QList<Event> &events)
{
    // The batch in arrival order, each event once, at its last occurrence.
    QList<Event> batch;
    QHash<qint64, qsizetype> batchById;
    for (const Event &e : events) {
        if (e.id > 0) {
            if (const auto it = batchById.constFind(e.id); it != batchById.cend())
                batch[*it].id = -e.id; // superseded by this later occurrence: dropped below
            batchById.insert(e.id, batch.size());
        }
        batch.append(e);
    }
    QList<Row> fresh;
    // The rows that end the log, in arrival order: (id, whether it is new to the model).
    QList<std::pair<qint64, bool>> order;
    bool repeated = false;
    int firstChanged = -1;
    int lastChanged = -1;
    for (const Event &e : std::as_const(batch)) {
        if (e.id < 0)
            continue;
        if (e.id > 0) {
            if (const qsizetype row = rowOfId(e.id); row >= 0) {
                Event &shown = m_rows[size_t(row)].event;
                // The same occurrence again (the first page read it already): it keeps its place.
                const bool again = e.count > shown.count || e.lastTime != shown.lastTime;
                shown = e;
                if (again) {
                    repeated = true;
                } else {
                    firstChanged = firstChanged < 0 ? int(row) : std::min(firstChanged, int(row));
                    lastChanged = std::max(lastChanged, int(row));
                    continue;
                }
                order.append({e.id, false});
            } else {
                fresh.append(makeRow(e));
                order.append({e.id, true});
            }
        } else {
            fresh.append(makeRow(e));
            order.append({0, true});
        }
    }
    if (firstChanged >= 0) {
        Q_EMIT dataChanged(index(firstChanged, 0), index(lastChanged, ColumnCount - 1),
                           {Qt::DisplayRole, LastTimeRole});
    }
    appendRows(std::move(fresh));
    if (repeated)
        moveToBottom(order);
}

void EventLogModel::appendRows(QList<Row> rows)
{
    if (rows.isEmpty())
        return;
    const int first = int(m_rows.size());
    beginInsertRows({}, first, first + int(rows.size()) - 1);
    for (Row &row : rows) {
        const qint64 id = row.event.id;
        row.seq = m_nextSeq++;
        if (id > 0) {
            m_seqById.insert(id, row.seq);
            m_lastId = std::max(m_lastId, id);
        }
        m_rows.push_back(std::move(row));
    }
    endInsertRows();
}

void EventLogModel::moveToBottom(const QList<std::pair<qint64, bool>> &order)
{
    // The rows of `order` end the log in that order: the rows seen before (by id) move there,
    // the new ones, just appended in that order, take their places among them; the rows between
    // keep theirs. One layout change for the batch: QSortFilterProxyModel maps a move as a
    // layout change of its own, and one per row would filter the whole log again for each.
    const qsizetype rows = qsizetype(m_rows.size());
    qsizetype freshCount = 0;
    qsizetype first = rows;
    QHash<qint64, qsizetype> movedPlace; // id of a row seen before -> place in `order`
    QList<qsizetype> freshPlaces;        // the places of the new rows, in the order appended
    for (qsizetype i = 0; i < order.size(); ++i) {
        if (order.at(i).second) {
            ++freshCount;
            freshPlaces.append(i);
        } else {
            movedPlace.insert(order.at(i).first, i);
            first = std::min(first, rowOfId(order.at(i).first));
        }
    }
    first = std::min(first, rows - freshCount);
    Q_ASSERT(first >= 0);
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const qsizetype count = rows - first;
    const qsizetype staying = count - order.size();
    std::vector<Row> segment(std::make_move_iterator(m_rows.begin() + first),
                             std::make_move_iterator(m_rows.end()));
    std::vector<int> newRow(size_t(count), -1); // old row - first -> new row
    int next = int(first);
    for (qsizetype i = 0; i < count; ++i) {
        const Row &row = segment[size_t(i)];
        const qsizetype freshIndex = i - (count - freshCount);
        const auto moved =
            row.event.id > 0 ? movedPlace.constFind(row.event.id) : movedPlace.cend();
        if (freshIndex >= 0)
            newRow[size_t(i)] = int(first + staying + freshPlaces.at(freshIndex));
        else if (moved != movedPlace.cend())
            newRow[size_t(i)] = int(first + staying + *moved);
        else
            newRow[size_t(i)] = next++;
    }
    Q_ASSERT(next == first + staying);
    for (qsizetype i = 0; i < count; ++i)
        m_rows[size_t(newRow[size_t(i)])] = std::move(segment[size_t(i)]);
    // The staying rows keep their numbers; the moved and the new ones take higher ones.
    for (qsizetype row = first + staying; row < rows; ++row) {
        Row &r = m_rows[size_t(row)];
        r.seq = m_nextSeq++;
        if (r.event.id > 0)
            m_seqById.insert(r.event.id, r.seq);
    }
    const QModelIndexList before = persistentIndexList();
    QModelIndexList after;
    after.reserve(before.size());
    for (const QModelIndex &i : before) {
        const int row = i.row() < first ? i.row() : newRow[size_t(i.row() - first)];
        after.append(index(row, i.column()));
    }
    changePersistentIndexList(before, after);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

qsizetype EventLogModel::rowOfId(qint64 id) const
{
    const auto it = m_seqById.constFind(id);
    if (it == m_seqById.cend())
        return -1;
    const auto found = std::lower_bound(m_rows.cbegin(), m_rows.cend(), *it,
                                        [](const Row &row, qint64 seq) { return row.seq < seq; });
    Q_ASSERT(found != m_rows.cend() && found->seq == *it);
    return found == m_rows.cend() || found->seq != *it ? -1 : qsizetype(found - m_rows.cbegin());
}

int EventLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int EventLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EventLogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(size_t(index.row()));
    switch (role) {
    case Qt::DisplayRole:
        return displayText(row.event, index.column());
    case Qt::DecorationRole:
        return index.column() == TypeColumn && row.event.type == Event::Type::Warning
                   ? QVariant(m_icons.icon(StatusKind::Warning))
                   : QVariant();
    case Qt::ToolTipRole:
        return index.column() == MessageColumn || index.column() == ReasonColumn ? row.event.message
                                                                                 : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() == CountColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                             : QVariant();
    case EventIdRole:
        return row.event.id;
    case KeyRole:
        return QVariant::fromValue(row.event.involved);
    case TypeRole:
        return int(row.event.type);
    case ReasonRole:
        return row.event.reason;
    case LastTimeRole:
        return row.event.lastTime;
    default:
        return {};
    }
}

QVariant EventLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case TypeColumn:
        return tr("Type");
    case ResourceColumn:
        return tr("Resource");
    case PhaseColumn:
        return tr("Phase");
    case ReasonColumn:
        return tr("Reason");
    case MessageColumn:
        return tr("Message");
    case CountColumn:
        return tr("Count");
    default:
        return {};
    }
}

} // namespace converge

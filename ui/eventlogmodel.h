// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "event.h"
#include "statusicons.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>

#include <array>
#include <deque>
#include <utility>

namespace converge {

class Controller;
class WorkspaceRunner;

/// The workspace's events, oldest at the top and newest last, as a log.
///
/// Starts with the newest page (loaded on a WorkspaceRunner's thread); canFetchMore/fetchMore
/// prepend the page of older events before the first row, one page per call (ids are paged by
/// range, since EventQuery pages only forward). Live batches from the controller are appended
/// in arrival order with one beginInsertRows per batch. An event seen again (aggregated, as
/// Kubernetes does: same id, higher count) is its newest occurrence, so its row moves to the
/// bottom with the new count and last time, as a log viewer shows it: one layout change per
/// batch moves every repeat of the batch, and persistent indexes (a view's selection) move with
/// their rows. A repeat of an event older than the loaded history comes in at the bottom too,
/// and that history leaves it out when it is paged in. Batches that arrive while the first page
/// loads wait for it.
class EventLogModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EventLogModel)

public:
    enum Column {
        TimeColumn,
        TypeColumn,
        ResourceColumn,
        PhaseColumn,
        ReasonColumn,
        MessageColumn,
        CountColumn,
        ColumnCount
    };
    enum Role {
        EventIdRole = Qt::UserRole + 1, ///< qint64
        KeyRole,                        ///< ResourceKey of the involved resource
        TypeRole,                       ///< int: Event::Type
        ReasonRole,                     ///< QString
        LastTimeRole,                   ///< QDateTime (UTC)
    };

    /// The runner is not owned and must outlive the model.
    explicit EventLogModel(WorkspaceRunner &runner, int pageSize = 500, QObject *parent = nullptr);
    ~EventLogModel() override;

    /// Drops what is shown and loads the newest page.
    void reload();
    /// Appends a live batch (events with ids); repeats update their rows.
    void appendEvents(const QList<converge::Event> &events);
    /// Reads events newer than the last one shown (written by another process) and appends
    /// them as one batch.
    void fetchNewer();
    /// Follows the controller's batched eventsRecorded signal.
    void follow(Controller *controller);

    bool isLoading() const { return m_loadingFirst || m_loadingOlder || m_loadingNewer; }
    int pageSize() const { return m_pageSize; }
    const Event &eventAt(int row) const { return m_rows.at(size_t(row)).event; }

    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    struct Page;

    /// "Normal" or "Warning" in the window's language (files and the CLI keep Kubernetes' words).
    static QString typeText(Event::Type type);

Q_SIGNALS:
    /// A page of history (the first or an older one) is in the model.
    void pageLoaded();
    void loadFailed(const QString &message);

private:
    struct Row
    {
        Event event;
        qint64 seq = 0; // ascending from the top row down; a moved row takes a new, higher one
    };
    static Row makeRow(const Event &event);
    static QString displayText(const Event &event, int column);
    void applyFirst(Page page);
    void applyOlder(Page page);
    void integrate(const QList<Event> &events);
    qsizetype rowOfId(qint64 id) const;
    void appendRows(QList<Row> rows);
    void moveToBottom(const QList<std::pair<qint64, bool>> &order);

    WorkspaceRunner &m_runner;
    const int m_pageSize;
    StatusIcons m_icons;
    // History ascending by id, then live rows as they came. A deque: appending never moves
    // the rows already there (a QList's reallocation did, stalling the GUI thread on big logs)
    // and older pages are prepended in the time of the page, not of the whole log.
    std::deque<Row> m_rows;
    // id -> the row's sequence number; rows are sorted by it, so a row is found by a binary
    // search, and moving one row to the bottom renumbers that row alone.
    QHash<qint64, qint64> m_seqById;
    qint64 m_firstSeq = 0;    // the sequence number of row 0 (decreases on prepend)
    qint64 m_nextSeq = 0;     // the sequence number of the next row appended
    QList<Event> m_waiting;   // live batches that came while the first page loaded
    qint64 m_minId = 0;       // the oldest id in the workspace when last asked
    qint64 m_scannedFrom = 0; // every id >= this is shown (or was never stored)
    qint64 m_lastId = 0;      // the highest id shown
    quint64 m_epoch = 0;
    bool m_loadingFirst = false;
    bool m_loadingOlder = false;
    bool m_loadingNewer = false;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "storeerror.h"

#include <QSqlDatabase>
#include <QSqlQuery>

#include <array>
#include <memory>
#include <mutex>

namespace converge {

/// The statements of WriteTransaction, prepared once per connection: parsing BEGIN, COMMIT and a
/// savepoint's two statements again at each of a reconcile's writes cost as much as the writes.
class TransactionStatements final
{
public:
    enum Which { Begin, Commit, Savepoint, Release, Rollback, RollbackTo, Count };

    static QString sql(Which which);

    /// The statement `which` on `db`, prepared at first use; null if it cannot be prepared.
    QSqlQuery *get(const QSqlDatabase &db, Which which);

private:
    std::array<std::unique_ptr<QSqlQuery>, Count> m_queries;
};

/// BEGIN IMMEDIATE takes the write lock up front (waiting up to the busy timeout), so a writer
/// never fails half-way because another connection wrote first. Rolls back unless committed.
/// Inside Workspace::writeTogether() (`depth` above 0) it is a savepoint of that transaction
/// instead: the call still lands or fails as a whole, and the batch pays one lock and commit.
class WriteTransaction final
{
public:
    /// `writers`, when set, is held from begin() to the end: connections of one process that
    /// share it queue on it rather than in SQLite's busy handler, which sleeps in steps of up
    /// to 100 ms while another connection writes.
    explicit WriteTransaction(const QSqlDatabase &db, std::mutex *writers = nullptr,
                              int *depth = nullptr, TransactionStatements *statements = nullptr);
    ~WriteTransaction();
    Q_DISABLE_COPY_MOVE(WriteTransaction)

    bool begin(StoreError *error);
    bool commit(StoreError *error);

private:
    void leave();
    bool run(TransactionStatements::Which which, StoreError *error);

    QSqlDatabase m_db;
    std::mutex *m_writers;               ///< not owned
    int *m_depth;                        ///< not owned
    TransactionStatements *m_statements; ///< not owned
    bool m_active = false;
    bool m_locked = false;
    bool m_nested = false;
};

} // namespace converge

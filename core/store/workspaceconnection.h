// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "storeerror.h"
#include "workspace.h"
#include "writetransaction.h"

#include <QHash>
#include <QSqlDatabase>
#include <QString>

#include <memory>
#include <mutex>

class QSqlQuery;

namespace converge {

/// One SQLite connection to a workspace file, shared by the stores of each concern: opening it
/// (recognising the file without changing it, its pragmas, bringing its layout up to date with
/// WorkspaceSchema), the statements prepared once for it, and its writers' transactions.
///
/// Not thread-safe, like the Workspace that owns it.
class WorkspaceConnection final
{
public:
    /// Inspects the file at `path` and opens it, creating it when `mode` allows (see
    /// Workspace::open()).
    static std::unique_ptr<WorkspaceConnection> open(const QString &path, Workspace::OpenMode mode,
                                                     StoreError *error);
    /// Another connection to the same file, without the full inspection (see
    /// Workspace::openAnother()). Safe from any thread: it reads only the path.
    std::unique_ptr<WorkspaceConnection> openAnother(StoreError *error) const;
    ~WorkspaceConnection();
    Q_DISABLE_COPY_MOVE(WorkspaceConnection)

    QString path() const { return m_path; }
    const QSqlDatabase &db() const { return m_db; }

    /// `sql` prepared once per connection and kept (the controller's writes run a few
    /// statements per reconcile, and parsing them each time cost as much as running them);
    /// null, with `error`, when it cannot be prepared. Call finish() after use.
    QSqlQuery *statement(const QString &sql, StoreError *error) const;

    /// A WriteTransaction of this connection: the process's writer lock, nesting inside
    /// Workspace::writeTogether(), statements prepared once.
    WriteTransaction transaction()
    {
        return WriteTransaction(m_db, m_writers.get(), &m_writeDepth, &m_transactions);
    }
    /// True while a WriteTransaction of this connection is open.
    bool isWriting() const { return m_writeDepth > 0; }

    /// See Workspace::setRelaxedDurability().
    void setRelaxedDurability(bool on);
    bool isRelaxed() const { return m_relaxed; }
    /// See Workspace::shareWriteLock().
    void shareWriteLock(std::shared_ptr<std::mutex> writers) { m_writers = std::move(writers); }

    /// PRAGMA data_version.
    qint64 dataVersion() const;

    /// Whether the path still names the file this connection opened. SQLite keeps writing to
    /// an open file that was deleted, moved away or replaced, where nobody would see it again:
    /// writers check first and refuse with a message saying what happened. Once the file is
    /// back where it was (the same file), writes go on.
    bool checkFile(StoreError *error) const;

private:
    explicit WorkspaceConnection(const QString &path);
    bool open(bool blank, Workspace::OpenMode mode, StoreError *error);

    QString m_path;
    QString m_name;
    quint64 m_device = 0; ///< of the file opened, for checkFile()
    quint64 m_inode = 0;
    QSqlDatabase m_db;
    bool m_relaxed = false;
    mutable QHash<QString, std::shared_ptr<QSqlQuery>> m_statements; ///< statement()
    std::shared_ptr<std::mutex> m_writers; ///< shared with the process's other connections, or null
    int m_writeDepth = 0; ///< open WriteTransactions (writeTogether() and the calls inside it)
    TransactionStatements m_transactions; ///< their statements, prepared once
};

} // namespace converge

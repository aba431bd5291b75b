// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QSqlDatabase>

namespace converge {

/// Switches a connection's synchronous mode for the length of a scope and back to its default.
/// Commits that are cheap to lose on power failure (events, controller bookkeeping) skip the
/// fsync: in WAL mode NORMAL still never corrupts and survives a crash of the process, and the
/// next FULL commit syncs them too. Desired state written by people is always FULL.
class SyncScope final
{
public:
    SyncScope(const QSqlDatabase &db, bool relaxedDefault, bool relaxed);
    ~SyncScope();
    Q_DISABLE_COPY_MOVE(SyncScope)

    /// Sets the mode of `db` for good: NORMAL when `relaxed`, else FULL.
    static void set(const QSqlDatabase &db, bool relaxed);

private:
    QSqlDatabase m_db;
    bool m_changed;
    bool m_default;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QtGlobal>

class QSqlDatabase;

namespace converge {

/// The layout of a workspace file and the way older layouts are brought up to date.
///
/// A workspace says what it is in the SQLite header: `PRAGMA application_id` is
/// applicationId() and `PRAGMA user_version` the layout version. Each version is one step of
/// statements applied to the previous one; a new file runs every step from version 0, so the
/// migration path is the creation path and is exercised by every new workspace.
class WorkspaceSchema final
{
public:
    /// "Conv" in ASCII. Fixed forever: it is how a file is recognised as a workspace.
    static constexpr quint32 applicationId = 0x436F6E76;

    /// The layout this build writes.
    static int currentVersion();

    /// Runs the steps after `fromVersion` up to currentVersion() on `db`, then records the new
    /// application_id and user_version. The caller holds the write transaction, so a failed step
    /// leaves the file as it was.
    static bool upgrade(QSqlDatabase &db, int fromVersion, QString *error);
    /// The same up to `toVersion` alone: how a test makes the file an earlier version wrote.
    static bool upgrade(QSqlDatabase &db, int fromVersion, int toVersion, QString *error);
};

} // namespace converge

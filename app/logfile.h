// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace converge {

/// Copies every Qt message that its category lets through (the `converge.*` categories, one per
/// layer: converge.store, converge.engine.controller, converge.backend.http, converge.ui.*; see
/// QT_LOGGING_RULES) to a log file in the state folder, besides stderr: one line each, with the
/// time (UTC), the level and the category. The file is bounded: past `maxBytes` it is renamed
/// to PATH.1 (replacing the one before) and a new one starts, so at most twice the size is kept.
///
/// A message handler takes no object, so the open file lives in static storage guarded by a
/// mutex: this, like CrashReporter, is process-wide state, installed by main() once. The
/// handler before it (stderr, and the crash reporter's) still sees every message.
class LogFile final
{
public:
    explicit LogFile(const QString &path, qint64 maxBytes = qint64(4) * 1024 * 1024);
    ~LogFile();
    LogFile(const LogFile &) = delete;
    LogFile &operator=(const LogFile &) = delete;

    /// Whether the file could be opened (a read-only state folder leaves stderr only).
    bool isOpen() const;
    QString path() const { return m_path; }

private:
    QString m_path;
};

} // namespace converge

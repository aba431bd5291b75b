// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

namespace converge {

/// Leaves a report when the process dies of a fatal signal (SIGSEGV, SIGBUS, SIGABRT, SIGFPE,
/// SIGILL), qFatal() or an uncaught exception: `crash-PID.txt` in the state folder with the
/// time, the version, the signal or message, the crashing thread's backtrace and, where gdb is
/// installed, a symbolized backtrace of every thread. The next start tells once where it is.
///
/// A signal handler can reach no object: what it needs (the report's path, the version) is
/// prepared when install() runs and kept in static storage, which is why this is the one piece
/// of process-wide state. One instance, made by main(), installs it; its destructor uninstalls.
class CrashReporter final
{
public:
    /// `stateDir`: where reports are written ($XDG_STATE_HOME/converge by default).
    explicit CrashReporter(const QString &stateDir);
    ~CrashReporter();
    CrashReporter(const CrashReporter &) = delete;
    CrashReporter &operator=(const CrashReporter &) = delete;

    /// $XDG_STATE_HOME/converge, else ~/.local/state/converge.
    static QString defaultStateDir();

    /// Reports that no start has announced yet, oldest first; each is marked as announced
    /// (renamed to crash-PID.reported.txt) so that it is told once.
    QStringList takeUnannouncedReports();
    /// One line a person reads: "Converge crashed (signal 11, SIGSEGV) on …; the report is …".
    static QString describe(const QString &reportPath);

private:
    QString m_stateDir;
};

} // namespace converge

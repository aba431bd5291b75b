// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QtGlobal>

#include <memory>

class QLockFile;

namespace converge {

/// Says whether this process may run the Controller of a workspace: at most one process at a
/// time does (the window, `converge run`, or a CLI command that waits), the others only read
/// what it writes.
///
/// A QLockFile on "<workspace>.lock" with no stale time: the lock is held as long as its owner
/// lives and is taken over when the owner died (its PID is gone) without unlocking.
class ControllerLock final
{
public:
    /// Does not lock; call tryLock().
    explicit ControllerLock(const QString &workspacePath);
    /// Releases the lock if this object holds it.
    ~ControllerLock();
    Q_DISABLE_COPY_MOVE(ControllerLock)

    /// "<workspacePath>.lock".
    static QString lockPath(const QString &workspacePath);

    /// Takes the lock without waiting; true when this object holds it (also when it already
    /// did). False when another process (or another ControllerLock) holds it, or on an error
    /// (see errorString()).
    bool tryLock();
    void unlock();
    bool isLocked() const;

    /// The PID of the process holding the lock, or 0 when none is known (free, or unreadable).
    qint64 ownerPid() const;
    /// Why the last tryLock() failed, for people: "held by process 1234 (converge)", or a
    /// file-system error.
    QString errorString() const;

private:
    QString m_path;
    std::unique_ptr<QLockFile> m_lock;
    QString m_error;
};

} // namespace converge

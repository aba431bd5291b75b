// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "controllerlock.h"

#include <QLockFile>

namespace converge {

ControllerLock::ControllerLock(const QString &workspacePath)
    : m_path(lockPath(workspacePath))
    , m_lock(std::make_unique<QLockFile>(m_path))
{
    // The controller runs for hours: only a dead owner (or a reboot) makes the lock stale,
    // never its age.
    m_lock->setStaleLockTime(0);
}

ControllerLock::~ControllerLock() = default; // QLockFile unlocks in its destructor

QString ControllerLock::lockPath(const QString &workspacePath)
{
    return workspacePath + QStringLiteral(".lock");
}

bool ControllerLock::tryLock()
{
    if (m_lock->isLocked())
        return true;
    m_error.clear();
    if (m_lock->tryLock(0))
        return true;
    switch (m_lock->error()) {
    case QLockFile::LockFailedError: {
        qint64 pid = 0;
        QString host;
        QString app;
        if (m_lock->getLockInfo(&pid, &host, &app))
            m_error = QStringLiteral("held by process %1 (%2)").arg(pid).arg(app);
        else
            m_error = QStringLiteral("held by another process");
        break;
    }
    case QLockFile::PermissionError:
        m_error = QStringLiteral("cannot create %1: permission denied").arg(m_path);
        break;
    default:
        m_error = QStringLiteral("cannot create %1").arg(m_path);
        break;
    }
    return false;
}

void ControllerLock::unlock()
{
    m_lock->unlock();
}

bool ControllerLock::isLocked() const
{
    return m_lock->isLocked();
}

qint64 ControllerLock::ownerPid() const
{
    qint64 pid = 0;
    if (!m_lock->getLockInfo(&pid, nullptr, nullptr))
        return 0;
    return pid;
}

QString ControllerLock::errorString() const
{
    return m_error;
}

} // namespace converge

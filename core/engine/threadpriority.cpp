// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "threadpriority.h"

#include <QThread>
#include <QtGlobal>

#ifdef Q_OS_LINUX
#include <cerrno>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace converge {

#ifdef Q_OS_LINUX
namespace {

id_t currentThreadId()
{
    // Linux applies PRIO_PROCESS to the one thread whose id is given (not POSIX's process).
    return id_t(syscall(SYS_gettid));
}

} // namespace
#endif

void ThreadPriority::lowerCurrent()
{
#ifdef Q_OS_LINUX
    const std::optional<int> now = currentNice();
    if (now && *now < backgroundNice)
        (void)setpriority(PRIO_PROCESS, currentThreadId(), backgroundNice);
#else
    // Also for a thread Qt did not start (e.g. a pool's): setPriority() needs a running thread.
    QThread::currentThread()->setPriority(QThread::LowPriority);
#endif
}

std::optional<int> ThreadPriority::currentNice()
{
#ifdef Q_OS_LINUX
    errno = 0;
    const int nice = getpriority(PRIO_PROCESS, currentThreadId());
    if (nice == -1 && errno != 0)
        return std::nullopt;
    return nice;
#else
    return std::nullopt;
#endif
}

} // namespace converge

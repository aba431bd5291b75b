// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QDateTime>

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace converge {

/// The engine's source of time, injectable so that backoff tests take no real seconds.
class Clock
{
public:
    virtual ~Clock() = default;
    /// The current time, UTC.
    virtual QDateTime now() const = 0;
    /// Waits on `cv` until notified or until `deadline` (this clock's time) has come. A manual
    /// clock wakes waiters when it is advanced.
    virtual void waitUntil(std::condition_variable &cv, std::unique_lock<std::mutex> &lock,
                           const QDateTime &deadline) = 0;
};

/// Wall-clock time.
class SystemClock final : public Clock
{
public:
    QDateTime now() const override { return QDateTime::currentDateTimeUtc(); }
    void waitUntil(std::condition_variable &cv, std::unique_lock<std::mutex> &lock,
                   const QDateTime &deadline) override
    {
        if (!deadline.isValid()) {
            cv.wait(lock);
            return;
        }
        const qint64 ms = QDateTime::currentDateTimeUtc().msecsTo(deadline);
        if (ms > 0)
            cv.wait_for(lock, std::chrono::milliseconds(ms));
    }
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "clock.h"

#include <QDateTime>

#include <mutex>
#include <vector>

namespace converge::test {

/// A clock that moves only when told, so that backoff tests take no real seconds. Waiters are
/// woken when it is advanced.
class ManualClock final : public Clock
{
public:
    explicit ManualClock(QDateTime start = QDateTime(QDate(2026, 11, 30), QTime(12, 0), Qt::UTC))
        : m_now(std::move(start))
    {}

    QDateTime now() const override
    {
        std::lock_guard lock(m_mutex);
        return m_now;
    }

    void waitUntil(std::condition_variable &cv, std::unique_lock<std::mutex> &lock,
                   const QDateTime &deadline) override
    {
        {
            std::lock_guard guard(m_mutex);
            if (deadline.isValid() && m_now >= deadline)
                return;
            if (std::find(m_waiters.begin(), m_waiters.end(), &cv) == m_waiters.end())
                m_waiters.push_back(&cv);
        }
        // Real time passes too, a little, so that a missed wake-up cannot hang a test.
        cv.wait_for(lock, std::chrono::milliseconds(20));
    }

    void advance(qint64 ms)
    {
        std::vector<std::condition_variable *> waiters;
        {
            std::lock_guard lock(m_mutex);
            m_now = m_now.addMSecs(ms);
            waiters = m_waiters;
        }
        for (auto *cv : waiters)
            cv->notify_all();
    }

private:
    mutable std::mutex m_mutex;
    QDateTime m_now;
    std::vector<std::condition_variable *> m_waiters;
};

} // namespace converge::test

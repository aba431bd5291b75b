// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QtGlobal>

#include <atomic>

namespace converge {

/// What Controller::stats() reports beyond the queue, counted by whichever thread does the
/// work; atomics, so that no count takes the scheduler's lock.
struct ControllerCounters
{
    std::atomic<int> busyWorkers{0};
    std::atomic<qint64> reconciles{0};
    std::atomic<qint64> skippedUnchanged{0};
    std::atomic<qint64> backendWrites{0};
    std::atomic<qint64> failures{0};
    std::atomic<qint64> listCalls{0};
    std::atomic<qint64> listsSkipped{0};
    std::atomic<qint64> resyncs{0};
    std::atomic<qint64> listsQueued{0};
};

} // namespace converge

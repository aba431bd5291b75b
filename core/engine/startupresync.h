// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QtGlobal>

#include <atomic>

namespace converge {

class ChangeScanner;
class Clock;
class NotificationBuffer;
class ThreadContext;

/// The start of a controller, on the scheduler thread, before any worker takes a key: every
/// journal intent the last run left unfinished (a crash, a kill) is resolved by observing the
/// backend, never by guessing, and said so by an event; then the first scan queues what is not
/// up to date and the first resync observes the rest by list pages.
class StartupResync final
{
public:
    /// None of the references is owned; all must outlive this object.
    StartupResync(const Clock &clock, const std::atomic<bool> &stopping,
                  NotificationBuffer &notifications);
    Q_DISABLE_COPY_MOVE(StartupResync)

    /// Resolves the intents through `tc`, then runs the first scan of `scanner`.
    void run(ThreadContext &tc, ChangeScanner &scanner);

private:
    void resolveIntents(ThreadContext &tc);

    const Clock &m_clock;
    const std::atomic<bool> &m_stopping;
    NotificationBuffer &m_notifications;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcekey.h"

#include <QSet>
#include <QtGlobal>

#include <atomic>
#include <optional>

namespace converge {

class ChangeScanner;
class Clock;
class NotificationBuffer;
class Scheduler;
class ThreadContext;

/// The start of a controller, on the scheduler thread, before any worker takes a key: every
/// journal intent the last run left unfinished (a crash, a kill) is resolved by observing the
/// backend, never by guessing, and said so by an event; the memos of quiet runs the last run left
/// are restored where still valid (so that the first resync skips what its pages show as they
/// were left); then the first scan queues what is not up to date and the first resync observes
/// the rest by list pages.
class StartupResync final
{
public:
    /// None of the references is owned; all must outlive this object.
    StartupResync(const Clock &clock, Scheduler &scheduler, NotificationBuffer &notifications);
    Q_DISABLE_COPY_MOVE(StartupResync)

    /// Resolves the intents through `tc`, restores the memos, then runs the first scan of
    /// `scanner`.
    void run(ThreadContext &tc, ChangeScanner &scanner);

private:
    /// Returns the keys whose intents it found (a write was under way, whatever came of it);
    /// nullopt when the journal could not be read.
    std::optional<QSet<ResourceKey>> resolveIntents(ThreadContext &tc);
    void restoreMemos(ThreadContext &tc, const QSet<ResourceKey> &interrupted);

    const Clock &m_clock;
    Scheduler &m_scheduler;
    const std::atomic<bool> &m_stopping;
    NotificationBuffer &m_notifications;
};

} // namespace converge

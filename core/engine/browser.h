// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "browserequest.h"
#include "resourcekey.h"

#include <QHash>

#include <functional>

namespace converge {

class Clock;
class KindRegistry;
class NotificationBuffer;
class Scheduler;
class ThreadContext;

/// Runs a person's BrowseRequests as jobs on the workers, ahead of background work (the queue's
/// UserAction lane, in the owner's account group): one list call each, with the request's
/// prefix, delimiter and page size, the managed resources left out; or one get, for a request
/// that names the resource. Its jobs are guarded by the scheduler's lock, like the queue they
/// wait in.
class Browser final
{
public:
    /// Called on the worker that ran the request.
    using PageReady = std::function<void(const BrowsePage &page)>;

    /// None of the references is owned; all must outlive this object.
    Browser(const KindRegistry &kinds, Scheduler &scheduler, const Clock &clock,
            NotificationBuffer &notifications, PageReady pageReady);
    Q_DISABLE_COPY_MOVE(Browser)

    void browse(const BrowseRequest &request);

    /// Whether a work queue key is a browse job's (their kind no provider can register).
    static bool isBrowseJob(const ResourceKey &key);
    /// Runs the browse job `jobKey` on a worker's context.
    void run(ThreadContext &tc, const ResourceKey &jobKey);

private:
    const KindRegistry &m_kinds;
    Scheduler &m_scheduler;
    const Clock &m_clock;
    NotificationBuffer &m_notifications;
    PageReady m_pageReady;
    QHash<ResourceKey, BrowseRequest> m_requests; ///< queued browse jobs by their key
};

} // namespace converge

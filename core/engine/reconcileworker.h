// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcekey.h"
#include "scheduler.h"
#include "threadcontext.h"

#include <QtGlobal>

namespace converge {

class Browser;
class Discovery;
class NotificationBuffer;
class Reconciler;
class UserRequests;
struct ControllerCounters;

/// One of the controller's worker threads: takes the most urgent key the scheduler has ready and
/// runs it: a list job (Discovery), a claim (UserRequests), a page for a person browsing (Browser),
/// or a resource's reconcile, whose phases the Reconciler runs on a value copy, whose outcome
/// (status, events, intents, the reconcile state) is stored in one transaction, and whose verdict
/// goes back to the scheduler. A resync that finds a resource as the last quiet run left it ends
/// without reading it.
///
/// The worker owns its ThreadContext (connection, HTTP client, Managers); everything it shares
/// with the other threads it reaches through the scheduler's lock.
class ReconcileWorker final
{
public:
    /// None of the references is owned; all must outlive the worker.
    ReconcileWorker(const ThreadContext::Sources &sources, Reconciler &reconciler,
                    Scheduler &scheduler, Discovery &discovery, UserRequests &requests,
                    Browser &browser, NotificationBuffer &notifications,
                    ControllerCounters &counters);
    Q_DISABLE_COPY_MOVE(ReconcileWorker)

    /// The worker's loop, on its own thread, until the scheduler stops.
    void run();

private:
    void process(ThreadContext &tc, const Scheduler::Taken &taken);
    bool skipUnchanged(ThreadContext &tc, const ResourceKey &key);

    const ThreadContext::Sources &m_sources;
    Reconciler &m_reconciler;
    Scheduler &m_scheduler;
    Discovery &m_discovery;
    UserRequests &m_requests;
    Browser &m_browser;
    NotificationBuffer &m_notifications;
    ControllerCounters &m_counters;
};

} // namespace converge

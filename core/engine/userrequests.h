// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcekey.h"
#include "workspacetypes.h"

#include <QHash>
#include <QList>
#include <QString>

#include <functional>

namespace converge {

class KindRegistry;
class NotificationBuffer;
class Scheduler;
class ThreadContext;

/// A person's requests, which jump ahead of background work (the queue's UserAction lane):
/// reconcile, refresh (observe only, whatever the policy), and claim of a discovered backend
/// resource, a job on a worker that applies it to the workspace without a backend write and
/// then reconciles it. Claim jobs are guarded by the scheduler's lock.
class UserRequests final
{
public:
    /// A claim ended: `key` is the new workspace resource, or `error` says why there is none.
    /// Called on the worker that ran the claim.
    using ClaimFinished = std::function<void(const DiscoveredResource &item, const ResourceKey &key,
                                             const QString &error)>;

    /// None of the references is owned; all must outlive this object.
    UserRequests(const KindRegistry &kinds, Scheduler &scheduler, NotificationBuffer &notifications,
                 ClaimFinished claimFinished);
    Q_DISABLE_COPY_MOVE(UserRequests)

    void reconcile(const QList<ResourceKey> &keys);
    void refresh(const QList<ResourceKey> &keys);
    void claim(const DiscoveredResource &item);

    /// Whether a work queue key is a claim job's (their kind no provider can register).
    static bool isClaimJob(const ResourceKey &key);
    /// Runs the claim job `jobKey` on a worker's context.
    void runClaim(ThreadContext &tc, const ResourceKey &jobKey);

private:
    const KindRegistry &m_kinds;
    Scheduler &m_scheduler;
    NotificationBuffer &m_notifications;
    ClaimFinished m_claimFinished;
    QHash<ResourceKey, DiscoveredResource> m_claims; ///< queued claim jobs by their key
};

} // namespace converge

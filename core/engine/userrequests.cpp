// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "userrequests.h"

#include "discoveredclaim.h"
#include "notificationbuffer.h"
#include "scheduler.h"
#include "threadcontext.h"
#include "workspace.h"

namespace converge {

namespace {

const QString claimJobKind = QStringLiteral("converge.dev/Claim");

} // namespace

UserRequests::UserRequests(const KindRegistry &kinds, Scheduler &scheduler,
                           NotificationBuffer &notifications, ClaimFinished claimFinished)
    : m_kinds(kinds)
    , m_scheduler(scheduler)
    , m_notifications(notifications)
    , m_claimFinished(std::move(claimFinished))
{}

void UserRequests::reconcile(const QList<ResourceKey> &keys)
{
    {
        const Scheduler::Lock lock = m_scheduler.lock();
        for (const ResourceKey &key : keys)
            m_scheduler.add(lock, key, WorkQueue::Lane::UserAction);
    }
    m_scheduler.wakeWorkers();
}

void UserRequests::refresh(const QList<ResourceKey> &keys)
{
    {
        const Scheduler::Lock lock = m_scheduler.lock();
        for (const ResourceKey &key : keys) {
            m_scheduler.requestObserveOnly(lock, key);
            m_scheduler.add(lock, key, WorkQueue::Lane::UserAction);
        }
    }
    m_scheduler.wakeWorkers();
}

void UserRequests::claim(const DiscoveredResource &item)
{
    const ResourceKey jobKey{claimJobKind, item.kind + QLatin1Char('|') + item.owner.toString() +
                                               QLatin1Char('|') + item.name};
    {
        const Scheduler::Lock lock = m_scheduler.lock();
        m_claims.insert(jobKey, item);
        m_scheduler.add(lock, jobKey, WorkQueue::Lane::UserAction);
    }
    m_scheduler.wakeWorkers();
}

bool UserRequests::isClaimJob(const ResourceKey &key)
{
    return key.kind == claimJobKind;
}

void UserRequests::runClaim(ThreadContext &tc, const ResourceKey &jobKey)
{
    DiscoveredResource item;
    {
        const Scheduler::Lock lock = m_scheduler.lock();
        if (!m_claims.contains(jobKey))
            return;
        item = m_claims.take(jobKey);
    }
    ResourceKey claimed;
    QString error;
    const auto done = [&] { m_claimFinished(item, claimed, error); };
    Workspace &ws = tc.workspace();
    StoreError readError;
    const std::optional<Resource> owner = ws.get(item.owner, &readError);
    if (readError.isError()) {
        error = readError.message;
        return done();
    }
    if (!owner) {
        error = QStringLiteral("%1 is no longer in the workspace").arg(item.owner.toString());
        return done();
    }
    QList<Resource> owners = tc.ownersOf(*owner);
    owners.append(*owner);
    const Resource probe = DiscoveredClaim::probe(item, *owner);
    std::optional<BackendError> managerError;
    const std::shared_ptr<Manager> manager = tc.managerFor(probe, owners.first(), &managerError);
    if (!manager) {
        error = managerError ? managerError->message : QStringLiteral("no Manager");
        return done();
    }
    const std::optional<Resource> resource =
        DiscoveredClaim::prepare(item, probe, owners, *manager, ws, m_kinds, &error);
    if (!resource)
        return done();
    StoreError storeError;
    if (!ws.apply({*resource}, nullptr, &storeError)) {
        error = storeError.message;
        return done();
    }
    claimed = resource->key();
    {
        const Scheduler::Lock lock = m_scheduler.lock();
        m_scheduler.setGroup(lock, claimed, owners.first().key().toString());
        m_scheduler.add(lock, claimed, WorkQueue::Lane::UserAction);
    }
    m_scheduler.wakeWorkers();
    m_notifications.discoveryChanged(item.owner);
    done();
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "changescanner.h"

#include "discovery.h"
#include "factoryregistry.h"
#include "kindregistry.h"
#include "scheduler.h"
#include "workspace.h"

#include <QPair>
#include <QSet>

namespace converge {

ChangeScanner::ChangeScanner(const KindRegistry &kinds, const FactoryRegistry &factories,
                             Scheduler &scheduler, Discovery &discovery, int workers,
                             int accountConcurrency)
    : m_kinds(kinds)
    , m_factories(factories)
    , m_scheduler(scheduler)
    , m_discovery(discovery)
    , m_workers(workers)
    , m_accountConcurrency(accountConcurrency)
{}

void ChangeScanner::scan(Workspace &ws, bool initial)
{
    // Only what changed since the last look is read; a removal (the count falls short of what
    // is known) means one full read.
    qint64 current = 0;
    QList<Resource> resources = ws.listChangedSince(initial ? 0 : m_scanVersion, &current);
    if (!initial) {
        qsizetype known = m_snapshots.size();
        for (const Resource &r : std::as_const(resources))
            known += m_snapshots.contains(r.key()) ? 0 : 1;
        if (known != ws.count())
            resources = ws.listChangedSince(0, &current);
    }
    const bool full = initial || resources.size() == ws.count();
    m_scanVersion = current;
    QHash<ResourceKey, Snapshot> next;
    if (!full)
        next = m_snapshots;
    next.reserve(std::max(next.size(), resources.size()));

    QList<QPair<ResourceKey, WorkQueue::Lane>> toQueue;
    QList<ResourceKey> refreshes;
    for (const Resource &r : std::as_const(resources)) {
        Snapshot s;
        s.generation = r.metadata.generation;
        s.deleting = r.metadata.isBeingDeleted();
        s.policy = r.metadata.annotations.value(Annotations::reconcilePolicy());
        s.reconcileRequest = r.metadata.annotations.value(Annotations::reconcileRequestedAt());
        s.refreshRequest = r.metadata.annotations.value(Annotations::refreshRequestedAt());
        s.hasFinalizer = r.hasFinalizer();
        s.resourceId = r.metadata.annotations.value(Annotations::resourceId());
        s.readyAtAll = r.status.ready().isReady();
        s.ready = s.readyAtAll && r.status.ready().observedGeneration == r.metadata.generation;
        const Kind *kind = m_kinds.find(r.kind);
        if (kind && !kind->ownerKind.isEmpty())
            s.owner = ResourceKey{kind->ownerKind, r.ownerName()}.toString();
        s.backendName = Snapshot::backendNameOf(kind, r);

        const auto old = m_snapshots.constFind(r.key());
        if (initial) {
            const Condition ready = r.status.ready();
            const bool upToDate =
                ready.isReady() && ready.observedGeneration == s.generation && !s.deleting;
            // Up-to-date resources are observed by the first resync, by list pages.
            if (!upToDate)
                toQueue.append({r.key(), WorkQueue::Lane::SpecChange});
        } else if (old == m_snapshots.cend() || old->generation != s.generation ||
                   old->deleting != s.deleting || old->policy != s.policy) {
            toQueue.append({r.key(), WorkQueue::Lane::SpecChange});
        } else if (old->reconcileRequest != s.reconcileRequest) {
            // Another process (the CLI) asked for a reconcile: a person's action.
            toQueue.append({r.key(), WorkQueue::Lane::UserAction});
        } else if (old->refreshRequest != s.refreshRequest) {
            refreshes.append(r.key());
            toQueue.append({r.key(), WorkQueue::Lane::UserAction});
        }
        next.insert(r.key(), s);
    }
    // The account is the root of the ownership chain.
    QList<QPair<ResourceKey, QString>> groups;
    groups.reserve(resources.size());
    for (const Resource &r : std::as_const(resources)) {
        Snapshot &s = next[r.key()];
        QString root = r.key().toString();
        QString up = s.owner;
        for (int depth = 0; depth < 8 && !up.isEmpty(); ++depth) {
            const auto key = ResourceKey::fromString(up);
            const auto it = key ? next.constFind(*key) : next.cend();
            if (it == next.cend())
                break;
            root = up;
            up = it->owner;
        }
        s.account = root;
        groups.append({r.key(), root});
    }
    m_snapshots = std::move(next);

    // One account must not hold every worker while another waits (an endpoint that stopped
    // answering keeps each request until its timeout): with more than one account, each gets
    // at most half the workers.
    QSet<QString> accounts;
    for (auto it = m_snapshots.cbegin(); it != m_snapshots.cend(); ++it) {
        if (it->owner.isEmpty() && m_factories.isAccountKind(it.key().kind))
            accounts.insert(it->account);
    }
    int limit = m_accountConcurrency;
    if (accounts.size() > 1) {
        const int half = std::max(1, m_workers / 2);
        limit = limit > 0 ? std::min(limit, half) : half;
    }
    const bool limitChanged = limit != m_groupLimit;
    m_groupLimit = limit;

    if (toQueue.isEmpty() && !initial && !limitChanged)
        return;
    {
        const Scheduler::Lock lock = m_scheduler.lock();
        if (limitChanged) {
            for (const QString &account : std::as_const(accounts))
                m_scheduler.setGroupLimit(lock, account, limit);
        }
        for (const auto &[key, group] : groups) {
            m_scheduler.setGroup(lock, key, group);
            if (limit > 0)
                m_scheduler.setGroupLimit(lock, group, limit);
        }
        for (const ResourceKey &key : std::as_const(refreshes))
            m_scheduler.requestObserveOnly(lock, key);
        // Owners first: a child whose owner is not Ready and is queued here waits for the
        // owner's verdict (holdForOwner) without a run, and so without reading itself and its
        // owners only to find that out, as its run would.
        QList<QPair<ResourceKey, WorkQueue::Lane>> children;
        for (const auto &[key, lane] : toQueue) {
            if (lane == WorkQueue::Lane::SpecChange) {
                // A changed spec gets a fresh start: no backoff from earlier failures.
                m_scheduler.freshStart(lock, key);
            }
            if (!m_snapshots.constFind(key)->owner.isEmpty())
                children.append({key, lane});
            else
                m_scheduler.add(lock, key, lane);
        }
        for (const auto &[key, lane] : std::as_const(children)) {
            const Snapshot &s = *m_snapshots.constFind(key);
            const auto ownerKey = ResourceKey::fromString(s.owner);
            const auto owner = ownerKey ? m_snapshots.constFind(*ownerKey) : m_snapshots.cend();
            if (owner == m_snapshots.cend() || owner->readyAtAll || s.deleting ||
                m_scheduler.isObserveOnly(lock, key) ||
                !m_scheduler.holdForOwner(lock, key, *ownerKey))
                m_scheduler.add(lock, key, lane);
        }
    }
    // After the holds: a held child is observed with its owner's verdict.
    if (initial)
        m_discovery.queueResync(m_snapshots);
    m_scheduler.wakeWorkers();
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "threadcontext.h"

#include "clock.h"
#include "controllerlog.h"
#include "factoryregistry.h"
#include "kindregistry.h"
#include "workspace.h"

namespace converge {

ThreadContext::ThreadContext(const Sources &sources)
    : m_sources(sources)
{}

ThreadContext::~ThreadContext() = default;

bool ThreadContext::open(StoreError *error)
{
    m_ws = m_sources.origin->openAnother(error);
    if (!m_ws)
        return false;
    m_ws->setRelaxedDurability(true);
    m_ws->shareWriteLock(m_sources.writers);
    m_http = std::make_unique<HttpClient>(m_sources.http);
    return true;
}

QList<Resource> ThreadContext::ownersOf(const Resource &resource)
{
    QList<Resource> owners;
    const Resource *current = &resource;
    Resource holder;
    for (int depth = 0; depth < 8; ++depth) {
        const Kind *kind = m_sources.kinds->find(current->kind);
        if (!kind || kind->ownerKind.isEmpty())
            break;
        const std::optional<Resource> owner =
            m_owners.get(*m_ws, ResourceKey{kind->ownerKind, current->ownerName()});
        if (!owner)
            break;
        owners.prepend(*owner);
        holder = *owner;
        current = &holder;
    }
    return owners;
}

QList<Resource> ThreadContext::referencesOf(const Resource &resource)
{
    QList<Resource> referenced;
    const Kind *kind = m_sources.kinds->find(resource.kind);
    if (!kind)
        return referenced;
    for (const KindReference &reference : kind->references) {
        const QString name = Kind::referencedName(reference, resource.spec);
        if (name.isEmpty())
            continue;
        if (std::optional<Resource> found = m_owners.get(*m_ws, ResourceKey{reference.kind, name}))
            referenced.append(std::move(*found));
    }
    return referenced;
}

std::shared_ptr<Manager> ThreadContext::managerFor(const Resource &resource,
                                                   const Resource &account,
                                                   std::optional<BackendError> *error)
{
    Factory *factory = m_sources.factories->factoryFor(resource.kind);
    if (!factory) {
        *error = BackendError{BackendError::Category::Terminal,
                              QString(),
                              0,
                              QStringLiteral("no provider handles the kind %1").arg(resource.kind),
                              QString(),
                              {}};
        return nullptr;
    }
    const QString cacheKey = resource.kind + QLatin1Char('|') + account.key().toString() +
                             QLatin1Char('|') + QString::number(account.metadata.generation);
    if (const auto it = m_managers.constFind(cacheKey); it != m_managers.cend())
        return *it;
    ManagerEnvironment env;
    env.http = m_http.get();
    env.credentials = m_sources.credentials;
    env.isCancelled = [stopping = m_sources.stopping] { return stopping->load(); };
    Outcome<std::shared_ptr<Manager>> made = factory->manager(resource.kind, account, env);
    if (!made) {
        *error = made.error();
        return nullptr;
    }
    m_managers.insert(cacheKey, made.value());
    return made.value();
}

void ThreadContext::addRun(const PhaseRun &run)
{
    if (m_runs.isEmpty())
        m_oldestRun = m_sources.clock->now();
    m_runs.append(run);
}

void ThreadContext::addMemo(RunMemo memo)
{
    if (m_runs.isEmpty() && m_memos.isEmpty())
        m_oldestRun = m_sources.clock->now();
    m_memos.append(std::move(memo));
}

void ThreadContext::recordRuns(bool force)
{
    if ((m_runs.isEmpty() && m_memos.isEmpty()) ||
        (!force && m_runs.size() < 64 && m_oldestRun.msecsTo(m_sources.clock->now()) < 250))
        return;
    StoreError error;
    StoreError batchError;
    m_ws->writeTogether(
        [&] {
            if (m_ws->recordPhaseRuns(m_runs, &error))
                m_ws->storeRunMemos(m_memos, &error);
        },
        &batchError);
    if (batchError.isError())
        error = batchError;
    if (error.isError())
        qCWarning(lcController) << "store:" << error.message;
    m_runs.clear();
    m_memos.clear();
}

} // namespace converge

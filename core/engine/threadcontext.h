// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "backenderror.h"
#include "httpclient.h"
#include "resource.h"
#include "resourcecache.h"
#include "workspacetypes.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QString>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

namespace converge {

class Clock;
class CredentialStore;
class FactoryRegistry;
class KindRegistry;
class Manager;
class Workspace;
struct StoreError;

/// What one of the controller's threads (a worker, the scheduler) owns: its own workspace
/// connection, HTTP client and Managers, its cache of parsed owners and the phase runs it has
/// not recorded yet. Used by that thread only; nothing in it is shared.
class ThreadContext final
{
public:
    /// What a context is made from: the same for every thread of one controller. No pointer
    /// owns; all must outlive the contexts.
    struct Sources
    {
        const KindRegistry *kinds = nullptr;
        const FactoryRegistry *factories = nullptr;
        CredentialStore *credentials = nullptr;
        const Clock *clock = nullptr;
        /// Cancels the Managers' requests.
        const std::atomic<bool> *stopping = nullptr;
        /// Opened, and so checked, by the controller's start(): every connection comes from it.
        const Workspace *origin = nullptr;
        /// Held by whichever of this controller's connections writes the workspace.
        std::shared_ptr<std::mutex> writers;
        HttpClient::Options http;
    };

    explicit ThreadContext(const Sources &sources);
    ~ThreadContext();
    Q_DISABLE_COPY_MOVE(ThreadContext)

    /// Opens this thread's connection from the origin (relaxed durability, sharing the writers'
    /// lock) and its HTTP client.
    bool open(StoreError *error);
    /// The connection open() opened.
    Workspace &workspace() const { return *m_ws; }

    /// The owners of `resource`, the account first; every child reads its owners again, so they
    /// are kept parsed.
    QList<Resource> ownersOf(const Resource &resource);
    /// The resources `resource`'s spec names through its kind's references (`topicRef`), those
    /// the workspace holds.
    QList<Resource> referencesOf(const Resource &resource);
    /// The Manager of `resource`'s kind for `account`, made once per account generation (a new
    /// account spec, endpoints or credential reference, means a new Manager); null and `error`
    /// when there is none.
    std::shared_ptr<Manager> managerFor(const Resource &resource, const Resource &account,
                                        std::optional<BackendError> *error);

    /// Keeps `run` for recordRuns(): one commit per run would cost more than the run.
    void addRun(const PhaseRun &run);
    /// Keeps `memo` (of a run added before) for recordRuns(), which stores it with the runs.
    void addMemo(RunMemo memo);
    bool hasUnrecordedRuns() const { return !m_runs.isEmpty() || !m_memos.isEmpty(); }
    /// Records the kept runs and memos in one transaction when there are many, or the oldest
    /// is a quarter second old, or `force`.
    void recordRuns(bool force);

private:
    const Sources &m_sources;
    std::unique_ptr<Workspace> m_ws;
    std::unique_ptr<HttpClient> m_http;
    QHash<QString, std::shared_ptr<Manager>> m_managers;
    ResourceCache m_owners;
    QList<PhaseRun> m_runs;
    QList<RunMemo> m_memos;
    QDateTime m_oldestRun; ///< when the oldest unrecorded run finished
};

} // namespace converge

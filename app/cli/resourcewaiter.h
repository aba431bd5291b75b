// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resource.h"
#include "resourcekey.h"

#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>
#include <QString>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace converge {

class Console;
class Controller;
class ControllerLock;
class Services;
class Workspace;

/// Waits, for `apply --wait`, `delete --wait`, `reconcile` and friends, until resources reach a
/// goal, and makes sure someone reconciles them meanwhile: when no other process holds the
/// workspace's ControllerLock, this process runs the Controller; otherwise it only reads the
/// status the other process writes (and takes over if that process goes away).
///
/// Runs its own event loop; SIGINT and SIGTERM end the wait (as a failure). Progress goes to
/// the console's progress channel, failures to its errors.
class ResourceWaiter final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ResourceWaiter)

public:
    enum class Goal {
        Ready,     ///< Ready True at `generation` or later; Ready False/Error there fails
        Gone,      ///< no longer in the workspace
        Processed, ///< reconciled once by this process's controller (fails when fatal after)
    };

    struct Target
    {
        ResourceKey key;
        Goal goal = Goal::Ready;
        qint64 generation = 0; ///< Ready: the generation that must be observed
        /// Ready: only after this process's controller processed the key (when it runs one),
        /// so that `reconcile --wait` does not take the status from before the reconcile.
        bool afterProcessing = false;
        /// Ready: stored just now by this command (apply): not Ready before a reconcile, so the
        /// controller starts without reading it first, and it is read once processed.
        bool created = false;
    };

    enum class Result { Succeeded, Failed, TimedOut, Interrupted, Error };

    /// None of the references is owned; all must outlive the waiter. The waiter reads through
    /// `workspace`, the command's own connection (opening another would check the whole file
    /// again).
    ResourceWaiter(Services &services, Console &console, Workspace &workspace,
                   QObject *parent = nullptr);
    ~ResourceWaiter() override;

    void setTimeout(std::chrono::milliseconds timeout) { m_timeout = timeout; }

    /// Takes the controller lock when it is free. True when this process will run the
    /// controller; false when another process holds it (`ownerPid()` says which).
    bool acquireController();
    qint64 ownerPid() const;

    /// Keys this process's controller reconciles (or only observes, for refresh) ahead of
    /// everything else; applied when the controller starts.
    void requestReconcile(const QList<ResourceKey> &keys) { m_reconcile += keys; }
    void requestRefresh(const QList<ResourceKey> &keys) { m_refresh += keys; }

    /// Waits until every target reaches its goal, one fails, the timeout passes or a signal
    /// comes. Prints failures and timeouts as errors.
    Result wait(const QList<Target> &targets);

    /// ExitSuccess for Succeeded, else ExitFailed.
    static int exitCode(Result result);

private:
    enum class State { Pending, Done, Failed };
    struct Status
    {
        State state = State::Pending;
        QString detail; ///< the reason (pending) or the failure, for people
    };

    bool startController();
    void stopController();
    /// Every target (at the start, then on the tick: each second while the controller runs
    /// here, whose batches say what changed; each tick when another process runs it).
    void check();
    /// Only the targets among `keys` (a batch of the controller's changes): evaluating all 1,000
    /// of an apply for each batch cost a fifth of the process's time.
    void checkKeys(const QList<ResourceKey> &keys);
    /// Evaluates the targets of `keys`, read by one statement: an apply of 1,000 spent a tenth
    /// of its CPU in a get per key here.
    void updateAll(const QList<ResourceKey> &keys);
    /// Evaluates `target`, whose stored object is `resource`, into m_pending or m_final.
    void update(const Target &target, const std::optional<Resource> &resource);
    void concludeOrReport();
    /// `detailed`: with the condition's message, not only its reason.
    Status evaluate(const Target &target, const std::optional<Resource> &resource,
                    bool detailed = false) const;
    void reportProgress(const QList<QPair<ResourceKey, QString>> &pending, qsizetype total);
    void finish(Result result);

    Services &m_services;
    Console &m_console;
    std::chrono::milliseconds m_timeout{5 * 60 * 1000};
    std::chrono::milliseconds m_drainTimeout{10 * 1000};
    QList<ResourceKey> m_reconcile;
    QList<ResourceKey> m_refresh;

    Workspace &m_workspace;
    std::unique_ptr<ControllerLock> m_lock;   // declared before the controller: outlives it
    std::unique_ptr<Controller> m_controller; // runs only while m_lock is held
    QList<Target> m_targets;
    QHash<ResourceKey, Status> m_final;    // targets that reached an end state
    QHash<ResourceKey, QString> m_pending; // the others, with what they wait for
    QHash<ResourceKey, qsizetype> m_index; // target key -> index in m_targets
    QSet<ResourceKey> m_processed;         // keys the controller reported since it started
    QString m_lastProgress;
    int m_ticks = 0;
    QElapsedTimer m_sinceFullPass; ///< since check() last read every open target
    qint64 m_fullPassMs = 0;       ///< how long that read took
    qint64 m_passedVersion = -1;   ///< the workspace's data version then
    bool m_runsHere = false; ///< this process holds the lock and runs (or will run) the controller
    bool m_finished = false;
    bool m_waiting = false; ///< inside wait(): the controller's batches are read
    Result m_result = Result::Succeeded;
    std::function<void()> m_quit;
};

} // namespace converge

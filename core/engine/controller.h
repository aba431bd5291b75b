// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "backoff.h"
#include "browserequest.h"
#include "event.h"
#include "httpclient.h"
#include "resourcekey.h"
#include "storeerror.h"
#include "workqueue.h"
#include "workspacetypes.h"

#include <QList>
#include <QObject>
#include <QString>

#include <chrono>
#include <memory>

namespace converge {

class Clock;
class CredentialStore;
class FactoryRegistry;
class KindRegistry;
class Reconciler;

/// Runs the reconcile loop for one workspace: a work queue, N worker threads (each with its own
/// workspace connection and HTTP client), a scheduler thread that notices spec changes and runs
/// the periodic resync, and batched notifications for observers on the controller's own thread.
///
/// The thread that owns the Controller (the GUI thread, or the CLI's main thread) never waits
/// on a worker or the network: every call here only touches the queue under a short lock, and
/// results arrive as queued, batched signals (at most one batch per `batchInterval`).
class Controller final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Controller)

public:
    struct Options
    {
        int workers = 8; ///< 1–64
        std::chrono::milliseconds resyncPeriod{10 * 60 * 1000};
        double resyncJitter = 0.25;                  ///< ± this fraction of the period
        std::chrono::milliseconds pollInterval{250}; ///< how often the workspace is checked
        std::chrono::milliseconds batchInterval{50}; ///< observers get at most 20 batches/s
        /// Keys of one account in flight at once; with two or more accounts, at most half the
        /// workers, so that an account that stopped answering cannot hold them all.
        int accountConcurrency = 8;
        std::chrono::milliseconds shutdownTimeout{5000};
        Backoff::Settings backoff;
        /// Timeouts, retries and body cap of every worker's HTTP client (tests shorten them).
        HttpClient::Options http;
        /// The scheduler and the workers run below the priority of the thread that started
        /// them (ThreadPriority): the window sets it, so that its GUI thread gets a core first.
        bool background = false;
    };

    /// Counters for the status bar and benchmarks.
    struct Stats
    {
        int queued = 0;  ///< due now or later
        int waiting = 0; ///< of `queued`, retries and polls due only later
        int inFlight = 0;
        int busyWorkers = 0;
        qint64 reconciles = 0; ///< runs finished since start
        /// Of those, resyncs that found the resource as a run that changed nothing had left it,
        /// and ended without reading it (its list page and resourceVersion said so).
        qint64 skippedUnchanged = 0;
        qint64 backendWrites = 0; ///< create, update and delete calls since start
        qint64 failures = 0;
        qint64 listCalls = 0; ///< list pages asked for by resyncs and discovery
        /// List jobs that ran and listed nothing: their owner was not Ready (or gone), or no
        /// Manager could be made for it.
        qint64 listsSkipped = 0;
        qint64 resyncs = 0;     ///< resync passes queued (periodic or asked for)
        qint64 listsQueued = 0; ///< list jobs those passes queued
    };

    /// None of the references is owned; all must outlive the controller.
    Controller(const QString &workspacePath, const KindRegistry &kinds,
               const FactoryRegistry &factories, Reconciler &reconciler, Clock &clock,
               CredentialStore *credentials, Options options, QObject *parent = nullptr);
    ~Controller() override;

    /// Opens the workspace on every worker, resolves unfinished journal intents by observing the
    /// backend, then queues every resource. Returns false (and starts nothing) when the
    /// workspace cannot be opened.
    bool start(StoreError *error = nullptr);
    /// Cancels in-flight phases and joins the threads within Options::shutdownTimeout.
    void stop();
    bool isRunning() const;

    // A person's actions jump ahead of background work.
    void reconcile(const QList<ResourceKey> &keys);
    /// Observe only (updateStatus), whatever the policy.
    void refresh(const QList<ResourceKey> &keys);
    /// Makes a discovered backend resource managed, with no backend write: its desired spec is
    /// what is observed (a get when the kind's list is not complete), it is applied to the
    /// workspace and reconciled (which finds nothing to change). claimFinished() says how it went.
    void claim(const DiscoveredResource &item);
    /// Lists one page of what the backend holds under a workspace resource, for a person
    /// browsing, ahead of background work; browsed() brings it. Nothing is stored.
    void browse(const BrowseRequest &request);
    /// Removes the queued work of a key (work in flight finishes).
    bool cancel(const ResourceKey &key);
    /// Removes all queued work (work in flight finishes).
    void cancelAll();
    /// Looks at the workspace now instead of at the next poll (after an apply in-process).
    void wake();
    /// Observes every resource now: by list pages where a kind can (one request per page of
    /// up to thousands), one by one elsewhere; what a list finds unmanaged is stored as
    /// discovered.
    void resyncNow();

    Stats stats() const;
    /// Whether a list of what any of `owners` holds is queued or running (a refresh of an
    /// account or container lists it after its run).
    bool isListing(const QList<ResourceKey> &owners) const;
    /// True when nothing is queued or in flight (delayed retries count as queued).
    bool isIdle() const;

Q_SIGNALS:
    /// Resources whose stored state changed, batched.
    void resourcesChanged(const QList<converge::ResourceKey> &keys);
    /// Events recorded by reconciles, batched, in order.
    void eventsRecorded(const QList<converge::Event> &events);
    /// A list stored what it found unmanaged under these owners (Workspace::discovered).
    void discoveryChanged(const QList<converge::ResourceKey> &owners);
    /// A claim() ended: `key` is the new workspace resource, or `error` says why there is none.
    void claimFinished(const converge::DiscoveredResource &item, const converge::ResourceKey &key,
                       const QString &error);
    /// A browse() page, or why there is none.
    void browsed(const converge::BrowsePage &page);
    /// A worker could not open the workspace or the store failed.
    void storeFailed(const QString &message);

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace converge

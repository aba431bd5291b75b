// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "resourcewaiter.h"

#include "command.h"
#include "console.h"
#include "controller.h"
#include "controllerlock.h"
#include "duration.h"
#include "kindresolver.h"
#include "services.h"
#include "signalwatcher.h"
#include "workspace.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QThread>
#include <QTimer>

#include <algorithm>

using namespace std::chrono_literals;

namespace converge {

namespace {

QString reasonText(const Condition &c)
{
    return c.reason.isEmpty() ? Condition::statusName(c.status) : c.reason;
}

QString conditionText(const Condition &c)
{
    QString text = c.reason.isEmpty() ? Condition::statusName(c.status) : c.reason;
    if (!c.message.isEmpty())
        text += QStringLiteral(": ") + c.message;
    return text;
}

} // namespace

ResourceWaiter::ResourceWaiter(Services &services, Console &console, Workspace &workspace,
                               QObject *parent)
    : QObject(parent)
    , m_services(services)
    , m_console(console)
    , m_workspace(workspace)
{}

ResourceWaiter::~ResourceWaiter()
{
    stopController();
}

bool ResourceWaiter::acquireController()
{
    if (!m_lock)
        m_lock = std::make_unique<ControllerLock>(m_workspace.path());
    if (m_lock->tryLock())
        return true;
    const qint64 pid = m_lock->ownerPid();
    if (pid == 0)
        m_console.warning(QStringLiteral("cannot take the controller lock (%1); waiting for "
                                         "another process to reconcile")
                              .arg(m_lock->errorString()));
    return false;
}

qint64 ResourceWaiter::ownerPid() const
{
    return m_lock ? m_lock->ownerPid() : 0;
}

int ResourceWaiter::exitCode(Result result)
{
    return result == Result::Succeeded ? ExitSuccess : ExitFailed;
}

bool ResourceWaiter::startController()
{
    m_controller = m_services.makeController(m_workspace.path());
    connect(m_controller.get(), &Controller::resourcesChanged, this,
            [this](const QList<ResourceKey> &keys) {
                for (const ResourceKey &key : keys)
                    m_processed.insert(key);
                checkKeys(keys);
            });
    connect(m_controller.get(), &Controller::storeFailed, this,
            [this](const QString &message) { m_console.error(message); });
    // Queued before start(), so that the first run of each key is the one asked for.
    if (!m_reconcile.isEmpty())
        m_controller->reconcile(m_reconcile);
    if (!m_refresh.isEmpty())
        m_controller->refresh(m_refresh);
    StoreError error;
    if (!m_controller->start(&error)) {
        m_console.error(QStringLiteral("cannot start the controller: %1").arg(error.message));
        m_controller.reset();
        return false;
    }
    m_console.verbose(QStringLiteral("controller: running in this process (lock %1)")
                          .arg(ControllerLock::lockPath(m_workspace.path())));
    return true;
}

void ResourceWaiter::stopController()
{
    if (m_controller) {
        // What a refresh or reconcile of an account or container asked for includes the list of
        // what it holds, queued after its run: let it end first (within the same bound).
        QElapsedTimer drain;
        drain.start();
        const QList<ResourceKey> asked = m_reconcile + m_refresh;
        while (m_controller->isListing(asked) && drain.elapsed() < m_drainTimeout.count()) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
            QThread::msleep(20);
        }
        // Stopping cancels work in flight, and a cancelled reconcile leaves a Cancelled warning
        // behind: drop the queued work and let what runs finish first (within a bound).
        m_controller->cancelAll();
        while (m_controller->stats().inFlight > 0 && drain.elapsed() < m_drainTimeout.count()) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
            QThread::msleep(20);
        }
        m_controller->stop();
        const Controller::Stats stats = m_controller->stats();
        m_console.verbose(QStringLiteral("controller: stopped after %1 reconciles, %2 backend "
                                         "writes, %3 failures")
                              .arg(stats.reconciles)
                              .arg(stats.backendWrites)
                              .arg(stats.failures));
        m_controller.reset();
    }
    m_runsHere = false;
    if (m_lock)
        m_lock->unlock();
}

ResourceWaiter::Result ResourceWaiter::wait(const QList<Target> &targets)
{
    m_targets = targets;
    m_final.clear();
    m_pending.clear();
    m_index.clear();
    for (qsizetype i = 0; i < m_targets.size(); ++i)
        m_index.insert(m_targets.at(i).key, i);
    m_finished = false;
    m_result = Result::Succeeded;
    m_lastProgress.clear();

    m_waiting = true;
    if (!m_lock)
        acquireController();
    m_runsHere = m_lock->isLocked();
    if (!m_runsHere)
        m_console.verbose(QStringLiteral("controller: process %1 runs it; waiting for the status "
                                         "it writes")
                              .arg(m_lock->ownerPid()));

    QEventLoop loop;
    m_quit = [&loop] { loop.quit(); };
    SignalWatcher signalWatcher;
    connect(&signalWatcher, &SignalWatcher::signalled, this,
            [this] { finish(Result::Interrupted); });
    QTimer tick;
    tick.setInterval(200ms);
    connect(&tick, &QTimer::timeout, this, &ResourceWaiter::check);
    QTimer deadline;
    deadline.setSingleShot(true);
    connect(&deadline, &QTimer::timeout, this, [this] { finish(Result::TimedOut); });

    // Nothing to do (everything already Ready) starts no controller; a target just created
    // has something to do for sure, and then the controller starts before the first check.
    const bool startFirst = m_runsHere && std::any_of(m_targets.cbegin(), m_targets.cend(),
                                                      [](const Target &t) { return t.created; });
    if (!startFirst)
        check();
    if (!m_finished && m_runsHere && !m_controller && !startController()) {
        stopController();
        m_waiting = false;
        return Result::Error;
    }
    if (startFirst)
        check();
    if (!m_finished) {
        tick.start();
        deadline.start(m_timeout);
        loop.exec();
    }
    m_quit = {};
    stopController();

    for (const Target &target : std::as_const(m_targets)) {
        const QString name = KindResolver::display(target.key);
        const auto it = m_final.constFind(target.key);
        if (it != m_final.cend()) {
            if (it->state == State::Failed)
                m_console.error(QStringLiteral("%1 failed: %2").arg(name, it->detail));
            continue;
        }
        const Status now = evaluate(target, m_workspace.get(target.key), true);
        if (m_result == Result::TimedOut)
            m_console.error(QStringLiteral("timed out after %1 waiting for %2 (%3)")
                                .arg(Duration::format(m_timeout), name, now.detail));
        else if (m_result == Result::Interrupted)
            m_console.error(
                QStringLiteral("interrupted while waiting for %1 (%2)").arg(name, now.detail));
    }
    m_waiting = false;
    return m_result;
}

void ResourceWaiter::finish(Result result)
{
    if (m_finished)
        return;
    m_finished = true;
    m_result = result;
    if (m_quit)
        m_quit();
}

void ResourceWaiter::check()
{
    if (m_finished || !m_waiting)
        return;
    ++m_ticks;
    // The process that ran the controller went away: someone has to reconcile.
    if (!m_runsHere && m_lock && m_ticks % 5 == 0 && m_lock->tryLock()) {
        m_console.verbose(QStringLiteral("controller: the lock is free now"));
        m_runsHere = true;
        if (!startController()) {
            finish(Result::Error);
            return;
        }
    }

    // While this process runs the controller, its batches name every key it changed: the
    // full pass is a safety net, every five seconds. Otherwise it is how a change is seen: made
    // when the workspace changed (another connection committed), and never more than a fiftieth
    // of the time, so a wait for 1,000 resources costs a little of a core, not a tenth of it.
    if (!m_pending.isEmpty() && m_sinceFullPass.isValid()) {
        const bool batched = m_runsHere && m_controller;
        const qint64 pause = batched ? 5000 : std::max<qint64>(200, 50 * m_fullPassMs);
        if (m_sinceFullPass.elapsed() < pause - 100)
            return;
        if (!batched && m_workspace.dataVersion() == m_passedVersion)
            return;
    }
    m_passedVersion = m_workspace.dataVersion();
    m_sinceFullPass.start();
    QList<ResourceKey> open;
    for (const Target &target : std::as_const(m_targets)) {
        if (m_final.contains(target.key))
            continue;
        // Created by this command and not reconciled by this process's controller yet: nothing
        // to read (its batches name it once processed).
        if (target.created && m_runsHere && m_controller && !m_processed.contains(target.key)) {
            m_pending.insert(target.key, QStringLiteral("not reconciled yet"));
            continue;
        }
        open.append(target.key);
    }
    updateAll(open);
    m_fullPassMs = m_sinceFullPass.elapsed();
    concludeOrReport();
}

void ResourceWaiter::checkKeys(const QList<ResourceKey> &keys)
{
    if (m_finished || !m_waiting)
        return;
    QList<ResourceKey> open;
    QSet<ResourceKey> seen;
    for (const ResourceKey &key : keys) {
        if (m_index.contains(key) && !m_final.contains(key) && !seen.contains(key)) {
            seen.insert(key);
            open.append(key);
        }
    }
    updateAll(open);
    concludeOrReport();
}

void ResourceWaiter::updateAll(const QList<ResourceKey> &keys)
{
    if (keys.isEmpty())
        return;
    QHash<ResourceKey, Resource> read;
    for (Resource &r : m_workspace.get(keys))
        read.insert(r.key(), std::move(r));
    for (const ResourceKey &key : keys) {
        const auto it = read.constFind(key);
        update(m_targets.at(m_index.value(key)),
               it == read.cend() ? std::nullopt : std::optional<Resource>(*it));
    }
}

void ResourceWaiter::update(const Target &target, const std::optional<Resource> &resource)
{
    const Status status = evaluate(target, resource);
    if (status.state == State::Pending) {
        m_pending.insert(target.key, status.detail);
        return;
    }
    m_pending.remove(target.key);
    m_final.insert(target.key, status);
    if (status.state == State::Done)
        m_console.verbose(
            QStringLiteral("%1: %2").arg(KindResolver::display(target.key), status.detail));
}

void ResourceWaiter::concludeOrReport()
{
    // The first check() evaluates every target: from then on, none pending means all ended.
    if (m_pending.isEmpty()) {
        bool failed = false;
        for (const Status &status : std::as_const(m_final))
            failed = failed || status.state == State::Failed;
        finish(failed ? Result::Failed : Result::Succeeded);
        return;
    }
    QList<QPair<ResourceKey, QString>> pending;
    for (const Target &target : std::as_const(m_targets)) {
        if (const auto it = m_pending.constFind(target.key); it != m_pending.cend())
            pending.append({target.key, *it});
    }
    reportProgress(pending, m_targets.size());
}

ResourceWaiter::Status ResourceWaiter::evaluate(const Target &target,
                                                const std::optional<Resource> &r,
                                                bool detailed) const
{
    const auto pendingText = [detailed](const Condition &c) {
        return detailed ? conditionText(c) : reasonText(c);
    };
    // Another process's reconciles cannot be told apart from earlier ones: only the status
    // counts then.
    const bool processed = !m_runsHere || m_processed.contains(target.key);
    switch (target.goal) {
    case Goal::Gone:
        if (!r)
            return {State::Done, QStringLiteral("deleted")};
        if (!r->metadata.isBeingDeleted())
            return {State::Pending, QStringLiteral("not being deleted")};
        // A Ready condition from before the deletion says nothing about it.
        if (r->status.ready().isReady() || r->status.ready().reason.isEmpty())
            return {State::Pending, QStringLiteral("being deleted")};
        return {State::Pending, pendingText(r->status.ready())};
    case Goal::Processed:
        if (!processed)
            return {State::Pending, QStringLiteral("queued")};
        if (!r)
            return {State::Done, QStringLiteral("removed from the workspace")};
        if (r->status.ready().isFatal())
            return {State::Failed, conditionText(r->status.ready())};
        return {State::Done, conditionText(r->status.ready())};
    case Goal::Ready:
        break;
    }
    if (!r)
        return {State::Failed, QStringLiteral("it was removed from the workspace")};
    if (r->metadata.isBeingDeleted())
        return {State::Failed, QStringLiteral("it is being deleted")};
    if (target.afterProcessing && !processed)
        return {State::Pending, QStringLiteral("queued")};
    const Condition ready = r->status.ready();
    const qint64 generation = std::max<qint64>(target.generation, 1);
    if (ready.observedGeneration >= generation) {
        if (ready.isReady())
            return {State::Done, QStringLiteral("Ready")};
        if (ready.isFatal())
            return {State::Failed, conditionText(ready)};
    }
    if (ready.observedGeneration < generation && ready.reason.isEmpty())
        return {State::Pending, QStringLiteral("not reconciled yet")};
    return {State::Pending, pendingText(ready)};
}

void ResourceWaiter::reportProgress(const QList<QPair<ResourceKey, QString>> &pending,
                                    qsizetype total)
{
    QStringList names;
    for (qsizetype i = 0; i < pending.size() && i < 3; ++i)
        names << QStringLiteral("%1 (%2)").arg(KindResolver::display(pending.at(i).first),
                                               pending.at(i).second);
    if (pending.size() > 3)
        names << QStringLiteral("…");
    const QString text = QStringLiteral("waiting for %1 of %2: %3")
                             .arg(pending.size())
                             .arg(total)
                             .arg(names.join(QStringLiteral(", ")));
    if (text == m_lastProgress)
        return;
    m_lastProgress = text;
    m_console.progress(text);
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "workspace.h"

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QPromise>
#include <QThreadPool>

#include <functional>
#include <memory>
#include <type_traits>

namespace converge {

/// Runs functions against one workspace connection on a thread of its own, so that the GUI
/// thread never reads or writes SQLite.
///
/// One pool thread that never expires owns the connection (a Workspace is bound to the thread
/// that opened it); tasks run one at a time in the order they were given, so results come back
/// in order. The connection is opened lazily and re-tried on the next task after a failure.
/// Tasks get value copies and the connection, never the runner. The destructor drops queued
/// tasks (their futures are cancelled), closes the connection on its thread and waits for the
/// task in progress.
class WorkspaceRunner final
{
public:
    explicit WorkspaceRunner(const QString &path,
                             Workspace::OpenMode mode = Workspace::OpenMode::OpenExisting);
    ~WorkspaceRunner();
    Q_DISABLE_COPY_MOVE(WorkspaceRunner)

    QString path() const { return m_path; }

    /// Runs `fn(Workspace *workspace, const StoreError &openError)` on the runner's thread;
    /// `workspace` is null (and `openError` says why) when the file cannot be opened.
    template<typename Fn>
    auto run(Fn fn) -> QFuture<std::invoke_result_t<Fn, Workspace *, const StoreError &>>
    {
        using T = std::invoke_result_t<Fn, Workspace *, const StoreError &>;
        auto promise = std::make_shared<QPromise<T>>();
        QFuture<T> future = promise->future();
        promise->start();
        post([promise, fn = std::move(fn)](Workspace *workspace, const StoreError &error) {
            if (!promise->isCanceled())
                promise->addResult(fn(workspace, error));
            promise->finish();
        });
        return future;
    }

    /// Runs `fn` as above, then `done(result)` on `context`'s thread, from its event loop.
    /// `done` is not called when the task was dropped or `context` is gone.
    ///
    /// The result reaches `done` moved, never copied: the future holds it behind a shared
    /// pointer. A copy out of the future (see deliver()) shares a load's lists with the
    /// future, so the first write to them copied every row on the GUI thread, and the
    /// future's copy was destroyed there too.
    template<typename Fn, typename Done>
    void run(Fn fn, QObject *context, Done done)
    {
        using T = std::invoke_result_t<Fn, Workspace *, const StoreError &>;
        deliver(run([fn = std::move(fn)](Workspace *workspace, const StoreError &error) {
                    return std::make_shared<T>(fn(workspace, error));
                }),
                context, [done = std::move(done)](const std::shared_ptr<T> &result) mutable {
                    done(std::move(*result));
                });
    }

    /// Calls `done(result)` on `context`'s thread once `future` has its result: always later,
    /// from the event loop, and never once `context` is gone or the task was dropped. A
    /// QFutureWatcher owned by `context` does the hand-over: QFuture::then(context, …) ran the
    /// continuation at once when the future had already finished (re-entering a model that
    /// asks for data while it emits signals), and in Qt 6.4 asserts when `context` is
    /// destroyed before the future finishes.
    ///
    /// The result is copied out, never taken: QFuture::takeResult() resets the shared state
    /// to "not started" while the task's QPromise may still be alive on the pool thread, whose
    /// destructor then sees an unfinished promise and cancels and finishes it a second time,
    /// racing with this thread on the state the two share (the window's heap corruption).
    template<typename T, typename Done>
    static void deliver(QFuture<T> future, QObject *context, Done done)
    {
        auto *watcher = new QFutureWatcher<T>(context);
        QObject::connect(watcher, &QFutureWatcherBase::finished, context,
                         [watcher, done = std::move(done)]() mutable {
                             watcher->deleteLater();
                             if (watcher->isCanceled() || watcher->future().resultCount() == 0)
                                 return;
                             done(watcher->future().result());
                         });
        watcher->setFuture(std::move(future));
    }

    /// Destroys `value` on the runner's thread, after the tasks queued before: what a load
    /// held (tens of thousands of rows of strings and JSON) is not freed on the GUI thread.
    template<typename T>
    void dispose(T value)
    {
        // Moved into the task: the last reference is the task's, on the runner's thread. A copy
        // kept here until this returns was the last one whenever the runner was quicker, and
        // then the GUI thread freed ten thousand rows (7 ms) after all.
        post([held = std::make_shared<T>(std::move(value))](
                 Workspace *, const StoreError &) mutable { held.reset(); });
    }

private:
    struct Connection;
    void post(std::function<void(Workspace *, const StoreError &)> task);

    const QString m_path;
    std::shared_ptr<Connection> m_connection; // touched only on the pool thread
    QThreadPool m_pool;
};

} // namespace converge

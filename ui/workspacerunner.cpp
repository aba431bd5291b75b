// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "workspacerunner.h"

#include "threadpriority.h"

#include <QLoggingCategory>
#include <QThread>

namespace converge {

Q_LOGGING_CATEGORY(lcRunner, "converge.ui.runner")

struct WorkspaceRunner::Connection
{
    QString path;
    Workspace::OpenMode mode;
    std::unique_ptr<Workspace> workspace;
    QThread *thread = nullptr;
};

WorkspaceRunner::WorkspaceRunner(const QString &path, Workspace::OpenMode mode)
    : m_path(path)
    , m_connection(std::make_shared<Connection>(Connection{path, mode, nullptr, nullptr}))
{
    m_pool.setObjectName(QStringLiteral("WorkspaceRunner"));
    m_pool.setMaxThreadCount(1);
    // The connection belongs to the thread that opened it: that thread must live as long as
    // the runner.
    m_pool.setExpiryTimeout(-1);
}

WorkspaceRunner::~WorkspaceRunner()
{
    m_pool.clear();
    m_pool.start([connection = m_connection] { connection->workspace.reset(); });
    m_pool.waitForDone();
}

void WorkspaceRunner::post(std::function<void(Workspace *, const StoreError &)> task)
{
    m_pool.start([connection = m_connection, task = std::move(task)] {
        StoreError error;
        if (connection->workspace && connection->thread != QThread::currentThread()) {
            // Cannot happen while the thread never expires; if it did, the old connection is
            // unusable here.
            qCWarning(lcRunner) << "workspace connection moved threads; reopening";
            connection->workspace.reset();
        }
        if (!connection->workspace) {
            // The runner's thread is where the window's loads run: behind the GUI thread.
            ThreadPriority::lowerCurrent();
            connection->workspace = Workspace::open(connection->path, &error, connection->mode);
            connection->thread = QThread::currentThread();
        }
        task(connection->workspace.get(), error);
    });
}

} // namespace converge

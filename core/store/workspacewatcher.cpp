// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "workspacewatcher.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

#include <atomic>

namespace converge {

namespace {

QString nextWatcherConnectionName()
{
    static std::atomic<quint64> counter{0};
    return QStringLiteral("converge.workspace.watch.%1").arg(++counter);
}

} // namespace

WorkspaceWatcher::WorkspaceWatcher(const QString &path, QObject *parent)
    : QObject(parent)
    , m_connectionName(nextWatcherConnectionName())
{
    {
        // Read-only: a watcher never writes, and opening it cannot create or convert a file.
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=1000"));
        if (!db.open())
            m_errorString = db.lastError().databaseText();
    }
    m_valid = m_errorString.isEmpty() && readVersion(&m_version);
    m_timer.setInterval(std::chrono::milliseconds(250));
    m_timer.setTimerType(Qt::CoarseTimer);
    m_timer.callOnTimeout(this, &WorkspaceWatcher::check);
    if (m_valid)
        m_timer.start();
}

WorkspaceWatcher::~WorkspaceWatcher()
{
    m_timer.stop();
    {
        QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
        db.close();
    }
    QSqlDatabase::removeDatabase(m_connectionName);
}

std::chrono::milliseconds WorkspaceWatcher::interval() const
{
    return m_timer.intervalAsDuration();
}

void WorkspaceWatcher::setInterval(std::chrono::milliseconds interval)
{
    m_timer.setInterval(interval);
}

void WorkspaceWatcher::check()
{
    qint64 version = 0;
    if (!m_valid || !readVersion(&version) || version == m_version)
        return;
    m_version = version;
    emit changed();
}

bool WorkspaceWatcher::readVersion(qint64 *version)
{
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    if (!q.exec(QStringLiteral("PRAGMA data_version")) || !q.next()) {
        m_errorString = q.lastError().databaseText();
        return false;
    }
    *version = q.value(0).toLongLong();
    return true;
}

} // namespace converge

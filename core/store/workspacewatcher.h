// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

#include <chrono>

namespace converge {

/// Tells when a workspace file changed: another connection, thread or process committed.
///
/// Polls `PRAGMA data_version` on its own read-only connection (250 ms by default), so the window
/// and the CLI see each other's changes within a second without sharing anything but the file.
/// Lives in the thread that created it; the timer runs on that thread's event loop.
class WorkspaceWatcher final : public QObject
{
    Q_OBJECT

public:
    /// Opens the connection and starts polling. The file must already be a workspace (open it
    /// with Workspace::open first); isValid() says whether the connection could be opened.
    explicit WorkspaceWatcher(const QString &path, QObject *parent = nullptr);
    ~WorkspaceWatcher() override;
    Q_DISABLE_COPY_MOVE(WorkspaceWatcher)

    bool isValid() const { return m_valid; }
    QString errorString() const { return m_errorString; }

    std::chrono::milliseconds interval() const;
    void setInterval(std::chrono::milliseconds interval);

    /// Polls now instead of at the next tick.
    void check();

signals:
    /// Something committed since the last check. Coalesced: one signal per poll at most.
    void changed();

private:
    bool readVersion(qint64 *version);

    QString m_connectionName;
    QTimer m_timer;
    qint64 m_version = 0;
    bool m_valid = false;
    QString m_errorString;
};

} // namespace converge

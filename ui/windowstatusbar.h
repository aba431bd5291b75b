// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QStatusBar>
#include <QTimer>

#include <deque>

class QLabel;
class QProgressBar;

namespace converge {

class Controller;
class KindRegistry;
class ResourceTreeModel;
class WorkspaceRunner;

/// The window's status bar: messages, and once a second the accounts' health (from the tree),
/// the controller's counters and the progress of a bulk change when this process runs the
/// controller, or else who runs it.
///
/// Without a controller here it also looks, off the GUI thread, whether another process has
/// committed to the workspace, and says so with workspaceChanged().
class WindowStatusBar final : public QStatusBar
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WindowStatusBar)

public:
    /// `tree`, `kinds`, `controller` (may be null) and `reader` are not owned and must outlive
    /// the status bar's polling (stop() ends it).
    WindowStatusBar(const ResourceTreeModel &tree, const KindRegistry &kinds,
                    Controller *controller, WorkspaceRunner &reader, const QString &workspacePath,
                    QWidget *parent = nullptr);

    /// Polls now and then once a second.
    void start();
    void stop();
    void poll();

    /// Shows `message` for `timeoutMs`, cut with "…" where it would run under the figures on the
    /// right (QStatusBar clips it mid-letter), whole in the tooltip; cut again on a resize.
    void say(const QString &message, int timeoutMs = 8000);
    /// The message shown now, whole; empty once it timed out or was cleared.
    QString message() const { return m_message; }

    /// The queue figure: work due now apart from retries waiting for a later time.
    static QString queueText(int dueNow, int waiting);

Q_SIGNALS:
    /// The workspace's data changed since the last look (a commit by another process).
    void workspaceChanged();

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    QString fitted(const QString &message) const;
    static void setLabelText(QLabel *label, const QString &text);
    void pollAccounts();
    void pollController();
    void probe();

    const ResourceTreeModel &m_tree;
    const KindRegistry &m_kinds;
    Controller *m_controller = nullptr; // not owned; may be null
    WorkspaceRunner &m_reader;
    QString m_path;

    // Owned through Qt parents.
    QLabel *m_queueLabel = nullptr;
    QLabel *m_workersLabel = nullptr;
    QLabel *m_reconcilesLabel = nullptr;
    QLabel *m_controllerLabel = nullptr;
    QLabel *m_accountsLabel = nullptr;
    QProgressBar *m_progress = nullptr;
    int m_progressPeak = 0; // the most work outstanding since the queue was last empty
    std::deque<std::pair<qint64, qint64>> m_reconcileSamples; // (ms since start, reconciles)
    QElapsedTimer m_uptime;
    QTimer m_timer;
    qint64 m_dataVersion = -1;
    bool m_probing = false;
    QString m_message; // whole, as said; currentMessage() is what fits
};

} // namespace converge

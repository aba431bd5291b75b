// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QString>

class QMenu;
class QSettings;
class QWidget;

namespace converge {

/// Opening other workspaces from the window: the New and Open file dialogs, a new Converge
/// process per workspace (its controller lock is per workspace), and the Open Recent list.
class WorkspaceOpener final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WorkspaceOpener)

public:
    /// `settings` (not owned) holds the recent list; `window` parents the dialogs and this.
    WorkspaceOpener(QSettings &settings, const QString &currentPath, QWidget *window);

    /// The menu that lists the recent workspaces (not owned); fillRecentMenu() fills it.
    void setRecentMenu(QMenu *menu) { m_recentMenu = menu; }

    void chooseNew();
    void choose();
    /// Opens `path` in a new process and lists it under Open Recent.
    void open(const QString &path);
    void fillRecentMenu();

Q_SIGNALS:
    /// A line for the status bar.
    void message(const QString &text);

private:
    QSettings &m_settings;
    QString m_path;
    QWidget *m_window = nullptr;   // not owned
    QMenu *m_recentMenu = nullptr; // not owned
};

} // namespace converge

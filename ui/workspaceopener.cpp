// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "workspaceopener.h"

#include "recentworkspaces.h"

#include <QAction>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QProcess>
#include <QSettings>

namespace converge {

WorkspaceOpener::WorkspaceOpener(QSettings &settings, const QString &currentPath, QWidget *window)
    : QObject(window)
    , m_settings(settings)
    , m_path(currentPath)
    , m_window(window)
{}

void WorkspaceOpener::chooseNew()
{
    auto *dialog = new QFileDialog(m_window, tr("New workspace"), QFileInfo(m_path).absolutePath(),
                                   tr("Converge workspaces (*.converge)"));
    dialog->setObjectName(QStringLiteral("newWorkspaceDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(QStringLiteral("converge"));
    // An existing file is opened, never replaced: a workspace holds history.
    dialog->setOption(QFileDialog::DontConfirmOverwrite);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        if (QFileInfo::exists(path))
            Q_EMIT message(tr("%1 exists: opening it").arg(QFileInfo(path).fileName()));
        open(path); // the new process creates the file
    });
    dialog->open();
}

void WorkspaceOpener::choose()
{
    auto *dialog = new QFileDialog(m_window, tr("Open workspace"), QFileInfo(m_path).absolutePath(),
                                   tr("Converge workspaces (*.converge);;All files (*)"));
    dialog->setObjectName(QStringLiteral("openWorkspaceDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, this, &WorkspaceOpener::open);
    dialog->open();
}

void WorkspaceOpener::open(const QString &path)
{
    if (path.isEmpty())
        return;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (absolute == QFileInfo(m_path).absoluteFilePath()) {
        Q_EMIT message(tr("%1 is this window's workspace").arg(QFileInfo(path).fileName()));
        return;
    }
    // One workspace per process: the controller lock, the connections and the window's state
    // all belong to one workspace.
    if (!QProcess::startDetached(QCoreApplication::applicationFilePath(), {absolute})) {
        Q_EMIT message(tr("Cannot start Converge for %1").arg(absolute));
        return;
    }
    RecentWorkspaces(m_settings).add(absolute);
    fillRecentMenu();
    Q_EMIT message(tr("Opening %1 in a new window").arg(QFileInfo(absolute).fileName()));
}

void WorkspaceOpener::fillRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList paths = RecentWorkspaces(m_settings).paths(m_path);
    const QString current = QFileInfo(m_path).absoluteFilePath();
    for (const QString &path : paths) {
        QAction *action = m_recentMenu->addAction(QFileInfo(path).fileName());
        action->setToolTip(path);
        action->setStatusTip(path);
        action->setData(path);
        action->setEnabled(path != current);
        connect(action, &QAction::triggered, this, [this, path] { open(path); });
    }
    if (!paths.isEmpty()) {
        m_recentMenu->addSeparator();
        QAction *clear = m_recentMenu->addAction(tr("Clear list"));
        clear->setObjectName(QStringLiteral("clearRecentAction"));
        connect(clear, &QAction::triggered, this, [this] {
            RecentWorkspaces(m_settings).clear();
            fillRecentMenu();
        });
    }
    m_recentMenu->setEnabled(!paths.isEmpty());
}

} // namespace converge

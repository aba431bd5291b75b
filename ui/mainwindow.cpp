// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include <QApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QStatusBar>
#include <QTreeView>

namespace converge {

MainWindow::MainWindow(const QString &workspacePath, QWidget *parent)
    : QMainWindow(parent)
    , m_workspacePath(workspacePath)
{
    setObjectName(QStringLiteral("MainWindow"));
    setWindowTitle(tr("%1 — Converge").arg(QFileInfo(workspacePath).fileName()));

    m_tree = new QTreeView(this);
    m_tree->setObjectName(QStringLiteral("resourceTree"));
    m_tree->setUniformRowHeights(true);
    setCentralWidget(m_tree);

    auto *logDock = new QDockWidget(tr("Log"), this);
    logDock->setObjectName(QStringLiteral("logDock"));
    m_log = new QPlainTextEdit(logDock);
    m_log->setReadOnly(true);
    logDock->setWidget(m_log);
    addDockWidget(Qt::BottomDockWidgetArea, logDock);

    createActions();
    statusBar()->showMessage(tr("Workspace: %1").arg(workspacePath));
    resize(1200, 800);
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    auto *fileMenu = menuBar()->addMenu(tr("&File"));
    auto *quit = fileMenu->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);
}

} // namespace converge

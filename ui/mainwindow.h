// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QMainWindow>

class QTreeView;
class QPlainTextEdit;

namespace converge {

/// The main window: resource tree in the centre, the log panel docked below.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    explicit MainWindow(const QString &workspacePath, QWidget *parent = nullptr);
    ~MainWindow() override;

    QString workspacePath() const { return m_workspacePath; }

private:
    void createActions();

    QString m_workspacePath;
    QTreeView *m_tree = nullptr;     // owned by the window
    QPlainTextEdit *m_log = nullptr; // owned by the log dock
};

} // namespace converge

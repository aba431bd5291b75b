// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include <QDockWidget>
#include <QTest>
#include <QTreeView>

using namespace converge;

class tst_MainWindow final : public QObject
{
    Q_OBJECT

private slots:
    void showsTreeAndLogPanel()
    {
        MainWindow window(QStringLiteral("/tmp/sample.converge"));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("sample.converge")));
        auto *tree = window.findChild<QTreeView *>(QStringLiteral("resourceTree"));
        QVERIFY(tree);
        QVERIFY(tree->isVisible());
        auto *log = window.findChild<QDockWidget *>(QStringLiteral("logDock"));
        QVERIFY(log);
        QVERIFY(log->isVisible());
    }
};

QTEST_MAIN(tst_MainWindow)
#include "tst_mainwindow.moc"

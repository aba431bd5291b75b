// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The window's enabling rules from a plain summary of the selection, with no window: what the
// controller, managed, discovered and unclaimed rows allow, and that update() applies the rules
// to the actions.
#include "windowactions.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QTest>
#include <QToolBar>

using namespace converge;

Q_DECLARE_METATYPE(WindowActions::Selection)
Q_DECLARE_METATYPE(WindowActions::Enabled)

namespace {

WindowActions::Selection selection(int managed, int discovered, int unclaimed, bool controller)
{
    WindowActions::Selection s;
    s.managed = managed;
    s.discovered = discovered;
    s.unclaimed = unclaimed;
    s.controller = controller;
    return s;
}

// claim, reconcile/refresh/cancel, delete/export; apply, new resource and connect are always on.
WindowActions::Enabled enabled(bool claim, bool engine, bool managed)
{
    WindowActions::Enabled e;
    e.claim = claim;
    e.reconcile = e.refresh = e.cancel = engine;
    e.remove = e.exportYaml = managed;
    return e;
}

} // namespace

class tst_WindowActions final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rules_data()
    {
        QTest::addColumn<WindowActions::Selection>("selection");
        QTest::addColumn<WindowActions::Enabled>("expected");
        QTest::newRow("nothing selected")
            << selection(0, 0, 0, true) << enabled(false, false, false);
        QTest::newRow("nothing, no controller")
            << selection(0, 0, 0, false) << enabled(false, false, false);
        QTest::newRow("managed, claimed") << selection(2, 0, 0, true) << enabled(false, true, true);
        QTest::newRow("managed, no controller")
            << selection(2, 0, 0, false) << enabled(false, false, true);
        QTest::newRow("managed, unclaimed")
            << selection(2, 0, 1, true) << enabled(true, true, true);
        QTest::newRow("unclaimed, no controller")
            << selection(1, 0, 1, false) << enabled(false, false, true);
        // Discovered rows are not in the workspace: only Claim applies to them.
        QTest::newRow("discovered only") << selection(0, 3, 0, true) << enabled(true, false, false);
        QTest::newRow("discovered, no controller")
            << selection(0, 3, 0, false) << enabled(false, false, false);
        QTest::newRow("discovered and managed")
            << selection(1, 1, 0, true) << enabled(true, true, true);
    }

    void rules()
    {
        QFETCH(WindowActions::Selection, selection);
        QFETCH(WindowActions::Enabled, expected);
        const WindowActions::Enabled got = WindowActions::enabledFor(selection);
        QCOMPARE(got.claim, expected.claim);
        QCOMPARE(got.reconcile, expected.reconcile);
        QCOMPARE(got.refresh, expected.refresh);
        QCOMPARE(got.cancel, expected.cancel);
        QCOMPARE(got.remove, expected.remove);
        QCOMPARE(got.exportYaml, expected.exportYaml);
        QVERIFY(got.apply);
        QVERIFY(got.newResource);
        QVERIFY(got.connect);
    }

    void updateEnablesTheActions()
    {
        WindowActions actions;
        actions.update(selection(0, 2, 0, true));
        QVERIFY(actions.claim()->isEnabled());
        QVERIFY(!actions.reconcile()->isEnabled());
        QVERIFY(!actions.remove()->isEnabled());
        QVERIFY(actions.apply()->isEnabled());
        actions.update(selection(1, 0, 0, false));
        QVERIFY(!actions.claim()->isEnabled());
        QVERIFY(!actions.refresh()->isEnabled());
        QVERIFY(!actions.cancel()->isEnabled());
        QVERIFY(actions.remove()->isEnabled());
        QVERIFY(actions.exportYaml()->isEnabled());
        QVERIFY(actions.newResource()->isEnabled());
        QVERIFY(actions.connectAccount()->isEnabled());
    }

    void namesAndShortcuts()
    {
        WindowActions actions;
        QCOMPARE(actions.findChild<QAction *>(QStringLiteral("claimAction")), actions.claim());
        QCOMPARE(actions.findChild<QAction *>(QStringLiteral("deleteAction")), actions.remove());
        QCOMPARE(actions.reconcile()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_R));
        QCOMPARE(actions.remove()->shortcut(), QKeySequence(QKeySequence::Delete));
        QVERIFY(actions.reconcile()->toolTip().startsWith(actions.reconcile()->statusTip()));
        QCOMPARE(actions.contextActions().size(), 8);
        QCOMPARE(actions.contextActions().constLast(), actions.exportYaml());
    }

    void menusAndToolBar()
    {
        WindowActions actions;
        QMenuBar bar;
        QAction log(QStringLiteral("Log"));
        QAction details(QStringLiteral("Details"));
        QMenu *recent = actions.fillMenuBar(&bar, {&log, nullptr, &details});
        QVERIFY(recent);
        QCOMPARE(recent->objectName(), QStringLiteral("recentMenu"));
        QCOMPARE(bar.actions().size(), 4);
        QCOMPARE(bar.actions().at(2)->menu()->actions(), (QList<QAction *>{&log, &details}));
        QVERIFY(bar.actions().at(1)->menu()->actions().contains(actions.claim()));
        // Help: the documentation, About Converge and About Qt.
        const QList<QAction *> help = bar.actions().at(3)->menu()->actions();
        QVERIFY(help.contains(actions.documentation()));
        QVERIFY(help.contains(actions.about()));
        QVERIFY(help.contains(actions.aboutQt()));
        QCOMPARE(actions.documentation()->shortcut(), QKeySequence(QKeySequence::HelpContents));
        QToolBar toolbar;
        actions.fillToolBar(&toolbar);
        QVERIFY(toolbar.actions().contains(actions.remove()));
        QVERIFY(!toolbar.actions().contains(actions.quit()));
    }

    void withoutTheControllerTheTipsSayWhy()
    {
        // A second window of the same workspace: the engine's actions are greyed, and their
        // tips say where they can be used.
        WindowActions actions;
        const QString tip = actions.reconcile()->toolTip();
        WindowActions::Selection selection;
        selection.managed = 1;
        selection.controller = false;
        actions.update(selection);
        QVERIFY(!actions.reconcile()->isEnabled());
        for (QAction *action :
             {actions.claim(), actions.reconcile(), actions.refresh(), actions.cancel()})
            QVERIFY2(action->toolTip().contains(QStringLiteral("Another Converge window")),
                     qPrintable(action->objectName()));
        selection.controller = true;
        actions.update(selection);
        QCOMPARE(actions.reconcile()->toolTip(), tip);

        // Only what cannot be claimed is selected: Claim is greyed and says why.
        WindowActions::Selection blobs;
        blobs.controller = true;
        blobs.claimRefusal = QStringLiteral("a blob's bytes are only in the container");
        actions.update(blobs);
        QVERIFY(!actions.claim()->isEnabled());
        QCOMPARE(actions.claim()->toolTip(),
                 QStringLiteral("Cannot claim: a blob's bytes are only in the container"));
        blobs.discovered = 1; // and something that can be: offered, with its own tip
        actions.update(blobs);
        QVERIFY(actions.claim()->isEnabled());
        QVERIFY(!actions.claim()->toolTip().startsWith(QStringLiteral("Cannot claim")));
    }
};

QTEST_MAIN(tst_WindowActions)
#include "tst_windowactions.moc"

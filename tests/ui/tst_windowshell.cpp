// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The window's shell actions through its widgets, without a controller: shortcuts, Connect
// account and New resource ending in the workspace through the apply path, Delete without
// confirmation, and the current workspace in Open Recent.
#include "mainwindow.h"

#include "applyplandialog.h"
#include "awskinds.h"
#include "azurekinds.h"
#include "connectdialog.h"
#include "kindregistry.h"
#include "newresourcedialog.h"
#include "recentworkspaces.h"
#include "workspace.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace converge;

namespace {

struct Fixture
{
    Fixture()
        : settings(dir.filePath(QStringLiteral("ui.ini")), QSettings::IniFormat)
    {
        AzureKinds::registerAll(kinds);
        AwsKinds::registerKinds(kinds);
        path = dir.filePath(QStringLiteral("shell.converge"));
        window =
            std::make_unique<MainWindow>(WindowServices{kinds, path, nullptr, &settings, nullptr});
        window->show();
    }

    QAction *action(const char *name) const
    {
        return window->findChild<QAction *>(QString::fromLatin1(name));
    }

    template<typename T>
    T *waitForDialog() const
    {
        T *found = nullptr;
        for (int i = 0; i < 500 && !found; ++i) {
            found = window->findChild<T *>();
            if (!found)
                QTest::qWait(10);
        }
        return found;
    }

    QTemporaryDir dir;
    QSettings settings;
    KindRegistry kinds;
    QString path;
    std::unique_ptr<MainWindow> window;
};

} // namespace

class tst_WindowShell final : public QObject
{
    Q_OBJECT

private slots:
    void shortcuts_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<QKeySequence>("key");
        QTest::newRow("new resource")
            << QStringLiteral("newResourceAction") << QKeySequence(Qt::CTRL | Qt::Key_N);
        QTest::newRow("open workspace")
            << QStringLiteral("openWorkspaceAction") << QKeySequence(Qt::CTRL | Qt::Key_O);
        QTest::newRow("settings") << QStringLiteral("settingsAction")
                                  << QKeySequence(Qt::CTRL | Qt::Key_Comma);
    }

    void shortcuts()
    {
        QFETCH(QString, action);
        QFETCH(QKeySequence, key);
        Fixture f;
        QAction *a = f.action(qPrintable(action));
        QVERIFY(a);
        QCOMPARE(a->shortcut(), key);
        QVERIFY(a->isEnabled());
        // No other action of the window takes the same keys.
        for (QAction *other : f.window->findChildren<QAction *>()) {
            if (other != a && !other->shortcut().isEmpty())
                QVERIFY2(other->shortcut() != key, qPrintable(other->objectName()));
        }
    }

    void connectAzuriteApplies()
    {
        Fixture f;
        QSignalSpy applied{f.window.get(), &MainWindow::manifestApplied};
        QVERIFY(applied.isValid());
        f.action("connectAction")->trigger();
        auto *dialog = f.waitForDialog<ConnectDialog>();
        QVERIFY(dialog);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("connectButton")),
                          Qt::LeftButton);
        QVERIFY(applied.wait(5000));
        QCOMPARE(applied.constFirst().at(1).toString(), QString());
        const auto keys = applied.constFirst().at(0).value<QList<ResourceKey>>();
        QCOMPARE(keys, (QList<ResourceKey>{
                           {QStringLiteral("StorageAccount"), QStringLiteral("azurite")}}));
        StoreError error;
        const auto ws = Workspace::open(f.path, &error);
        QVERIFY(ws);
        const std::optional<Resource> stored = ws->get(keys.constFirst());
        QVERIFY(stored);
        QCOMPARE(stored->spec.value(QStringLiteral("credential")).toObject(),
                 (QJsonObject{{QStringLiteral("emulator"), true}}));
    }

    void newResourceShowsPlanThenApplies()
    {
        Fixture f;
        QSignalSpy applied{f.window.get(), &MainWindow::manifestApplied};
        f.action("newResourceAction")->trigger();
        auto *dialog = f.waitForDialog<NewResourceDialog>();
        QVERIFY(dialog);
        dialog->setKind(QStringLiteral("Queue"));
        dialog->setOwner(QStringLiteral("devstore"));
        dialog->validateNow();
        QVERIFY2(dialog->isValid(), qPrintable(dialog->errorText()));
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("applyButton")),
                          Qt::LeftButton);
        auto *plan = f.waitForDialog<ApplyPlanDialog>();
        QVERIFY(plan);
        QCOMPARE(plan->plan().count(ApplyPlan::Item::Action::Create), 1);
        plan->accept();
        QVERIFY(applied.wait(5000));
        QCOMPARE(applied.constFirst().at(0).value<QList<ResourceKey>>(),
                 (QList<ResourceKey>{{QStringLiteral("Queue"), QStringLiteral("queue1")}}));
    }

    void recentListsCurrentWorkspace()
    {
        Fixture f;
        // The workspace file appears once something is written; the list keeps its path.
        QCOMPARE(f.settings.value(QStringLiteral("Workspaces/recent")).toStringList(),
                 QStringList{f.path});
        auto *menu = f.window->findChild<QMenu *>(QStringLiteral("recentMenu"));
        QVERIFY(menu);
        QVERIFY(!menu->actions().isEmpty());
        QCOMPARE(menu->actions().constFirst()->data().toString(), f.path);
        QVERIFY(!menu->actions().constFirst()->isEnabled()); // this window's own
    }
};

QTEST_MAIN(tst_WindowShell)
#include "tst_windowshell.moc"

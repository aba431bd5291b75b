// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The window through its widgets, against a Controller running the engine's fake backend on a
// temporary workspace: resources and Ready icons, Reconcile, Delete, applying a dropped
// manifest, the log panel, and the status bar.
#include "mainwindow.h"

#include "aboutbox.h"
#include "applyplandialog.h"
#include "buildinfo.h"
#include "clock.h"
#include "controller.h"
#include "deletedialog.h"
#include "detailspane.h"
#include "enginefixture.h"
#include "eventlogmodel.h"
#include "eventlogview.h"
#include "factoryregistry.h"
#include "genericreconciler.h"
#include "resourcetreemodel.h"
#include "windowstatusbar.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFont>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTest>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>

using namespace converge;
using namespace converge::test;
using namespace std::chrono_literals;

namespace {

ResourceKey widgetKey(const QString &name)
{
    return {QStringLiteral("Widget"), name};
}

/// A workspace with Gadget g and Widgets w1..w3, a controller on the fake backend, and the
/// window over them (settings in a temporary file).
struct Fixture
{
    Fixture()
        : reconciler(f.kinds)
        , settings(f.dir.filePath(QStringLiteral("ui.ini")), QSettings::IniFormat)
    {
        f.apply({EngineFixture::gadget(QStringLiteral("g")),
                 EngineFixture::widget(QStringLiteral("w1"), QStringLiteral("g")),
                 EngineFixture::widget(QStringLiteral("w2"), QStringLiteral("g")),
                 EngineFixture::widget(QStringLiteral("w3"), QStringLiteral("g"))});
        factories.add(std::make_unique<FakeFactory>(f.backend));
        Controller::Options options;
        options.workers = 4;
        options.pollInterval = 20ms;
        controller = std::make_unique<Controller>(f.path, f.kinds, factories, reconciler, clock,
                                                  nullptr, options);
        controller->start();
        window = std::make_unique<MainWindow>(
            WindowServices{f.kinds, f.path, controller.get(), &settings});
        window->show();
    }
    ~Fixture()
    {
        window.reset();
        controller->stop();
    }

    QTreeView *tree() const
    {
        return window->findChild<QTreeView *>(QStringLiteral("resourceTree"));
    }
    EventLogView *log() const
    {
        return window->findChild<EventLogView *>(QStringLiteral("eventLog"));
    }
    QAction *action(const char *name) const
    {
        return window->findChild<QAction *>(QString::fromLatin1(name));
    }
    QWidget *toolButton(const char *name) const
    {
        auto *bar = window->findChild<QToolBar *>(QStringLiteral("mainToolBar"));
        return bar ? bar->widgetForAction(action(name)) : nullptr;
    }

    /// The tree's (proxy) index of `key`, or invalid when it is not shown.
    QModelIndex shown(const ResourceKey &key, const QModelIndex &parent = {}) const
    {
        QAbstractItemModel *model = tree()->model();
        for (int row = 0; row < model->rowCount(parent); ++row) {
            const QModelIndex index = model->index(row, 0, parent);
            if (index.data(ResourceTreeModel::KeyRole).value<ResourceKey>() == key)
                return index;
            if (const QModelIndex found = shown(key, index); found.isValid())
                return found;
        }
        return {};
    }

    bool shownWithStatus(const ResourceKey &key, StatusKind status) const
    {
        const QModelIndex index = shown(key);
        return index.isValid() && index.data(ResourceTreeModel::StatusRole).toInt() == int(status);
    }

    bool allReady() const
    {
        for (const QString &n :
             {QStringLiteral("w1"), QStringLiteral("w2"), QStringLiteral("w3")}) {
            if (!shownWithStatus(widgetKey(n), StatusKind::Ready))
                return false;
        }
        return shownWithStatus({QStringLiteral("Gadget"), QStringLiteral("g")}, StatusKind::Ready);
    }

    /// Clicks the row of `key` in the tree, with `modifiers` (Ctrl adds to the selection).
    void click(const ResourceKey &key, Qt::KeyboardModifiers modifiers = Qt::NoModifier) const
    {
        const QModelIndex index = shown(key);
        QVERIFY(index.isValid());
        tree()->scrollTo(index);
        QTest::mouseClick(tree()->viewport(), Qt::LeftButton, modifiers,
                          tree()->visualRect(index).center());
    }

    EngineFixture f;
    FactoryRegistry factories;
    GenericReconciler reconciler;
    SystemClock clock;
    std::unique_ptr<Controller> controller;
    QSettings settings;
    std::unique_ptr<MainWindow> window;
};

} // namespace

class tst_MainWindow final : public QObject
{
    Q_OBJECT

private slots:
    void showsResourcesWithReadyIconsAndLog()
    {
        Fixture x;
        QVERIFY(QTest::qWaitForWindowExposed(x.window.get()));
        QVERIFY(x.window->windowTitle().startsWith(QStringLiteral("engine.converge")));
        QVERIFY(x.tree()->isVisible());
        QVERIFY(x.window->findChild<QDockWidget *>(QStringLiteral("logDock"))->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(x.allReady(), 15000);
        // Owners are expanded: the widgets are under g and visible.
        const QModelIndex w1 = x.shown(widgetKey(QStringLiteral("w1")));
        QCOMPARE(w1.parent().data().toString(), QStringLiteral("g"));
        QVERIFY(x.tree()->isExpanded(w1.parent()));
        const QModelIndex ready = w1.siblingAtColumn(ResourceTreeModel::ReadyColumn);
        QCOMPARE(ready.data().toString(), QStringLiteral("Succeeded"));
        QVERIFY(!ready.data(Qt::DecorationRole).value<QIcon>().pixmap(16, 16).isNull());

        // The log panel shows events, newest last.
        QAbstractItemModel *log = x.log()->model();
        QTRY_VERIFY(log->rowCount() >= 4);
        bool created = false;
        for (int row = 0; row < log->rowCount(); ++row)
            created |= log->index(row, EventLogModel::ReasonColumn).data().toString() ==
                       QLatin1String("Created");
        QVERIFY(created);

        // Selecting shows the details.
        x.click(widgetKey(QStringLiteral("w2")));
        auto *details = x.window->findChild<DetailsPane *>(QStringLiteral("details"));
        QTRY_COMPARE(details->currentKey(), widgetKey(QStringLiteral("w2")));
        auto *spec = x.window->findChild<QPlainTextEdit *>(QStringLiteral("specView"));
        QTRY_VERIFY(spec->toPlainText().contains(QStringLiteral("name: w2")));
        QVERIFY(spec->toPlainText().contains(QStringLiteral("replicas: 1")));
        auto *conditions = x.window->findChild<QTreeWidget *>(QStringLiteral("conditionsView"));
        QTRY_VERIFY(conditions->topLevelItemCount() >= 1);
        QCOMPARE(conditions->topLevelItem(0)->text(1), QStringLiteral("True"));
        // The current condition in bold, then the transitions before it: none shown twice.
        for (int row = 1; row < conditions->topLevelItemCount(); ++row) {
            for (int before = 0; before < row; ++before) {
                bool same = true;
                for (int c = 0; c < conditions->columnCount(); ++c)
                    same &= conditions->topLevelItem(row)->text(c) ==
                            conditions->topLevelItem(before)->text(c);
                QVERIFY2(!same, qPrintable(conditions->topLevelItem(row)->text(3)));
            }
        }
        auto *events = x.window->findChild<QTreeWidget *>(QStringLiteral("eventsView"));
        QVERIFY(events->topLevelItemCount() >= 1);
        // The message has the width to be read, within the pane (elided there, never past
        // the edge behind a scroll bar): the tab that shows it, measured.
        auto *tabs = qobject_cast<QTabWidget *>(events->parentWidget()->parentWidget());
        QVERIFY(tabs);
        tabs->setCurrentWidget(events);
        QCOMPARE(events->columnCount(), 3);
        const int message = events->columnCount() - 1;
        QTRY_VERIFY(events->header()->sectionSize(message) >= events->viewport()->width() / 3);
        QCOMPARE(events->header()->sectionViewportPosition(message) +
                     events->header()->sectionSize(message),
                 events->viewport()->width());

        // The status bar says who runs the controller and counts its work.
        QCOMPARE(x.window->findChild<QLabel *>(QStringLiteral("controllerLabel"))->text(),
                 QStringLiteral("Controller: this window"));
        QTRY_VERIFY(x.window->findChild<QLabel *>(QStringLiteral("reconcilesLabel"))->text() !=
                    QStringLiteral("Reconciles: 0"));

        const QString shot =
            QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("mainwindow.png"));
        QVERIFY(x.window->grab().save(shot));
        qInfo("screenshot: %s", qPrintable(shot));
    }

    void actionsFollowSelection()
    {
        Fixture x;
        QTRY_VERIFY_WITH_TIMEOUT(x.allReady(), 15000);
        for (const char *name :
             {"reconcileAction", "refreshAction", "cancelAction", "deleteAction", "exportAction"})
            QVERIFY2(!x.action(name)->isEnabled(), name);
        QVERIFY(x.action("applyManifestAction")->isEnabled());
        x.click(widgetKey(QStringLiteral("w1")));
        for (const char *name :
             {"reconcileAction", "refreshAction", "cancelAction", "deleteAction", "exportAction"})
            QVERIFY2(x.action(name)->isEnabled(), name);
        QCOMPARE(x.window->selectedKeys(), QList<ResourceKey>{widgetKey(QStringLiteral("w1"))});
        x.click(widgetKey(QStringLiteral("w3")), Qt::ControlModifier);
        QCOMPARE(x.window->selectedKeys().size(), 2);
        // The context menu offers the same actions.
        QVERIFY(x.tree()->actions().contains(x.action("reconcileAction")));
        QVERIFY(x.tree()->actions().contains(x.action("deleteAction")));
    }

    void detailsFollowTheSelection()
    {
        // The pane, the toolbar and the selection move together, whatever takes the selection
        // away: select, act, compare.
        Fixture x;
        QTRY_VERIFY_WITH_TIMEOUT(x.allReady(), 15000);
        auto *details = x.window->findChild<DetailsPane *>(QStringLiteral("details"));
        auto *empty = x.window->findChild<QWidget *>(QStringLiteral("detailsEmpty"));
        QVERIFY(details && empty);
        const auto agree = [&x, details, empty] {
            const QList<ResourceKey> selected = x.window->selectedKeys();
            const ResourceKey shown = details->currentKey();
            if (selected.isEmpty())
                return !shown.isValid() && empty->isVisible() &&
                       !x.action("deleteAction")->isEnabled();
            return shown == selected.constFirst() && !empty->isVisible() &&
                   x.action("deleteAction")->isEnabled();
        };
        QVERIFY(agree()); // nothing selected: the empty state, not an empty editor
        const ResourceKey w1 = widgetKey(QStringLiteral("w1"));
        x.click(w1);
        QCOMPARE(details->currentKey(), w1);
        QVERIFY(agree());

        // A filter that hides the selected row.
        auto *filter = x.window->findChild<QLineEdit *>(QStringLiteral("filterEdit"));
        QTest::keyClicks(filter, QStringLiteral("w2"));
        QTRY_VERIFY(!x.shown(w1).isValid());
        QTRY_VERIFY(x.window->selectedKeys().isEmpty());
        QTRY_VERIFY(agree());
        filter->clear();
        QTRY_VERIFY(x.shown(w1).isValid());

        // A Delete that takes the selected row.
        const ResourceKey w2 = widgetKey(QStringLiteral("w2"));
        x.click(w2);
        QTRY_VERIFY(agree());
        x.action("deleteAction")->trigger();
        DeleteDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = x.window->findChild<DeleteDialog *>()) && dialog->isVisible());
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("detachButton")),
                          Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!x.shown(w2).isValid(), 10000);
        QTRY_VERIFY(agree());
        QVERIFY(!details->currentKey().isValid());
    }

    void unsavedEditsAreMarkedAndAskedAbout()
    {
        Fixture x;
        QTRY_VERIFY_WITH_TIMEOUT(x.allReady(), 15000);
        auto *details = x.window->findChild<DetailsPane *>(QStringLiteral("details"));
        auto *editor = details->findChild<QPlainTextEdit *>(QStringLiteral("specView"));
        const ResourceKey w1 = widgetKey(QStringLiteral("w1"));
        const ResourceKey w2 = widgetKey(QStringLiteral("w2"));
        const ResourceKey w3 = widgetKey(QStringLiteral("w3"));
        const auto name = [&x](const ResourceKey &key) {
            return x.shown(key).data(Qt::DisplayRole).toString();
        };
        const auto question = [&x] {
            return x.window->findChild<QMessageBox *>(QStringLiteral("unsavedEditsQuestion"));
        };
        const auto answer = [&](const char *button) {
            QMessageBox *box = nullptr;
            QTRY_VERIFY((box = question()) && box->isVisible());
            QTest::mouseClick(box->findChild<QPushButton *>(QString::fromLatin1(button)),
                              Qt::LeftButton);
            QTRY_VERIFY(!question());
        };
        x.click(w1);
        QTRY_VERIFY(!editor->isReadOnly() && editor->toPlainText().contains(QStringLiteral("w1")));
        QCOMPARE(name(w1), QStringLiteral("w1"));
        editor->moveCursor(QTextCursor::End);
        QTest::keyClick(editor, Qt::Key_Return);
        QTest::keyClicks(editor, QStringLiteral("# an edit"));
        QVERIFY(details->hasUnsavedEdits());
        QTRY_COMPARE(name(w1), QStringLiteral("w1 *"));
        QVERIFY(x.shown(w1).data(Qt::FontRole).value<QFont>().italic());

        // Stay: the edited resource stays selected and shown.
        x.click(w2);
        answer("stayButton");
        QCOMPARE(x.window->selectedKeys(), QList<ResourceKey>{w1});
        QCOMPARE(details->currentKey(), w1);
        QVERIFY(editor->toPlainText().contains(QStringLiteral("# an edit")));

        // Keep as a draft: w2 is shown, w1 keeps its mark.
        x.click(w2);
        answer("keepDraftButton");
        QCOMPARE(details->currentKey(), w2);
        QCOMPARE(name(w1), QStringLiteral("w1 *"));
        x.click(w3); // nothing edited on w2: no question
        QVERIFY(!question());
        QCOMPARE(details->currentKey(), w3);

        // Discard: the draft goes, and so does the mark.
        x.click(w1);
        QTRY_VERIFY(editor->toPlainText().contains(QStringLiteral("# an edit")));
        x.click(w3);
        answer("discardEditsButton");
        QCOMPARE(details->currentKey(), w3);
        QTRY_COMPARE(name(w1), QStringLiteral("w1"));
        QVERIFY(details->editedKeys().isEmpty());

        // Do not ask again: edits stay as drafts, and the preference is kept.
        x.click(w1);
        QTRY_VERIFY(!editor->isReadOnly());
        editor->moveCursor(QTextCursor::End);
        QTest::keyClick(editor, Qt::Key_Return);
        QTest::keyClicks(editor, QStringLiteral("# another"));
        x.click(w2);
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = question()) && box->isVisible());
        box->checkBox()->setChecked(true);
        QTest::mouseClick(box->findChild<QPushButton *>(QStringLiteral("keepDraftButton")),
                          Qt::LeftButton);
        QTRY_COMPARE(details->currentKey(), w2);
        QVERIFY(!x.window->preferences().askBeforeLeavingEdits);
        x.click(w1);
        QTRY_VERIFY(editor->toPlainText().contains(QStringLiteral("# another")));
        x.click(w3);
        QVERIFY(!question());
        QCOMPARE(details->currentKey(), w3);
        QCOMPARE(name(w1), QStringLiteral("w1 *"));
    }

    void helpAboutAndViewToggles()
    {
        Fixture x;
        x.action("aboutAction")->trigger();
        AboutBox *about = nullptr;
        QTRY_VERIFY((about = x.window->findChild<AboutBox *>()) && about->isVisible());
        QVERIFY(about->text().contains(BuildInfo::version()));
        QVERIFY(!BuildInfo::commit().isEmpty());
        QVERIFY2(about->informativeText().contains(BuildInfo::commit()),
                 qPrintable(about->informativeText()));
        QVERIFY(about->informativeText().contains(QStringLiteral("MIT")));
        about->close();
        // The source tree's README, as the Quick start builds it (build/bin/converge).
        QVERIFY(AboutBox::documentationUrl().isValid());

        // View hides and shows the details; the choice is kept.
        auto *details = x.window->findChild<QWidget *>(QStringLiteral("detailsStack"));
        QAction *toggle = x.action("detailsToggleAction");
        QVERIFY(details->isVisible() && toggle->isChecked());
        toggle->trigger();
        QVERIFY(!details->isVisible());
        x.window->close();
        QVERIFY(!x.settings.value(QStringLiteral("MainWindow/details")).toBool());
        toggle->trigger();
        QVERIFY(details->isVisibleTo(x.window.get()));
    }

    void fileDialogsOpenInTheLastFolderChosen()
    {
        Fixture x;
        const auto applyDialog = [&x] {
            x.action("applyManifestAction")->trigger();
            QFileDialog *dialog = nullptr;
            [&] {
                QTRY_VERIFY((dialog = x.window->findChild<QFileDialog *>(
                                 QStringLiteral("applyFileDialog"))) &&
                            dialog->isVisible());
            }();
            return dialog;
        };
        QFileDialog *first = applyDialog();
        QVERIFY(first);
        QCOMPARE(QDir(first->directory()).canonicalPath(), QDir::home().canonicalPath());
        const QString manifests = x.f.dir.filePath(QStringLiteral("manifests"));
        QVERIFY(QDir().mkpath(manifests));
        QFile file(QDir(manifests).filePath(QStringLiteral("empty.yaml")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        first->selectFile(file.fileName());
        QVERIFY(QMetaObject::invokeMethod(first, "accept"));
        QTRY_VERIFY(!x.window->findChild<QFileDialog *>(QStringLiteral("applyFileDialog")));
        QFileDialog *second = applyDialog();
        QVERIFY(second);
        QCOMPARE(QDir(second->directory()).canonicalPath(), QDir(manifests).canonicalPath());
        second->reject();
    }

    void claimUnmanagedThroughTheWindow()
    {
        Fixture x;
        QTRY_VERIFY_WITH_TIMEOUT(x.allReady(), 15000);
        x.f.backend.put(widgetKey(QStringLiteral("stray")),
                        QJsonObject{{QStringLiteral("owner"),
                                     QJsonObject{{QStringLiteral("name"), QStringLiteral("g")}}},
                                    {QStringLiteral("replicas"), 2}});
        x.controller->resyncNow();
        // The list finds it: a greyed row under its owner, which only Claim applies to.
        const auto discovered = [&x] {
            QAbstractItemModel *model = x.tree()->model();
            const QModelIndex g = x.shown({QStringLiteral("Gadget"), QStringLiteral("g")});
            for (int row = 0; row < model->rowCount(g); ++row) {
                const QModelIndex index = model->index(row, 0, g);
                if (index.data(ResourceTreeModel::IsDiscoveredRole).toBool())
                    return index;
            }
            return QModelIndex();
        };
        QTRY_VERIFY_WITH_TIMEOUT(discovered().isValid(), 10000);
        QCOMPARE(discovered().data(ResourceTreeModel::NameRole).toString(),
                 QStringLiteral("stray"));
        QTRY_VERIFY(x.controller->isIdle());
        const int writes = x.f.backend.writes();
        x.tree()->scrollTo(discovered());
        QTest::mouseClick(x.tree()->viewport(), Qt::LeftButton, Qt::NoModifier,
                          x.tree()->visualRect(discovered()).center());
        QVERIFY(x.action("claimAction")->isEnabled());
        for (const char *name : {"reconcileAction", "refreshAction", "deleteAction"})
            QVERIFY2(!x.action(name)->isEnabled(), name);
        QTest::mouseClick(x.toolButton("claimAction"), Qt::LeftButton);
        // Managed now, Ready, the row swapped, and the backend untouched.
        QTRY_VERIFY_WITH_TIMEOUT(
            x.shownWithStatus(widgetKey(QStringLiteral("stray")), StatusKind::Ready), 10000);
        QTRY_VERIFY(!discovered().isValid());
        QTRY_VERIFY(x.controller->isIdle());
        QCOMPARE(x.f.backend.writes(), writes);
        // A managed, claimed resource offers no Claim.
        x.click(widgetKey(QStringLiteral("w1")));
        QVERIFY(!x.action("claimAction")->isEnabled());
    }

    void statusBarShowsAccountsRateAndProgress()
    {
        Fixture x;
        QTRY_VERIFY_WITH_TIMEOUT(x.allReady(), 15000);
        auto *accounts = x.window->findChild<QLabel *>(QStringLiteral("accountsLabel"));
        auto *rate = x.window->findChild<QLabel *>(QStringLiteral("reconcilesLabel"));
        auto *progress = x.window->findChild<QProgressBar *>(QStringLiteral("workProgress"));
        QVERIFY(accounts && rate && progress);
        QTRY_COMPARE(accounts->text(), QStringLiteral("Accounts: 1 healthy"));
        QTRY_VERIFY(rate->text().endsWith(QStringLiteral("/min")));
        // An account that cannot connect shows up at once.
        QVERIFY(
            x.f.apply({EngineFixture::gadget(QStringLiteral("bad"), QStringLiteral("denied"))}));
        x.controller->wake();
        QTRY_VERIFY_WITH_TIMEOUT(accounts->text() == QStringLiteral("Accounts: 1 of 2 not Ready"),
                                 10000);
        // Bulk work shows how far the controller got.
        x.f.backend.latencyMs = 50;
        QList<Resource> many;
        for (int i = 0; i < 30; ++i)
            many.append(EngineFixture::widget(QStringLiteral("m%1").arg(i), QStringLiteral("g")));
        QVERIFY(x.f.apply(many));
        x.controller->wake();
        QTRY_VERIFY_WITH_TIMEOUT(progress->isVisible() && progress->maximum() > 1, 10000);
        QVERIFY(progress->toolTip().contains(QStringLiteral("in flight")));
        x.f.backend.latencyMs = 0;
        QTRY_VERIFY_WITH_TIMEOUT(!progress->isVisible(), 20000);

        // A retry that waits for a later time is not work under way: the bar ends with the
        // work, and the queue label counts what waits.
        const ResourceKey late = widgetKey(QStringLiteral("late"));
        x.f.backend.injectError(QStringLiteral("create"), late,
                                fakeError(BackendError::Category::Throttled,
                                          QStringLiteral("SlowDown"), std::chrono::minutes(5)));
        QList<Resource> more{EngineFixture::widget(late.name, QStringLiteral("g"))};
        for (int i = 0; i < 10; ++i)
            more.append(EngineFixture::widget(QStringLiteral("n%1").arg(i), QStringLiteral("g")));
        // Slow enough that the status bar (a look a second) sees the work under way: three
        // rounds of four workers, each a create and a get of 400 ms.
        x.f.backend.latencyMs = 400;
        QVERIFY(x.f.apply(more));
        x.controller->wake();
        QTRY_VERIFY_WITH_TIMEOUT(progress->isVisible(), 10000);
        x.f.backend.latencyMs = 0;
        QTRY_VERIFY_WITH_TIMEOUT(x.controller->stats().waiting == 1 && !progress->isVisible(),
                                 20000);
        QVERIFY(x.window->findChild<QLabel *>(QStringLiteral("queueLabel"))
                    ->text()
                    .contains(QStringLiteral("1 waiting")));
        // Those reconciles happened within the last minute.
        QTRY_VERIFY(rate->text() != QStringLiteral("Reconciles: 0/min"));
    }

    // A message too long for the room left of the figures is cut with "…" (QStatusBar alone
    // clipped it mid-letter under the accounts' figure), whole in the tooltip, and shown whole
    // once the window is wide enough.
    void longStatusMessagesAreCutWithAnEllipsis()
    {
        Fixture x;
        QTRY_VERIFY_WITH_TIMEOUT(x.allReady(), 15000);
        auto *status = qobject_cast<WindowStatusBar *>(x.window->statusBar());
        QVERIFY(status);
        auto *accounts = x.window->findChild<QLabel *>(QStringLiteral("accountsLabel"));
        QTRY_VERIFY(accounts->isVisible());
        x.window->resize(x.window->minimumSizeHint().width(), x.window->height());
        QTRY_VERIFY(x.window->width() < 1200);
        const QString whole =
            QStringLiteral("Cannot claim invoices: the account answered AccessDenied for "
                           "GetBucketPolicy on arn:aws:s3:::invoices (request 4F2A), which "
                           "the role converge-reader is not allowed to call");
        status->say(whole);
        QCOMPARE(status->message(), whole);
        QVERIFY2(status->currentMessage().endsWith(QChar(0x2026)),
                 qPrintable(status->currentMessage()));
        QVERIFY(status->fontMetrics().horizontalAdvance(status->currentMessage()) < accounts->x());
        QCOMPARE(status->toolTip(), whole);
        x.window->resize(2400, x.window->height());
        QTRY_COMPARE(status->currentMessage(), whole);
        QVERIFY(status->toolTip().isEmpty());
        status->clearMessage();
        QVERIFY(status->message().isEmpty());
    }

    void reconcileAndRefreshReachTheBackend()
    {
        Fixture x;
        QTRY_VERIFY_WITH_TIMEOUT(x.allReady(), 15000);
        QTRY_VERIFY(x.controller->isIdle());
        x.click(widgetKey(QStringLiteral("w1")));
        const int gets = x.f.backend.gets;
        QTest::mouseClick(x.toolButton("reconcileAction"), Qt::LeftButton);
        QTRY_VERIFY(x.f.backend.gets > gets);
        QTRY_VERIFY(x.controller->isIdle());
        const int afterReconcile = x.f.backend.gets;
        // The shortcut works too (F5: refresh, observe only).
        x.tree()->setFocus();
        QTest::keyClick(x.tree(), Qt::Key_F5);
        QTRY_VERIFY(x.f.backend.gets > afterReconcile);
    }

    void deleteThroughTheDialog()
    {
        Fixture x;
        QTRY_VERIFY_WITH_TIMEOUT(x.allReady(), 15000);
        const ResourceKey w2 = widgetKey(QStringLiteral("w2"));
        QVERIFY(x.f.backend.has(w2));
        x.click(w2);
        QTest::mouseClick(x.toolButton("deleteAction"), Qt::LeftButton);
        DeleteDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = x.window->findChild<DeleteDialog *>()) && dialog->isVisible());
        QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("deleteQuestion"))
                    ->text()
                    .contains(QStringLiteral("Widget/w2")));
        QSignalSpy requested{x.window.get(), &MainWindow::deletionRequested};
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("deleteButton")),
                          Qt::LeftButton);
        QVERIFY(requested.wait());
        QCOMPARE(requested.at(0).at(1).toString(), QString());
        QTRY_VERIFY_WITH_TIMEOUT(!x.shown(w2).isValid(), 10000);
        QVERIFY(!x.f.backend.has(w2));
        QVERIFY(!x.f.ws->get(w2));
    }

    void detachSeveral()
    {
        Fixture x;
        QTRY_VERIFY_WITH_TIMEOUT(x.allReady(), 15000);
        const ResourceKey w1 = widgetKey(QStringLiteral("w1"));
        const ResourceKey w3 = widgetKey(QStringLiteral("w3"));
        x.click(w1);
        x.click(w3, Qt::ControlModifier);
        x.action("deleteAction")->trigger();
        DeleteDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = x.window->findChild<DeleteDialog *>()) && dialog->isVisible());
        QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("deleteQuestion"))
                    ->text()
                    .contains(QStringLiteral("2 resources")));
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("detachButton")),
                          Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!x.shown(w1).isValid() && !x.shown(w3).isValid(), 10000);
        // Detached: gone from the workspace, still in the backend.
        QVERIFY(x.f.backend.has(w1));
        QVERIFY(x.f.backend.has(w3));
        // The log says what the person did, not the policy the Detach set on its way.
        EventQuery detached;
        detached.involved = w1;
        detached.reason = QStringLiteral("Detached");
        const QList<Event> events = x.f.ws->events(detached);
        QCOMPARE(events.size(), 1);
        QVERIFY2(events.first().message.startsWith(QStringLiteral("detached: ")) &&
                     !events.first().message.contains(QStringLiteral("policy")),
                 qPrintable(events.first().message));
        QVERIFY(x.shown(widgetKey(QStringLiteral("w2"))).isValid());
    }

    void cancelledDialogChangesNothing()
    {
        Fixture x;
        QTRY_VERIFY_WITH_TIMEOUT(x.allReady(), 15000);
        x.click(widgetKey(QStringLiteral("w1")));
        x.action("deleteAction")->trigger();
        DeleteDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = x.window->findChild<DeleteDialog *>()) && dialog->isVisible());
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("cancelButton")),
                          Qt::LeftButton);
        QTRY_VERIFY(!x.window->findChild<DeleteDialog *>());
        QVERIFY(!x.f.ws->get(widgetKey(QStringLiteral("w1")))->metadata.isBeingDeleted());
    }

    void dropManifestShowsPlanAndApplies()
    {
        Fixture x;
        QTRY_VERIFY_WITH_TIMEOUT(x.allReady(), 15000);
        const QString path = x.f.dir.filePath(QStringLiteral("more.yaml"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("apiVersion: test.converge.dev/v1\n"
                   "kind: Widget\n"
                   "metadata:\n"
                   "  name: dropped\n"
                   "spec:\n"
                   "  owner: {name: g}\n"
                   "  replicas: 2\n"
                   "---\n"
                   "apiVersion: test.converge.dev/v1\n"
                   "kind: Widget\n"
                   "metadata:\n"
                   "  name: w1\n"
                   "spec:\n"
                   "  owner: {name: g}\n"
                   "  replicas: 3\n"
                   "---\n"
                   "apiVersion: test.converge.dev/v1\n"
                   "kind: Widget\n"
                   "metadata:\n"
                   "  name: w2\n"
                   "spec:\n"
                   "  owner: {name: g}\n");
        file.close();

        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        const QPoint centre = x.window->rect().center();
        QDragEnterEvent enter(centre, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(x.window.get(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(centre, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(x.window.get(), &drop);

        ApplyPlanDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = x.window->findChild<ApplyPlanDialog *>()) && dialog->isVisible());
        auto *items = dialog->findChild<QTreeWidget *>(QStringLiteral("planItems"));
        QCOMPARE(items->topLevelItemCount(), 3);
        QHash<QString, QStringList> rows;
        for (int i = 0; i < items->topLevelItemCount(); ++i) {
            const QTreeWidgetItem *item = items->topLevelItem(i);
            rows.insert(item->text(1), {item->text(0), item->text(2)});
        }
        QCOMPARE(rows.value(QStringLiteral("Widget/dropped")).value(0), QStringLiteral("create"));
        QCOMPARE(rows.value(QStringLiteral("Widget/w1")),
                 (QStringList{QStringLiteral("update"), QStringLiteral("spec.replicas")}));
        QCOMPARE(rows.value(QStringLiteral("Widget/w2")).value(0), QStringLiteral("unchanged"));
        QCOMPARE(dialog->findChild<QLabel *>(QStringLiteral("planSummary"))->text(),
                 QStringLiteral("1 to create, 1 to update, 1 unchanged"));
        // Nothing is written before the plan is accepted.
        QVERIFY(!x.f.ws->get(widgetKey(QStringLiteral("dropped"))));

        QSignalSpy applied{x.window.get(), &MainWindow::manifestApplied};
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("applyButton")),
                          Qt::LeftButton);
        QVERIFY(applied.wait());
        QCOMPARE(applied.at(0).at(1).toString(), QString());
        const ResourceKey dropped = widgetKey(QStringLiteral("dropped"));
        QTRY_VERIFY(x.shown(dropped).isValid());
        QCOMPARE(x.shown(dropped).parent().data().toString(), QStringLiteral("g"));
        QTRY_VERIFY_WITH_TIMEOUT(x.shownWithStatus(dropped, StatusKind::Ready), 10000);
        QVERIFY(x.f.backend.has(dropped));
        QTRY_COMPARE(
            x.f.backend.spec(widgetKey(QStringLiteral("w1"))).value(QStringLiteral("replicas")),
            QJsonValue(3));
    }

    void invalidManifestCannotBeApplied()
    {
        Fixture x;
        const QString path = x.f.dir.filePath(QStringLiteral("bad.yaml"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("apiVersion: test.converge.dev/v1\n"
                   "kind: Widget\n"
                   "metadata:\n"
                   "  name: bad\n"
                   "spec:\n"
                   "  owner: {name: g}\n"
                   "  replicas: 99\n");
        file.close();
        x.window->applyManifestFiles({path});
        ApplyPlanDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = x.window->findChild<ApplyPlanDialog *>()) && dialog->isVisible());
        auto *items = dialog->findChild<QTreeWidget *>(QStringLiteral("planItems"));
        QCOMPARE(items->topLevelItemCount(), 1);
        QCOMPARE(items->topLevelItem(0)->text(0), QStringLiteral("invalid"));
        QVERIFY(items->topLevelItem(0)->text(2).contains(QStringLiteral("spec.replicas")));
        QVERIFY(items->topLevelItem(0)->text(3).contains(QStringLiteral("bad.yaml:7")));
        QVERIFY(!dialog->findChild<QPushButton *>(QStringLiteral("applyButton"))->isEnabled());
    }

    void selectingALogRowSelectsTheResource()
    {
        Fixture x;
        QTRY_VERIFY_WITH_TIMEOUT(x.allReady(), 15000);
        QAbstractItemModel *log = x.log()->model();
        const ResourceKey w3 = widgetKey(QStringLiteral("w3"));
        int row = -1;
        QTRY_VERIFY([&] {
            for (int r = 0; r < log->rowCount(); ++r) {
                if (log->index(r, 0).data(EventLogModel::KeyRole).value<ResourceKey>() == w3) {
                    row = r;
                    return true;
                }
            }
            return false;
        }());
        const QModelIndex index = log->index(row, EventLogModel::ReasonColumn);
        x.log()->scrollTo(index);
        QTest::mouseClick(x.log()->viewport(), Qt::LeftButton, {},
                          x.log()->visualRect(index).center());
        const QModelIndex current = x.tree()->selectionModel()->currentIndex();
        QCOMPARE(current.data(ResourceTreeModel::KeyRole).value<ResourceKey>(), w3);
        QCOMPARE(x.window->selectedKeys(), QList<ResourceKey>{w3});
    }

    void filterBoxNarrowsTheTree()
    {
        Fixture x;
        QTRY_VERIFY_WITH_TIMEOUT(x.allReady(), 15000);
        auto *filter = x.window->findChild<QLineEdit *>(QStringLiteral("filterEdit"));
        QTest::keyClicks(filter, QStringLiteral("W2"));
        QTRY_VERIFY(!x.shown(widgetKey(QStringLiteral("w1"))).isValid());
        QVERIFY(x.shown(widgetKey(QStringLiteral("w2"))).isValid());
        QVERIFY(x.shown({QStringLiteral("Gadget"), QStringLiteral("g")}).isValid());
        auto *placeholder = x.window->findChild<QLabel *>(QStringLiteral("treePlaceholder"));
        QVERIFY(!placeholder->isVisible());
        // A filter that matches nothing says so.
        QTest::keyClicks(filter, QStringLiteral("zzz"));
        QTRY_VERIFY(placeholder->isVisible());
        QCOMPARE(placeholder->text(), QStringLiteral("Nothing matches the filter"));
        filter->clear();
        QTRY_VERIFY(!placeholder->isVisible());
    }

    void exportWritesYaml()
    {
        Fixture x;
        QTRY_VERIFY_WITH_TIMEOUT(x.allReady(), 15000);
        x.click(widgetKey(QStringLiteral("w1")));
        const QString path = x.f.dir.filePath(QStringLiteral("out.yaml"));
        QSignalSpy exported{x.window.get(), &MainWindow::exportFinished};
        x.window->exportResources(x.window->selectedKeys(), path);
        QVERIFY(exported.wait());
        QCOMPARE(exported.at(0).at(1).toString(), QString());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray yaml = file.readAll();
        QVERIFY(yaml.contains("kind: Widget"));
        QVERIFY(yaml.contains("name: w1"));
    }

    void exportLogWritesFilteredHistory()
    {
        Fixture x;
        QTRY_VERIFY_WITH_TIMEOUT(x.allReady(), 15000);
        // A message with a comma, a quote and a line break, as CSV must quote it.
        {
            auto ws = Workspace::open(x.f.path, nullptr);
            Event e;
            e.involved = widgetKey(QStringLiteral("w2"));
            e.type = Event::Type::Warning;
            e.reason = QStringLiteral("Odd");
            e.message = QStringLiteral("a, \"b\"\nc");
            QList<Event> events{e};
            QVERIFY(ws->recordEvents(events, nullptr));
        }
        auto *text = x.window->findChild<QLineEdit *>(QStringLiteral("logFilterEdit"));
        QVERIFY(text);
        QTest::keyClicks(text, QStringLiteral("w2"));
        const QString csvPath = x.f.dir.filePath(QStringLiteral("events.csv"));
        QSignalSpy exported{x.window.get(), &MainWindow::logExported};
        x.window->exportLog(csvPath);
        QVERIFY(exported.wait());
        QCOMPARE(exported.at(0).at(1).toString(), QString());
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().split('\n');
        QVERIFY(lines.first().startsWith("id,firstTimestamp,lastTimestamp,type,resource"));
        const QByteArray all = lines.join('\n');
        QVERIFY(all.contains("Widget/w2,"));
        QVERIFY(!all.contains("Widget/w1,")); // the filter applies
        QVERIFY(all.contains("\"a, \"\"b\"\"\r\nc\"") || all.contains("\"a, \"\"b\"\"\nc\""));

        const QString jsonPath = x.f.dir.filePath(QStringLiteral("events.json"));
        x.window->exportLog(jsonPath);
        QVERIFY(exported.wait());
        QFile json(jsonPath);
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonArray array = QJsonDocument::fromJson(json.readAll()).array();
        QVERIFY(!array.isEmpty());
        for (const QJsonValue &v : array)
            QCOMPARE(v.toObject().value(QStringLiteral("involvedObject")).toString(),
                     QStringLiteral("Widget/w2"));
    }

    void remembersGeometryAndDocks()
    {
        Fixture x;
        x.window->resize(900, 640);
        x.window->close();
        QVERIFY(x.settings.contains(QStringLiteral("MainWindow/geometry")));
        QVERIFY(x.settings.contains(QStringLiteral("MainWindow/state")));
        MainWindow again(WindowServices{x.f.kinds, x.f.path, nullptr, &x.settings});
        QCOMPARE(again.size(), QSize(900, 640));
    }

    void withoutControllerShowsTheWorkspace()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("g")),
                         EngineFixture::widget(QStringLiteral("w1"), QStringLiteral("g"))}));
        QSettings settings(f.dir.filePath(QStringLiteral("ui.ini")), QSettings::IniFormat);
        MainWindow window(WindowServices{f.kinds, f.path, nullptr, &settings});
        window.show();
        auto *tree = window.findChild<QTreeView *>(QStringLiteral("resourceTree"));
        QTRY_COMPARE(tree->model()->rowCount(), 1);
        QTRY_VERIFY(window.selectResource(widgetKey(QStringLiteral("w1"))));
        // Only engine actions need a controller.
        QVERIFY(!window.findChild<QAction *>(QStringLiteral("reconcileAction"))->isEnabled());
        QVERIFY(window.findChild<QAction *>(QStringLiteral("deleteAction"))->isEnabled());
        QTRY_COMPARE(window.findChild<QLabel *>(QStringLiteral("controllerLabel"))->text(),
                     QStringLiteral("Controller: none"));
        // Another process commits: the window follows.
        QVERIFY(f.apply({EngineFixture::widget(QStringLiteral("w2"), QStringLiteral("g"))}));
        QTRY_VERIFY_WITH_TIMEOUT(window.selectResource(widgetKey(QStringLiteral("w2"))), 5000);
    }

    void aCrashNoticeShowsAboveTheLogUntilClosed()
    {
        EngineFixture f;
        QSettings settings(f.dir.filePath(QStringLiteral("ui.ini")), QSettings::IniFormat);
        MainWindow window(WindowServices{f.kinds, f.path, nullptr, &settings});
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *notice = window.findChild<QWidget *>(QStringLiteral("logNotice"));
        QVERIFY(notice && !notice->isVisible());
        window.showNotice(QStringLiteral("Converge crashed (signal 11, SIGSEGV); the report is "
                                         "/state/crash-42.txt"));
        QVERIFY(notice->isVisible());
        QVERIFY(window.findChild<QLabel *>(QStringLiteral("logNoticeText"))
                    ->text()
                    .contains(QStringLiteral("crash-42.txt")));
        QTest::mouseClick(window.findChild<QToolButton *>(QStringLiteral("logNoticeClose")),
                          Qt::LeftButton);
        QVERIFY(!notice->isVisible());
    }

    void legacyConstructorOnAMissingWorkspace()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sample.converge"));
        MainWindow window(path);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("sample.converge")));
        QVERIFY(window.findChild<QTreeView *>(QStringLiteral("resourceTree"))->isVisible());
        QVERIFY(window.findChild<QDockWidget *>(QStringLiteral("logDock"))->isVisible());
        QTRY_VERIFY(!window.statusBar()->currentMessage().isEmpty());
        QVERIFY(!QFile::exists(path)); // reading never creates the file
        // An empty workspace says how to fill it, not a blank tree.
        auto *placeholder = window.findChild<QLabel *>(QStringLiteral("treePlaceholder"));
        QVERIFY(placeholder);
        QTRY_VERIFY(placeholder->isVisible());
        QVERIFY(placeholder->text().contains(QStringLiteral("Connect account")));
    }
};

QTEST_MAIN(tst_MainWindow)
#include "tst_mainwindow.moc"

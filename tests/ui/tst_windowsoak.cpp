// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The real window under fire. A real MainWindow (offscreen) over a real Controller with the
// providers app/ builds, against an Azurite of the test's own, driven by a seeded random
// sequence of what a person does — select and multi-select, expand, filter, switch tabs, Claim,
// Reconcile, Refresh, Cancel, Delete and Detach, Apply manifest, edit a spec and Apply or
// Revert, open and cancel dialogs, open by name — while the backend is changed outside (containers
// and queues created and deleted with signed requests, the workspace written by another connection
// as the CLI does) and the emulator is stopped (SIGSTOP) and continued.
//
// It prints its seed; CONVERGE_SOAK_SEED=N replays the same sequence of actions.
// CONVERGE_SOAK_SKIP=ACTION,… leaves actions out; CONVERGE_SOAK_TRACE=1 prints each action as it
// runs. CONVERGE_SOAK_SECONDS sets how long it drives the
// window (default 30 s; `scripts/dev.sh test --long` 300 s; -DCONVERGE_LONG_SOAK=ON 1,800 s). Pass:
// no crash, no sanitizer report, and once everything has settled the tree shows exactly what the
// workspace holds, every resource is Ready, and every managed container and queue exists in
// Azurite.
#include "mainwindow.h"

#include "applyplandialog.h"
#include "appservices.h"
#include "awsfactory.h"
#include "azureintegration.h"
#include "deletedialog.h"
#include "detailspane.h"
#include "privateazurite.h"
#include "resourcetreemodel.h"
#include "rowpagingproxy.h"
#include "specedit.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QInputDialog>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <QTreeView>

#include <csignal>
#include <cstdlib>
#include <map>
#include <random>

using namespace converge;
using namespace converge::test;
using namespace std::chrono_literals;

namespace {

constexpr int containerPool = 8;
constexpr int queuePool = 4;
const QString accountName = QStringLiteral("soakstore");

QString containerName(int i)
{
    return QStringLiteral("soak-c%1").arg(i);
}
QString queueName(int i)
{
    return QStringLiteral("soak-q%1").arg(i);
}

/// Everything that happens outside the window, on a thread of its own so that the GUI thread
/// never waits for Azurite (which may be stopped): signed requests as another tool sends them,
/// and writes to the workspace through a connection of its own, as `converge apply` makes them.
class Outsider final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Outsider)

public:
    Outsider(const Emulators &emulators, const QString &workspacePath)
        : m_emulators(emulators)
        , m_path(workspacePath)
    {}

    std::atomic<int> pending{0};
    std::atomic<int> done{0};

    /// op 0: create, 1: delete a backend container (kind 0) or queue (kind 1); op 2: apply
    /// the resource to the workspace (re-creating what the window may have deleted).
    void change(int op, int kind, int index)
    {
        if (!m_access)
            m_access = std::make_unique<DirectAccess>(m_emulators);
        const QString kindName = kind == 0 ? AzureKinds::blobContainer() : AzureKinds::queue();
        const QString name = kind == 0 ? containerName(index) : queueName(index);
        const Resource r = azureResource(kindName, name, ownedBy(accountName));
        if (op == 2) {
            // With its account, which the window may have deleted too.
            std::unique_ptr<Workspace> ws = Workspace::open(m_path, nullptr);
            if (ws)
                ws->apply({emulatorAccount(m_emulators, accountName), r}, nullptr, nullptr);
        } else if (std::shared_ptr<Manager> manager = m_access->manager(kindName)) {
            if (op == 0)
                manager->create(m_access->target(r));
            else
                manager->deleteResource(m_access->target(r), {});
        }
        ++done;
        --pending;
    }

    /// Whether `kind`/`name` exists in Azurite (for the final comparison).
    bool exists(const QString &kind, const QString &name)
    {
        if (!m_access)
            m_access = std::make_unique<DirectAccess>(m_emulators);
        std::shared_ptr<Manager> manager = m_access->manager(kind);
        return manager &&
               manager->get(m_access->target(azureResource(kind, name, ownedBy(accountName))));
    }

    void finish() { m_access.reset(); } // on its own thread: the HttpClient is bound to it

private:
    Emulators m_emulators;
    QString m_path;
    std::unique_ptr<DirectAccess> m_access;
};

quint32 soakSeed()
{
    bool ok = false;
    const quint32 seed = qEnvironmentVariable("CONVERGE_SOAK_SEED").toUInt(&ok);
    return ok ? seed : QRandomGenerator::system()->generate();
}

int soakSeconds()
{
    bool ok = false;
    const int seconds = qEnvironmentVariableIntValue("CONVERGE_SOAK_SECONDS", &ok);
    if (ok && seconds > 0)
        return seconds;
    return CONVERGE_LONG_SOAK ? 1800 : 30;
}

} // namespace

class tst_WindowSoak final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void soak();
    /// Runs after soak() also when it failed: a failure must not leave Azurite or the
    /// outside thread running (an orphaned Azurite keeps CTest waiting on its output).
    void cleanup();

private:
    enum class Action {
        Select,
        MultiSelect,
        Expand,
        Filter,
        QuickFilter,
        Tab,
        Claim,
        Reconcile,
        Refresh,
        Cancel,
        Delete,
        ApplyManifest,
        EditSpec,
        Dialog,
        OutsideBackend,
        OutsideWorkspace,
        StopEmulator,
        OpenByName,
        Count
    };
    static const char *actionName(Action a);

    /// One step: an action and its parameters, drawn the same way whatever the window's state,
    /// so that a seed replays the same sequence.
    struct Step
    {
        Action action = Action::Select;
        quint32 a = 0;
        quint32 b = 0;
        quint32 c = 0;
        int waitMs = 0;
    };

    void run(const Step &step);
    QList<QModelIndex> visibleRows() const;
    void clickRow(const QModelIndex &index, Qt::KeyboardModifiers modifiers);
    bool trigger(const char *name);
    template<typename Dialog>
    Dialog *waitForDialog(int timeoutMs);
    void applyManifest(quint32 subset, bool accept);
    void editSpec(quint32 how, bool apply);
    void closeDialogs();
    QString settledProblem();

    QTemporaryDir m_dir;
    std::unique_ptr<PrivateAzurite> m_azurite;
    Emulators m_emulators;
    QString m_path;
    std::unique_ptr<AppServices> m_services;
    std::unique_ptr<Controller> m_controller;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<MainWindow> m_window;
    QThread m_outsideThread;
    Outsider *m_outsider = nullptr; // lives on m_outsideThread; deleted there
    bool m_stopped = false;
    std::map<Action, int> m_counts;
    int m_manifests = 0;
};

const char *tst_WindowSoak::actionName(Action a)
{
    static const char *const names[] = {
        "select",        "multi-select", "expand",          "filter",
        "quick-filter",  "tab",          "claim",           "reconcile",
        "refresh",       "cancel",       "delete",          "apply-manifest",
        "edit",          "dialog",       "outside-backend", "outside-workspace",
        "stop-emulator", "open-by-name"};
    static_assert(std::size(names) == size_t(Action::Count));
    return names[size_t(a)];
}

QList<QModelIndex> tst_WindowSoak::visibleRows() const
{
    auto *view = m_window->findChild<QTreeView *>(QStringLiteral("resourceTree"));
    QList<QModelIndex> rows;
    QList<QModelIndex> pending{QModelIndex()};
    while (!pending.isEmpty()) {
        const QModelIndex parent = pending.takeFirst();
        for (int row = 0; row < view->model()->rowCount(parent); ++row) {
            const QModelIndex index = view->model()->index(row, 0, parent);
            rows.append(index);
            if (view->isExpanded(index))
                pending.append(index);
        }
    }
    return rows;
}

void tst_WindowSoak::clickRow(const QModelIndex &index, Qt::KeyboardModifiers modifiers)
{
    auto *view = m_window->findChild<QTreeView *>(QStringLiteral("resourceTree"));
    view->scrollTo(index);
    const QRect rect = view->visualRect(index);
    if (rect.isValid())
        QTest::mouseClick(view->viewport(), Qt::LeftButton, modifiers, rect.center());
}

bool tst_WindowSoak::trigger(const char *name)
{
    auto *action = m_window->findChild<QAction *>(QString::fromLatin1(name));
    if (!action || !action->isEnabled())
        return false;
    action->trigger();
    return true;
}

template<typename Dialog>
Dialog *tst_WindowSoak::waitForDialog(int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    do {
        for (Dialog *d : m_window->findChildren<Dialog *>()) {
            if (d->isVisible())
                return d;
        }
        QTest::qWait(10);
    } while (timer.elapsed() < timeoutMs);
    return nullptr;
}

void tst_WindowSoak::applyManifest(quint32 subset, bool accept)
{
    const QJsonObject endpoints = m_azurite->endpoints();
    QString yaml =
        QStringLiteral("apiVersion: azure.converge.dev/v1\nkind: StorageAccount\n"
                       "metadata: {name: %1}\n"
                       "spec:\n  accountName: %2\n"
                       "  endpoints: {blob: '%3', queue: '%4', table: '%5'}\n"
                       "  credential: {emulator: true}\n")
            .arg(accountName, devAccountName(), endpoints.value(QLatin1String("blob")).toString(),
                 endpoints.value(QLatin1String("queue")).toString(),
                 endpoints.value(QLatin1String("table")).toString());
    for (int i = 0; i < containerPool + queuePool; ++i) {
        if (!(subset & (1u << i)))
            continue;
        const bool container = i < containerPool;
        yaml += QStringLiteral("---\napiVersion: azure.converge.dev/v1\nkind: %1\n"
                               "metadata: {name: %2}\nspec: {owner: {name: %3}}\n")
                    .arg(container ? AzureKinds::blobContainer() : AzureKinds::queue(),
                         container ? containerName(i) : queueName(i - containerPool), accountName);
    }
    const QString file = m_dir.filePath(QStringLiteral("apply-%1.yaml").arg(++m_manifests));
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly))
        return;
    out.write(yaml.toUtf8());
    out.close();
    m_window->applyManifestFiles({file});
    if (auto *plan = waitForDialog<ApplyPlanDialog>(5000)) {
        auto *apply = plan->findChild<QPushButton *>(QStringLiteral("applyButton"));
        if (accept && apply && apply->isEnabled())
            QTest::mouseClick(apply, Qt::LeftButton);
        else
            plan->reject();
    }
}

void tst_WindowSoak::editSpec(quint32 how, bool apply)
{
    auto *spec = m_window->findChild<SpecEdit *>(QStringLiteral("specView"));
    if (!spec || spec->isReadOnly() || spec->toPlainText().isEmpty())
        return;
    QString text = spec->toPlainText();
    switch (how % 3) {
    case 0: // a valid change of a container's access, or a queue's metadata
        if (text.contains(QLatin1String("publicAccess: None")))
            text.replace(QLatin1String("publicAccess: None"), QLatin1String("publicAccess: Blob"));
        else if (text.contains(QLatin1String("publicAccess: Blob")))
            text.replace(QLatin1String("publicAccess: Blob"), QLatin1String("publicAccess: None"));
        else
            text.replace(QLatin1String("\nspec:\n"),
                         QStringLiteral("\nspec:\n  metadata: {soak: \"%1\"}\n").arg(how));
        break;
    case 1: // a typo: the validator marks the line
        text.insert(int(how % std::max<qsizetype>(1, text.size())), QLatin1String(": ]"));
        break;
    default: // typing at the end, key by key
        spec->moveCursor(QTextCursor::End);
        QTest::keyClicks(spec, QStringLiteral("# soak"));
        text.clear();
        break;
    }
    if (!text.isEmpty())
        spec->setPlainText(text);
    QTest::qWait(300 + int(how % 400)); // the validator waits for a pause in typing
    const char *button = apply ? "specApply" : "specRevert";
    if (auto *b = m_window->findChild<QPushButton *>(QString::fromLatin1(button));
        b && b->isEnabled())
        QTest::mouseClick(b, Qt::LeftButton);
}

void tst_WindowSoak::closeDialogs()
{
    for (QDialog *d : m_window->findChildren<QDialog *>()) {
        if (d->isVisible())
            d->reject();
    }
}

void tst_WindowSoak::run(const Step &step)
{
    // CONVERGE_SOAK_SKIP=edit,stop-emulator leaves actions out (to narrow a failure down); the
    // others keep their place in the sequence.
    static const QStringList skipped =
        qEnvironmentVariable("CONVERGE_SOAK_SKIP").split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (skipped.contains(QLatin1String(actionName(step.action))))
        return;
    ++m_counts[step.action];
    if (qEnvironmentVariableIsSet("CONVERGE_SOAK_TRACE"))
        qInfo("soak: %s (%u, %u, %u)", actionName(step.action), step.a, step.b, step.c);
    const QList<QModelIndex> rows = visibleRows();
    const auto pick = [&rows](quint32 r) {
        return rows.isEmpty() ? QModelIndex() : rows.at(int(r % rows.size()));
    };
    switch (step.action) {
    case Action::Select:
        if (const QModelIndex index = pick(step.a); index.isValid())
            clickRow(index, Qt::NoModifier);
        break;
    case Action::MultiSelect:
        if (const QModelIndex index = pick(step.a); index.isValid())
            clickRow(index, step.b % 2 ? Qt::ControlModifier : Qt::ShiftModifier);
        break;
    case Action::Expand:
        if (const QModelIndex index = pick(step.a); index.isValid()) {
            auto *view = m_window->findChild<QTreeView *>(QStringLiteral("resourceTree"));
            view->setExpanded(index, !view->isExpanded(index));
        }
        break;
    case Action::Filter: {
        auto *edit = m_window->findChild<QLineEdit *>(QStringLiteral("filterEdit"));
        static const QStringList texts{QString(),
                                       QStringLiteral("soak"),
                                       QStringLiteral("c1"),
                                       QStringLiteral("queue"),
                                       QStringLiteral("ready"),
                                       QString()};
        edit->setText(texts.at(int(step.a % texts.size())));
        break;
    }
    case Action::QuickFilter: {
        auto *combo = m_window->findChild<QComboBox *>(QStringLiteral("quickFilter"));
        // Mostly back to everything, so that the tree does not stay filtered empty.
        combo->setCurrentIndex(step.a % 3 == 0 ? int(step.b % combo->count()) : 0);
        break;
    }
    case Action::Tab: {
        auto *tabs = m_window->findChild<QTabWidget *>(QStringLiteral("detailsTabs"));
        tabs->setCurrentIndex(int(step.a % tabs->count()));
        break;
    }
    case Action::Claim:
        trigger("claimAction");
        break;
    case Action::Reconcile:
        trigger("reconcileAction");
        break;
    case Action::Refresh:
        trigger("refreshAction");
        break;
    case Action::Cancel:
        trigger("cancelAction");
        break;
    case Action::Delete:
        if (trigger("deleteAction")) {
            if (auto *dialog = waitForDialog<DeleteDialog>(2000)) {
                const char *button = step.a % 3 == 0   ? "deleteButton"
                                     : step.a % 3 == 1 ? "detachButton"
                                                       : "cancelButton";
                if (auto *b = dialog->findChild<QPushButton *>(QString::fromLatin1(button)))
                    QTest::mouseClick(b, Qt::LeftButton);
                else
                    dialog->reject();
            }
        }
        break;
    case Action::ApplyManifest:
        applyManifest(step.a, step.b % 4 != 0);
        break;
    case Action::EditSpec:
        editSpec(step.a, step.b % 3 != 0);
        break;
    case Action::Dialog: {
        static const char *const dialogs[] = {"settingsAction", "connectAction",
                                              "newResourceAction", "applyManifestAction",
                                              "exportAction"};
        if (trigger(dialogs[step.a % std::size(dialogs)])) {
            QTest::qWait(int(step.b % 300));
            closeDialogs();
        }
        break;
    }
    case Action::OutsideBackend:
    case Action::OutsideWorkspace: {
        if (m_stopped || m_outsider->pending > 2)
            break; // a stopped Azurite would hold every change until it continues
        const int op = step.action == Action::OutsideWorkspace ? 2 : int(step.a % 2);
        const int kind = int(step.b % 3 == 0); // containers twice as often as queues
        const int index = int(step.c % (kind == 0 ? containerPool : queuePool));
        ++m_outsider->pending;
        QMetaObject::invokeMethod(
            m_outsider, [o = m_outsider, op, kind, index] { o->change(op, kind, index); });
        break;
    }
    case Action::StopEmulator:
        if (!m_stopped) {
            m_stopped = true;
            m_azurite->signal(SIGSTOP);
            QTimer::singleShot(500 + int(step.a % 2500), this, [this] {
                if (m_azurite)
                    m_azurite->signal(SIGCONT);
                m_stopped = false;
            });
        }
        break;
    case Action::OpenByName:
        // A name the tree shows, one made outside that no listing may have shown yet (looked up
        // with a get), or one that nothing holds; accepted or cancelled.
        if (trigger("openByNameAction")) {
            if (auto *dialog = waitForDialog<QInputDialog>(2000)) {
                const QString names[] = {
                    containerName(int(step.a % containerPool)),
                    QStringLiteral("BlobContainer/") + containerName(int(step.a % containerPool)),
                    QStringLiteral("Queue/") + queueName(int(step.a % queuePool)),
                    queueName(int(step.a % queuePool)), QStringLiteral("soak-nothing-here")};
                dialog->setTextValue(names[step.b % std::size(names)]);
                if (step.c % 4 == 0)
                    dialog->reject();
                else
                    dialog->accept();
            }
        }
        break;
    case Action::Count:
        break;
    }
}

QString tst_WindowSoak::settledProblem()
{
    auto *tree = m_window->findChild<ResourceTreeModel *>(QStringLiteral("resourceTreeModel"));
    std::unique_ptr<Workspace> ws = Workspace::open(m_path, nullptr);
    if (!ws)
        return QStringLiteral("the workspace does not open");
    const QList<Resource> stored = ws->list();
    QStringList problems;
    QSet<ResourceKey> storedKeys;
    for (const Resource &r : stored) {
        storedKeys.insert(r.key());
        if (!tree->indexOf(r.key()).isValid())
            problems << r.key().toString() + QStringLiteral(" stored but not in the tree");
        if (r.metadata.isBeingDeleted())
            problems << r.key().toString() + QStringLiteral(" still being deleted");
        const Condition ready = r.status.ready();
        if (ready.status != Condition::Status::True)
            problems << r.key().toString() + QStringLiteral(" not Ready: ") + ready.reason +
                            QLatin1Char(' ') + ready.message;
    }
    // Every managed row of the tree is stored.
    QList<QModelIndex> pending{QModelIndex()};
    while (!pending.isEmpty()) {
        const QModelIndex parent = pending.takeFirst();
        for (int row = 0; row < tree->rowCount(parent); ++row) {
            const QModelIndex index = tree->index(row, 0, parent);
            const ResourceKey key = tree->keyAt(index);
            if (key.isValid() && !storedKeys.contains(key))
                problems << key.toString() + QStringLiteral(" in the tree but not stored");
            pending.append(index);
        }
    }
    if (!problems.isEmpty())
        return problems.join(QStringLiteral("; "));
    // The backend agrees: every managed container and queue exists in Azurite.
    for (const Resource &r : stored) {
        if (r.kind != AzureKinds::blobContainer() && r.kind != AzureKinds::queue())
            continue;
        bool exists = false;
        QMetaObject::invokeMethod(
            m_outsider,
            [&, kind = r.kind, name = r.metadata.name] { exists = m_outsider->exists(kind, name); },
            Qt::BlockingQueuedConnection);
        if (!exists)
            problems << r.key().toString() + QStringLiteral(" Ready but missing in Azurite");
    }
    return problems.join(QStringLiteral("; "));
}

QtMessageHandler previousHandler = nullptr;

void tst_WindowSoak::initTestCase()
{
    // The offscreen platform says this at every dialog; thousands of lines would bury the seed.
    // A proxy that says its source model reported something impossible has dropped its mapping
    // and crashes a little later somewhere else: stop at the report, with the stack that made it.
    previousHandler = qInstallMessageHandler(
        [](QtMsgType type, const QMessageLogContext &context, const QString &message) {
            if (message.contains(QLatin1String("propagateSizeHints")))
                return;
            previousHandler(type, context, message);
            if (message.startsWith(QLatin1String("QSortFilterProxyModel:")))
                std::abort();
        });
}

void tst_WindowSoak::soak()
{
    const quint32 seed = soakSeed();
    const int seconds = soakSeconds();
    qInfo("soak: seed %u, %d s (replay: CONVERGE_SOAK_SEED=%u)", seed, seconds, seed);
    QVERIFY(m_dir.isValid());

    m_azurite = std::make_unique<PrivateAzurite>(qEnvironmentVariable("CONVERGE_SOURCE_DIR"));
    QVERIFY(m_azurite->start());
    m_emulators = m_azurite->emulators();
    m_path = m_dir.filePath(QStringLiteral("soak.converge"));
    {
        std::unique_ptr<Workspace> ws = Workspace::open(m_path, nullptr);
        QVERIFY(ws);
        QList<Resource> initial{emulatorAccount(m_emulators, accountName)};
        for (int i = 0; i < containerPool / 2; ++i)
            initial << azureResource(AzureKinds::blobContainer(), containerName(i),
                                     ownedBy(accountName));
        for (int i = 0; i < queuePool / 2; ++i)
            initial << azureResource(AzureKinds::queue(), queueName(i), ownedBy(accountName));
        QVERIFY(ws->apply(initial, nullptr, nullptr));
    }

    m_outsider = new Outsider(m_emulators, m_path);
    m_outsider->moveToThread(&m_outsideThread);
    connect(&m_outsideThread, &QThread::finished, m_outsider, &QObject::deleteLater);
    m_outsideThread.start();

    m_services = std::make_unique<AppServices>();
    Controller::Options options = AzureEngine::fastOptions();
    options.resyncPeriod = 5s; // resyncs (and their lists) happen during the run, too
    options.http.connectTimeout = 2s;
    options.http.transferTimeout = 3s;
    m_controller =
        std::make_unique<Controller>(m_path, m_services->kinds, m_services->factories,
                                     m_services->reconciler, m_services->clock, nullptr, options);
    QVERIFY(m_controller->start());
    m_settings =
        std::make_unique<QSettings>(m_dir.filePath(QStringLiteral("ui.ini")), QSettings::IniFormat);
    m_window = std::make_unique<MainWindow>(
        WindowServices{m_services->kinds, m_path, m_controller.get(), m_settings.get()});
    // Pages of a few rows: the soak's few dozen rows come and go past them, as a hundred
    // thousand do past the window's pages of 500.
    auto *pages = m_window->findChild<RowPagingProxy *>(QStringLiteral("resourcePages"));
    QVERIFY(pages);
    pages->setPageSize(4);
    // Every change the tree and its proxies report is checked as it happens.
    for (const char *name : {"resourceTreeModel", "resourceFilterProxy", "resourcePages"}) {
        auto *model = m_window->findChild<QAbstractItemModel *>(QLatin1String(name));
        QVERIFY2(model, name);
        new QAbstractItemModelTester(model, QAbstractItemModelTester::FailureReportingMode::Fatal,
                                     m_window.get());
    }
    m_window->resize(1280, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));

    std::mt19937 rng(seed);
    QElapsedTimer clock;
    clock.start();
    int steps = 0;
    while (clock.elapsed() < qint64(seconds) * 1000) {
        Step step;
        step.action = Action(rng() % quint32(Action::Count));
        step.a = quint32(rng());
        step.b = quint32(rng());
        step.c = quint32(rng());
        step.waitMs = int(rng() % 500);
        run(step);
        ++steps;
        QTest::qWait(step.waitMs);
    }

    // Settle: the emulator runs, no dialog is open, outside changes are done, then a last
    // Reconcile of everything brings the backend back to the workspace.
    closeDialogs();
    QTRY_VERIFY_WITH_TIMEOUT(!m_stopped, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(m_outsider->pending.load(), 0, 60000);
    m_window->findChild<QLineEdit *>(QStringLiteral("filterEdit"))->clear();
    m_window->findChild<QComboBox *>(QStringLiteral("quickFilter"))->setCurrentIndex(0);
    m_controller->resyncNow();
    QString problem;
    QElapsedTimer settle;
    settle.start();
    while (settle.elapsed() < 90000) {
        QTest::qWait(500);
        if (!m_controller->isIdle())
            continue;
        problem = settledProblem();
        if (problem.isEmpty())
            break;
        if (settle.elapsed() > 20000) // drift found by the resync is being corrected
            m_controller->resyncNow();
    }
    QStringList counts;
    for (const auto &[action, n] : m_counts)
        counts << QStringLiteral("%1 %2").arg(QString::fromLatin1(actionName(action))).arg(n);
    qInfo("soak: seed %u, %d actions in %.1f min, %d outside changes; %s", seed, steps,
          clock.elapsed() / 60000.0, m_outsider->done.load(),
          qPrintable(counts.join(QStringLiteral(", "))));
    QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("seed %1: %2").arg(seed).arg(problem)));
}

void tst_WindowSoak::cleanup()
{
    m_window.reset();
    if (m_controller)
        m_controller->stop();
    m_controller.reset();
    if (m_outsideThread.isRunning()) {
        if (m_stopped)
            m_azurite->signal(SIGCONT); // a change in flight waits for it
        QMetaObject::invokeMethod(
            m_outsider, [o = m_outsider] { o->finish(); }, Qt::BlockingQueuedConnection);
        m_outsideThread.quit();
        m_outsideThread.wait();
    }
    m_azurite.reset(); // continues and kills it
}

QTEST_MAIN(tst_WindowSoak)
#include "tst_windowsoak.moc"

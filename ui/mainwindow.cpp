// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "aboutbox.h"
#include "awskinds.h"
#include "azurekinds.h"
#include "controller.h"
#include "deletedialog.h"
#include "detailsfollower.h"
#include "detailspane.h"
#include "discoveredclaim.h"
#include "eventlogfilterproxy.h"
#include "eventlogmodel.h"
#include "eventlogview.h"
#include "foldermemory.h"
#include "interopexport.h"
#include "kindregistry.h"
#include "logpanel.h"
#include "manifestflow.h"
#include "namelookup.h"
#include "openbyname.h"
#include "recentworkspaces.h"
#include "resourcefilterproxy.h"
#include "resourcetreemodel.h"
#include "rowpagingproxy.h"
#include "scrollfetcher.h"
#include "settingsdialog.h"
#include "treeplaceholder.h"
#include "unmanageddetails.h"
#include "windowactions.h"
#include "windowjobs.h"
#include "windowstatusbar.h"
#include "workspace.h"
#include "workspaceopener.h"
#include "workspacerunner.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDesktopServices>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEvent>
#include <QFileInfo>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace converge {

namespace {

constexpr int expandAtMost = 100; // new top-level rows expanded per batch; big trees stay closed

std::unique_ptr<KindRegistry> builtInKinds()
{
    auto kinds = std::make_unique<KindRegistry>();
    AzureKinds::registerAll(*kinds);
    AwsKinds::registerKinds(*kinds);
    return kinds;
}

} // namespace

MainWindow::MainWindow(const WindowServices &services, QWidget *parent)
    : QMainWindow(parent)
{
    setup(services);
}

MainWindow::MainWindow(const QString &workspacePath, QWidget *parent)
    : MainWindow(builtInKinds(), workspacePath, parent)
{}

MainWindow::MainWindow(std::unique_ptr<KindRegistry> kinds, const QString &workspacePath,
                       QWidget *parent)
    : QMainWindow(parent)
    , m_ownedKinds(std::move(kinds))
{
    setup(WindowServices{*m_ownedKinds, workspacePath, nullptr, nullptr});
}

MainWindow::~MainWindow()
{
    m_status->stop();
    if (m_controller)
        disconnect(m_controller, nullptr, this, nullptr);
    // Pending reads and writes are cancelled (and the one in progress awaited) while the models
    // that would consume them still exist; their results are then dropped.
    m_reader.reset();
    m_writer.reset();
}

void MainWindow::setup(const WindowServices &services)
{
    m_kinds = &services.kinds;
    m_path = services.workspacePath;
    m_controller = services.controller;
    m_credentials = services.credentials;
    if (services.settings) {
        m_settings = services.settings;
    } else {
        m_ownedSettings = std::make_unique<QSettings>();
        m_settings = m_ownedSettings.get();
    }
    m_preferences = WindowSettings::load(*m_settings);
    RecentWorkspaces(*m_settings).add(m_path);
    m_reader = std::make_unique<WorkspaceRunner>(m_path, Workspace::OpenMode::OpenExisting);
    m_writer = std::make_unique<WorkspaceRunner>(m_path, Workspace::OpenMode::OpenOrCreate);
    m_manifests = new ManifestFlow(*m_kinds, *m_reader, *m_writer, this);
    m_folders = std::make_unique<FolderMemory>(*m_settings);
    m_manifests->setFolderMemory(m_folders.get());
    connect(m_manifests, &ManifestFlow::written, this, &MainWindow::written);
    connect(m_manifests, &ManifestFlow::message, this, &MainWindow::showMessage);
    connect(m_manifests, &ManifestFlow::manifestApplied, this, &MainWindow::manifestApplied);
    connect(m_manifests, &ManifestFlow::exportFinished, this, &MainWindow::exportFinished);
    connect(m_manifests, &ManifestFlow::logExported, this, &MainWindow::logExported);

    setObjectName(QStringLiteral("MainWindow"));
    setWindowTitle(tr("%1 — Converge").arg(QFileInfo(m_path).fileName()));
    setAcceptDrops(true);

    createCentral();
    createLogPanel();
    createActions();
    createStatusBar();
    restoreSettings();
    updateActions();
    m_opener->fillRecentMenu();

    // What only a get sees of an unmanaged row (a table's keys and indexes), once it comes.
    connect(m_lookup, &NameLookup::observed, this, [this](const DiscoveredResource &item) {
        if (const std::optional<DiscoveredResource> shown = unmanagedShowing(item)) {
            DiscoveredResource fuller = item;
            fuller.firstSeenAt = shown->firstSeenAt;
            m_unmanaged->showItem(fuller);
        }
    });
    // A listing tells the views nothing of a row only seen again (ResourceTreeModel::applyLater):
    // the details of the current one say when it was last seen.
    connect(m_treeModel, &ResourceTreeModel::batchApplied, this, [this] {
        const DiscoveredResource *item =
            m_treeModel->discoveredAt(treeIndexAt(m_tree->selectionModel()->currentIndex()));
        std::optional<DiscoveredResource> shown = item ? unmanagedShowing(*item) : std::nullopt;
        if (shown && shown->seenAt != item->seenAt) {
            shown->seenAt = item->seenAt;
            m_unmanaged->showItem(shown);
        }
    });
    if (m_controller) {
        m_lookup->setController(m_controller);
        m_treeModel->follow(m_controller);
        m_logModel->follow(m_controller);
        connect(m_controller, &Controller::resourcesChanged, m_details,
                &DetailsPane::refreshIfShown);
        connect(
            m_controller, &Controller::claimFinished, this,
            [this](const DiscoveredResource &item, const ResourceKey &key, const QString &error) {
                if (!error.isEmpty()) {
                    showMessage(tr("Cannot claim %1 %2: %3").arg(item.kind, item.name, error));
                    return;
                }
                showMessage(
                    tr("%1 %2 is now managed as %3").arg(item.kind, item.name, key.toString()));
                m_treeModel->reloadKeys({key, item.owner});
            });
        connect(m_controller, &Controller::storeFailed, this,
                [this](const QString &message) { showMessage(tr("Store: %1").arg(message)); });
    }
    m_treeModel->reload();
    m_logModel->reload();
    m_status->start();
}

// --- Widgets ----------------------------------------------------------------------------------

void MainWindow::createCentral()
{
    m_treeModel = new ResourceTreeModel(*m_reader, *m_kinds, this);
    m_lookup = new NameLookup(*m_kinds, *m_treeModel, this);
    m_openByName = new OpenByName(
        *m_treeModel, *m_lookup,
        {[this](const QModelIndex &index) { return select(index); },
         [this](const QModelIndex &index) { return m_treeProxy->mapFromSource(index).isValid(); },
         [this](const QString &text) { showMessage(text); }},
        this);
    m_treeModel->setObjectName(QStringLiteral("resourceTreeModel"));
    m_treeProxy = new ResourceFilterProxy(this);
    m_treeProxy->setObjectName(QStringLiteral("resourceFilterProxy"));
    m_treeProxy->setSourceModel(m_treeModel);
    // A view lays out every row it is given at each change: an account of a hundred thousand
    // containers shows them a page at a time, more as a person scrolls.
    m_treePages = new RowPagingProxy(this);
    m_treePages->setObjectName(QStringLiteral("resourcePages"));
    m_treePages->setSourceModel(m_treeProxy);
    connect(m_treeModel, &ResourceTreeModel::loadFailed, this,
            [this](const QString &message) { showMessage(tr("Cannot read: %1").arg(message)); });
    connect(m_treeModel, &ResourceTreeModel::browseFailed, this, &MainWindow::showMessage);

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setObjectName(QStringLiteral("mainSplitter"));

    auto *left = new QWidget(m_splitter);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    auto *filterBar = new QHBoxLayout;
    m_filterEdit = new QLineEdit(left);
    m_filterEdit->setObjectName(QStringLiteral("filterEdit"));
    m_filterEdit->setPlaceholderText(tr("Filter by name, kind or reason"));
    m_filterEdit->setClearButtonEnabled(true);
    m_quickFilter = new QComboBox(left);
    m_quickFilter->setObjectName(QStringLiteral("quickFilter"));
    m_quickFilter->addItem(tr("All resources"), int(ResourceFilter::Quick::All));
    m_quickFilter->addItem(tr("Not Ready"), int(ResourceFilter::Quick::NotReady));
    m_quickFilter->addItem(tr("Errors and warnings"), int(ResourceFilter::Quick::Errors));
    m_quickFilter->addItem(tr("Unmanaged"), int(ResourceFilter::Quick::Unmanaged));
    filterBar->addWidget(m_filterEdit, 1);
    filterBar->addWidget(m_quickFilter);
    leftLayout->addLayout(filterBar);
    connect(m_filterEdit, &QLineEdit::textChanged, m_treeProxy,
            &ResourceFilterProxy::setFilterText);
    connect(m_quickFilter, &QComboBox::currentIndexChanged, this, [this] {
        m_treeProxy->setQuickFilter(
            static_cast<ResourceFilter::Quick>(m_quickFilter->currentData().toInt()));
    });

    m_tree = new QTreeView(left);
    m_tree->setObjectName(QStringLiteral("resourceTree"));
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->setAllColumnsShowFocus(true);
    m_tree->setModel(m_treePages);
    new ScrollFetcher(m_tree, m_treePages);
    // An empty tree says why: a filter that matches nothing, or a workspace with nothing yet.
    auto *placeholder = new TreePlaceholder(m_tree, [this] {
        if (m_treeModel->rowCount() > 0)
            return tr("Nothing matches the filter");
        return m_treeModel->isLoading()
                   ? QString()
                   : tr("Nothing in this workspace yet: Connect account (Ctrl+Shift+C), New "
                        "resource (Ctrl+N) or Apply manifest (Ctrl+Shift+A)");
    });
    connect(m_treeModel, &ResourceTreeModel::batchApplied, placeholder, &TreePlaceholder::refresh);
    connect(m_treeModel, &ResourceTreeModel::listedEmpty, this, [this](const QModelIndex &index) {
        showMessage(tr("%1 holds nothing").arg(index.data(ResourceTreeModel::NameRole).toString()));
    });
    m_tree->setSortingEnabled(true);
    m_tree->sortByColumn(ResourceTreeModel::NameColumn, Qt::AscendingOrder);
    m_tree->setContextMenuPolicy(Qt::ActionsContextMenu);
    QHeaderView *header = m_tree->header();
    header->setStretchLastSection(true);
    // Widths from what the columns hold in this font, so that nothing is cut at the default
    // size (a person's saved widths win, see restoreState); a longer reason is elided, its tool
    // tip has it whole.
    const QFontMetrics metrics = m_tree->fontMetrics();
    const auto widthOf = [&metrics](const QString &text, int extra) {
        return metrics.horizontalAdvance(text) + extra + 2 * metrics.averageCharWidth();
    };
    const int timeWidth = widthOf(QStringLiteral("2026-12-01 09:30:01"), 0);
    header->resizeSection(ResourceTreeModel::NameColumn, 230); // three levels deep: a service
    // The longest kind name this window can show (EventBridgeEventBus, and more as kinds are
    // declared).
    int kindWidth = widthOf(QStringLiteral("DynamoDBTable"), 0);
    for (const QString &kind : m_kinds->names())
        kindWidth = std::max(kindWidth, widthOf(kind, 0));
    header->resizeSection(ResourceTreeModel::KindColumn, kindWidth);
    // In the window's language ("Nicht verwaltet" was cut where "Unmanaged" fit).
    header->resizeSection(ResourceTreeModel::ReadyColumn,
                          widthOf(ResourceTreeModel::tr("Unmanaged"), metrics.height() + 12));
    header->resizeSection(ResourceTreeModel::PolicyColumn,
                          widthOf(QStringLiteral("detach-on-delete"), 0));
    header->resizeSection(ResourceTreeModel::LastReconciledColumn, timeWidth);
    header->resizeSection(ResourceTreeModel::NextAttemptColumn, timeWidth);
    leftLayout->addWidget(m_tree, 1);

    connect(m_treePages, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &parent, int first, int last) {
                // Accounts open, and the services' rows under them (collapsed as a person likes).
                if (last - first >= expandAtMost)
                    return;
                const auto isGroup = [](const QModelIndex &index) {
                    return index.data(ResourceTreeModel::IsGroupRole).toBool();
                };
                for (int row = first; row <= last; ++row) {
                    const QModelIndex index = m_treePages->index(row, 0, parent);
                    if (parent.isValid() && !isGroup(index))
                        continue;
                    m_tree->expand(index);
                    for (int child = 0; child < m_treePages->rowCount(index); ++child) {
                        if (isGroup(m_treePages->index(child, 0, index)))
                            m_tree->expand(m_treePages->index(child, 0, index));
                    }
                }
            });
    connect(m_tree->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &MainWindow::updateActions);

    m_details = new DetailsPane(*m_reader, *m_writer, *m_kinds, m_splitter);
    if (m_controller)
        connect(m_details, &DetailsPane::specApplied, m_controller, &Controller::wake);
    // Without a controller here nothing else reports the change.
    connect(m_details, &DetailsPane::specApplied, this,
            [this](const ResourceKey &key) { m_treeModel->reloadKeys({key}); });
    m_details->setObjectName(QStringLiteral("details"));
    m_unmanaged = new UnmanagedDetails(*m_kinds, m_splitter);
    m_unmanaged->setClaimEnabled(m_controller != nullptr);
    connect(m_unmanaged, &UnmanagedDetails::claimRequested, this, &MainWindow::claimSelected);
    m_detailsStack = new QStackedWidget(m_splitter);
    m_detailsStack->setObjectName(QStringLiteral("detailsStack"));
    m_detailsStack->addWidget(m_details);
    m_detailsStack->addWidget(m_unmanaged);
    m_splitter->addWidget(left);
    m_splitter->addWidget(m_detailsStack);
    m_follower = new DetailsFollower(
        DetailsFollower::Parts{m_tree,
                               [this](const QModelIndex &view) { return treeIndexAt(view); },
                               [this](const QModelIndex &source) { return showInView(source); },
                               m_treeModel, m_details, m_unmanaged, m_detailsStack, m_lookup},
        this);
    m_follower->setAskBeforeLeavingEdits(m_preferences.askBeforeLeavingEdits);
    connect(m_follower, &DetailsFollower::askBeforeLeavingEditsChanged, this, [this](bool ask) {
        m_preferences.askBeforeLeavingEdits = ask;
        m_preferences.save(*m_settings);
    });
    // The tree's six columns need about two thirds of a 1280-pixel window.
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({2000, 1000});
    setCentralWidget(m_splitter);
}

void MainWindow::createLogPanel()
{
    m_logModel = new EventLogModel(*m_reader, 500, this);
    m_logModel->setObjectName(QStringLiteral("eventLogModel"));
    auto *dock = new QDockWidget(tr("Log"), this);
    dock->setObjectName(QStringLiteral("logDock"));
    m_log = new LogPanel(*m_logModel, dock);
    m_log->setFolderMemory(m_folders.get());
    dock->setWidget(m_log);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    connect(m_log, &LogPanel::exportRequested, this, &MainWindow::exportLog);
    connect(m_log, &LogPanel::resourceActivated, this,
            [this](const ResourceKey &key) { selectResource(key); });
}

void MainWindow::createActions()
{
    m_actions = new WindowActions(this);
    m_opener = new WorkspaceOpener(*m_settings, m_path, this);
    connect(m_opener, &WorkspaceOpener::message, this, &MainWindow::showMessage);
    connect(m_actions->claim(), &QAction::triggered, this, &MainWindow::claimSelected);
    connect(m_actions->reconcile(), &QAction::triggered, this, &MainWindow::reconcileSelected);
    connect(m_actions->refresh(), &QAction::triggered, this, &MainWindow::refreshSelected);
    connect(m_actions->openByName(), &QAction::triggered, this, [this] {
        auto *dialog = new QInputDialog(this);
        dialog->setObjectName(QStringLiteral("openByNameDialog"));
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->setWindowTitle(tr("Open by name"));
        dialog->setLabelText(tr("Kind/name, backend name, URL or ARN:"));
        connect(dialog, &QInputDialog::textValueSelected, this,
                [this](const QString &text) { openByName(text); });
        dialog->open();
    });
    connect(m_actions->cancel(), &QAction::triggered, this, &MainWindow::cancelSelected);
    connect(m_actions->remove(), &QAction::triggered, this, &MainWindow::deleteSelected);
    connect(m_actions->apply(), &QAction::triggered, m_manifests, &ManifestFlow::chooseFiles);
    connect(m_actions->exportYaml(), &QAction::triggered, m_manifests,
            [this] { m_manifests->chooseExportFile(selectedKeys()); });
    auto *interop = new InteropExport([this] { return m_reader.get(); }, this);
    interop->setFolderMemory(m_folders.get());
    interop->setObjectName(QStringLiteral("interopExport"));
    connect(m_actions->exportAso(), &QAction::triggered, interop,
            [this, interop] { interop->start(InteropExport::Target::Aso, selectedKeys()); });
    connect(m_actions->exportAck(), &QAction::triggered, interop,
            [this, interop] { interop->start(InteropExport::Target::Ack, selectedKeys()); });
    connect(m_actions->exportKcc(), &QAction::triggered, interop,
            [this, interop] { interop->start(InteropExport::Target::Kcc, selectedKeys()); });
    connect(interop, &InteropExport::finished, this,
            [this](const QString &path, const QString &error) {
                showMessage(error.isEmpty() ? tr("Exported to %1").arg(path)
                                            : tr("Export failed: %1").arg(error));
                Q_EMIT exportFinished(path, error);
            });
    connect(m_actions->quit(), &QAction::triggered, this, &QWidget::close);
    connect(m_actions->newResource(), &QAction::triggered, m_manifests,
            [this] { m_manifests->newResource(selectedKeys()); });
    connect(m_actions->connectAccount(), &QAction::triggered, m_manifests,
            [this] { m_manifests->connectAccount(m_credentials); });
    connect(m_actions->settings(), &QAction::triggered, this, &MainWindow::showSettings);
    connect(m_actions->newWorkspace(), &QAction::triggered, m_opener, &WorkspaceOpener::chooseNew);
    connect(m_actions->openWorkspace(), &QAction::triggered, m_opener, &WorkspaceOpener::choose);
    connect(m_actions, &WindowActions::fileMenuAboutToShow, m_opener,
            &WorkspaceOpener::fillRecentMenu);

    connect(m_actions->documentation(), &QAction::triggered, this,
            [] { QDesktopServices::openUrl(AboutBox::documentationUrl()); });
    connect(m_actions->about(), &QAction::triggered, this, [this] {
        auto *about = new AboutBox(this);
        about->setAttribute(Qt::WA_DeleteOnClose);
        about->open();
    });
    connect(m_actions->aboutQt(), &QAction::triggered, this,
            [this] { QMessageBox::aboutQt(this); });

    QToolBar *toolbar = addToolBar(tr("Actions"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    m_actions->fillToolBar(toolbar);
    // View: the log, the details and the toolbar, each shown or hidden.
    auto *details = new QAction(tr("&Details"), this);
    details->setObjectName(QStringLiteral("detailsToggleAction"));
    details->setCheckable(true);
    details->setChecked(true);
    connect(details, &QAction::toggled, m_detailsStack, &QWidget::setVisible);
    auto *dock = findChild<QDockWidget *>(QStringLiteral("logDock"));
    QAction *toolbarToggle = toolbar->toggleViewAction();
    toolbarToggle->setText(tr("&Toolbar"));
    m_opener->setRecentMenu(m_actions->fillMenuBar(
        menuBar(), {dock ? dock->toggleViewAction() : nullptr, details, toolbarToggle}));
    m_tree->addActions(m_actions->contextActions());
}

void MainWindow::createStatusBar()
{
    m_status = new WindowStatusBar(*m_treeModel, *m_kinds, m_controller, *m_reader, m_path, this);
    setStatusBar(m_status);
    // Another process committed: what the window shows is read again.
    connect(m_status, &WindowStatusBar::workspaceChanged, this, [this] {
        m_treeModel->reload();
        m_logModel->fetchNewer();
        m_details->refreshIfShown({m_details->currentKey()});
    });
}

// --- Settings ---------------------------------------------------------------------------------

void MainWindow::restoreSettings()
{
    m_settings->beginGroup(QStringLiteral("MainWindow"));
    if (!restoreGeometry(m_settings->value(QStringLiteral("geometry")).toByteArray()))
        resize(1280, 820);
    restoreState(m_settings->value(QStringLiteral("state")).toByteArray());
    m_splitter->restoreState(m_settings->value(QStringLiteral("splitter")).toByteArray());
    m_tree->header()->restoreState(m_settings->value(QStringLiteral("treeHeader")).toByteArray());
    m_log->restoreState(*m_settings);
    if (auto *details = findChild<QAction *>(QStringLiteral("detailsToggleAction")))
        details->setChecked(m_settings->value(QStringLiteral("details"), true).toBool());
    m_settings->endGroup();
}

void MainWindow::saveSettings()
{
    m_settings->beginGroup(QStringLiteral("MainWindow"));
    m_settings->setValue(QStringLiteral("geometry"), saveGeometry());
    m_settings->setValue(QStringLiteral("state"), saveState());
    m_settings->setValue(QStringLiteral("splitter"), m_splitter->saveState());
    m_settings->setValue(QStringLiteral("treeHeader"), m_tree->header()->saveState());
    m_log->saveState(*m_settings);
    m_settings->setValue(QStringLiteral("details"), m_detailsStack->isVisibleTo(this));
    m_settings->endGroup();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveSettings();
    QMainWindow::closeEvent(event);
}

// --- Selection --------------------------------------------------------------------------------

QList<ResourceKey> MainWindow::selectedKeys() const
{
    QList<ResourceKey> keys;
    const QModelIndexList rows = m_tree->selectionModel()->selectedRows(0);
    for (const QModelIndex &row : rows) {
        const ResourceKey key = m_treeModel->keyAt(treeIndexAt(row));
        if (key.isValid() && !keys.contains(key))
            keys.append(key);
    }
    return keys;
}

bool MainWindow::selectResource(const ResourceKey &key)
{
    const QModelIndex index = showInView(m_treeModel->indexOf(key));
    if (!index.isValid()) {
        showMessage(m_treeModel->indexOf(key).isValid()
                        ? tr("%1 is hidden by the filter").arg(key.toString())
                        : tr("%1 is not in the workspace").arg(key.toString()));
        return false;
    }
    m_tree->scrollTo(index); // expands its owners
    m_tree->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                         QItemSelectionModel::Rows);
    return true;
}

void MainWindow::showNotice(const QString &text)
{
    m_log->showNotice(text);
    if (auto *dock = qobject_cast<QDockWidget *>(m_log->parentWidget()))
        dock->show();
}

bool MainWindow::openByName(const QString &text)
{
    return m_openByName->open(text);
}

QModelIndex MainWindow::treeIndexAt(const QModelIndex &view) const
{
    return m_treeProxy->mapToSource(m_treePages->mapToSource(view));
}

QModelIndex MainWindow::showInView(const QModelIndex &source)
{
    return m_treePages->reveal(m_treeProxy->mapFromSource(source));
}

bool MainWindow::select(const QModelIndex &source)
{
    const QModelIndex index = showInView(source);
    if (!index.isValid()) {
        showMessage(tr("%1 is hidden by the filter").arg(source.data().toString()));
        return false;
    }
    m_tree->scrollTo(index);
    m_tree->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                         QItemSelectionModel::Rows);
    m_tree->expand(index); // a container opened by name shows what it holds
    return true;
}

std::optional<DiscoveredResource> MainWindow::unmanagedShowing(const DiscoveredResource &item) const
{
    if (!m_unmanaged || m_detailsStack->currentWidget() != m_unmanaged)
        return std::nullopt;
    std::optional<DiscoveredResource> shown = m_unmanaged->shown();
    if (!shown || shown->owner != item.owner || shown->kind != item.kind ||
        shown->name != item.name)
        return std::nullopt;
    return shown;
}

void MainWindow::updateActions()
{
    const QList<ResourceKey> keys = selectedKeys();
    WindowActions::Selection selection;
    selection.managed = int(keys.size());
    for (const DiscoveredResource &item : selectedDiscovered()) {
        // What cannot be claimed as it is (a blob) is not offered, and the tip says why.
        if (const QString why = DiscoveredClaim::refusal(item, *m_kinds); !why.isEmpty())
            selection.claimRefusal = why;
        else
            ++selection.discovered;
    }
    selection.controller = m_controller != nullptr;
    selection.browsable = int(selectedBrowsable().size());
    for (const ResourceKey &key : keys) {
        const Resource *r = m_treeModel->resourceAt(m_treeModel->indexOf(key));
        selection.unclaimed += r && !r->hasFinalizer() && !r->metadata.isBeingDeleted() ? 1 : 0;
    }
    m_actions->update(selection);
}

void MainWindow::changeEvent(QEvent *event)
{
    // The icons are drawn in the palette's text colour: a theme change draws them again.
    if (event->type() == QEvent::PaletteChange ||
        event->type() == QEvent::ApplicationPaletteChange) {
        if (m_actions)
            m_actions->updateIcons();
    }
    QMainWindow::changeEvent(event);
}

void MainWindow::showMessage(const QString &message)
{
    m_status->say(message);
}

// --- Engine actions ---------------------------------------------------------------------------

QList<DiscoveredResource> MainWindow::selectedDiscovered() const
{
    QList<DiscoveredResource> items;
    const QModelIndexList rows = m_tree->selectionModel()->selectedRows(0);
    for (const QModelIndex &row : rows) {
        if (const DiscoveredResource *item = m_treeModel->discoveredAt(treeIndexAt(row)))
            items.append(*item);
    }
    return items;
}

void MainWindow::claimSelected()
{
    if (!m_controller)
        return;
    const QList<DiscoveredResource> items = selectedDiscovered();
    for (const DiscoveredResource &item : items)
        m_controller->claim(item);
    QList<ResourceKey> unclaimed;
    for (const ResourceKey &key : selectedKeys()) {
        const Resource *r = m_treeModel->resourceAt(m_treeModel->indexOf(key));
        if (r && !r->hasFinalizer())
            unclaimed.append(key);
    }
    if (!unclaimed.isEmpty())
        m_controller->reconcile(unclaimed); // claim is the reconcile's first phase
    const int count = int(items.size() + unclaimed.size());
    if (count > 0)
        showMessage(tr("Claiming %n resource(s)", nullptr, count));
}

void MainWindow::reconcileSelected()
{
    const QList<ResourceKey> keys = selectedKeys();
    if (!m_controller || keys.isEmpty())
        return;
    m_controller->reconcile(keys);
    showMessage(tr("Reconcile queued for %n resource(s)", nullptr, int(keys.size())));
}

QList<QModelIndex> MainWindow::selectedBrowsable() const
{
    QList<QModelIndex> rows;
    for (const QModelIndex &row : m_tree->selectionModel()->selectedRows(0)) {
        const QModelIndex source = treeIndexAt(row);
        if (m_treeModel->browseScopeAt(source))
            rows.append(source);
    }
    return rows;
}

void MainWindow::refreshSelected()
{
    const QList<ResourceKey> keys = selectedKeys();
    const QList<QModelIndex> browsable = selectedBrowsable();
    if (!m_controller || (keys.isEmpty() && browsable.isEmpty()))
        return;
    // A container or folder shows what the backend holds: Refresh reads that again too.
    QList<QPersistentModelIndex> relist(browsable.cbegin(), browsable.cend());
    for (const QPersistentModelIndex &index : std::as_const(relist))
        m_treeModel->relist(index);
    if (!keys.isEmpty())
        m_controller->refresh(keys);
    showMessage(tr("Refresh queued for %n resource(s)", nullptr,
                   int(std::max(keys.size(), browsable.size()))));
}

void MainWindow::cancelSelected()
{
    const QList<ResourceKey> keys = selectedKeys();
    if (!m_controller || keys.isEmpty())
        return;
    int cancelled = 0;
    for (const ResourceKey &key : keys)
        cancelled += m_controller->cancel(key) ? 1 : 0;
    showMessage(tr("Cancelled queued work of %n resource(s)", nullptr, cancelled));
}

// --- Delete -----------------------------------------------------------------------------------

void MainWindow::deleteSelected()
{
    const QList<ResourceKey> keys = selectedKeys();
    if (keys.isEmpty())
        return;
    if (!m_preferences.confirmDelete) {
        requestDeletion(keys, false);
        return;
    }
    auto *dialog = new DeleteDialog(keys, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (dialog->choice() != DeleteDialog::Choice::Cancel)
            requestDeletion(dialog->keys(), dialog->choice() == DeleteDialog::Choice::Detach);
    });
    dialog->open();
}

void MainWindow::requestDeletion(const QList<ResourceKey> &keys, bool detach)
{
    m_writer->run(
        [keys, detach](Workspace *ws, const StoreError &openError) {
            return WindowJobs::requestDeletion(ws, openError, keys, detach);
        },
        this,
        [this, detach](const WindowJobs::Written &result) {
            written(result.keys);
            const int n = int(result.keys.size());
            showMessage(!result.error.isEmpty()
                            ? tr("Delete failed: %1").arg(result.error)
                            : (detach ? tr("Detaching %n resource(s)", nullptr, n)
                                      : tr("Deleting %n resource(s)", nullptr, n)));
            Q_EMIT deletionRequested(result.keys, result.error);
        });
}

// --- Manifests in and out --------------------------------------------------------------------

void MainWindow::applyManifestFiles(const QStringList &paths)
{
    m_manifests->applyFiles(paths);
}

void MainWindow::applyManifestText(const QString &text, const QString &sourceName)
{
    m_manifests->applyText(text, sourceName);
}

void MainWindow::applyResources(const QList<Resource> &resources, const QString &sourceName)
{
    m_manifests->applyResources(resources, sourceName);
}

void MainWindow::exportResources(const QList<ResourceKey> &keys, const QString &path)
{
    m_manifests->exportResources(keys, path);
}

void MainWindow::exportLog(const QString &path)
{
    m_manifests->exportLog(path, m_log->proxy()->typeFilter(), m_log->proxy()->textFilter());
}

void MainWindow::written(const QList<ResourceKey> &keys)
{
    if (m_controller)
        m_controller->wake();
    m_treeModel->reloadKeys(keys);
    m_details->refreshIfShown(keys);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (!ManifestFlow::manifestPaths(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QStringList paths = ManifestFlow::manifestPaths(event->mimeData());
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    applyManifestFiles(paths);
}

// --- New resource, connect -----------------------------------------------------------------

// --- Settings dialog, workspaces ---------------------------------------------------------------

void MainWindow::showSettings()
{
    auto *dialog = new SettingsDialog(m_preferences, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const WindowSettings chosen = dialog->settings();
        const bool restart = chosen.workers != m_preferences.workers ||
                             chosen.resyncMinutes != m_preferences.resyncMinutes;
        if (chosen.theme != m_preferences.theme)
            WindowSettings::applyTheme(chosen.theme);
        m_preferences = chosen;
        m_preferences.save(*m_settings);
        m_follower->setAskBeforeLeavingEdits(chosen.askBeforeLeavingEdits);
        showMessage(restart ? tr("Settings saved; workers and resync period apply at the next "
                                 "start")
                            : tr("Settings saved"));
    });
    dialog->open();
}

void MainWindow::openWorkspace(const QString &path)
{
    m_opener->open(path);
}

} // namespace converge

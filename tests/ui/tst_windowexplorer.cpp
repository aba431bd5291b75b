// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The window as an explorer, against the Azurite of the CTest fixture: a real MainWindow over a
// real Controller. Blobs another tool wrote into a managed container show when it is expanded,
// as a folder tree that pages in (canFetchMore/fetchMore through Controller::browse), with the
// tree model under QAbstractItemModelTester all along; Refresh (F5) of the container reads it
// again, so that a blob deleted outside leaves it. A table another tool made shows greyed under
// its account; selected, the details show what the backend says of it and what Claim would
// store, and Claim there makes it managed with no backend write. A container another tool makes
// after the account was listed comes with Refresh (F5) of the account, and goes with the next
// Refresh once it is deleted outside.
#include "mainwindow.h"

#include "applyplandialog.h"
#include "appservices.h"
#include "azureintegration.h"
#include "resourcefilterproxy.h"
#include "resourcetreemodel.h"
#include "rowpagingproxy.h"
#include "unmanageddetails.h"
#include "windowstatusbar.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>

#include <thread>

using namespace converge;
using namespace converge::test;

namespace {

constexpr int readyTimeoutMs = 60000;

/// The window's rows as its tree view shows them: the tree model's, through the filter and the
/// pages.
struct ViewRows
{
    explicit ViewRows(const MainWindow &window)
        : filter(window.findChild<ResourceFilterProxy *>(QStringLiteral("resourceFilterProxy")))
        , pages(window.findChild<RowPagingProxy *>(QStringLiteral("resourcePages")))
    {}
    QModelIndex of(const QModelIndex &tree) const
    {
        return pages->mapFromSource(filter->mapFromSource(tree));
    }
    QModelIndex treeIndex(const QModelIndex &view) const
    {
        return filter->mapToSource(pages->mapToSource(view));
    }

    ResourceFilterProxy *filter;
    RowPagingProxy *pages;
};

/// The window as the application makes it: a MainWindow over a started Controller (the
/// engine's fast options) on the workspace at `path`, its settings in `settingsPath`.
struct ExplorerWindow
{
    ExplorerWindow(AppServices &services, const QString &path, const QString &settingsPath)
        : services(services)
        , path(path)
        , controller(path, services.kinds, services.factories, services.reconciler, services.clock,
                     nullptr, AzureEngine::fastOptions())
        , settings(settingsPath, QSettings::IniFormat)
    {}
    /// Starts the controller and shows the window; false when either fails.
    bool open()
    {
        if (!controller.start())
            return false;
        window = std::make_unique<MainWindow>(
            WindowServices{services.kinds, path, &controller, &settings});
        window->show();
        return QTest::qWaitForWindowExposed(window.get());
    }

    AppServices &services;
    QString path;
    Controller controller;
    QSettings settings;
    std::unique_ptr<MainWindow> window;
};

/// Whether `account` shows Ready in the tree and the controller is done listing it.
bool accountListed(const ResourceTreeModel &tree, const Controller &controller,
                   const ResourceKey &account)
{
    const QModelIndex row = tree.indexOf(account);
    return row.isValid() && row.data(ResourceTreeModel::StatusRole) == int(StatusKind::Ready) &&
           controller.isIdle() && !controller.isListing({account});
}

/// Runs `fn(DirectAccess &)` on a thread of its own: HttpClient refuses the GUI thread.
template<typename Fn>
auto direct(const Emulators &emulators, Fn fn)
{
    std::invoke_result_t<Fn, DirectAccess &> result{};
    std::thread thread([&] {
        DirectAccess access(emulators);
        result = fn(access);
    });
    thread.join();
    return result;
}

/// Put Blob or Delete Blob as another tool would; the HTTP status.
int blobRequest(const Emulators &emulators, const QByteArray &method, const QString &container,
                const QString &blob)
{
    return direct(emulators, [&](DirectAccess &access) {
        return access
            .send(AzureAccount::Service::Blob, method, container + QLatin1Char('/') + blob, {},
                  {{"x-ms-blob-type", "BlockBlob"}, {"Content-Type", "text/plain"}},
                  method == "PUT" ? QByteArrayLiteral("hello") : QByteArray())
            .status;
    });
}

/// The display names of `parent`'s children, sorted.
QStringList namesUnder(const QAbstractItemModel *model, const QModelIndex &parent)
{
    QStringList names;
    for (int row = 0; row < model->rowCount(parent); ++row)
        names.append(model->index(row, 0, parent).data().toString());
    names.sort();
    return names;
}

QModelIndex childNamed(const QAbstractItemModel *model, const QModelIndex &parent,
                       const QString &name)
{
    for (int row = 0; row < model->rowCount(parent); ++row) {
        const QModelIndex index = model->index(row, 0, parent);
        if (index.data().toString() == name)
            return index;
    }
    return {};
}

} // namespace

class tst_WindowExplorer final : public QObject
{
    Q_OBJECT

private slots:
    void blobsShowAsFoldersThatPageIn()
    {
        const Emulators emulators = Emulators::fromEnvironment();
        QVERIFY2(emulators.isValid(), qPrintable(emulators.error));
        const QString containerName = uniqueStem() + QStringLiteral("-browse");
        const QString accountName = QStringLiteral("browsestore");
        const ResourceKey container{AzureKinds::blobContainer(), containerName};

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("explorer.converge"));
        {
            std::unique_ptr<Workspace> ws = Workspace::open(path, nullptr);
            QVERIFY(ws);
            const Resource account = emulatorAccount(emulators, accountName);
            QVERIFY(ws->apply({account, azureResource(AzureKinds::blobContainer(), containerName,
                                                      ownedBy(accountName))},
                              nullptr, nullptr));
        }

        AppServices services;
        ExplorerWindow explorer(services, path, dir.filePath(QStringLiteral("ui.ini")));
        QVERIFY(explorer.open());
        Controller &controller = explorer.controller;
        std::unique_ptr<MainWindow> &window = explorer.window;
        auto *tree = window->findChild<ResourceTreeModel *>(QStringLiteral("resourceTreeModel"));
        const ViewRows rows(*window);
        auto *view = window->findChild<QTreeView *>(QStringLiteral("resourceTree"));
        QVERIFY(tree && rows.filter && rows.pages && view);
        tree->setBrowsePageSize(3);

        QTRY_VERIFY_WITH_TIMEOUT(
            tree->indexOf(container).isValid() &&
                tree->indexOf(container).data(ResourceTreeModel::StatusRole).toInt() ==
                    int(StatusKind::Ready),
            readyTimeoutMs);
        // Written by another tool, after the container was made.
        const QStringList blobs{
            QStringLiteral("readme.txt"), QStringLiteral("docs/a.txt"),
            QStringLiteral("docs/b.txt"), QStringLiteral("docs/deep/c.txt"),
            QStringLiteral("logs/1.log"), QStringLiteral("logs/2.log"),
            QStringLiteral("logs/3.log"), QStringLiteral("logs/4.log"),
            QStringLiteral("logs/5.log"), QStringLiteral("logs/6.log"),
            QStringLiteral("logs/7.log"),
        };
        for (const QString &blob : blobs)
            QCOMPARE(blobRequest(emulators, "PUT", containerName, blob), 201);

        // The model is checked by the tester from here on, which also fetches what it can.
        QAbstractItemModelTester tester(tree,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QModelIndex containerRow = tree->indexOf(container);
        QVERIFY(tree->hasChildren(containerRow));
        // Expanding the container in the view asks for its first page.
        QVERIFY(window->selectResource(container));
        view->expand(rows.of(containerRow));
        // The top: docs/, logs/ and readme.txt (three per page: the whole top in one page).
        QTRY_COMPARE_WITH_TIMEOUT(namesUnder(tree, tree->indexOf(container)),
                                  (QStringList{QStringLiteral("docs/"), QStringLiteral("logs/"),
                                               QStringLiteral("readme.txt")}),
                                  readyTimeoutMs);
        const QModelIndex docs =
            childNamed(tree, tree->indexOf(container), QStringLiteral("docs/"));
        QVERIFY(docs.data(ResourceTreeModel::IsFolderRole).toBool());
        QCOMPARE(docs.data(ResourceTreeModel::NameRole).toString(), QStringLiteral("docs/"));
        const QModelIndex readme =
            childNamed(tree, tree->indexOf(container), QStringLiteral("readme.txt"));
        const DiscoveredResource *readmeItem = tree->discoveredAt(readme);
        QVERIFY(readmeItem);
        QCOMPARE(readmeItem->name, QStringLiteral("readme.txt"));
        QCOMPARE(readmeItem->owner, container);
        QCOMPARE(readmeItem->details.value(QStringLiteral("contentLength")).toInt(), 5);
        QCOMPARE(readme.data(ResourceTreeModel::StatusRole).toInt(), int(StatusKind::Unmanaged));

        // A folder pages in: docs/ holds a.txt, b.txt and the folder deep/.
        view->expand(rows.of(docs));
        QTRY_COMPARE_WITH_TIMEOUT(namesUnder(tree, docs),
                                  (QStringList{QStringLiteral("a.txt"), QStringLiteral("b.txt"),
                                               QStringLiteral("deep/")}),
                                  readyTimeoutMs);
        const QModelIndex deep = childNamed(tree, docs, QStringLiteral("deep/"));
        view->expand(rows.of(deep));
        QTRY_COMPARE_WITH_TIMEOUT(namesUnder(tree, deep), QStringList{QStringLiteral("c.txt")},
                                  readyTimeoutMs);
        QCOMPARE(tree->discoveredAt(tree->index(0, 0, deep))->name,
                 QStringLiteral("docs/deep/c.txt"));

        // logs/ holds seven: three pages of three, fetched as the view (or the tester) asks.
        const QModelIndex logs =
            childNamed(tree, tree->indexOf(container), QStringLiteral("logs/"));
        for (int i = 0; i < 5 && tree->rowCount(logs) < 7; ++i) {
            QTRY_VERIFY_WITH_TIMEOUT(tree->canFetchMore(logs) || tree->rowCount(logs) == 7,
                                     readyTimeoutMs);
            tree->fetchMore(logs);
        }
        QTRY_COMPARE_WITH_TIMEOUT(tree->rowCount(logs), 7, readyTimeoutMs);
        QVERIFY(!tree->canFetchMore(logs));

        // Open by name (Ctrl+L) finds the container by its URL, and by Kind/name.
        view->selectionModel()->clear();
        QVERIFY(window->openByName(emulators.blobEndpoint().toString() + QLatin1Char('/') +
                                   containerName));
        QCOMPARE(rows.treeIndex(view->currentIndex()), tree->indexOf(container));
        QVERIFY(window->openByName(QStringLiteral("StorageAccount/") + accountName));
        const QList<ResourceKey> accountOnly{{AzureKinds::storageAccount(), accountName}};
        QCOMPARE(window->selectedKeys(), accountOnly);
        QVERIFY(!window->openByName(QStringLiteral("Queue/nothing-of-that-name")));

        // Deleted and written outside: Refresh (F5) of the container reads it again.
        QCOMPARE(blobRequest(emulators, "DELETE", containerName, QStringLiteral("readme.txt")),
                 202);
        QCOMPARE(blobRequest(emulators, "PUT", containerName, QStringLiteral("new.txt")), 201);
        view->selectionModel()->clear();
        QVERIFY(window->selectResource(container));
        QAction *refresh = window->findChild<QAction *>(QStringLiteral("refreshAction"));
        QVERIFY(refresh && refresh->isEnabled());
        refresh->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(namesUnder(tree, tree->indexOf(container)),
                                  (QStringList{QStringLiteral("docs/"), QStringLiteral("logs/"),
                                               QStringLiteral("new.txt")}),
                                  readyTimeoutMs);

        window.reset();
        controller.stop();
        direct(emulators, [&](DirectAccess &access) {
            if (std::shared_ptr<Manager> manager = access.manager(AzureKinds::blobContainer()))
                manager->deleteResource(
                    access.target(azureResource(AzureKinds::blobContainer(), containerName,
                                                ownedBy(accountName))),
                    {});
            return true;
        });
    }

    void containerMadeOutsideComesAndGoesWithRefreshOfItsAccount()
    {
        // After the account's first listing another tool makes a container: it is not in the
        // tree until Refresh (F5) of the account lists it again, greyed under the account, and
        // it leaves at the next Refresh once it is deleted outside. No restart in between.
        const Emulators emulators = Emulators::fromEnvironment();
        QVERIFY2(emulators.isValid(), qPrintable(emulators.error));
        const QString accountName = QStringLiteral("refreshstore");
        const ResourceKey account{AzureKinds::storageAccount(), accountName};
        const QString containerName = uniqueStem() + QStringLiteral("-outside");
        const Resource outside =
            azureResource(AzureKinds::blobContainer(), containerName, ownedBy(accountName));

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("refresh.converge"));
        QVERIFY(Workspace::open(path, nullptr)
                    ->apply({emulatorAccount(emulators, accountName)}, nullptr, nullptr));
        AppServices services;
        ExplorerWindow explorer(services, path, dir.filePath(QStringLiteral("ui.ini")));
        QVERIFY(explorer.open());
        Controller &controller = explorer.controller;
        std::unique_ptr<MainWindow> &window = explorer.window;
        auto *tree = window->findChild<ResourceTreeModel *>(QStringLiteral("resourceTreeModel"));
        auto *view = window->findChild<QTreeView *>(QStringLiteral("resourceTree"));
        QVERIFY(tree && view);
        QAbstractItemModelTester tester(tree,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY_WITH_TIMEOUT(accountListed(*tree, controller, account), readyTimeoutMs);
        const auto refreshAccount = [&] {
            QVERIFY(window->selectResource(account));
            view->setFocus();
            QTest::keyClick(view, Qt::Key_F5);
        };

        QVERIFY(direct(emulators, [&](DirectAccess &access) {
            std::shared_ptr<Manager> manager = access.manager(AzureKinds::blobContainer());
            return manager && manager->create(access.target(outside));
        }));
        QCOMPARE(blobRequest(emulators, "PUT", containerName, QStringLiteral("inside.txt")), 201);
        QTest::qWait(200);
        QVERIFY(!tree->indexOfDiscovered(account, AzureKinds::blobContainer(), containerName)
                     .isValid());
        refreshAccount();
        QTRY_VERIFY_WITH_TIMEOUT(
            tree->indexOfDiscovered(account, AzureKinds::blobContainer(), containerName).isValid(),
            readyTimeoutMs);
        const QModelIndex row =
            tree->indexOfDiscovered(account, AzureKinds::blobContainer(), containerName);
        QCOMPARE(row.parent(), tree->indexOf(account));
        QCOMPARE(row.data(ResourceTreeModel::StatusRole).toInt(), int(StatusKind::Unmanaged));

        // Unmanaged, it still opens like a folder (the tester fetches what it can, as an
        // expand does): what another tool wrote into it shows.
        QVERIFY(tree->hasChildren(row));
        QTRY_COMPARE_WITH_TIMEOUT(
            namesUnder(
                tree, tree->indexOfDiscovered(account, AzureKinds::blobContainer(), containerName)),
            QStringList{QStringLiteral("inside.txt")}, readyTimeoutMs);
        QCOMPARE(blobRequest(emulators, "DELETE", containerName, QStringLiteral("inside.txt")),
                 202);

        QVERIFY(direct(emulators, [&](DirectAccess &access) {
            std::shared_ptr<Manager> manager = access.manager(AzureKinds::blobContainer());
            return manager && manager->deleteResource(access.target(outside), {});
        }));
        QTRY_VERIFY_WITH_TIMEOUT(controller.isIdle() && !controller.isListing({account}),
                                 readyTimeoutMs);
        refreshAccount();
        QTRY_VERIFY_WITH_TIMEOUT(
            !tree->indexOfDiscovered(account, AzureKinds::blobContainer(), containerName).isValid(),
            readyTimeoutMs);
        QVERIFY(tree->indexOf(account).isValid());

        window.reset();
        controller.stop();
    }

    void foldersShowWithoutScrollingAndBlobUrlsOpen()
    {
        // A container whose folder sorts after a dozen blobs: opened, it lists page after page
        // up to a bound without waiting for a scroll, so the folder is there (first, as file
        // browsers show folders). A blob's URL opens the blob through its folders, whatever
        // page it is on; a URL of nothing says so.
        const Emulators emulators = Emulators::fromEnvironment();
        QVERIFY2(emulators.isValid(), qPrintable(emulators.error));
        const QString containerName = uniqueStem() + QStringLiteral("-folders");
        const QString accountName = QStringLiteral("folderstore");
        const ResourceKey container{AzureKinds::blobContainer(), containerName};
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("folders.converge"));
        QVERIFY(Workspace::open(path, nullptr)
                    ->apply({emulatorAccount(emulators, accountName),
                             azureResource(AzureKinds::blobContainer(), containerName,
                                           ownedBy(accountName))},
                            nullptr, nullptr));
        AppServices services;
        ExplorerWindow explorer(services, path, dir.filePath(QStringLiteral("ui.ini")));
        QVERIFY(explorer.open());
        std::unique_ptr<MainWindow> &window = explorer.window;
        auto *tree = window->findChild<ResourceTreeModel *>(QStringLiteral("resourceTreeModel"));
        const ViewRows rows(*window);
        auto *view = window->findChild<QTreeView *>(QStringLiteral("resourceTree"));
        QVERIFY(tree && rows.filter && view);
        tree->setBrowsePageSize(3);
        QTRY_VERIFY_WITH_TIMEOUT(tree->indexOf(container).data(ResourceTreeModel::StatusRole) ==
                                     int(StatusKind::Ready),
                                 readyTimeoutMs);
        // Empty, it says so once listed, and shows nothing to expand.
        tree->fetchMore(tree->indexOf(container));
        QTRY_VERIFY_WITH_TIMEOUT(qobject_cast<WindowStatusBar *>(window->statusBar())->message() ==
                                     containerName + QStringLiteral(" holds nothing"),
                                 readyTimeoutMs);
        QVERIFY(!tree->hasChildren(tree->indexOf(container)));

        for (int i = 0; i < 12; ++i)
            QCOMPARE(blobRequest(emulators, "PUT", containerName,
                                 QStringLiteral("blob-%1.txt").arg(i, 2, 10, QLatin1Char('0'))),
                     201);
        for (int i = 0; i < 7; ++i)
            QCOMPARE(blobRequest(emulators, "PUT", containerName,
                                 QStringLiteral("zz/inner/log-%1.txt").arg(i)),
                     201);

        // One listing, as an expand (here a Refresh) asks for: the pages follow by themselves.
        tree->relist(tree->indexOf(container));
        QTRY_COMPARE_WITH_TIMEOUT(tree->rowCount(tree->indexOf(container)), 13, readyTimeoutMs);
        const QModelIndex sorted = rows.filter->mapFromSource(tree->indexOf(container));
        QCOMPARE(rows.filter->index(0, 0, sorted).data().toString(), QStringLiteral("zz/"));

        // The blob's URL: through zz/ and zz/inner/, listed three at a time as far as needed.
        tree->setBrowseEagerRows(0);
        tree->relist(tree->indexOf(container));
        const QString blobUrl = emulators.blobEndpoint().toString() + QLatin1Char('/') +
                                containerName + QStringLiteral("/zz/inner/log-6.txt");
        QVERIFY(!window->openByName(blobUrl));
        QTRY_VERIFY_WITH_TIMEOUT(view->currentIndex().isValid(), readyTimeoutMs);
        const DiscoveredResource *opened = tree->discoveredAt(rows.treeIndex(view->currentIndex()));
        QVERIFY(opened);
        QCOMPARE(opened->name, QStringLiteral("zz/inner/log-6.txt"));
        QCOMPARE(opened->owner, container);
        QVERIFY(qobject_cast<WindowStatusBar *>(window->statusBar())
                    ->message()
                    .contains(QStringLiteral("found")));

        // Nothing of that name: said, nothing selected anew.
        view->selectionModel()->clear();
        QVERIFY(!window->openByName(emulators.blobEndpoint().toString() + QLatin1Char('/') +
                                    containerName + QStringLiteral("/zz/missing.txt")));
        QTRY_VERIFY_WITH_TIMEOUT(
            qobject_cast<WindowStatusBar *>(window->statusBar())
                ->message()
                .contains(QStringLiteral("holds nothing named zz/missing.txt")),
            readyTimeoutMs);
        QVERIFY(!view->currentIndex().isValid());

        window.reset();
        explorer.controller.stop();
        direct(emulators, [&](DirectAccess &access) {
            if (std::shared_ptr<Manager> manager = access.manager(AzureKinds::blobContainer()))
                manager->deleteResource(
                    access.target(azureResource(AzureKinds::blobContainer(), containerName,
                                                ownedBy(accountName))),
                    {});
            return true;
        });
    }

    void openByNameLooksUpWhatNoListingShowed()
    {
        // A queue made outside after the account was listed is not in the tree; Open by name
        // asks the account with a get, and selects the row once it is there. Selecting an
        // unmanaged row asks for a get too: what it observes fills the details.
        const Emulators emulators = Emulators::fromEnvironment();
        QVERIFY2(emulators.isValid(), qPrintable(emulators.error));
        const QString accountName = QStringLiteral("lookupstore");
        const ResourceKey account{AzureKinds::storageAccount(), accountName};
        const QString queueName = uniqueStem() + QStringLiteral("-late");

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("lookup.converge"));
        QVERIFY(Workspace::open(path, nullptr)
                    ->apply({emulatorAccount(emulators, accountName)}, nullptr, nullptr));
        RequestCounter requests;
        AzureFactory::Options azure;
        azure.requestObserver = requests.observer();
        AppServices services(azure);
        ExplorerWindow explorer(services, path, dir.filePath(QStringLiteral("ui.ini")));
        QVERIFY(explorer.open());
        Controller &controller = explorer.controller;
        std::unique_ptr<MainWindow> &window = explorer.window;
        auto *tree = window->findChild<ResourceTreeModel *>(QStringLiteral("resourceTreeModel"));
        const ViewRows rows(*window);
        auto *view = window->findChild<QTreeView *>(QStringLiteral("resourceTree"));
        auto *details = window->findChild<UnmanagedDetails *>(QStringLiteral("unmanagedDetails"));
        QVERIFY(tree && rows.filter && rows.pages && view && details);
        QAbstractItemModelTester tester(tree,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY_WITH_TIMEOUT(accountListed(*tree, controller, account), readyTimeoutMs);

        QVERIFY(direct(emulators, [&](DirectAccess &access) {
            std::shared_ptr<Manager> manager = access.manager(AzureKinds::queue());
            return manager && manager->create(access.target(azureResource(
                                  AzureKinds::queue(), queueName, ownedBy(accountName))));
        }));
        QTest::qWait(200);
        QVERIFY(!tree->indexOfDiscovered(account, AzureKinds::queue(), queueName).isValid());

        const qsizetype before = requests.size();
        QVERIFY(!window->openByName(queueName)); // not shown: looked up
        QTRY_VERIFY_WITH_TIMEOUT(
            tree->indexOfDiscovered(account, AzureKinds::queue(), queueName).isValid(),
            readyTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(
            rows.treeIndex(view->currentIndex()),
            QModelIndex(tree->indexOfDiscovered(account, AzureKinds::queue(), queueName)),
            readyTimeoutMs);
        QVERIFY2(requests.since(before).contains(queueName), qPrintable(requests.since(before)));
        QCOMPARE(requests.writes.load(), 0);
        QTRY_VERIFY(details->shown() && details->shown()->name == queueName);
        QVERIFY2(qobject_cast<WindowStatusBar *>(window->statusBar())
                     ->message()
                     .contains(QStringLiteral("not listed")),
                 qPrintable(qobject_cast<WindowStatusBar *>(window->statusBar())->message()));

        // What no account holds says so.
        QVERIFY(
            !window->openByName(QStringLiteral("Queue/") + uniqueStem() + QStringLiteral("-none")));
        QTRY_VERIFY_WITH_TIMEOUT(qobject_cast<WindowStatusBar *>(window->statusBar())
                                     ->message()
                                     .contains(QStringLiteral("No account holds")),
                                 readyTimeoutMs);

        window.reset();
        controller.stop();
        direct(emulators, [&](DirectAccess &access) {
            if (std::shared_ptr<Manager> manager = access.manager(AzureKinds::queue()))
                manager->deleteResource(access.target(azureResource(AzureKinds::queue(), queueName,
                                                                    ownedBy(accountName))),
                                        {});
            return true;
        });
    }

    void unmanagedTableShowsItsDetailsAndIsClaimedWithoutAWrite()
    {
        const Emulators emulators = Emulators::fromEnvironment();
        QVERIFY2(emulators.isValid(), qPrintable(emulators.error));
        const QString accountName = QStringLiteral("claimstore");
        const ResourceKey account{AzureKinds::storageAccount(), accountName};
        const QString tableName = uniqueStem() + QStringLiteral("found");
        QVERIFY(direct(emulators, [&](DirectAccess &access) {
            std::shared_ptr<Manager> manager = access.manager(AzureKinds::table());
            return manager && manager->create(access.target(azureResource(
                                  AzureKinds::table(), tableName, ownedBy(accountName))));
        }));

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("claim.converge"));
        QVERIFY(Workspace::open(path, nullptr)
                    ->apply({emulatorAccount(emulators, accountName)}, nullptr, nullptr));

        RequestCounter requests;
        AzureFactory::Options azure;
        azure.requestObserver = requests.observer();
        AppServices services(azure);
        ExplorerWindow explorer(services, path, dir.filePath(QStringLiteral("ui.ini")));
        QVERIFY(explorer.open());
        Controller &controller = explorer.controller;
        std::unique_ptr<MainWindow> &window = explorer.window;
        auto *tree = window->findChild<ResourceTreeModel *>(QStringLiteral("resourceTreeModel"));
        const ViewRows rows(*window);
        auto *view = window->findChild<QTreeView *>(QStringLiteral("resourceTree"));
        auto *stack = window->findChild<QStackedWidget *>(QStringLiteral("detailsStack"));
        auto *details = window->findChild<UnmanagedDetails *>(QStringLiteral("unmanagedDetails"));
        QVERIFY(tree && rows.filter && rows.pages && view && stack && details);
        QAbstractItemModelTester tester(tree,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);

        // The account's listing shows the table greyed under it.
        QTRY_VERIFY_WITH_TIMEOUT(
            tree->indexOfDiscovered(account, AzureKinds::table(), tableName).isValid(),
            readyTimeoutMs);
        const QModelIndex row = tree->indexOfDiscovered(account, AzureKinds::table(), tableName);
        // Open by name finds what nothing manages too.
        QVERIFY(window->openByName(tableName));
        QCOMPARE(rows.treeIndex(view->currentIndex()), row);
        QCOMPARE(stack->currentWidget(), details);
        QVERIFY(details->isVisible());
        QVERIFY(details->shown());
        QCOMPARE(details->shown()->name, tableName);
        auto *observed = details->findChild<QTreeWidget *>(QStringLiteral("unmanagedObserved"));
        QVERIFY(observed && observed->topLevelItemCount() > 0);
        QStringList properties;
        for (int i = 0; i < observed->topLevelItemCount(); ++i)
            properties << observed->topLevelItem(i)->text(0) + QLatin1Char('=') +
                              observed->topLevelItem(i)->text(1);
        QVERIFY2(properties.join(u',').contains(tableName), qPrintable(properties.join(u',')));
        auto *preview = details->findChild<QPlainTextEdit *>(QStringLiteral("claimPreview"));
        QVERIFY(preview);
        QVERIFY2(preview->toPlainText().contains(QStringLiteral("kind: Table")),
                 qPrintable(preview->toPlainText()));
        QVERIFY2(preview->toPlainText().contains(tableName), qPrintable(preview->toPlainText()));

        // The account listed again while the table is shown: the details say it was seen again
        // (the tree tells its views nothing of a row only seen again).
        QTRY_VERIFY_WITH_TIMEOUT(!controller.isListing({account}), readyTimeoutMs);
        // The get that tells more than a list page (NameLookup::observe) is done by then, and
        // the facts show seconds.
        QTest::qWait(1100);
        const QDateTime seenBefore = details->shown()->seenAt;
        controller.refresh({account});
        QTRY_VERIFY_WITH_TIMEOUT(details->shown() && details->shown()->seenAt > seenBefore,
                                 readyTimeoutMs);
        auto *facts = details->findChild<QLabel *>(QStringLiteral("unmanagedFacts"));
        QVERIFY(facts);
        QVERIFY2(facts->text().contains(
                     details->shown()->seenAt.toLocalTime().toString(QStringLiteral("HH:mm:ss"))),
                 qPrintable(facts->text()));
        QCOMPARE(details->shown()->name, tableName);
        QVERIFY(observed->topLevelItemCount() > 0);

        // Claim from the details: managed, Ready, and not one write reached the backend.
        QTRY_VERIFY_WITH_TIMEOUT(controller.isIdle(), readyTimeoutMs);
        const int writesBefore = requests.writes;
        const qsizetype logBefore = requests.size();
        auto *claim = details->findChild<QPushButton *>(QStringLiteral("claimButton"));
        QVERIFY(claim && claim->isEnabled());
        QTest::mouseClick(claim, Qt::LeftButton);
        const auto claimed = [&]() -> std::optional<ResourceKey> {
            for (const Resource &r : Workspace::open(path, nullptr)->list(AzureKinds::table())) {
                if (r.spec.value(QStringLiteral("tableName")).toString() == tableName ||
                    r.metadata.name == tableName)
                    return r.key();
            }
            return std::nullopt;
        };
        QTRY_VERIFY_WITH_TIMEOUT(claimed().has_value(), readyTimeoutMs);
        const ResourceKey key = *claimed();
        QTRY_VERIFY_WITH_TIMEOUT(
            tree->indexOf(key).isValid() &&
                tree->indexOf(key).data(ResourceTreeModel::StatusRole).toInt() ==
                    int(StatusKind::Ready),
            readyTimeoutMs);
        QVERIFY(!tree->indexOfDiscovered(account, AzureKinds::table(), tableName).isValid());
        QTRY_VERIFY_WITH_TIMEOUT(controller.isIdle(), readyTimeoutMs);
        QVERIFY2(requests.writes == writesBefore, qPrintable(requests.since(logBefore)));

        window.reset();
        controller.stop();
        direct(emulators, [&](DirectAccess &access) {
            if (std::shared_ptr<Manager> manager = access.manager(AzureKinds::table()))
                manager->deleteResource(access.target(azureResource(AzureKinds::table(), tableName,
                                                                    ownedBy(accountName))),
                                        {});
            return true;
        });
    }
};

QTEST_MAIN(tst_WindowExplorer)
#include "tst_windowexplorer.moc"

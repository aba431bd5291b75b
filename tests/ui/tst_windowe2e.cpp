// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The window end to end against the Azurite of the CTest fixture: a real MainWindow over a real
// Controller with the providers app/ builds (Azure Storage, DynamoDB). A manifest (an account,
// two containers, a queue) goes through the plan dialog, everything turns Ready in the tree, one
// container is deleted with the toolbar's Delete and the dialog, it leaves the tree, the
// workspace and Azurite, and its events show in the log panel.
#include "mainwindow.h"

#include "applyplandialog.h"
#include "appservices.h"
#include "awsfactory.h"
#include "azureintegration.h"
#include "deletedialog.h"
#include "eventlogmodel.h"
#include "resourcetreemodel.h"

#include <QAction>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QToolBar>
#include <QTreeView>

#include <thread>

using namespace converge;
using namespace converge::test;

namespace {

constexpr int readyTimeoutMs = 60000; // a loaded CI machine shares Azurite with other tests

QString manifest(const Emulators &e, const QString &account, const QString &stem)
{
    QString yaml = QStringLiteral("apiVersion: azure.converge.dev/v1\n"
                                  "kind: StorageAccount\n"
                                  "metadata: {name: %1}\n"
                                  "spec:\n"
                                  "  accountName: %2\n"
                                  "  endpoints: {blob: '%3', queue: '%4', table: '%5'}\n"
                                  "  credential: {emulator: true}\n")
                       .arg(account, devAccountName(), e.blobEndpoint().toString(),
                            e.queueEndpoint().toString(), e.tableEndpoint().toString());
    for (const QString &container : {QStringLiteral("-invoices"), QStringLiteral("-reports")}) {
        yaml += QStringLiteral("---\n"
                               "apiVersion: azure.converge.dev/v1\n"
                               "kind: BlobContainer\n"
                               "metadata: {name: %1}\n"
                               "spec: {owner: {name: %2}, publicAccess: None}\n")
                    .arg(stem + container, account);
    }
    yaml += QStringLiteral("---\n"
                           "apiVersion: azure.converge.dev/v1\n"
                           "kind: Queue\n"
                           "metadata: {name: %1}\n"
                           "spec: {owner: {name: %2}}\n")
                .arg(stem + QStringLiteral("-jobs"), account);
    return yaml;
}

/// Runs `fn(DirectAccess &)` on a thread of its own and returns its result: HttpClient refuses
/// the GUI thread (and is bound to the thread that made it).
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

/// The container's state in Azurite: Ready (exists), NotFound, or another error category.
enum class Seen { Exists, NotFound, Failed };

Seen container(const Emulators &emulators, const QString &account, const ResourceKey &key)
{
    return direct(emulators, [&](DirectAccess &access) {
        std::shared_ptr<Manager> manager = access.manager(AzureKinds::blobContainer());
        if (!manager)
            return Seen::Failed;
        const Outcome<Observation> seen =
            manager->get(access.target(azureResource(key.kind, key.name, ownedBy(account))));
        if (seen)
            return Seen::Exists;
        return seen.error().category == BackendError::Category::NotFound ? Seen::NotFound
                                                                         : Seen::Failed;
    });
}

} // namespace

class tst_WindowE2e final : public QObject
{
    Q_OBJECT

private slots:
    void applyWaitDeleteAndSeeEvents()
    {
        const Emulators emulators = Emulators::fromEnvironment();
        QVERIFY2(emulators.isValid(), qPrintable(emulators.error));
        const QString stem = uniqueStem() + QStringLiteral("-e2e");
        const QString accountName = QStringLiteral("e2estore");
        const ResourceKey account{AzureKinds::storageAccount(), accountName};
        const ResourceKey invoices{AzureKinds::blobContainer(), stem + QStringLiteral("-invoices")};
        const ResourceKey reports{AzureKinds::blobContainer(), stem + QStringLiteral("-reports")};
        const ResourceKey jobs{AzureKinds::queue(), stem + QStringLiteral("-jobs")};
        const QList<ResourceKey> all{account, invoices, reports, jobs};
        // A container that another tool made: the window shows it greyed under the account.
        const ResourceKey stray{AzureKinds::blobContainer(), stem + QStringLiteral("-stray")};
        QVERIFY(direct(emulators, [&](DirectAccess &access) {
            std::shared_ptr<Manager> manager = access.manager(stray.kind);
            return manager && manager->create(access.target(
                                  azureResource(stray.kind, stray.name, ownedBy(accountName))));
        }));

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString manifestPath = dir.filePath(QStringLiteral("storage.yaml"));
        {
            QFile file(manifestPath);
            QVERIFY(file.open(QIODevice::WriteOnly));
            QVERIFY(file.write(manifest(emulators, accountName, stem).toUtf8()) > 0);
        }
        const QString path = dir.filePath(QStringLiteral("e2e.converge"));
        QVERIFY(Workspace::open(path, nullptr)); // the window reads an existing workspace

        AppServices services;
        Controller controller(path, services.kinds, services.factories, services.reconciler,
                              services.clock, nullptr, AzureEngine::fastOptions());
        QVERIFY(controller.start());
        QSettings settings(dir.filePath(QStringLiteral("ui.ini")), QSettings::IniFormat);
        auto window = std::make_unique<MainWindow>(
            WindowServices{services.kinds, path, &controller, &settings});
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        auto *tree = window->findChild<ResourceTreeModel *>(QStringLiteral("resourceTreeModel"));
        auto *log = window->findChild<EventLogModel *>(QStringLiteral("eventLogModel"));
        auto *view = window->findChild<QTreeView *>(QStringLiteral("resourceTree"));
        auto *toolbar = window->findChild<QToolBar *>(QStringLiteral("mainToolBar"));
        QVERIFY(tree && log && view && toolbar);

        // Apply the manifest: the plan dialog lists four creations, Apply stores them.
        QSignalSpy applied{window.get(), &MainWindow::manifestApplied};
        window->applyManifestFiles({manifestPath});
        ApplyPlanDialog *plan = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (plan = window->findChild<ApplyPlanDialog *>()) && plan->isVisible(), 10000);
        QCOMPARE(plan->plan().objects.size(), 4);
        QTest::mouseClick(plan->findChild<QPushButton *>(QStringLiteral("applyButton")),
                          Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(applied.count(), 1, 10000);
        QCOMPARE(applied.at(0).at(1).toString(), QString());

        const auto statusOf = [tree](const ResourceKey &key) {
            const QModelIndex index = tree->indexOf(key);
            return index.isValid() ? StatusKind(index.data(ResourceTreeModel::StatusRole).toInt())
                                   : StatusKind::Unknown;
        };
        const auto describe = [&] {
            QStringList lines;
            for (const ResourceKey &key : all) {
                lines << key.toString() + QStringLiteral(": ") +
                             tree->indexOf(key, ResourceTreeModel::ReadyColumn).data().toString();
            }
            return lines.join(QStringLiteral("; "));
        };
        const auto allReady = [&] {
            for (const ResourceKey &key : all) {
                if (statusOf(key) != StatusKind::Ready)
                    return false;
            }
            return true;
        };
        QTRY_VERIFY2_WITH_TIMEOUT(allReady(), qPrintable(describe()), readyTimeoutMs);
        QCOMPARE(tree->indexOf(invoices).parent(), tree->indexOf(account));
        QCOMPARE(tree->indexOf(jobs).parent(), tree->indexOf(account));

        // The account's list found the stray container: a discovered row under the account.
        QTRY_VERIFY_WITH_TIMEOUT(tree->indexOfDiscovered(account, stray.kind, stray.name).isValid(),
                                 readyTimeoutMs);
        const QModelIndex strayRow = tree->indexOfDiscovered(account, stray.kind, stray.name);
        QCOMPARE(strayRow.parent(), tree->indexOf(account));
        QCOMPARE(strayRow.data(ResourceTreeModel::StatusRole).toInt(), int(StatusKind::Unmanaged));
        QVERIFY(!tree->indexOfDiscovered(account, invoices.kind, invoices.name).isValid());

        // Both containers exist in Azurite.
        QCOMPARE(container(emulators, accountName, invoices), Seen::Exists);
        QCOMPARE(container(emulators, accountName, reports), Seen::Exists);

        // Select the invoices container with the mouse and delete it with the toolbar button
        // and the dialog's Delete.
        QVERIFY(window->selectResource(invoices)); // expands its owner and scrolls to it
        QModelIndex shown;
        QTRY_VERIFY((shown = view->currentIndex()).isValid());
        view->clearSelection();
        QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier,
                          view->visualRect(shown).center());
        QCOMPARE(window->selectedKeys(), QList<ResourceKey>{invoices});
        QAction *deleteAction = window->findChild<QAction *>(QStringLiteral("deleteAction"));
        QVERIFY(deleteAction && deleteAction->isEnabled());
        QTest::mouseClick(toolbar->widgetForAction(deleteAction), Qt::LeftButton);
        DeleteDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = window->findChild<DeleteDialog *>()) && dialog->isVisible());
        QCOMPARE(dialog->keys(), QList<ResourceKey>{invoices});
        auto *deleteButton = dialog->findChild<QPushButton *>(QStringLiteral("deleteButton"));
        QVERIFY(deleteButton);
        QCOMPARE(deleteButton->text(), QStringLiteral("Delete"));
        QSignalSpy requested{window.get(), &MainWindow::deletionRequested};
        QTest::mouseClick(deleteButton, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(requested.count(), 1, 10000);
        QCOMPARE(requested.at(0).at(1).toString(), QString());

        // Gone from the tree, the workspace and Azurite; the rest stays Ready.
        QTRY_VERIFY_WITH_TIMEOUT(!tree->indexOf(invoices).isValid(), readyTimeoutMs);
        QVERIFY(!Workspace::open(path, nullptr)->get(invoices));
        QCOMPARE(container(emulators, accountName, invoices), Seen::NotFound);
        QCOMPARE(container(emulators, accountName, reports), Seen::Exists);
        QCOMPARE(statusOf(reports), StatusKind::Ready);
        QCOMPARE(statusOf(jobs), StatusKind::Ready);

        // Its events are in the log panel: created, then deleting and deleted.
        const auto reasonsOf = [log](const ResourceKey &key) {
            QStringList reasons;
            for (int row = 0; row < log->rowCount(); ++row) {
                if (log->eventAt(row).involved == key)
                    reasons.append(log->eventAt(row).reason);
            }
            return reasons;
        };
        QTRY_VERIFY2_WITH_TIMEOUT(reasonsOf(invoices).contains(QStringLiteral("Deleted")),
                                  qPrintable(reasonsOf(invoices).join(QLatin1Char(','))), 10000);
        const QStringList reasons = reasonsOf(invoices);
        QVERIFY2(reasons.contains(QStringLiteral("Created")), qPrintable(reasons.join(u',')));
        QVERIFY2(reasons.indexOf(QStringLiteral("Created")) <
                     reasons.indexOf(QStringLiteral("Deleted")),
                 qPrintable(reasons.join(u',')));

        window.reset();
        controller.stop();
        // Leave Azurite as it was for the other tests.
        direct(emulators, [&](DirectAccess &access) {
            for (const ResourceKey &key : {reports, jobs, stray}) {
                if (std::shared_ptr<Manager> manager = access.manager(key.kind))
                    manager->deleteResource(
                        access.target(azureResource(key.kind, key.name, ownedBy(accountName))), {});
            }
            return true;
        });
    }
};

QTEST_MAIN(tst_WindowE2e)
#include "tst_windowe2e.moc"

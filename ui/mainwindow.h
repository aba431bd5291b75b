// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "discoveredresource.h"
#include "resource.h"
#include "resourcekey.h"
#include "windowservices.h"
#include "windowsettings.h"
#include "workspacetypes.h"

#include <QMainWindow>

#include <memory>
#include <optional>

class QComboBox;
class QLineEdit;
class QSettings;
class QSplitter;
class QStackedWidget;
class QTreeView;

namespace converge {

class DetailsFollower;
class FolderMemory;
class DetailsPane;
class NameLookup;
class OpenByName;
class UnmanagedDetails;
class EventLogModel;
class LogPanel;
class ManifestFlow;
class ResourceFilterProxy;
class RowPagingProxy;
class ResourceTreeModel;
class WindowActions;
class WindowStatusBar;
class WorkspaceOpener;
class WorkspaceRunner;

/// The main window: the resource tree with its filter beside the details of the selection, the
/// log panel docked below, actions in a toolbar, menus and the tree's context menu, and the
/// controller's counters in the status bar.
///
/// The GUI thread never touches SQLite: two WorkspaceRunners (one reading, one writing) do,
/// on their own threads. Without a controller in this process the window shows the workspace,
/// follows changes other processes commit, and can still apply, delete (request) and export.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    explicit MainWindow(const WindowServices &services, QWidget *parent = nullptr);
    /// The workspace with the built-in kinds (Azure, AWS) and no controller.
    explicit MainWindow(const QString &workspacePath, QWidget *parent = nullptr);
    ~MainWindow() override;

    QString workspacePath() const { return m_path; }

    /// The selected resources, in the tree's order.
    QList<ResourceKey> selectedKeys() const;
    /// The selected rows whose backend listing can be read again (containers, folders), as
    /// indexes of the tree model.
    QList<QModelIndex> selectedBrowsable() const;
    /// Selects `key` in the tree (expanding its owners); false when it is not shown.
    bool selectResource(const ResourceKey &key);
    /// Selects the row that `text` names best (Kind/name, backend name, URL or ARN; see
    /// NameQuery), managed or not. When no row matches, it is looked up with a get under each
    /// Ready account (NameLookup) and selected once found; false until then, with a message.
    bool openByName(const QString &text);
    /// Shows `text` above the log panel (and the panel) until the person closes it.
    void showNotice(const QString &text);

    /// Reads manifest files off the GUI thread, shows the plan and applies it when accepted.
    /// Drag & drop and "Apply manifest…" come here.
    void applyManifestFiles(const QStringList &paths);
    /// Writes the resources as multi-document YAML to `path`, off the GUI thread.
    void exportResources(const QList<ResourceKey> &keys, const QString &path);
    /// Writes every stored event that the log panel's filters let through (its whole history,
    /// not only the loaded pages) to `path`, as JSON when it ends in .json, else CSV.
    void exportLog(const QString &path);
    /// Reads manifest text (the new-resource editor's) off the GUI thread, shows the plan and
    /// applies it when accepted.
    void applyManifestText(const QString &text, const QString &sourceName);
    /// Applies resources built in code (the connect dialog's account) through the same plan and
    /// writer; the plan is shown only when it would change an existing resource.
    void applyResources(const QList<Resource> &resources, const QString &sourceName);

    /// Opens `path` in a new Converge process (a workspace per process: its controller lock is
    /// per workspace) and lists it under Open Recent.
    void openWorkspace(const QString &path);
    /// The preferences as last accepted in the settings dialog (or read at start).
    WindowSettings preferences() const { return m_preferences; }

Q_SIGNALS:
    /// An accepted plan was stored (empty `error`), or failed.
    void manifestApplied(const QList<converge::ResourceKey> &keys, const QString &error);
    /// Deletion (or detaching) was requested in the workspace for these keys.
    void deletionRequested(const QList<converge::ResourceKey> &keys, const QString &error);
    void exportFinished(const QString &path, const QString &error);
    void logExported(const QString &path, const QString &error);

protected:
    void closeEvent(QCloseEvent *event) override;
    void changeEvent(QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    MainWindow(std::unique_ptr<KindRegistry> kinds, const QString &workspacePath, QWidget *parent);
    void setup(const WindowServices &services);
    void createCentral();
    void createLogPanel();
    void createActions();
    void createStatusBar();
    void restoreSettings();
    void saveSettings();

    void updateActions();
    /// Selects, shows and expands the tree model row `source`; false when filtered out.
    bool select(const QModelIndex &source);
    /// The tree model's row at a row of the view (through the filter and the pages).
    QModelIndex treeIndexAt(const QModelIndex &view) const;
    /// The view's row of the tree model's row `source`, its owners' pages grown to show it;
    /// invalid when the filter hides it.
    QModelIndex showInView(const QModelIndex &source);
    /// What the unmanaged details show, when they are on screen and show `item` (the same owner,
    /// kind and name, whatever was observed of it since).
    std::optional<DiscoveredResource> unmanagedShowing(const DiscoveredResource &item) const;
    /// Discovered rows become managed (Controller::claim, no backend write); managed resources
    /// that hold no finalizer yet are claimed by a reconcile.
    void claimSelected();
    /// The discovered rows of the selection.
    QList<DiscoveredResource> selectedDiscovered() const;
    void reconcileSelected();
    void refreshSelected();
    void cancelSelected();
    void deleteSelected();
    void requestDeletion(const QList<ResourceKey> &keys, bool detach);
    /// What was written to the workspace is reloaded (and reconciled, by a controller here).
    void written(const QList<ResourceKey> &keys);
    void showSettings();
    void showMessage(const QString &message);

    std::unique_ptr<KindRegistry> m_ownedKinds;
    const KindRegistry *m_kinds = nullptr; // not owned unless m_ownedKinds holds it
    QString m_path;
    Controller *m_controller = nullptr;       // not owned
    CredentialStore *m_credentials = nullptr; // not owned; may be null
    WindowSettings m_preferences;
    std::unique_ptr<QSettings> m_ownedSettings;
    QSettings *m_settings = nullptr; // not owned unless m_ownedSettings holds it
    std::unique_ptr<WorkspaceRunner> m_reader;
    std::unique_ptr<WorkspaceRunner> m_writer;
    std::unique_ptr<FolderMemory> m_folders; // where the file dialogs open

    // Owned by the window through Qt parents.
    ResourceTreeModel *m_treeModel = nullptr;
    ResourceFilterProxy *m_treeProxy = nullptr;
    RowPagingProxy *m_treePages = nullptr; // the filtered tree a page per owner, for the view
    QTreeView *m_tree = nullptr;
    QLineEdit *m_filterEdit = nullptr;
    QComboBox *m_quickFilter = nullptr;
    QSplitter *m_splitter = nullptr;
    DetailsPane *m_details = nullptr;
    DetailsFollower *m_follower = nullptr; // the details on the selection
    UnmanagedDetails *m_unmanaged = nullptr;
    NameLookup *m_lookup = nullptr;
    OpenByName *m_openByName = nullptr;
    QStackedWidget *m_detailsStack = nullptr;
    EventLogModel *m_logModel = nullptr;
    LogPanel *m_log = nullptr;

    WindowActions *m_actions = nullptr;
    ManifestFlow *m_manifests = nullptr;
    WorkspaceOpener *m_opener = nullptr;

    WindowStatusBar *m_status = nullptr;
};

} // namespace converge

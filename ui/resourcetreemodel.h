// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "browserequest.h"
#include "resource.h"
#include "shardedhash.h"
#include "statusicons.h"
#include "themedicons.h"
#include "workspacetypes.h"

#include <QAbstractItemModel>
#include <QHash>
#include <QPointer>
#include <QSet>

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

namespace converge {

class Controller;
class NameQuery;
class KindRegistry;
class WorkspaceRunner;

/// The ownership tree of a workspace (account → resource → children) with each resource's
/// Ready condition, policy and reconcile bookkeeping, and, under their owners, the backend
/// resources that a list discovered and nothing manages (greyed, so that they can be claimed).
///
/// Loads value snapshots on a WorkspaceRunner's thread and applies them on the GUI thread as
/// one batch each: removals, one coalesced dataChanged per parent with the roles that changed,
/// then one beginInsertRows per parent. At most one load is in flight; keys that change
/// meanwhile are gathered into the next load. A resource whose owner is not in the workspace
/// sits at the top level until the owner appears, then moves under it. Rows are in load order
/// (kind, name), new rows are appended: sorting is a proxy's job.
///
/// Discovered rows are not workspace resources: they have no ResourceKey (keyAt() is invalid,
/// resourceAt() is null), live in a key space of their own (owner, kind, backend name), and are
/// read in the same load as the managed rows: a full reload reads them all, a keyed load reads
/// those under each loaded resource and under its owner, so that a claimed resource's row
/// replaces its discovered row in one batch. A discovered row whose owner is not shown is left
/// out until the owner comes.
///
/// Kinds whose names are paths (Kind::folderDelimiter, a container's blobs) are browsed
/// instead: expanding their owner fetches a page at a time (canFetchMore/fetchMore, through
/// Controller::browse), with the backend's virtual folders as rows that page in the same way.
/// Browsed rows are not stored; relist() reads a container or folder again.
class ResourceTreeModel final : public QAbstractItemModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ResourceTreeModel)

public:
    enum Column {
        NameColumn,
        KindColumn,
        ReadyColumn,
        PolicyColumn,
        LastReconciledColumn,
        NextAttemptColumn,
        ColumnCount
    };
    enum Role {
        KeyRole = Qt::UserRole + 1, ///< ResourceKey
        KindRole,                   ///< QString
        NameRole,                   ///< QString
        ReadyRole,                  ///< int: Condition::Status of Ready
        SeverityRole,               ///< int: Condition::Severity of Ready
        ReasonRole,                 ///< QString: Ready's reason
        MessageRole,                ///< QString: Ready's message
        StatusRole,                 ///< int: StatusKind
        PolicyRole,                 ///< QString: manage | skip | detach-on-delete
        DeletingRole,               ///< bool: deletion requested
        LastReconciledRole,         ///< QDateTime (UTC): last reconcile attempt
        NextAttemptRole,            ///< QDateTime (UTC): next scheduled attempt, or invalid
        ResourceRole,               ///< Resource; listed in every dataChanged (filters use it)
        DiscoveredRole,             ///< DiscoveredResource of a discovered row, else invalid
        IsDiscoveredRole,           ///< bool: a backend resource that nothing manages
        IsFolderRole,               ///< bool: a browsed virtual folder (NameRole: its prefix)
        IsGroupRole,                ///< bool: a service's row under an account (NameRole: it)
    };

    /// Neither reference is owned; both must outlive the model.
    ResourceTreeModel(WorkspaceRunner &runner, const KindRegistry &kinds,
                      QObject *parent = nullptr);
    ~ResourceTreeModel() override;

    /// Loads the whole workspace and applies the difference to what is shown. Supersedes a
    /// load in flight (its result is dropped as stale).
    void reload();
    /// Loads just these keys (changed, added or removed) and applies them as one batch.
    void reloadKeys(const QList<ResourceKey> &keys);
    /// Follows the controller's batched resourcesChanged and discoveryChanged signals. The
    /// controller must outlive the model or be destroyed first (the connection goes with it).
    void follow(Controller *controller);
    /// Reads a browsed row (a container, a folder) again from its first page, if it was read.
    void relist(const QModelIndex &index);
    /// The row that matches `query` best (a managed or discovered one; see NameQuery), or
    /// invalid.
    QModelIndex find(const NameQuery &query) const;
    /// Lists `container` (a browsable row) and the folders on the way to `path`, page after
    /// page as far as it takes, until the row of `path` is in: revealed() gives it, or
    /// notRevealed() says why not (not there, the listing failed). `text` is what the person
    /// typed, given back. A new reveal replaces the one on its way.
    void reveal(const QModelIndex &container, const QString &path, const QString &text);
    /// How many items a browsed page asks for (500 by default; tests page with fewer).
    void setBrowsePageSize(int size) { m_browsePageSize = std::max(1, size); }
    /// How many rows a container or folder lists at once when it is opened, page after page,
    /// before the next page waits for a person to scroll (5,000 by default): its folders, which
    /// the backend lists in name order among the items, show first without scrolling to them.
    void setBrowseEagerRows(int rows) { m_browseEagerRows = std::max(0, rows); }
    /// How many resources the first page of a full load reads (its rows are the first paint)
    /// and how many each later page reads.
    void setLoadPageSizes(int first, int later)
    {
        m_firstPageSize = std::max(1, first);
        m_pageSize = std::max(1, later);
    }
    /// How long one turn of the event loop may apply a load's discovered rows before the rest
    /// waits for the next turn (at least one chunk of them goes each turn).
    void setSliceBudget(qint64 ms) { m_sliceBudgetMs = std::max<qint64>(0, ms); }
    /// The folder prefix of a browsed folder's row, else empty.
    QString folderAt(const QModelIndex &index) const;
    /// The owner listed under and the prefix of a browsable row (a container, a folder).
    std::optional<std::pair<ResourceKey, QString>> browseScopeAt(const QModelIndex &index) const;

    /// True while a load is in flight or queued.
    bool isLoading() const;
    /// The last load's error (e.g. the workspace cannot be opened), or empty.
    QString errorString() const { return m_error; }
    int resourceCount() const { return static_cast<int>(m_nodes.size()); }
    int discoveredCount() const { return static_cast<int>(m_discovered.size()); }

    /// The managed resource's row; discovered rows are found with indexOfDiscovered().
    QModelIndex indexOf(const ResourceKey &key, int column = 0) const;
    QModelIndex indexOfDiscovered(const ResourceKey &owner, const QString &kind,
                                  const QString &name, int column = 0) const;
    /// The resource shown at `index` (any column), or nullptr (also on discovered rows); valid
    /// until the next batch.
    const Resource *resourceAt(const QModelIndex &index) const;
    /// The reconcile state shown at `index`, or nullptr; valid until the next batch.
    const ReconcileState *reconcileStateAt(const QModelIndex &index) const;
    /// The discovered resource shown at `index`, or nullptr; valid until the next batch.
    const DiscoveredResource *discoveredAt(const QModelIndex &index) const;
    /// The managed resource's key; invalid on discovered rows.
    ResourceKey keyAt(const QModelIndex &index) const;
    /// Marks the names of `keys` as having unsaved spec edits (a trailing " *", italic, a tip).
    void setEditedKeys(const QList<ResourceKey> &keys);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;
    QHash<int, QByteArray> roleNames() const override;

    /// The row as workers prepare it: value copies and display strings computed off the GUI
    /// thread.
    struct Entry;
    struct LoadResult;

Q_SIGNALS:
    /// A load's result is in the model (also when it changed nothing).
    void batchApplied();
    void loadFailed(const QString &message);
    /// A browsed page could not be had (an account not Ready, the backend unreachable).
    void browseFailed(const QString &message);
    /// A container or folder was listed and holds nothing (its row shows no children).
    void listedEmpty(const QModelIndex &index);
    /// reveal()'s row is in the tree, at `index`.
    void revealed(const QModelIndex &index, const QString &text);
    /// reveal() found no such row: `message` says why.
    void notRevealed(const QString &text, const QString &message);

private:
    friend class TreeBrowse; // the explorer's side, apart (treebrowse.cpp)
    friend class TreeGroups; // an account's rows by service (treegroups.cpp)
    struct Node;
    struct Browse;

    /// The row's browse state: made on first use for owners of a browsed kind (managed ones
    /// when registered, unmanaged ones when first expanded), folders have theirs from the
    /// start; null on rows that cannot be browsed.
    Browse *browseOf(const Node *node) const;
    /// Reads the next page of a full load: `limit` resources of `kindsLeft` (all kinds, owners'
    /// first, when empty), the first kind from after `after`.
    void requestFullPage(QStringList kindsLeft, QString after, int limit);
    void startKeysLoad();
    void applyResult(LoadResult result);
    /// The changed rows of one pass and their roles. Where they are is read when they are told
    /// (emitChanged): a row moved or a neighbour adopted after its change was read has a new
    /// place by then. No row may be removed in between.
    struct Changes
    {
        QHash<Node *, QList<int>> roles;
        void add(Node *node, const QList<int> &nodeRoles);
    };
    /// One dataChanged per parent, spanning its changed rows, with the union of their roles.
    void emitChanged(const Changes &changes);
    void applyLater(quint64 epoch);
    /// Hands what is left of m_later to the runner's thread to be freed.
    void freeLater();
    /// Where markSeen() left off: rows come owner by owner, so the owner's mark is looked up
    /// once per run of its rows. Valid while m_discoveredSeen gets no other key and loses none.
    struct SeenCursor
    {
        const ResourceKey *owner = nullptr;
        QDateTime *mark = nullptr;
    };
    /// Moves the owner's mark (m_discoveredSeen) up to the stamp of a discovered row read.
    void markSeen(const Entry &e, SeenCursor &cursor);
    /// Removes the discovered rows of the owners in m_laterPresent that the store no longer
    /// holds, and forgets m_laterPresent.
    void removeGone();
    void removeNodes(const QSet<Node *> &removing);
    /// Inserts the rows, managed ones marked as brought by the full load `loadedIn` (or 0).
    void insertFresh(QList<Entry> fresh, quint64 loadedIn = 0);
    void adoptOrphans();
    void moveNode(Node *node, Node *newParent);
    void unregister(Node *node);
    void registerSubtree(Node *node);
    Node *nodeAt(const QModelIndex &index) const;
    /// Where a row of `entry` goes: under its owner (in its service's row, TreeGroups), else at
    /// the top. May make the service's row.
    Node *placeFor(const Entry &entry);
    QModelIndex indexFor(const Node *node, int column = 0) const;
    static bool isWithin(const Node *node, const Node *ancestor);
    static void renumber(Node *parent, int from);

    WorkspaceRunner &m_runner;
    const KindRegistry &m_kinds;
    StatusIcons m_icons;
    ThemedIcons m_kindIcons;
    std::unique_ptr<Node> m_root;
    QHash<ResourceKey, Node *> m_nodes; // managed rows; not owning: the tree owns its nodes
    ShardedHash<Node> m_discovered;     // discovered rows by discoveredId(); not owning
    // Per owner, the latest stamp (seen_at) of its discovered rows that the tree has read: a
    // keyed load reads only rows stamped since (a large account lists page by page).
    QHash<ResourceKey, QDateTime> m_discoveredSeen;
    QSet<ResourceKey> m_pendingKeys;
    QSet<ResourceKey> m_edited; // setEditedKeys()
    QPointer<Controller> m_controller;
    QHash<quint64, Node *> m_browsing; // pages on their way, by request id; not owning
    struct Reveal
    {
        Node *at = nullptr; ///< the container or folder listed now; not owning
        QString path;
        QString text;
    };
    std::optional<Reveal> m_reveal; // reveal()'s, until it ends
    quint64 m_nextBrowseId = 0;
    int m_browsePageSize = 500;
    int m_browseEagerRows = 5000;
    QHash<QString, QString> m_browsedKinds; // owner kind → the kind browsed under it
    // The discovered rows of the load being applied that wait for their turn (applyLater):
    // chunks of laterChunk until a turn of the event loop has taken m_sliceBudgetMs (a few
    // milliseconds: a frame is 16).
    static constexpr qsizetype laterChunk = 100;
    qint64 m_sliceBudgetMs = 3;
    QList<Entry> m_later;
    qsizetype m_laterNext = 0; // the first of m_later not applied yet
    /// Of the keyed load being applied: per owner read, every discovered row the store holds
    /// under it. Once its rows are in, a row the tree shows that is not among them went.
    QHash<ResourceKey, QSet<QString>> m_laterPresent;
    int m_firstPageSize = 500;
    int m_pageSize = 2000;
    qsizetype m_fullBrought = 0; // how many rows the pages of the full load in progress brought
    quint64 m_epoch = 0;         // bumped by reload(): results of older loads are stale
    bool m_busy = false;         // a load of the current epoch is in flight
    QString m_error;
};

} // namespace converge

Q_DECLARE_METATYPE(converge::DiscoveredResource)

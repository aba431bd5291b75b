// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "resourcetreemodel.h"

#include "controller.h"
#include "kindregistry.h"
#include "namequery.h"
#include "snapshot.h"
#include "workspace.h"
#include "workspacerunner.h"

#include <QElapsedTimer>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QPalette>
#include <QScopeGuard>

#include <algorithm>
#include <array>
#include <iterator>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace converge {

Q_LOGGING_CATEGORY(lcTree, "converge.ui.tree")

namespace {

/// A discovered row's identity: its owner, kind and backend name (unique in the store).
QString discoveredId(const ResourceKey &owner, const QString &kind, const QString &name)
{
    const QChar separator(u'\n'); // in no kind or resource name
    return owner.kind + separator + owner.name + separator + kind + separator + name;
}

} // namespace

struct ResourceTreeModel::Entry
{
    Resource resource;
    ReconcileState state;
    std::optional<ResourceKey> owner; ///< the key spec.owner names, when the kind has an owner
    /// Set on rows of backend resources that nothing manages (then `resource` is empty). Shared
    /// so that managed rows pay one pointer for it.
    std::shared_ptr<const DiscoveredResource> discovered;
    /// A row a person browsed to (a page of a container or folder), not read from the store.
    bool browsed = false;
    /// On a browsed folder's row: its full prefix (ending in the delimiter); else empty.
    QString folder;
    StatusKind status = StatusKind::Unknown;
    std::array<QString, ColumnCount> text;
    QString toolTip;

    bool isManaged() const { return !discovered && !browsed; }
    bool isStoredDiscovered() const { return discovered && !browsed; }
    /// Invalid on other rows than managed ones: they are not workspace resources.
    ResourceKey key() const { return isManaged() ? resource.key() : ResourceKey{}; }
    QString discoveredKey() const { return isStoredDiscovered() ? id : QString(); }
    /// discoveredId() of a discovered row, made once on the loading thread: the tree looks
    /// rows up by it a hundred thousand times a listing.
    QString id;
    /// Of a discovered row: a hash of everything its record holds but when it was last seen
    /// (made on the loading thread), so that a row seen again is told apart from a changed one
    /// without comparing its texts and JSON on the GUI thread; 0 on other rows.
    size_t fingerprint = 0;
};

struct ResourceTreeModel::LoadResult
{
    quint64 epoch = 0;
    bool full = false;
    /// A full load reads the workspace a page at a time, owners' kinds first: the kinds left
    /// to read (the first one from after `nextAfter`), empty once this page was the last.
    /// The last page brings the discovered rows, and what the pages did not bring leaves.
    QStringList nextKinds;
    QString nextAfter;
    bool lastPage() const { return nextKinds.isEmpty(); }
    /// The first page's: how many resources the workspace holds, else -1.
    qint64 total = -1;
    QList<Entry> found;
    QList<ResourceKey> missing; ///< keyed loads: asked for and not in the workspace
    /// The discovered rows under the owners read: every owner in a full load, else those in
    /// `discoveredOwners` (whose rows not listed here are gone).
    QList<Entry> discovered;
    QList<ResourceKey> discoveredOwners;
    /// Keyed loads: per owner in `discoveredOwners`, the discoveredId() of every row stored
    /// under it that the tree shows (only those seen since the tree's last look at the owner
    /// are read whole, into `discovered`).
    QHash<ResourceKey, QSet<QString>> discoveredPresent;
    QString error;
};

/// What a row that can be browsed (a managed owner of a folder kind, a folder) has asked for.
struct ResourceTreeModel::Browse
{
    ResourceKey owner; ///< the workspace resource listed under
    QString kind;
    QString delimiter;
    QString prefix;
    QString continuation; ///< of the last page; empty before the first and after the last
    bool started = false; ///< the first page was asked for
    quint64 inFlight = 0; ///< the request id of the page on its way, or 0
    QString error;        ///< why the last page could not be had
};

struct ResourceTreeModel::Node
{
    Entry entry;
    std::unique_ptr<Browse> browse; ///< on rows that can be browsed, once asked
    Node *parent = nullptr;         // not owning
    std::vector<std::unique_ptr<Node>> children;
    int row = 0; // index in parent->children, kept current
    /// How many of `children` are discovered rows read from the store, kept current by every
    /// insertion, removal and move: a listing's end compares it with what the store holds
    /// (removeGone) without walking a hundred thousand children.
    qsizetype storedChildren = 0;
    /// Of a managed row: the epoch of the last full load whose pages brought it.
    quint64 loadedIn = 0;

    /// What a child adds to storedChildren: 1 for a discovered row read from the store.
    static qsizetype storedCount(const Node &child)
    {
        return child.entry.isStoredDiscovered() ? 1 : 0;
    }
    void attach(std::unique_ptr<Node> child)
    {
        child->parent = this;
        child->row = int(children.size());
        storedChildren += storedCount(*child);
        children.push_back(std::move(child));
    }
};

namespace {

QString timeText(const QDateTime &utc)
{
    return utc.isValid() ? utc.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                         : QString();
}

// Runs on the runner's thread: everything here works on values.
ResourceTreeModel::Entry makeEntry(Resource resource, ReconcileState state,
                                   const KindRegistry &kinds)
{
    using M = ResourceTreeModel;
    M::Entry e;
    const Kind *kind = kinds.find(resource.kind);
    if (kind && !kind->ownerKind.isEmpty() && !resource.ownerName().isEmpty())
        e.owner = ResourceKey{kind->ownerKind, resource.ownerName()};
    e.status = StatusIcons::kindOf(resource);
    const Condition ready = resource.status.ready();

    e.text[M::NameColumn] = resource.metadata.name;
    e.text[M::KindColumn] = resource.kind;
    if (resource.metadata.isBeingDeleted())
        e.text[M::ReadyColumn] = ResourceTreeModel::tr("Deleting");
    else if (!ready.reason.isEmpty())
        e.text[M::ReadyColumn] = ready.reason;
    else
        e.text[M::ReadyColumn] = Condition::statusName(ready.status);
    e.text[M::PolicyColumn] = resource.metadata.annotations.value(
        Annotations::reconcilePolicy(),
        Annotations::policyName(Annotations::ReconcilePolicy::Manage));
    e.text[M::LastReconciledColumn] = timeText(state.lastAttempt);
    QString next = timeText(state.nextAttempt);
    if (!state.waitingFor.isEmpty())
        next = next.isEmpty() ? state.waitingFor
                              : ResourceTreeModel::tr("%1 (%2)").arg(next, state.waitingFor);
    e.text[M::NextAttemptColumn] = next;

    QStringList tip{ResourceTreeModel::tr("%1: %2").arg(resource.key().toString(),
                                                        StatusIcons::label(e.status))};
    if (!ready.message.isEmpty())
        tip.append(ready.message);
    if (!state.lastError.isEmpty() && state.lastError != ready.message)
        tip.append(ResourceTreeModel::tr("Last error: %1").arg(state.lastError));
    if (state.attempts > 0)
        tip.append(ResourceTreeModel::tr("Failed attempts: %1").arg(state.attempts));
    e.toolTip = tip.join(QLatin1Char('\n'));

    e.resource = std::move(resource);
    e.state = std::move(state);
    return e;
}

// Runs on the runner's thread.
ResourceTreeModel::Entry makeDiscoveredEntry(DiscoveredResource discovered)
{
    using M = ResourceTreeModel;
    M::Entry e;
    e.owner = discovered.owner;
    e.status = StatusKind::Unmanaged;
    e.text[M::NameColumn] = discovered.name;
    e.text[M::KindColumn] = discovered.kind;
    e.text[M::ReadyColumn] = ResourceTreeModel::tr("Unmanaged");
    // No tool tip kept: an account can list a hundred thousand of these (discoveredToolTip).
    e.id = discoveredId(discovered.owner, discovered.kind, discovered.name);
    e.discovered = std::make_shared<const DiscoveredResource>(std::move(discovered));
    return e;
}

// Runs on the runner's thread: a row read from the store, with the fingerprint that tells it,
// seen again, from a changed one (changedRoles). Browsed rows (made on the GUI thread from a
// page) have none: they are never compared.
ResourceTreeModel::Entry makeStoredDiscoveredEntry(DiscoveredResource discovered)
{
    ResourceTreeModel::Entry e = makeDiscoveredEntry(std::move(discovered));
    const DiscoveredResource &d = *e.discovered;
    e.fingerprint =
        qHashMulti(size_t(0x636f6e76), e.id, d.resourceId, d.firstSeenAt.toMSecsSinceEpoch(),
                   QJsonDocument(d.spec).toJson(QJsonDocument::Compact),
                   QJsonDocument(d.details).toJson(QJsonDocument::Compact));
    return e;
}

// A discovered row's tool tip, made when it is asked for.
QString discoveredToolTip(const DiscoveredResource &discovered)
{
    QStringList tip{ResourceTreeModel::tr(
                        "%1 %2 in the backend under %3: no resource of this workspace manages "
                        "it. Claim it to manage it.")
                        .arg(discovered.kind, discovered.name, discovered.owner.toString())};
    if (!discovered.resourceId.isEmpty())
        tip.append(ResourceTreeModel::tr("Backend ID: %1").arg(discovered.resourceId));
    if (discovered.seenAt.isValid())
        tip.append(ResourceTreeModel::tr("Seen: %1").arg(timeText(discovered.seenAt)));
    return tip.join(QLatin1Char('\n'));
}

// Kinds whose names are paths are browsed a folder at a time (BrowseRequest), never shown from
// the store's discovered rows: a container of a million blobs is not read whole.
bool isBrowsedKind(const KindRegistry &kinds, const QString &name)
{
    const Kind *kind = kinds.find(name);
    return kind && !kind->folderDelimiter.isEmpty();
}

// A browsed row's name: its path below the folder it is listed in.
QString relativeName(const QString &name, const QString &prefix)
{
    return name.startsWith(prefix) ? name.mid(prefix.size()) : name;
}

// The kinds that some kind names as its owner: only their rows can have discovered children.
QSet<QString> ownerKinds(const KindRegistry &kinds)
{
    QSet<QString> owners;
    for (const QString &name : kinds.names()) {
        if (const Kind *kind = kinds.find(name); kind && !kind->ownerKind.isEmpty())
            owners.insert(kind->ownerKind);
    }
    return owners;
}

QList<int> changedRoles(const ResourceTreeModel::Entry &a, const ResourceTreeModel::Entry &b)
{
    using M = ResourceTreeModel;
    QList<int> roles;
    // A stored row seen again: its texts and record are made from what the fingerprint holds.
    if (a.isStoredDiscovered() && b.isStoredDiscovered() && a.fingerprint != 0 &&
        a.fingerprint == b.fingerprint) {
        if (a.discovered->seenAt != b.discovered->seenAt)
            roles << M::DiscoveredRole;
        return roles;
    }
    if (a.discovered || b.discovered) {
        if (a.text != b.text)
            roles << Qt::DisplayRole;
        if (a.toolTip != b.toolTip)
            roles << Qt::ToolTipRole;
        if (!a.discovered || !b.discovered) {
            roles << Qt::ToolTipRole << M::DiscoveredRole << M::ResourceRole;
        } else {
            // Seen again and nothing else: a listing of an account that holds a hundred
            // thousand says so of every row, which neither sorting nor filtering looks at.
            const DiscoveredResource &x = *a.discovered;
            const DiscoveredResource &y = *b.discovered;
            const bool same = x.kind == y.kind && x.name == y.name && x.owner == y.owner &&
                              x.resourceId == y.resourceId && x.firstSeenAt == y.firstSeenAt &&
                              x.spec == y.spec && x.details == y.details;
            if (!same)
                roles << Qt::ToolTipRole << M::ResourceRole;
            if (!same || x.seenAt != y.seenAt)
                roles << M::DiscoveredRole;
        }
        return roles;
    }
    if (a.text != b.text)
        roles << Qt::DisplayRole;
    if (a.toolTip != b.toolTip)
        roles << Qt::ToolTipRole;
    if (a.status != b.status)
        roles << Qt::DecorationRole << M::StatusRole;
    const Condition ra = a.resource.status.ready();
    const Condition rb = b.resource.status.ready();
    if (ra.status != rb.status)
        roles << M::ReadyRole;
    if (ra.severity != rb.severity)
        roles << M::SeverityRole;
    if (ra.reason != rb.reason)
        roles << M::ReasonRole;
    if (ra.message != rb.message)
        roles << M::MessageRole;
    if (a.text[M::PolicyColumn] != b.text[M::PolicyColumn])
        roles << M::PolicyRole;
    if (a.resource.metadata.isBeingDeleted() != b.resource.metadata.isBeingDeleted())
        roles << M::DeletingRole;
    if (a.state.lastAttempt != b.state.lastAttempt)
        roles << M::LastReconciledRole;
    if (a.state.nextAttempt != b.state.nextAttempt)
        roles << M::NextAttemptRole;
    if (!roles.isEmpty() || a.resource != b.resource || a.state != b.state)
        roles << M::ResourceRole;
    return roles;
}

} // namespace

ResourceTreeModel::ResourceTreeModel(WorkspaceRunner &runner, const KindRegistry &kinds,
                                     QObject *parent)
    : QAbstractItemModel(parent)
    , m_runner(runner)
    , m_kinds(kinds)
    , m_root(std::make_unique<Node>())
{
    for (const QString &name : kinds.names()) {
        if (const Kind *kind = kinds.find(name); kind && !kind->folderDelimiter.isEmpty())
            m_browsedKinds.insert(kind->ownerKind, name);
    }
}

ResourceTreeModel::~ResourceTreeModel() = default;

void ResourceTreeModel::follow(Controller *controller)
{
    if (!controller)
        return;
    connect(controller, &Controller::resourcesChanged, this, &ResourceTreeModel::reloadKeys);
    // A keyed load of an owner reads its discovered rows.
    connect(controller, &Controller::discoveryChanged, this, &ResourceTreeModel::reloadKeys);
    m_controller = controller;
    connect(controller, &Controller::browsed, this, &ResourceTreeModel::applyPage);
}

ResourceTreeModel::Browse *ResourceTreeModel::browseOf(const Node *node) const
{
    return node ? node->browse.get() : nullptr;
}

void ResourceTreeModel::requestPage(Node *node)
{
    Browse *b = browseOf(node);
    if (!b || !m_controller || b->inFlight)
        return;
    BrowseRequest request;
    request.id = ++m_nextBrowseId;
    request.owner = b->owner;
    request.kind = b->kind;
    request.prefix = b->prefix;
    request.delimiter = b->delimiter;
    request.continuation = b->started ? b->continuation : QString();
    request.pageSize = m_browsePageSize;
    b->started = true;
    b->inFlight = request.id;
    m_browsing.insert(request.id, node);
    m_controller->browse(request);
}

void ResourceTreeModel::retryBrowse(Node *node)
{
    // A page asked for while its owner was not Ready (still being created, unreachable) is
    // asked for again once the owner is: the person expanded it to see what it holds.
    Browse *b = browseOf(node);
    if (!b || b->error.isEmpty() || !node->entry.resource.status.ready().isReady())
        return;
    b->error.clear();
    b->started = false;
    b->continuation.clear();
    requestPage(node);
}

void ResourceTreeModel::applyPage(const BrowsePage &page)
{
    Node *node = m_browsing.take(page.request.id);
    Browse *b = browseOf(node);
    if (!b || b->inFlight != page.request.id)
        return; // relisted or removed meanwhile
    b->inFlight = 0;
    if (!page.error.isEmpty()) {
        b->error = page.error;
        b->continuation.clear();
        qCInfo(lcTree) << "cannot browse" << b->owner.toString() << b->prefix << ":" << page.error;
        Q_EMIT browseFailed(
            tr("Cannot list %1 of %2: %3")
                .arg(b->prefix.isEmpty() ? b->kind : b->prefix, b->owner.toString(), page.error));
        return;
    }
    b->error.clear();
    b->continuation = page.continuation;
    std::vector<std::unique_ptr<Node>> rows;
    rows.reserve(size_t(page.folders.size() + page.items.size()));
    for (const QString &folder : page.folders) {
        auto row = std::make_unique<Node>();
        Entry &e = row->entry;
        e.browsed = true;
        e.folder = folder;
        e.owner = b->owner;
        e.text[NameColumn] = relativeName(folder, b->prefix);
        e.text[KindColumn] = tr("Folder");
        e.toolTip = tr("Folder %1 in %2: the %3s whose names start with it. Expand it to list "
                       "them.")
                        .arg(folder, b->owner.toString(), b->kind);
        row->browse = std::make_unique<Browse>();
        row->browse->owner = b->owner;
        row->browse->kind = b->kind;
        row->browse->delimiter = b->delimiter;
        row->browse->prefix = folder;
        rows.push_back(std::move(row));
    }
    for (const DiscoveredResource &item : page.items) {
        auto row = std::make_unique<Node>();
        row->entry = makeDiscoveredEntry(item);
        row->entry.browsed = true;
        row->entry.text[NameColumn] = relativeName(item.name, b->prefix);
        rows.push_back(std::move(row));
    }
    if (!rows.empty()) {
        const int first = int(node->children.size());
        beginInsertRows(indexFor(node), first, first + int(rows.size()) - 1);
        for (auto &row : rows)
            node->attach(std::move(row));
        endInsertRows();
    }
    Q_EMIT batchApplied();
}

void ResourceTreeModel::relist(const QModelIndex &index)
{
    Node *node = index.isValid() ? nodeAt(index) : nullptr;
    Browse *b = browseOf(node);
    if (!b)
        return;
    const bool wasRead = b->started;
    QSet<Node *> browsedRows;
    for (const auto &child : node->children) {
        if (child->entry.browsed)
            browsedRows.insert(child.get());
    }
    removeNodes(browsedRows);
    if (b->inFlight)
        m_browsing.remove(b->inFlight);
    b->inFlight = 0;
    b->started = false;
    b->continuation.clear();
    b->error.clear();
    if (wasRead)
        requestPage(node);
}

QModelIndex ResourceTreeModel::find(const NameQuery &query) const
{
    const Node *best = nullptr;
    int bestScore = 0;
    for (const Node *node : m_nodes) {
        const Resource &r = node->entry.resource;
        const int score =
            query.score(r.kind, r.metadata.name, Snapshot::backendNameOf(m_kinds.find(r.kind), r),
                        r.metadata.annotations.value(Annotations::resourceId()));
        if (score > bestScore ||
            (score == bestScore && best && score > 0 && node->entry.key() < best->entry.key())) {
            best = node;
            bestScore = score;
        }
    }
    for (const Node *node : m_discovered) {
        const DiscoveredResource &d = *node->entry.discovered;
        // A little below a managed row of the same name: what is managed is shown first.
        const int score = query.score(d.kind, d.name, d.name, d.resourceId) - 1;
        if (score > bestScore) {
            best = node;
            bestScore = score;
        }
    }
    return bestScore > 0 ? indexFor(best) : QModelIndex();
}

QString ResourceTreeModel::folderAt(const QModelIndex &index) const
{
    return index.isValid() ? nodeAt(index)->entry.folder : QString();
}

std::optional<std::pair<ResourceKey, QString>>
ResourceTreeModel::browseScopeAt(const QModelIndex &index) const
{
    const Browse *b = index.isValid() ? browseOf(nodeAt(index)) : nullptr;
    if (!b)
        return std::nullopt;
    return std::make_pair(b->owner, b->prefix);
}

bool ResourceTreeModel::isLoading() const
{
    return m_busy || !m_pendingKeys.isEmpty();
}

void ResourceTreeModel::reload()
{
    ++m_epoch;
    freeLater();
    m_pendingKeys.clear();
    m_fullBrought = 0;
    m_busy = true;
    requestFullPage({}, {}, m_firstPageSize);
}

namespace {

/// How many owners stand above a resource of `kind` (0 for one without an owner kind).
int depthOf(const KindRegistry &kinds, const QString &kind)
{
    int depth = 0;
    for (const Kind *k = kinds.find(kind); k && !k->ownerKind.isEmpty() && depth < 16;
         k = kinds.find(k->ownerKind))
        ++depth;
    return depth;
}

} // namespace

void ResourceTreeModel::requestFullPage(QStringList kindsLeft, QString after, int limit)
{
    const KindRegistry &kinds = m_kinds; // outlives the model and the runner's tasks
    m_runner.run(
        [epoch = m_epoch, &kinds, startKinds = std::move(kindsLeft), startAfter = std::move(after),
         limit](Workspace *ws, const StoreError &openError) {
            QStringList kindsLeft = startKinds;
            QString after = startAfter;
            LoadResult result;
            result.epoch = epoch;
            result.full = true;
            if (!ws) {
                result.error = openError.message;
                return result;
            }
            // A failed read keeps the tree as it is (applyResult) instead of emptying it.
            StoreError readError;
            if (kindsLeft.isEmpty()) {
                // The first page: owners' kinds first, so that every row after finds its
                // owner in the tree and goes in under it.
                result.total = ws->count(&readError);
                kindsLeft = ws->kinds(&readError);
                std::stable_sort(kindsLeft.begin(), kindsLeft.end(),
                                 [&kinds](const QString &a, const QString &b) {
                                     return depthOf(kinds, a) < depthOf(kinds, b);
                                 });
            }
            while (!kindsLeft.isEmpty() && result.found.size() < limit && !readError.isError()) {
                const QString kind = kindsLeft.constFirst();
                const QList<Resource> page =
                    ws->listPage(kind, after, int(limit - result.found.size()), &readError);
                if (page.isEmpty()) {
                    kindsLeft.removeFirst();
                    after.clear();
                    continue;
                }
                const QHash<ResourceKey, ReconcileState> states =
                    ws->reconcileStates(kind, after, page.constLast().metadata.name, &readError);
                for (const Resource &r : page)
                    result.found.append(makeEntry(r, states.value(r.key()), kinds));
                after = page.constLast().metadata.name;
            }
            if (!readError.isError() && kindsLeft.isEmpty()) {
                for (DiscoveredResource &d : ws->discovered({}, &readError)) {
                    if (!isBrowsedKind(kinds, d.kind))
                        result.discovered.append(makeStoredDiscoveredEntry(std::move(d)));
                }
            }
            if (readError.isError()) {
                result.error = readError.message;
                return result;
            }
            result.nextKinds = std::move(kindsLeft);
            result.nextAfter = std::move(after);
            return result;
        },
        this, [this](LoadResult result) { applyResult(std::move(result)); });
}

void ResourceTreeModel::reloadKeys(const QList<ResourceKey> &keys)
{
    for (const ResourceKey &key : keys)
        m_pendingKeys.insert(key);
    if (!m_busy && !m_pendingKeys.isEmpty())
        startKeysLoad();
}

void ResourceTreeModel::startKeysLoad()
{
    Q_ASSERT(!m_busy);
    QList<ResourceKey> keys(m_pendingKeys.cbegin(), m_pendingKeys.cend());
    std::sort(keys.begin(), keys.end());
    m_pendingKeys.clear();
    m_busy = true;
    const KindRegistry &kinds = m_kinds;
    m_runner.run(
        [epoch = m_epoch, keys, &kinds, seenMarks = m_discoveredSeen](Workspace *ws,
                                                                      const StoreError &openError) {
            LoadResult result;
            result.epoch = epoch;
            if (!ws) {
                result.error = openError.message;
                return result;
            }
            // A resource's discovered children, and its owner's (a claimed resource's discovered
            // row goes when the resource comes), are read with it.
            const QSet<QString> owningKinds = ownerKinds(kinds);
            QSet<ResourceKey> owners;
            StoreError readError;
            for (const ResourceKey &key : keys) {
                std::optional<Resource> r = ws->get(key, &readError);
                if (readError.isError()) {
                    // Not "missing": a key whose read failed must not leave the tree.
                    result.error = readError.message;
                    return result;
                }
                if (r) {
                    result.found.append(makeEntry(std::move(*r), ws->reconcileState(key), kinds));
                    if (owningKinds.contains(key.kind))
                        owners.insert(key);
                    if (const std::optional<ResourceKey> &owner = result.found.constLast().owner)
                        owners.insert(*owner);
                } else {
                    result.missing.append(key);
                }
            }
            result.discoveredOwners = QList<ResourceKey>(owners.cbegin(), owners.cend());
            std::sort(result.discoveredOwners.begin(), result.discoveredOwners.end());
            // A listing stores page by page: what the tree has seen of an owner is not read
            // again, only which rows are still there (names: a cheap read of a large account).
            for (const ResourceKey &owner : std::as_const(result.discoveredOwners)) {
                // The store stamps what it merges later than anything stored under the owner
                // before (DiscoveryStore::mergeRows): rows stored since the tree's last read
                // are those stamped at or after the latest it read, whatever kind or listing
                // stored them and whenever their listing started.
                const QDateTime since = seenMarks.value(owner);
                QSet<QString> &present = result.discoveredPresent[owner];
                for (DiscoveredResource &d : ws->discovered(owner, &readError, since)) {
                    if (isBrowsedKind(kinds, d.kind))
                        continue;
                    Entry e = makeStoredDiscoveredEntry(std::move(d));
                    present.insert(e.id);
                    result.discovered.append(std::move(e));
                }
                if (since.isValid()) {
                    for (const DiscoveredName &d : ws->discoveredNames(owner, &readError)) {
                        if (!isBrowsedKind(kinds, d.kind))
                            present.insert(discoveredId(owner, d.kind, d.name));
                    }
                }
                if (readError.isError()) {
                    result.error = readError.message;
                    return result;
                }
            }
            return result;
        },
        this, [this](LoadResult result) { applyResult(std::move(result)); });
}

void ResourceTreeModel::applyResult(LoadResult result)
{
    // What is left of the load is freed on the runner's thread: a page of a large account
    // carries the name of every row still there, tens of thousands of strings.
    const auto freeElsewhere =
        qScopeGuard([this, &result] { m_runner.dispose(std::move(result)); });
    if (result.epoch != m_epoch)
        return; // superseded by a reload() started after it
    // A full load's next page is read while this one goes in; keyed loads wait for its end.
    const bool morePages = result.full && !result.lastPage() && result.error.isEmpty();
    const bool lastFullPage = result.full && !morePages;
    if (morePages)
        requestFullPage(std::move(result.nextKinds), std::move(result.nextAfter), m_pageSize);
    m_busy = morePages;
    if (!m_laterPresent.isEmpty()) // of a load superseded while its slices went in
        m_runner.dispose(std::exchange(m_laterPresent, {}));
    if (!result.error.isEmpty()) {
        m_error = result.error;
        qCWarning(lcTree) << "cannot load the workspace:" << m_error;
        Q_EMIT loadFailed(m_error);
    } else {
        m_error.clear();
        QSet<Node *> removing;
        for (const ResourceKey &key : std::as_const(result.missing)) {
            if (Node *node = m_nodes.value(key))
                removing.insert(node);
        }
        if (result.full) {
            m_fullBrought += result.found.size();
            if (result.total > m_nodes.size())
                m_nodes.reserve(result.total); // grown once, not rehashed page after page
        }
        // Discovered rows of the owners read that the load did not list any more.
        if (lastFullPage) {
            m_discoveredSeen.clear();
            QSet<QString> listed;
            listed.reserve(result.discovered.size());
            for (const Entry &e : std::as_const(result.discovered))
                listed.insert(e.discoveredKey());
            for (Node *node : std::as_const(m_discovered)) {
                if (!listed.contains(node->entry.discoveredKey()))
                    removing.insert(node);
            }
        } else if (!result.full) {
            // Which rows of the owners read went is known once the rows read are in (at the end
            // of the slices): the store holds what the tree shows then, or a row went.
            m_laterPresent = std::move(result.discoveredPresent);
        }
        removeNodes(removing);

        // Updates first (rows stay where they are), new rows after.
        QList<Entry> fresh;
        Changes changes;
        QSet<ResourceKey> freshKeys;
        for (Entry &e : result.found) {
            Node *node = m_nodes.value(e.key());
            if (!node) {
                freshKeys.insert(e.key());
                fresh.append(std::move(e));
                continue;
            }
            QList<int> roles = changedRoles(node->entry, e);
            node->entry = std::move(e);
            if (result.full)
                node->loadedIn = m_epoch;
            if (!roles.isEmpty()) {
                changes.add(node, roles);
                retryBrowse(node);
            }
            Node *place = placeFor(node->entry);
            if (place != node->parent && !isWithin(place, node))
                moveNode(node, place);
        }
        // A discovered row whose owner is new in this load arrives with its owner (the first
        // chunk of them; the rest follow in slices). The others stay where the load put them:
        // a page of a large listing is five thousand rows, and moving them would be a stall.
        if (!freshKeys.isEmpty()) {
            qsizetype withOwners = 0;
            SeenCursor cursor;
            for (Entry &e : result.discovered) {
                if (withOwners == laterChunk)
                    break;
                if (freshKeys.contains(*e.owner) && !m_discovered.contains(e.discoveredKey())) {
                    ++withOwners;
                    markSeen(e, cursor);
                    fresh.append(std::move(e)); // leaves no record: applyLater() passes it by
                }
            }
        }
        insertFresh(std::move(fresh), result.full ? m_epoch : 0);
        adoptOrphans();
        emitChanged(changes);
        if (result.epoch != m_epoch)
            return; // a slot of those signals called reload(): it brings everything
        if (lastFullPage) {
            // What no page brought went. Every row a page brought is in the tree now, so the
            // tree shows more rows than the pages brought only when some went.
            QSet<Node *> gone;
            if (m_nodes.size() != m_fullBrought) {
                for (Node *node : std::as_const(m_nodes)) {
                    if (node->loadedIn != m_epoch)
                        gone.insert(node);
                }
            }
            removeNodes(gone);
        }
        if (morePages) {
            Q_EMIT batchApplied();
            return;
        }
        // The discovered rows go in in slices, each a few milliseconds of this thread, so
        // that the window keeps painting and answering while a hundred thousand arrive or a
        // listing says of each that it was seen again.
        freeLater();
        m_later = std::move(result.discovered);
        if (!m_later.isEmpty()) {
            m_busy = true; // the rest of this load first
            QMetaObject::invokeMethod(
                this, [this, epoch = m_epoch] { applyLater(epoch); }, Qt::QueuedConnection);
            return;
        }
        removeGone();
    }

    if (!m_pendingKeys.isEmpty())
        startKeysLoad();
    Q_EMIT batchApplied();
}

void ResourceTreeModel::Changes::add(Node *node, const QList<int> &nodeRoles)
{
    QList<int> &all = roles[node];
    for (int role : nodeRoles) {
        if (!all.contains(role))
            all.append(role);
    }
}

void ResourceTreeModel::emitChanged(const Changes &changes)
{
    struct Span
    {
        int first = 0;
        int last = 0;
        QList<int> roles;
    };
    QHash<Node *, Span> spans;
    for (auto it = changes.roles.cbegin(); it != changes.roles.cend(); ++it) {
        const Node *node = it.key();
        const auto span = spans.find(node->parent);
        if (span == spans.end()) {
            spans.insert(node->parent, Span{node->row, node->row, it.value()});
            continue;
        }
        span->first = std::min(span->first, node->row);
        span->last = std::max(span->last, node->row);
        for (int role : it.value()) {
            if (!span->roles.contains(role))
                span->roles.append(role);
        }
    }
    for (auto it = spans.cbegin(); it != spans.cend(); ++it) {
        const QModelIndex parent = indexFor(it.key());
        Q_EMIT dataChanged(index(it->first, 0, parent), index(it->last, ColumnCount - 1, parent),
                           it->roles);
    }
}

void ResourceTreeModel::applyLater(quint64 epoch)
{
    if (epoch != m_epoch)
        return; // a reload() started since: it brings everything
    QElapsedTimer elapsed;
    elapsed.start();
    // Rows whose owner is not shown are left out, and so is their stamp.
    do {
        const qsizetype end = std::min(m_later.size(), m_laterNext + laterChunk);
        QList<Entry> fresh;
        Changes changes;
        SeenCursor cursor;
        for (qsizetype i = m_laterNext; i < end; ++i) {
            Entry &e = m_later[i];
            if (!e.discovered)
                continue; // went in with its owner (applyResult)
            Node *node = m_discovered.value(e.discoveredKey());
            if (!node && !m_nodes.contains(*e.owner))
                continue;
            markSeen(e, cursor);
            if (!node) {
                fresh.append(std::move(e));
                continue;
            }
            QList<int> roles = changedRoles(node->entry, e);
            // Seen again and nothing else: only the shared record changes hands, and no view is
            // told, since nothing it shows changed (only the stamp a tool tip and the details
            // read when asked; see batchApplied()). Telling it would cost the sorting proxy a
            // look at each row's neighbours, for every row of a large account at each listing.
            // What the row held before stays in m_later, which is freed on the runner's thread.
            if (roles.isEmpty() || (roles.size() == 1 && roles.constFirst() == DiscoveredRole)) {
                std::swap(node->entry.discovered, e.discovered);
                continue;
            }
            std::swap(node->entry, e);
            changes.add(node, roles);
        }
        m_laterNext = end;
        insertFresh(std::move(fresh));
        adoptOrphans();
        emitChanged(changes);
        if (epoch != m_epoch)
            return; // as in applyResult()
    } while (m_laterNext < m_later.size() && elapsed.elapsed() < m_sliceBudgetMs);

    if (m_laterNext < m_later.size()) {
        QMetaObject::invokeMethod(
            this, [this, epoch] { applyLater(epoch); }, Qt::QueuedConnection);
        return;
    }
    freeLater();
    removeGone();
    m_busy = false;
    if (!m_pendingKeys.isEmpty())
        startKeysLoad();
    Q_EMIT batchApplied();
}

void ResourceTreeModel::freeLater()
{
    // Thousands of entries, each a dozen strings and two JSON objects, like what a load held
    // (applyResult).
    m_laterNext = 0;
    if (!m_later.isEmpty())
        m_runner.dispose(std::exchange(m_later, {}));
}

void ResourceTreeModel::markSeen(const Entry &e, SeenCursor &cursor)
{
    const DiscoveredResource &d = *e.discovered;
    if (!cursor.owner || *cursor.owner != d.owner) {
        cursor.mark = &m_discoveredSeen[d.owner];
        cursor.owner = &d.owner;
    }
    if (!cursor.mark->isValid() || d.seenAt > *cursor.mark)
        *cursor.mark = d.seenAt;
}

void ResourceTreeModel::removeGone()
{
    if (m_laterPresent.isEmpty())
        return;
    QHash<ResourceKey, QSet<QString>> present = std::exchange(m_laterPresent, {});
    QSet<Node *> removing;
    for (auto it = present.cbegin(); it != present.cend(); ++it) {
        const Node *ownerNode = m_nodes.value(it.key());
        if (!ownerNode)
            continue;
        // The common case, page after page of a large listing: the tree shows as many rows as
        // the store holds, all of them read, so none went and none is looked up.
        Q_ASSERT(ownerNode->storedChildren ==
                 std::count_if(ownerNode->children.cbegin(), ownerNode->children.cend(),
                               [](const auto &child) { return Node::storedCount(*child) == 1; }));
        if (ownerNode->storedChildren == it->size())
            continue;
        for (const auto &child : ownerNode->children) {
            if (child->entry.isStoredDiscovered() && !it->contains(child->entry.discoveredKey()))
                removing.insert(child.get());
        }
    }
    removeNodes(removing);
    m_runner.dispose(std::move(present)); // the names of every row of a large account
}

void ResourceTreeModel::removeNodes(const QSet<Node *> &removing)
{
    if (removing.isEmpty())
        return;

    // Managed children that stay lose their owner: they wait at the top level for it to come
    // back. Discovered children go with their owner (the next load of it brings them back).
    QList<Node *> survivors;
    for (Node *node : std::as_const(removing)) {
        for (const auto &child : node->children) {
            if (child->entry.isManaged() && !removing.contains(child.get()))
                survivors.append(child.get());
        }
    }
    for (Node *child : std::as_const(survivors))
        moveNode(child, m_root.get());

    // Only the top-most removed nodes are taken out; their removed descendants go with them.
    QHash<Node *, QList<int>> rowsByParent;
    for (Node *node : std::as_const(removing)) {
        bool covered = false;
        for (Node *up = node->parent; up && !covered; up = up->parent)
            covered = removing.contains(up);
        if (!covered)
            rowsByParent[node->parent].append(node->row);
    }
    for (auto it = rowsByParent.begin(); it != rowsByParent.end(); ++it) {
        Node *parent = it.key();
        QList<int> &rows = it.value();
        std::sort(rows.begin(), rows.end(), std::greater<int>());
        // Contiguous ranges, highest first, so that lower rows keep their numbers meanwhile.
        for (qsizetype i = 0; i < rows.size();) {
            const int last = rows.at(i);
            int first = last;
            ++i;
            while (i < rows.size() && rows.at(i) == first - 1) {
                first = rows.at(i);
                ++i;
            }
            beginRemoveRows(indexFor(parent), first, last);
            for (int row = first; row <= last; ++row) {
                Node *child = parent->children[size_t(row)].get();
                parent->storedChildren -= Node::storedCount(*child);
                unregister(child);
            }
            parent->children.erase(parent->children.begin() + first,
                                   parent->children.begin() + last + 1);
            renumber(parent, first);
            endRemoveRows();
        }
    }
}

void ResourceTreeModel::insertFresh(QList<Entry> fresh, quint64 loadedIn)
{
    if (fresh.isEmpty())
        return;
    std::vector<std::unique_ptr<Node>> nodes;
    nodes.reserve(size_t(fresh.size()));
    QHash<ResourceKey, Node *> freshByKey;
    for (Entry &e : fresh) {
        auto node = std::make_unique<Node>();
        node->entry = std::move(e);
        if (node->entry.isManaged()) {
            node->loadedIn = loadedIn;
            freshByKey.insert(node->entry.key(), node.get());
        }
        nodes.push_back(std::move(node));
    }

    // A new child of a new owner is attached to it before the owner is inserted: the owner's
    // row then arrives with its children, and each existing parent gets one insertion.
    const auto freshOwner = [&](const Node *node) -> Node * {
        const std::optional<ResourceKey> &owner = node->entry.owner;
        if (!owner || m_nodes.contains(*owner))
            return nullptr;
        Node *up = freshByKey.value(*owner);
        // Refuse ownership cycles among new nodes (possible only with odd kind declarations).
        for (const Node *walk = up; walk;) {
            if (walk == node)
                return nullptr;
            const std::optional<ResourceKey> &next = walk->entry.owner;
            walk = next && !m_nodes.contains(*next) ? freshByKey.value(*next) : nullptr;
        }
        return up;
    };
    std::unordered_map<Node *, std::vector<std::unique_ptr<Node>>> byParent;
    QList<Node *> parentOrder;
    for (auto &node : nodes) {
        if (Node *up = freshOwner(node.get())) {
            up->attach(std::move(node));
            continue;
        }
        Node *parent = placeFor(node->entry);
        if (byParent.find(parent) == byParent.end())
            parentOrder.append(parent);
        byParent[parent].push_back(std::move(node));
    }
    for (Node *parent : std::as_const(parentOrder)) {
        std::vector<std::unique_ptr<Node>> &rows = byParent[parent];
        const int first = int(parent->children.size());
        beginInsertRows(indexFor(parent), first, first + int(rows.size()) - 1);
        for (auto &node : rows) {
            registerSubtree(node.get());
            parent->attach(std::move(node));
        }
        endInsertRows();
    }
}

void ResourceTreeModel::adoptOrphans()
{
    QList<Node *> adopt;
    for (const auto &child : m_root->children) {
        if (child->entry.owner && m_nodes.contains(*child->entry.owner))
            adopt.append(child.get());
    }
    for (Node *node : std::as_const(adopt)) {
        Node *owner = m_nodes.value(*node->entry.owner);
        if (owner != node && !isWithin(owner, node))
            moveNode(node, owner);
    }
}

void ResourceTreeModel::moveNode(Node *node, Node *newParent)
{
    Node *oldParent = node->parent;
    Q_ASSERT(oldParent && newParent && oldParent != newParent);
    Q_ASSERT(!isWithin(newParent, node));
    const int row = node->row;
    const int destination = int(newParent->children.size());
    if (!beginMoveRows(indexFor(oldParent), row, row, indexFor(newParent), destination)) {
        qCWarning(lcTree) << "refused to move" << node->entry.key().toString();
        return;
    }
    std::unique_ptr<Node> owned = std::move(oldParent->children[size_t(row)]);
    oldParent->children.erase(oldParent->children.begin() + row);
    oldParent->storedChildren -= Node::storedCount(*owned);
    renumber(oldParent, row);
    newParent->attach(std::move(owned));
    endMoveRows();
}

void ResourceTreeModel::registerSubtree(Node *node)
{
    if (node->entry.isStoredDiscovered())
        m_discovered.insert(node->entry.discoveredKey(), node);
    else if (node->entry.isManaged())
        m_nodes.insert(node->entry.key(), node);
    if (node->entry.isManaged() && !node->browse) {
        const auto browsed = m_browsedKinds.constFind(node->entry.resource.kind);
        if (browsed != m_browsedKinds.cend()) {
            node->browse = std::make_unique<Browse>();
            node->browse->owner = node->entry.key();
            node->browse->kind = *browsed;
            node->browse->delimiter = m_kinds.find(*browsed)->folderDelimiter;
        }
    }
    for (const auto &child : node->children)
        registerSubtree(child.get());
}

void ResourceTreeModel::unregister(Node *node)
{
    if (node->entry.isStoredDiscovered())
        m_discovered.remove(node->entry.discoveredKey());
    else if (node->entry.isManaged()) {
        m_nodes.remove(node->entry.key());
        m_discoveredSeen.remove(node->entry.key()); // its discovered rows go with it
    }
    if (node->browse && node->browse->inFlight)
        m_browsing.remove(node->browse->inFlight); // its page is dropped when it comes
    for (const auto &child : node->children)
        unregister(child.get());
}

ResourceTreeModel::Node *ResourceTreeModel::placeFor(const Entry &entry) const
{
    if (entry.owner) {
        if (Node *owner = m_nodes.value(*entry.owner))
            return owner;
    }
    return m_root.get();
}

bool ResourceTreeModel::isWithin(const Node *node, const Node *ancestor)
{
    for (const Node *walk = node; walk; walk = walk->parent) {
        if (walk == ancestor)
            return true;
    }
    return false;
}

void ResourceTreeModel::renumber(Node *parent, int from)
{
    for (size_t i = size_t(from); i < parent->children.size(); ++i)
        parent->children[i]->row = int(i);
}

ResourceTreeModel::Node *ResourceTreeModel::nodeAt(const QModelIndex &index) const
{
    if (!index.isValid())
        return m_root.get();
    Q_ASSERT(index.model() == this);
    return static_cast<Node *>(index.internalPointer());
}

QModelIndex ResourceTreeModel::indexFor(const Node *node, int column) const
{
    if (!node || node == m_root.get())
        return {};
    return createIndex(node->row, column, const_cast<Node *>(node));
}

QModelIndex ResourceTreeModel::indexOf(const ResourceKey &key, int column) const
{
    return indexFor(m_nodes.value(key), column);
}

QModelIndex ResourceTreeModel::indexOfDiscovered(const ResourceKey &owner, const QString &kind,
                                                 const QString &name, int column) const
{
    return indexFor(m_discovered.value(discoveredId(owner, kind, name)), column);
}

const Resource *ResourceTreeModel::resourceAt(const QModelIndex &index) const
{
    if (!index.isValid() || !nodeAt(index)->entry.isManaged())
        return nullptr;
    return &nodeAt(index)->entry.resource;
}

const ReconcileState *ResourceTreeModel::reconcileStateAt(const QModelIndex &index) const
{
    if (!index.isValid() || !nodeAt(index)->entry.isManaged())
        return nullptr;
    return &nodeAt(index)->entry.state;
}

const DiscoveredResource *ResourceTreeModel::discoveredAt(const QModelIndex &index) const
{
    if (!index.isValid())
        return nullptr;
    return nodeAt(index)->entry.discovered.get();
}

ResourceKey ResourceTreeModel::keyAt(const QModelIndex &index) const
{
    if (!index.isValid())
        return {};
    return nodeAt(index)->entry.key();
}

QModelIndex ResourceTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    const Node *p = nodeAt(parent);
    if (size_t(row) >= p->children.size())
        return {};
    return createIndex(row, column, p->children[size_t(row)].get());
}

QModelIndex ResourceTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    return indexFor(nodeAt(child)->parent);
}

int ResourceTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return int(nodeAt(parent)->children.size());
}

int ResourceTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant ResourceTreeModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const Entry &e = nodeAt(index)->entry;
    if (!e.folder.isEmpty())
        return folderData(e, index.column(), role);
    if (e.discovered)
        return discoveredData(e, index.column(), role);
    switch (role) {
    case Qt::DisplayRole:
        return e.text.at(size_t(index.column()));
    case Qt::DecorationRole:
        if (index.column() == NameColumn)
            return m_kindIcons.kind(e.resource.kind);
        return index.column() == ReadyColumn ? QVariant(m_icons.icon(e.status)) : QVariant();
    case Qt::ToolTipRole:
        return e.toolTip;
    case KeyRole:
        return QVariant::fromValue(e.key());
    case KindRole:
        return e.resource.kind;
    case NameRole:
        return e.resource.metadata.name;
    case ReadyRole:
        return int(e.resource.status.ready().status);
    case SeverityRole:
        return int(e.resource.status.ready().severity);
    case ReasonRole:
        return e.resource.status.ready().reason;
    case MessageRole:
        return e.resource.status.ready().message;
    case StatusRole:
        return int(e.status);
    case PolicyRole:
        return e.text[PolicyColumn];
    case DeletingRole:
        return e.resource.metadata.isBeingDeleted();
    case LastReconciledRole:
        return e.state.lastAttempt;
    case NextAttemptRole:
        return e.state.nextAttempt;
    case ResourceRole:
        return QVariant::fromValue(e.resource);
    case IsDiscoveredRole:
    case IsFolderRole:
        return false;
    default:
        return {};
    }
}

QVariant ResourceTreeModel::folderData(const Entry &e, int column, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        return e.text.at(size_t(column));
    case Qt::DecorationRole:
        return column == NameColumn ? m_kindIcons.folder() : QVariant();
    case Qt::ForegroundRole:
        return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
    case Qt::ToolTipRole:
        return e.toolTip;
    case NameRole:
        return e.folder;
    case IsFolderRole:
        return true;
    case IsDiscoveredRole:
    case DeletingRole:
        return false;
    default:
        return {};
    }
}

QVariant ResourceTreeModel::discoveredData(const Entry &e, int column, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        return e.text.at(size_t(column));
    case Qt::DecorationRole:
        if (column == NameColumn)
            return m_kindIcons.kind(e.discovered->kind);
        return column == ReadyColumn ? QVariant(m_icons.icon(e.status)) : QVariant();
    case Qt::ForegroundRole:
        // Greyed like a disabled item, while staying enabled so that it can be selected.
        return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
    case Qt::ToolTipRole:
        return discoveredToolTip(*e.discovered);
    case KindRole:
        return e.discovered->kind;
    case NameRole:
        return e.discovered->name;
    case ReadyRole:
        return int(Condition::Status::Unknown);
    case SeverityRole:
        return int(Condition::Severity::None);
    case ReasonRole:
    case MessageRole:
    case PolicyRole:
        return QString();
    case StatusRole:
        return int(e.status);
    case DeletingRole:
        return false;
    case LastReconciledRole:
    case NextAttemptRole:
        return QDateTime();
    case DiscoveredRole:
        return QVariant::fromValue(*e.discovered);
    case IsDiscoveredRole:
        return true;
    case IsFolderRole:
        return false;
    default:
        return {};
    }
}

QVariant ResourceTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case KindColumn:
        return tr("Kind");
    case ReadyColumn:
        return tr("Ready");
    case PolicyColumn:
        return tr("Policy");
    case LastReconciledColumn:
        return tr("Last reconciled");
    case NextAttemptColumn:
        return tr("Next attempt");
    default:
        return {};
    }
}

Qt::ItemFlags ResourceTreeModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable;
}

bool ResourceTreeModel::hasChildren(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return false;
    const Node *node = nodeAt(parent);
    if (!node->children.empty())
        return true;
    // Until it is read, a browsable row may hold anything: it shows that it can be expanded.
    const Browse *b = browseOf(node);
    return b && m_controller && b->error.isEmpty() &&
           (!b->started || b->inFlight || !b->continuation.isEmpty());
}

bool ResourceTreeModel::canFetchMore(const QModelIndex &parent) const
{
    if (!parent.isValid() || parent.column() != 0)
        return false;
    const Browse *b = browseOf(nodeAt(parent));
    return b && m_controller && !b->inFlight && b->error.isEmpty() &&
           (!b->started || !b->continuation.isEmpty());
}

void ResourceTreeModel::fetchMore(const QModelIndex &parent)
{
    if (canFetchMore(parent))
        requestPage(nodeAt(parent));
}

QHash<int, QByteArray> ResourceTreeModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractItemModel::roleNames();
    names.insert(KeyRole, "key");
    names.insert(KindRole, "kind");
    names.insert(NameRole, "name");
    names.insert(ReadyRole, "ready");
    names.insert(SeverityRole, "severity");
    names.insert(ReasonRole, "reason");
    names.insert(MessageRole, "message");
    names.insert(StatusRole, "status");
    names.insert(PolicyRole, "policy");
    names.insert(DeletingRole, "deleting");
    names.insert(LastReconciledRole, "lastReconciled");
    names.insert(NextAttemptRole, "nextAttempt");
    names.insert(ResourceRole, "resource");
    names.insert(DiscoveredRole, "discovered");
    names.insert(IsDiscoveredRole, "isDiscovered");
    names.insert(IsFolderRole, "isFolder");
    return names;
}

} // namespace converge

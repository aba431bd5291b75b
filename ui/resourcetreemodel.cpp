// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "resourcetreemodel.h"

#include "treebrowse.h"
#include "treegroups.h"
#include "treeloads.h"
#include "treenode.h"
#include "treerows.h"

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
    connect(controller, &Controller::browsed, this,
            [this](const BrowsePage &page) { TreeBrowse::applyPage(*this, page); });
}

ResourceTreeModel::Browse *ResourceTreeModel::browseOf(const Node *node) const
{
    return node ? node->browse.get() : nullptr;
}

void ResourceTreeModel::relist(const QModelIndex &index)
{
    TreeBrowse::relist(*this, index.isValid() ? nodeAt(index) : nullptr);
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
    m_discovered.forEach([&](const Node *node) {
        const DiscoveredResource &d = *node->entry.discovered;
        // A little below a managed row of the same name: what is managed is shown first.
        const int score = query.score(d.kind, d.name, d.name, d.resourceId) - 1;
        if (score > bestScore) {
            best = node;
            bestScore = score;
        }
    });
    return bestScore > 0 ? indexFor(best) : QModelIndex();
}

void ResourceTreeModel::reveal(const QModelIndex &container, const QString &path,
                               const QString &text)
{
    TreeBrowse::reveal(*this, container.isValid() ? nodeAt(container) : nullptr, path, text);
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

void ResourceTreeModel::requestFullPage(QStringList kindsLeft, QString after, int limit)
{
    const KindRegistry &kinds = m_kinds; // outlives the model and the runner's tasks
    m_runner.run(
        [epoch = m_epoch, &kinds, kindsLeft = std::move(kindsLeft), after = std::move(after),
         limit](Workspace *ws, const StoreError &openError) {
            return TreeLoads::fullPage(ws, openError, kinds, epoch, kindsLeft, after, limit);
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
            return TreeLoads::keys(ws, openError, kinds, epoch, keys, seenMarks);
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
            m_discovered.forEach([&](Node *node) {
                if (!listed.contains(node->entry.discoveredKey()))
                    removing.insert(node);
            });
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
            QList<int> roles = TreeRows::changedRoles(node->entry, e);
            node->entry = std::move(e);
            if (result.full)
                node->loadedIn = m_epoch;
            if (!roles.isEmpty()) {
                changes.add(node, roles);
                TreeBrowse::retry(*this, node);
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
            QList<int> roles = TreeRows::changedRoles(node->entry, e);
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
        const qsizetype stored = TreeGroups::storedChildren(ownerNode);
        if (stored == it->size())
            continue;
        for (Node *child : TreeGroups::owned(ownerNode)) {
            if (child->entry.isStoredDiscovered() && !it->contains(child->entry.discoveredKey()))
                removing.insert(child);
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
        for (Node *child : TreeGroups::owned(node)) {
            if (child->entry.isManaged() && !removing.contains(child))
                survivors.append(child);
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
    // A service's row that held only what went goes too (after every removal above: its
    // owner's rows were numbered before).
    for (auto it = rowsByParent.cbegin(); it != rowsByParent.cend(); ++it)
        TreeGroups::dropIfEmpty(*this, it.key());
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
            TreeGroups::placeUnder(*this, up, node->entry, false)->attach(std::move(node));
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
            moveNode(node, placeFor(node->entry));
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
    TreeGroups::dropIfEmpty(*this, oldParent);
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
    if (m_reveal && m_reveal->at == node)
        m_reveal.reset(); // its listing is gone: nothing to show
    for (const auto &child : node->children)
        unregister(child.get());
}

ResourceTreeModel::Node *ResourceTreeModel::placeFor(const Entry &entry)
{
    if (entry.owner) {
        if (Node *owner = m_nodes.value(*entry.owner))
            return TreeGroups::placeUnder(*this, owner, entry, true);
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
    return indexFor(m_discovered.value(TreeRows::discoveredId(owner, kind, name)), column);
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
    const Entry &entry = nodeAt(index)->entry;
    QVariant value = TreeRows::data(entry, index.column(), role, m_icons, m_kindIcons);
    if (index.column() == NameColumn && !m_edited.isEmpty() && entry.isManaged() &&
        m_edited.contains(entry.key()))
        return TreeRows::edited(std::move(value), role);
    return value;
}

void ResourceTreeModel::setEditedKeys(const QList<ResourceKey> &keys)
{
    const QSet<ResourceKey> edited(keys.cbegin(), keys.cend());
    if (edited == m_edited)
        return;
    const QSet<ResourceKey> changed = (edited - m_edited) + (m_edited - edited);
    m_edited = edited;
    for (const ResourceKey &key : changed) {
        const QModelIndex index = indexOf(key);
        if (index.isValid())
            Q_EMIT dataChanged(index, index, {Qt::DisplayRole, Qt::FontRole, Qt::ToolTipRole});
    }
}

QVariant ResourceTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return TreeRows::header(section);
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
    return TreeBrowse::mayHoldMore(*this, node);
}

bool ResourceTreeModel::canFetchMore(const QModelIndex &parent) const
{
    if (!parent.isValid() || parent.column() != 0)
        return false;
    return TreeBrowse::canAsk(*this, nodeAt(parent));
}

void ResourceTreeModel::fetchMore(const QModelIndex &parent)
{
    if (canFetchMore(parent))
        TreeBrowse::requestPage(*this, nodeAt(parent));
}

QHash<int, QByteArray> ResourceTreeModel::roleNames() const
{
    return TreeRows::roleNames(QAbstractItemModel::roleNames());
}

} // namespace converge

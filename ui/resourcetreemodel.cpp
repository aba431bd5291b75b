// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "resourcetreemodel.h"

#include "controller.h"
#include "kindregistry.h"
#include "workspace.h"
#include "workspacerunner.h"

#include <QLoggingCategory>

#include <algorithm>
#include <array>
#include <optional>
#include <unordered_map>
#include <vector>

namespace converge {

Q_LOGGING_CATEGORY(lcTree, "converge.ui.tree")

struct ResourceTreeModel::Entry
{
    Resource resource;
    ReconcileState state;
    std::optional<ResourceKey> owner; ///< the key spec.owner names, when the kind has an owner
    StatusKind status = StatusKind::Unknown;
    std::array<QString, ColumnCount> text;
    QString toolTip;

    ResourceKey key() const { return resource.key(); }
};

struct ResourceTreeModel::LoadResult
{
    quint64 epoch = 0;
    bool full = false;
    QList<Entry> found;
    QList<ResourceKey> missing; ///< keyed loads: asked for and not in the workspace
    QString error;
};

struct ResourceTreeModel::Node
{
    Entry entry;
    Node *parent = nullptr; // not owning
    std::vector<std::unique_ptr<Node>> children;
    int row = 0; // index in parent->children, kept current
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
        e.text[M::ReadyColumn] = M::tr("Deleting");
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
        next = next.isEmpty() ? state.waitingFor : M::tr("%1 (%2)").arg(next, state.waitingFor);
    e.text[M::NextAttemptColumn] = next;

    QStringList tip{M::tr("%1: %2").arg(resource.key().toString(), StatusIcons::label(e.status))};
    if (!ready.message.isEmpty())
        tip.append(ready.message);
    if (!state.lastError.isEmpty() && state.lastError != ready.message)
        tip.append(M::tr("Last error: %1").arg(state.lastError));
    if (state.attempts > 0)
        tip.append(M::tr("Failed attempts: %1").arg(state.attempts));
    e.toolTip = tip.join(QLatin1Char('\n'));

    e.resource = std::move(resource);
    e.state = std::move(state);
    return e;
}

QList<int> changedRoles(const ResourceTreeModel::Entry &a, const ResourceTreeModel::Entry &b)
{
    using M = ResourceTreeModel;
    QList<int> roles;
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
{}

ResourceTreeModel::~ResourceTreeModel() = default;

void ResourceTreeModel::follow(Controller *controller)
{
    if (controller)
        connect(controller, &Controller::resourcesChanged, this, &ResourceTreeModel::reloadKeys);
}

bool ResourceTreeModel::isLoading() const
{
    return m_busy || !m_pendingKeys.isEmpty();
}

void ResourceTreeModel::reload()
{
    ++m_epoch;
    m_pendingKeys.clear();
    m_busy = true;
    const KindRegistry &kinds = m_kinds; // outlives the model and the runner's tasks
    m_runner.run(
        [epoch = m_epoch, &kinds](Workspace *ws, const StoreError &openError) {
            LoadResult result;
            result.epoch = epoch;
            result.full = true;
            if (!ws) {
                result.error = openError.message;
                return result;
            }
            const QList<Resource> resources = ws->list();
            result.found.reserve(resources.size());
            for (const Resource &r : resources)
                result.found.append(makeEntry(r, ws->reconcileState(r.key()), kinds));
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
        [epoch = m_epoch, keys, &kinds](Workspace *ws, const StoreError &openError) {
            LoadResult result;
            result.epoch = epoch;
            if (!ws) {
                result.error = openError.message;
                return result;
            }
            for (const ResourceKey &key : keys) {
                if (std::optional<Resource> r = ws->get(key))
                    result.found.append(makeEntry(std::move(*r), ws->reconcileState(key), kinds));
                else
                    result.missing.append(key);
            }
            return result;
        },
        this, [this](LoadResult result) { applyResult(std::move(result)); });
}

void ResourceTreeModel::applyResult(LoadResult result)
{
    if (result.epoch != m_epoch)
        return; // superseded by a reload() started after it
    m_busy = false;
    if (!result.error.isEmpty()) {
        m_error = result.error;
        qCWarning(lcTree) << "cannot load the workspace:" << m_error;
        Q_EMIT loadFailed(m_error);
    } else {
        m_error.clear();
        QList<ResourceKey> missing = std::move(result.missing);
        if (result.full) {
            QSet<ResourceKey> present;
            present.reserve(result.found.size());
            for (const Entry &e : std::as_const(result.found))
                present.insert(e.key());
            for (auto it = m_nodes.cbegin(); it != m_nodes.cend(); ++it) {
                if (!present.contains(it.key()))
                    missing.append(it.key());
            }
        }
        removeMissing(missing);

        // Updates first (rows stay where they are), new rows after.
        QList<Entry> fresh;
        QList<Node *> changed;
        QHash<Node *, QList<int>> rolesByNode;
        for (Entry &e : result.found) {
            Node *node = m_nodes.value(e.key());
            if (!node) {
                fresh.append(std::move(e));
                continue;
            }
            QList<int> roles = changedRoles(node->entry, e);
            node->entry = std::move(e);
            if (!roles.isEmpty()) {
                changed.append(node);
                rolesByNode.insert(node, roles);
            }
            Node *place = placeFor(node->entry);
            if (place != node->parent && !isWithin(place, node))
                moveNode(node, place);
        }
        insertFresh(std::move(fresh));
        adoptOrphans();

        // One dataChanged per parent, spanning the changed rows, with the union of roles.
        struct Span
        {
            int first = 0;
            int last = 0;
            QList<int> roles;
        };
        QHash<Node *, Span> spans;
        for (Node *node : std::as_const(changed)) {
            auto it = spans.find(node->parent);
            if (it == spans.end()) {
                spans.insert(node->parent, Span{node->row, node->row, rolesByNode.value(node)});
                continue;
            }
            it->first = std::min(it->first, node->row);
            it->last = std::max(it->last, node->row);
            for (int role : rolesByNode.value(node)) {
                if (!it->roles.contains(role))
                    it->roles.append(role);
            }
        }
        for (auto it = spans.cbegin(); it != spans.cend(); ++it) {
            const QModelIndex parent = indexFor(it.key());
            Q_EMIT dataChanged(index(it->first, 0, parent),
                               index(it->last, ColumnCount - 1, parent), it->roles);
        }
    }

    if (!m_pendingKeys.isEmpty())
        startKeysLoad();
    Q_EMIT batchApplied();
}

void ResourceTreeModel::removeMissing(const QList<ResourceKey> &missing)
{
    QSet<Node *> removing;
    for (const ResourceKey &key : missing) {
        if (Node *node = m_nodes.value(key))
            removing.insert(node);
    }
    if (removing.isEmpty())
        return;

    // Children that stay lose their owner: they wait at the top level for it to come back.
    QList<Node *> survivors;
    for (Node *node : std::as_const(removing)) {
        for (const auto &child : node->children) {
            if (!removing.contains(child.get()))
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
            for (int row = first; row <= last; ++row)
                unregister(parent->children[size_t(row)].get());
            parent->children.erase(parent->children.begin() + first,
                                   parent->children.begin() + last + 1);
            renumber(parent, first);
            endRemoveRows();
        }
    }
}

void ResourceTreeModel::insertFresh(QList<Entry> fresh)
{
    if (fresh.isEmpty())
        return;
    std::vector<std::unique_ptr<Node>> nodes;
    nodes.reserve(size_t(fresh.size()));
    QHash<ResourceKey, Node *> freshByKey;
    for (Entry &e : fresh) {
        auto node = std::make_unique<Node>();
        node->entry = std::move(e);
        freshByKey.insert(node->entry.key(), node.get());
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
            node->parent = up;
            node->row = int(up->children.size());
            up->children.push_back(std::move(node));
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
            node->parent = parent;
            node->row = int(parent->children.size());
            registerSubtree(node.get());
            parent->children.push_back(std::move(node));
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
    renumber(oldParent, row);
    owned->parent = newParent;
    owned->row = destination;
    newParent->children.push_back(std::move(owned));
    endMoveRows();
}

void ResourceTreeModel::registerSubtree(Node *node)
{
    m_nodes.insert(node->entry.key(), node);
    for (const auto &child : node->children)
        registerSubtree(child.get());
}

void ResourceTreeModel::unregister(Node *node)
{
    m_nodes.remove(node->entry.key());
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

const Resource *ResourceTreeModel::resourceAt(const QModelIndex &index) const
{
    if (!index.isValid())
        return nullptr;
    return &nodeAt(index)->entry.resource;
}

const ReconcileState *ResourceTreeModel::reconcileStateAt(const QModelIndex &index) const
{
    if (!index.isValid())
        return nullptr;
    return &nodeAt(index)->entry.state;
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
    switch (role) {
    case Qt::DisplayRole:
        return e.text.at(size_t(index.column()));
    case Qt::DecorationRole:
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
    return names;
}

} // namespace converge

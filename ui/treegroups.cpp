// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "treegroups.h"

#include "kindregistry.h"
#include "treenode.h"

namespace converge {

using Node = TreeGroups::Node;

Node *TreeGroups::placeUnder(ResourceTreeModel &m, Node *owner, const Entry &entry, bool tell)
{
    const QString kindName = entry.discovered ? entry.discovered->kind : entry.resource.kind;
    const Kind *kind = m.m_kinds.find(kindName);
    if (!owner || owner == m.m_root.get() || !kind || kind->service.isEmpty() || entry.isGroup())
        return owner;
    // Services group an account's rows only: an object stays straight under its bucket.
    const Kind *ownerKind = m.m_kinds.find(kind->ownerKind);
    if (!ownerKind || !ownerKind->ownerKind.isEmpty())
        return owner;
    for (const auto &child : owner->children) {
        if (child->entry.group == kind->service)
            return child.get();
    }
    auto group = std::make_unique<Node>();
    group->entry = TreeRows::group(kind->service, kindName, owner->entry.key());
    Node *made = group.get();
    if (!tell) {
        owner->attach(std::move(group));
        return made;
    }
    const int row = int(owner->children.size());
    m.beginInsertRows(m.indexFor(owner), row, row);
    owner->attach(std::move(group));
    m.endInsertRows();
    return made;
}

void TreeGroups::dropIfEmpty(ResourceTreeModel &m, Node *node)
{
    if (!node || !node->entry.isGroup() || !node->children.empty() || !node->parent)
        return;
    Node *parent = node->parent;
    const int row = node->row;
    m.beginRemoveRows(m.indexFor(parent), row, row);
    parent->children.erase(parent->children.begin() + row);
    ResourceTreeModel::renumber(parent, row);
    m.endRemoveRows();
}

std::vector<Node *> TreeGroups::owned(const Node *owner)
{
    std::vector<Node *> rows;
    rows.reserve(owner->children.size());
    for (const auto &child : owner->children) {
        if (!child->entry.isGroup()) {
            rows.push_back(child.get());
            continue;
        }
        for (const auto &grandChild : child->children)
            rows.push_back(grandChild.get());
    }
    return rows;
}

qsizetype TreeGroups::storedChildren(const Node *owner)
{
    qsizetype stored = owner->storedChildren;
    for (const auto &child : owner->children) {
        if (child->entry.isGroup())
            stored += child->storedChildren;
    }
    return stored;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

// The resource tree's nodes: the model's private structure, apart so that its file holds what
// the model does with them.

#include "treerows.h"

#include <memory>
#include <vector>

namespace converge {

/// What a row that can be browsed (an owner of a folder kind, managed or not, a folder) has
/// asked for.
struct ResourceTreeModel::Browse
{
    ResourceKey owner; ///< the workspace resource listed under
    /// Under an owner nothing manages (BrowseRequest::within): that row's discovered resource.
    DiscoveredResource within;
    QString kind;
    QString delimiter;
    QString prefix;
    QString continuation; ///< of the last page; empty before the first and after the last
    bool started = false; ///< the first page was asked for
    quint64 inFlight = 0; ///< the request id of the page on its way, or 0
    qsizetype listed = 0; ///< folders and items the pages so far brought
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

} // namespace converge

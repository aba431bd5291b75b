// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcetreemodel.h"

namespace converge {

struct BrowsePage;

/// The explorer's side of the resource tree: a container or folder read a page at a time
/// through the controller (BrowseRequest), as a person expands it and scrolls, and read again on
/// Refresh. Browsed rows are never stored. Works on the model's nodes (a friend of it).
class TreeBrowse final
{
public:
    using Node = ResourceTreeModel::Node;
    using Browse = ResourceTreeModel::Browse;

    /// Whether `node` may have browsed rows not read yet (the tree shows it can be expanded).
    static bool mayHoldMore(const ResourceTreeModel &m, const Node *node);
    /// Whether a page of `node` can be asked for now.
    static bool canAsk(const ResourceTreeModel &m, const Node *node);
    /// Asks for the next page of `node`'s listing, unless one is on its way. An unmanaged
    /// owner of a browsed kind (a container nothing manages) gets its browse state first.
    static void requestPage(ResourceTreeModel &m, Node *node);
    /// A listing refused while its owner was not Ready is asked for again once it is.
    static void retry(ResourceTreeModel &m, Node *node);
    /// Puts a page's folders and items under the row that asked for it.
    static void applyPage(ResourceTreeModel &m, const BrowsePage &page);
    /// Drops `node`'s browsed rows and, when it had been read, reads it again from the start.
    static void relist(ResourceTreeModel &m, Node *node);
    /// ResourceTreeModel::reveal(): starts at `node` (a container's row).
    static void reveal(ResourceTreeModel &m, Node *node, const QString &path, const QString &text);

private:
    /// Takes the reveal on a step once `node`'s listing has grown: to the row of its path, a
    /// folder on the way, the next page, or its end.
    static void followReveal(ResourceTreeModel &m, Node *node);
    /// An unmanaged owner of a browsed kind whose browse state is not made yet: it is made when
    /// a person first expands it, since an account can list a hundred thousand containers.
    static bool isUnopenedUnmanaged(const ResourceTreeModel &m, const Node *node);
};

} // namespace converge

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

    /// Asks for the next page of `node`'s listing, unless one is on its way.
    static void requestPage(ResourceTreeModel &m, Node *node);
    /// A listing refused while its owner was not Ready is asked for again once it is.
    static void retry(ResourceTreeModel &m, Node *node);
    /// Puts a page's folders and items under the row that asked for it.
    static void applyPage(ResourceTreeModel &m, const BrowsePage &page);
    /// Drops `node`'s browsed rows and, when it had been read, reads it again from the start.
    static void relist(ResourceTreeModel &m, Node *node);
};

} // namespace converge

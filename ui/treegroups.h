// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcetreemodel.h"

namespace converge {

/// An account's rows grouped by service (Kind::service: SQS, SNS, DynamoDB, …), as cloud
/// consoles group them: a service's row between the owner and the rows of that service's kinds,
/// made when the first of them comes and removed when the last goes. Kinds without a service
/// (Azure's, whose icons say enough) stay straight under their owner. Works on the model's nodes
/// (a friend of it).
class TreeGroups final
{
public:
    using Node = ResourceTreeModel::Node;
    using Entry = ResourceTreeModel::Entry;

    /// Where a row of `entry` goes under `owner`: the row of its kind's service, made first
    /// (and told to the views when `tell`: not for an owner still on its way in), or `owner`
    /// itself.
    static Node *placeUnder(ResourceTreeModel &m, Node *owner, const Entry &entry, bool tell);
    /// Removes `node` when it is a service's row that holds nothing any more.
    static void dropIfEmpty(ResourceTreeModel &m, Node *node);
    /// The owner's children and, in place of its services' rows, theirs.
    static std::vector<Node *> owned(const Node *owner);
    /// How many discovered rows read from the store the owner holds, through its services' rows.
    static qsizetype storedChildren(const Node *owner);
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "apicaller.h"
#include "kinddeclaration.h"
#include "manager.h"

#include <QJsonObject>

#include <functional>

namespace converge {

/// The walks of a declared kind's reads and lists that are more than one call: a read that is a
/// list filtered by the name, a kind listed parent by parent (`listWithin`: a Spanner instance's
/// databases), and a read's doubt settled by the list (`absentConfirmedByList`: the Spanner
/// emulator answers 500 for a missing database).
class DeclaredListings final
{
public:
    using Send =
        std::function<Outcome<ApiCaller::Reply>(const DeclaredCall &, const QJsonObject &)>;
    /// One page of the kind's own list for the scope's continuation, with `extra` members added
    /// to its input (the parent's).
    using ListOne = std::function<Outcome<ListPage>(const ListScope &, const QJsonObject &extra)>;

    /// A page of `declaration`'s list across every parent `listWithin` lists, parent after
    /// parent. The continuation is the parent being listed, a line break and its own page's
    /// token; each parent's ID (its last segment) goes in `listWithinMember`.
    static Outcome<ListPage> within(const KindDeclaration &declaration, const ListScope &scope,
                                    const Send &send, const ListOne &listOne);

    /// The resource called `name` that `declaration`'s read answers with `request` (a list
    /// filtered by the name where the API has no single get: page after page up to `maxPages`,
    /// the item whose `match` member is the name). NotFound when it answers none, or, for a
    /// kind whose absence is confirmed by its list, when the read fails as a server does and
    /// the list (with `listInput`) does not hold it.
    static Outcome<ApiCaller::Reply> read(const KindDeclaration &declaration, QJsonObject request,
                                          const QJsonObject &listInput, const QString &name,
                                          const Send &send, int maxPages, QJsonObject *resource);
    /// Whether `declaration`'s list, with `input`, holds a resource called `name` (by its ID
    /// member's last segment), page after page up to `maxPages`.
    static Outcome<bool> holds(const KindDeclaration &declaration, QJsonObject input,
                               const QString &name, const Send &send, int maxPages);
};

} // namespace converge

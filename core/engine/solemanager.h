// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcekey.h"

#include <QList>
#include <QString>

namespace converge {

class KindRegistry;
class Workspace;

/// One backend resource, one manager: whether a workspace resource may manage a backend ID,
/// and how a refusal names the resource that manages it already and its account. The store
/// enforces the rule (Workspace::managerOf, a unique index); this is what the engine, Claim and
/// the command line ask before they get that far, so that the refusal says who and where.
class SoleManager final
{
public:
    /// The account at the top of `key`'s owner chain (the resource itself when it has none).
    static ResourceKey accountOf(const Workspace &workspace, const KindRegistry &kinds,
                                 const ResourceKey &key);
    /// "DynamoDBTable/orders (account local-aws)".
    static QString describe(const Workspace &workspace, const KindRegistry &kinds,
                            const ResourceKey &manager);
    /// Empty when `self` may manage the backend resource `backendId`: nobody does, or `self`
    /// does. Otherwise why not, naming the manager.
    static QString refusal(const Workspace &workspace, const KindRegistry &kinds,
                           const ResourceKey &self, const QString &backendId);
    /// What `self` says when it finds `backendId` held by another: refusal() and what to do
    /// about it; empty when it may manage it.
    static QString secondManagerRefusal(const Workspace &workspace, const KindRegistry &kinds,
                                        const ResourceKey &self, const QString &backendId);
    /// Why `self` may not delete `backendId` (other resources record it too, and would lose
    /// it), and how to detach; empty when nobody else records it.
    static QString sharedDeleteRefusal(const Workspace &workspace, const KindRegistry &kinds,
                                       const ResourceKey &self, const QString &backendId);
    /// The resources other than `self` that record `backendId` (a manager, or duplicates of a
    /// workspace written before the rule was enforced).
    static QList<ResourceKey> others(const Workspace &workspace, const ResourceKey &self,
                                     const QString &backendId);
};

} // namespace converge

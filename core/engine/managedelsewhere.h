// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resource.h"
#include "workspacetypes.h"

#include <QHash>
#include <QList>
#include <QString>

#include <optional>

namespace converge {

class KindRegistry;
class Manager;
class Workspace;

/// Names, on what a listing under one owner found unmanaged, the resource of the workspace
/// that manages it through another owner: two accounts on one endpoint list the same table, and
/// the second must show it as the first's, not offer a second manager (SoleManager). An item
/// that carries its backend ID is looked up by it; one whose listing names it only (DynamoDB's
/// ListTables) and whose backend name a resource of its kind under another owner has is read
/// once with a get to learn its ID (kept with the row, so a later listing asks again only for
/// what it has not learned), so that two accounts with a table each of the same name stay
/// apart.
class ManagedElsewhere final
{
public:
    /// For a listing of `kind` under `owner` (whose chain, the account first, is `owners`); the
    /// references are not owned and outlive this object.
    ManagedElsewhere(const Workspace &workspace, const KindRegistry &kinds, const QString &kind,
                     const QList<Resource> &owners);

    /// Sets DiscoveredResource::managedBy (and its account) on those of `items` some resource
    /// under another owner manages, reading with `manager` what it must. Returns how many gets
    /// it sent.
    int mark(QList<DiscoveredResource> &items, Manager &manager);

private:
    /// Backend names of the kind's resources under other owners (read once, when needed).
    const QHash<QString, ResourceKey> &namesElsewhere();
    /// The IDs an earlier listing under this owner learned, by backend name (read once).
    const QHash<QString, QString> &learnedIds();

    const Workspace &m_workspace;
    const KindRegistry &m_kinds;
    QString m_kind;
    QList<Resource> m_owners;
    std::optional<QHash<QString, ResourceKey>> m_namesElsewhere;
    std::optional<QHash<QString, QString>> m_learnedIds;
};

} // namespace converge

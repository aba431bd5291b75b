// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "solemanager.h"

#include "kindregistry.h"
#include "workspace.h"

namespace converge {

ResourceKey SoleManager::accountOf(const Workspace &workspace, const KindRegistry &kinds,
                                   const ResourceKey &key)
{
    ResourceKey at = key;
    for (int depth = 0; depth < 8; ++depth) {
        const Kind *kind = kinds.find(at.kind);
        if (!kind || kind->ownerKind.isEmpty())
            return at;
        const std::optional<Resource> r = workspace.get(at);
        if (!r || r->ownerName().isEmpty())
            return at;
        at = ResourceKey{kind->ownerKind, r->ownerName()};
    }
    return at;
}

QString SoleManager::describe(const Workspace &workspace, const KindRegistry &kinds,
                              const ResourceKey &manager)
{
    const ResourceKey account = accountOf(workspace, kinds, manager);
    if (account == manager)
        return manager.toString();
    return QStringLiteral("%1 (account %2)").arg(manager.toString(), account.name);
}

QString SoleManager::refusal(const Workspace &workspace, const KindRegistry &kinds,
                             const ResourceKey &self, const QString &backendId)
{
    if (backendId.isEmpty())
        return {};
    const std::optional<ResourceKey> manager = workspace.managerOf(backendId);
    if (!manager || *manager == self)
        return {};
    return QStringLiteral("%1 is managed by %2 already: a backend resource has one manager in a "
                          "workspace")
        .arg(backendId, describe(workspace, kinds, *manager));
}

QList<ResourceKey> SoleManager::others(const Workspace &workspace, const ResourceKey &self,
                                       const QString &backendId)
{
    QList<ResourceKey> result = workspace.recordersOf(backendId);
    result.removeAll(self);
    return result;
}

} // namespace converge

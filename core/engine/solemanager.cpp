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

QString SoleManager::secondManagerRefusal(const Workspace &workspace, const KindRegistry &kinds,
                                          const ResourceKey &self, const QString &backendId)
{
    const QString why = refusal(workspace, kinds, self, backendId);
    if (why.isEmpty())
        return {};
    return QStringLiteral("%1; %2 writes nothing to it. Delete %2 with the policy "
                          "detach-on-delete (the backend resource stays), or detach the other one")
        .arg(why, self.toString());
}

QString SoleManager::sharedDeleteRefusal(const Workspace &workspace, const KindRegistry &kinds,
                                         const ResourceKey &self, const QString &backendId)
{
    const QList<ResourceKey> recorders = others(workspace, self, backendId);
    if (recorders.isEmpty())
        return {};
    QStringList names;
    for (const ResourceKey &key : recorders)
        names.append(describe(workspace, kinds, key));
    return QStringLiteral("%1 is not deleted in the backend: %2 records it too, and would lose "
                          "it. Set converge.dev/reconcile-policy: detach-on-delete on %3 (it "
                          "leaves the workspace, the backend resource stays), or on the others "
                          "first")
        .arg(backendId, names.join(QStringLiteral(", ")), self.toString());
}

QList<ResourceKey> SoleManager::others(const Workspace &workspace, const ResourceKey &self,
                                       const QString &backendId)
{
    QList<ResourceKey> result = workspace.recordersOf(backendId);
    result.removeAll(self);
    return result;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "managedelsewhere.h"

#include "backendid.h"
#include "discoveredclaim.h"
#include "kindregistry.h"
#include "manager.h"
#include "snapshot.h"
#include "solemanager.h"
#include "workspace.h"

namespace converge {

ManagedElsewhere::ManagedElsewhere(const Workspace &workspace, const KindRegistry &kinds,
                                   const QString &kind, const QList<Resource> &owners)
    : m_workspace(workspace)
    , m_kinds(kinds)
    , m_kind(kind)
    , m_owners(owners)
{}

const QHash<QString, ResourceKey> &ManagedElsewhere::namesElsewhere()
{
    if (!m_namesElsewhere) {
        QHash<QString, ResourceKey> names;
        const Kind *kind = m_kinds.find(m_kind);
        const QString owner = m_owners.isEmpty() ? QString() : m_owners.last().metadata.name;
        for (const Resource &r : m_workspace.list(m_kind)) {
            if (r.ownerName() != owner && r.spec.contains(QLatin1String("owner")))
                names.insert(Snapshot::backendNameOf(kind, r), r.key());
        }
        m_namesElsewhere = std::move(names);
    }
    return *m_namesElsewhere;
}

const QHash<QString, QString> &ManagedElsewhere::learnedIds()
{
    if (!m_learnedIds) {
        QHash<QString, QString> ids;
        for (const DiscoveredResource &d : m_workspace.discovered(m_owners.last().key())) {
            if (d.kind == m_kind && !d.resourceId.isEmpty())
                ids.insert(d.name, d.resourceId);
        }
        m_learnedIds = std::move(ids);
    }
    return *m_learnedIds;
}

int ManagedElsewhere::mark(QList<DiscoveredResource> &items, Manager &manager)
{
    if (m_owners.isEmpty())
        return 0;
    int gets = 0;
    QStringList ids;
    for (DiscoveredResource &item : items) {
        if (item.resourceId.isEmpty() && !item.name.isEmpty() &&
            namesElsewhere().contains(item.name)) {
            item.resourceId = learnedIds().value(item.name);
        }
        if (item.resourceId.isEmpty() && !item.name.isEmpty() &&
            namesElsewhere().contains(item.name)) {
            const Resource probe = DiscoveredClaim::probe(item, m_owners.last());
            ++gets;
            if (const Outcome<Observation> seen = manager.get(Target{probe, m_owners}); seen)
                item.resourceId = seen.value().resourceId;
        }
        if (!item.resourceId.isEmpty())
            ids.append(BackendId::normalized(item.resourceId));
    }
    if (ids.isEmpty())
        return gets;
    const QString owner = m_owners.last().metadata.name;
    const QHash<QString, BackendIdIndex::Holder> holders = m_workspace.managersOf(ids);
    for (DiscoveredResource &item : items) {
        const auto holder = holders.constFind(BackendId::normalized(item.resourceId));
        if (item.resourceId.isEmpty() || holder == holders.cend())
            continue;
        if (holder->key.kind == m_kind && holder->ownerName == owner)
            continue; // this owner's own: the listing left it out already, or will
        item.managedBy = holder->key;
        item.managedByAccount = SoleManager::accountOf(m_workspace, m_kinds, holder->key);
    }
    return gets;
}

} // namespace converge

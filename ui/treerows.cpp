// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "treerows.h"

#include "kindregistry.h"
#include "localtime.h"
#include "statusicons.h"
#include "themedicons.h"

#include <QFont>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QPalette>

namespace converge {

using Entry = ResourceTreeModel::Entry;
using M = ResourceTreeModel;

QString TreeRows::discoveredId(const ResourceKey &owner, const QString &kind, const QString &name)
{
    const QChar separator(u'\n'); // in no kind or resource name
    return owner.kind + separator + owner.name + separator + kind + separator + name;
}

Entry TreeRows::managed(Resource resource, ReconcileState state, const KindRegistry &kinds)
{
    M::Entry e;
    const Kind *kind = kinds.find(resource.kind);
    if (kind && !kind->ownerKind.isEmpty() && !resource.ownerName().isEmpty())
        e.owner = ResourceKey{kind->ownerKind, resource.ownerName()};
    e.status = StatusIcons::kindOf(resource);
    const Condition ready = resource.status.ready();

    e.text[M::NameColumn] = resource.metadata.name;
    e.text[M::KindColumn] = resource.kind;
    if (resource.metadata.isBeingDeleted())
        e.text[M::ReadyColumn] = ResourceTreeModel::tr("Deleting");
    else if (!ready.reason.isEmpty())
        e.text[M::ReadyColumn] = ready.reason;
    else
        e.text[M::ReadyColumn] = Condition::statusName(ready.status);
    e.text[M::PolicyColumn] = resource.metadata.annotations.value(
        Annotations::reconcilePolicy(),
        Annotations::policyName(Annotations::ReconcilePolicy::Manage));
    e.text[M::LastReconciledColumn] = localTimeText(state.lastAttempt);
    QString next = localTimeText(state.nextAttempt);
    if (!state.waitingFor.isEmpty())
        next = next.isEmpty() ? state.waitingFor
                              : ResourceTreeModel::tr("%1 (%2)").arg(next, state.waitingFor);
    e.text[M::NextAttemptColumn] = next;

    QStringList tip{ResourceTreeModel::tr("%1: %2").arg(resource.key().toString(),
                                                        StatusIcons::label(e.status))};
    if (!ready.message.isEmpty())
        tip.append(ready.message);
    if (!state.lastError.isEmpty() && state.lastError != ready.message)
        tip.append(ResourceTreeModel::tr("Last error: %1").arg(state.lastError));
    if (state.attempts > 0)
        tip.append(ResourceTreeModel::tr("Failed attempts: %1").arg(state.attempts));
    e.toolTip = tip.join(QLatin1Char('\n'));

    e.resource = std::move(resource);
    e.state = std::move(state);
    return e;
}

Entry TreeRows::discovered(DiscoveredResource discovered)
{
    M::Entry e;
    e.owner = discovered.owner;
    e.status = StatusKind::Unmanaged;
    e.text[M::NameColumn] = discovered.name;
    e.text[M::KindColumn] = discovered.kind;
    // What a resource of the workspace manages through another account is that one's: the row
    // says whose, and offers no Claim (DiscoveredClaim::refusal).
    // The column is narrow: who manages it is in the tool tip and the details' Claim note.
    e.text[M::ReadyColumn] = discovered.isManagedElsewhere() ? ResourceTreeModel::tr("Managed")
                                                             : ResourceTreeModel::tr("Unmanaged");
    // No tool tip kept: an account can list a hundred thousand of these (toolTip).
    e.id = discoveredId(discovered.owner, discovered.kind, discovered.name);
    e.discovered = std::make_shared<const DiscoveredResource>(std::move(discovered));
    return e;
}

Entry TreeRows::storedDiscovered(DiscoveredResource row)
{
    Entry e = discovered(std::move(row));
    const DiscoveredResource &d = *e.discovered;
    e.fingerprint = qHashMulti(size_t(0x636f6e76), e.id, d.resourceId, d.managedBy.toString(),
                               d.firstSeenAt.toMSecsSinceEpoch(),
                               QJsonDocument(d.spec).toJson(QJsonDocument::Compact),
                               QJsonDocument(d.details).toJson(QJsonDocument::Compact));
    return e;
}

Entry TreeRows::group(const QString &service, const QString &kind, const ResourceKey &owner)
{
    M::Entry e;
    e.group = service;
    e.owner = owner;
    e.resource.kind = kind; // for its icon: the service's first kind shown
    e.text[M::NameColumn] = service;
    e.text[M::KindColumn] = ResourceTreeModel::tr("Service");
    e.toolTip = ResourceTreeModel::tr("%1 resources of %2").arg(service, owner.name);
    return e;
}

Entry TreeRows::folder(const QString &folder, const ResourceKey &owner, const QString &prefix,
                       const QString &kind)
{
    Entry e;
    e.browsed = true;
    e.folder = folder;
    e.owner = owner;
    e.text[M::NameColumn] = relativeName(folder, prefix);
    e.text[M::KindColumn] = ResourceTreeModel::tr("Folder");
    e.toolTip = ResourceTreeModel::tr(
                    "Folder %1 in %2: the %3s whose names start with it. Expand it to list them.")
                    .arg(folder, owner.toString(), kind);
    return e;
}

QString TreeRows::toolTip(const DiscoveredResource &discovered)
{
    if (discovered.isManagedElsewhere())
        return ResourceTreeModel::tr("%1 %2 in the backend under %3 is managed by %4 (account "
                                     "%5), which reaches the same backend: a backend resource "
                                     "has one manager in a workspace.")
            .arg(discovered.kind, discovered.name, discovered.owner.toString(),
                 discovered.managedBy.toString(), discovered.managedByAccount.name);
    QStringList tip{ResourceTreeModel::tr(
                        "%1 %2 in the backend under %3: no resource of this workspace manages "
                        "it. Claim it to manage it.")
                        .arg(discovered.kind, discovered.name, discovered.owner.toString())};
    if (!discovered.resourceId.isEmpty())
        tip.append(ResourceTreeModel::tr("Backend ID: %1").arg(discovered.resourceId));
    if (discovered.seenAt.isValid())
        tip.append(ResourceTreeModel::tr("Seen: %1").arg(localTimeText(discovered.seenAt)));
    return tip.join(QLatin1Char('\n'));
}

bool TreeRows::isBrowsedKind(const KindRegistry &kinds, const QString &name)
{
    const Kind *kind = kinds.find(name);
    return kind && !kind->folderDelimiter.isEmpty();
}

QString TreeRows::relativeName(const QString &name, const QString &prefix)
{
    return name.startsWith(prefix) ? name.mid(prefix.size()) : name;
}

QSet<QString> TreeRows::ownerKinds(const KindRegistry &kinds)
{
    QSet<QString> owners;
    for (const QString &name : kinds.names()) {
        if (const Kind *kind = kinds.find(name); kind && !kind->ownerKind.isEmpty())
            owners.insert(kind->ownerKind);
    }
    return owners;
}

QList<int> TreeRows::changedRoles(const Entry &a, const Entry &b)
{
    QList<int> roles;
    // A stored row seen again: its texts and record are made from what the fingerprint holds.
    if (a.isStoredDiscovered() && b.isStoredDiscovered() && a.fingerprint != 0 &&
        a.fingerprint == b.fingerprint) {
        if (a.discovered->seenAt != b.discovered->seenAt)
            roles << M::DiscoveredRole;
        return roles;
    }
    if (a.discovered || b.discovered) {
        if (a.text != b.text)
            roles << Qt::DisplayRole;
        if (a.toolTip != b.toolTip)
            roles << Qt::ToolTipRole;
        if (!a.discovered || !b.discovered) {
            roles << Qt::ToolTipRole << M::DiscoveredRole << M::ResourceRole;
        } else {
            // Seen again and nothing else: a listing of an account that holds a hundred
            // thousand says so of every row, which neither sorting nor filtering looks at.
            const DiscoveredResource &x = *a.discovered;
            const DiscoveredResource &y = *b.discovered;
            const bool same = x.kind == y.kind && x.name == y.name && x.owner == y.owner &&
                              x.resourceId == y.resourceId && x.firstSeenAt == y.firstSeenAt &&
                              x.spec == y.spec && x.details == y.details;
            if (!same)
                roles << Qt::ToolTipRole << M::ResourceRole;
            if (!same || x.seenAt != y.seenAt)
                roles << M::DiscoveredRole;
        }
        return roles;
    }
    if (a.text != b.text)
        roles << Qt::DisplayRole;
    if (a.toolTip != b.toolTip)
        roles << Qt::ToolTipRole;
    if (a.status != b.status)
        roles << Qt::DecorationRole << M::StatusRole;
    const Condition ra = a.resource.status.ready();
    const Condition rb = b.resource.status.ready();
    if (ra.status != rb.status)
        roles << M::ReadyRole;
    if (ra.severity != rb.severity)
        roles << M::SeverityRole;
    if (ra.reason != rb.reason)
        roles << M::ReasonRole;
    if (ra.message != rb.message)
        roles << M::MessageRole;
    if (a.text[M::PolicyColumn] != b.text[M::PolicyColumn])
        roles << M::PolicyRole;
    if (a.resource.metadata.isBeingDeleted() != b.resource.metadata.isBeingDeleted())
        roles << M::DeletingRole;
    if (a.state.lastAttempt != b.state.lastAttempt)
        roles << M::LastReconciledRole;
    if (a.state.nextAttempt != b.state.nextAttempt)
        roles << M::NextAttemptRole;
    if (!roles.isEmpty() || a.resource != b.resource || a.state != b.state)
        roles << M::ResourceRole;
    return roles;
}

QVariant TreeRows::data(const Entry &e, int column, int role, const StatusIcons &icons,
                        const ThemedIcons &kindIcons)
{
    if (!e.folder.isEmpty())
        return folderData(e, column, role, kindIcons);
    if (e.isGroup())
        return groupData(e, column, role, kindIcons);
    if (e.discovered)
        return discoveredData(e, column, role, icons, kindIcons);
    switch (role) {
    case Qt::DisplayRole:
        return e.text.at(size_t(column));
    case Qt::DecorationRole:
        if (column == M::NameColumn)
            return kindIcons.kind(e.resource.kind);
        return column == M::ReadyColumn ? QVariant(icons.icon(e.status)) : QVariant();
    case Qt::ToolTipRole:
        return e.toolTip;
    case M::KeyRole:
        return QVariant::fromValue(e.key());
    case M::KindRole:
        return e.resource.kind;
    case M::NameRole:
        return e.resource.metadata.name;
    case M::ReadyRole:
        return int(e.resource.status.ready().status);
    case M::SeverityRole:
        return int(e.resource.status.ready().severity);
    case M::ReasonRole:
        return e.resource.status.ready().reason;
    case M::MessageRole:
        return e.resource.status.ready().message;
    case M::StatusRole:
        return int(e.status);
    case M::PolicyRole:
        return e.text[M::PolicyColumn];
    case M::DeletingRole:
        return e.resource.metadata.isBeingDeleted();
    case M::LastReconciledRole:
        return e.state.lastAttempt;
    case M::NextAttemptRole:
        return e.state.nextAttempt;
    case M::ResourceRole:
        return QVariant::fromValue(e.resource);
    case M::IsDiscoveredRole:
    case M::IsFolderRole:
        return false;
    default:
        return {};
    }
}

QVariant TreeRows::folderData(const Entry &e, int column, int role, const ThemedIcons &kindIcons)
{
    switch (role) {
    case Qt::DisplayRole:
        return e.text.at(size_t(column));
    case Qt::DecorationRole:
        return column == M::NameColumn ? kindIcons.folder() : QVariant();
    case Qt::ForegroundRole:
        return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
    case Qt::ToolTipRole:
        return e.toolTip;
    case M::NameRole:
        return e.folder;
    case M::IsFolderRole:
        return true;
    case M::IsDiscoveredRole:
    case M::DeletingRole:
        return false;
    default:
        return {};
    }
}

QVariant TreeRows::groupData(const Entry &e, int column, int role, const ThemedIcons &kindIcons)
{
    switch (role) {
    case Qt::DisplayRole:
        return e.text.at(size_t(column));
    case Qt::DecorationRole:
        return column == M::NameColumn ? kindIcons.kind(e.resource.kind) : QVariant();
    case Qt::ToolTipRole:
        return e.toolTip;
    case M::NameRole:
        return e.group;
    case M::IsGroupRole:
        return true;
    case M::IsFolderRole:
    case M::IsDiscoveredRole:
    case M::DeletingRole:
        return false;
    default:
        return {};
    }
}

QVariant TreeRows::discoveredData(const Entry &e, int column, int role, const StatusIcons &icons,
                                  const ThemedIcons &kindIcons)
{
    switch (role) {
    case Qt::DisplayRole:
        return e.text.at(size_t(column));
    case Qt::DecorationRole:
        if (column == M::NameColumn)
            return kindIcons.kind(e.discovered->kind);
        return column == M::ReadyColumn ? QVariant(icons.icon(e.status)) : QVariant();
    case Qt::ForegroundRole:
        // Greyed like a disabled item, while staying enabled so that it can be selected.
        return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
    case Qt::ToolTipRole:
        return toolTip(*e.discovered);
    case M::KindRole:
        return e.discovered->kind;
    case M::NameRole:
        return e.discovered->name;
    case M::ReadyRole:
        return int(Condition::Status::Unknown);
    case M::SeverityRole:
        return int(Condition::Severity::None);
    case M::ReasonRole:
    case M::MessageRole:
    case M::PolicyRole:
        return QString();
    case M::StatusRole:
        return int(e.status);
    case M::DeletingRole:
        return false;
    case M::LastReconciledRole:
    case M::NextAttemptRole:
        return QDateTime();
    case M::DiscoveredRole:
        return QVariant::fromValue(*e.discovered);
    case M::IsDiscoveredRole:
        return true;
    case M::IsFolderRole:
        return false;
    default:
        return {};
    }
}

QVariant TreeRows::edited(QVariant value, int role)
{
    switch (role) {
    case Qt::DisplayRole:
        return QString(value.toString() + QStringLiteral(" *"));
    case Qt::FontRole: {
        QFont font;
        font.setItalic(true);
        return font;
    }
    case Qt::ToolTipRole:
        return QString(ResourceTreeModel::tr("Unsaved edits to its spec: Apply or Revert them "
                                             "in the Spec tab.") +
                       QStringLiteral("\n\n") + value.toString());
    default:
        return value;
    }
}

QString TreeRows::header(int section)
{
    switch (section) {
    case M::NameColumn:
        return ResourceTreeModel::tr("Name");
    case M::KindColumn:
        return ResourceTreeModel::tr("Kind");
    case M::ReadyColumn:
        return ResourceTreeModel::tr("Ready");
    case M::PolicyColumn:
        return ResourceTreeModel::tr("Policy");
    case M::LastReconciledColumn:
        return ResourceTreeModel::tr("Last reconciled");
    case M::NextAttemptColumn:
        return ResourceTreeModel::tr("Next attempt");
    default:
        return {};
    }
}

QHash<int, QByteArray> TreeRows::roleNames(QHash<int, QByteArray> names)
{
    names.insert(M::KeyRole, "key");
    names.insert(M::KindRole, "kind");
    names.insert(M::NameRole, "name");
    names.insert(M::ReadyRole, "ready");
    names.insert(M::SeverityRole, "severity");
    names.insert(M::ReasonRole, "reason");
    names.insert(M::MessageRole, "message");
    names.insert(M::StatusRole, "status");
    names.insert(M::PolicyRole, "policy");
    names.insert(M::DeletingRole, "deleting");
    names.insert(M::LastReconciledRole, "lastReconciled");
    names.insert(M::NextAttemptRole, "nextAttempt");
    names.insert(M::ResourceRole, "resource");
    names.insert(M::DiscoveredRole, "discovered");
    names.insert(M::IsDiscoveredRole, "isDiscovered");
    names.insert(M::IsFolderRole, "isFolder");
    names.insert(M::IsGroupRole, "isGroup");
    return names;
}

} // namespace converge

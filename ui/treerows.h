// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "discoveredresource.h"
#include "reconcilestate.h"
#include "resource.h"
#include "resourcetreemodel.h"
#include "statusicons.h"

#include <QDateTime>
#include <QSet>
#include <QVariant>

#include <array>
#include <memory>
#include <optional>

namespace converge {

class KindRegistry;
class ThemedIcons;

struct ResourceTreeModel::Entry
{
    Resource resource;
    ReconcileState state;
    std::optional<ResourceKey> owner; ///< the key spec.owner names, when the kind has an owner
    /// Set on rows of backend resources that nothing manages (then `resource` is empty). Shared
    /// so that managed rows pay one pointer for it.
    std::shared_ptr<const DiscoveredResource> discovered;
    /// A row a person browsed to (a page of a container or folder), not read from the store.
    bool browsed = false;
    /// On a browsed folder's row: its full prefix (ending in the delimiter); else empty.
    QString folder;
    /// On a service's row under an account (TreeGroups): the service, e.g. SQS; else empty.
    QString group;
    StatusKind status = StatusKind::Unknown;
    std::array<QString, ColumnCount> text;
    QString toolTip;

    bool isManaged() const { return !discovered && !browsed && group.isEmpty(); }
    bool isGroup() const { return !group.isEmpty(); }
    bool isStoredDiscovered() const { return discovered && !browsed; }
    /// Invalid on other rows than managed ones: they are not workspace resources.
    ResourceKey key() const { return isManaged() ? resource.key() : ResourceKey{}; }
    QString discoveredKey() const { return isStoredDiscovered() ? id : QString(); }
    /// discoveredId() of a discovered row, made once on the loading thread: the tree looks
    /// rows up by it a hundred thousand times a listing.
    QString id;
    /// Of a discovered row: a hash of everything its record holds but when it was last seen
    /// (made on the loading thread), so that a row seen again is told apart from a changed one
    /// without comparing its texts and JSON on the GUI thread; 0 on other rows.
    size_t fingerprint = 0;
};

/// The resource tree's rows as values: made on the loading thread (a managed resource, a
/// discovered one, one read from the store), what a row shows in each role, and which roles
/// differ between two versions of a row (the model tells views only those).
class TreeRows final
{
public:
    using Entry = ResourceTreeModel::Entry;

    /// A managed resource's row, its texts made once (runs on the runner's thread).
    static Entry managed(Resource resource, ReconcileState state, const KindRegistry &kinds);
    /// A row of a backend resource nothing manages (a browsed page's, or the store's).
    static Entry discovered(DiscoveredResource discovered);
    /// A browsed folder's row: `folder` (a full prefix) listed under `owner` in `prefix`.
    static Entry folder(const QString &folder, const ResourceKey &owner, const QString &prefix,
                        const QString &kind);
    /// A service's row under the account `owner`: its rows of `kind` and the service's other
    /// kinds go under it.
    static Entry group(const QString &service, const QString &kind, const ResourceKey &owner);
    /// A discovered row read from the store, with the fingerprint that tells it, seen again,
    /// from a changed one (changedRoles). Browsed rows have none: they are never compared.
    static Entry storedDiscovered(DiscoveredResource discovered);
    /// A discovered row's identity: its owner, kind and backend name (unique in the store).
    static QString discoveredId(const ResourceKey &owner, const QString &kind, const QString &name);
    /// The roles whose data differ between `a` and `b`, two versions of one row.
    static QList<int> changedRoles(const Entry &a, const Entry &b);
    /// What the row shows in `column` for `role` (ResourceTreeModel::Role).
    static QVariant data(const Entry &entry, int column, int role, const StatusIcons &icons,
                         const ThemedIcons &kindIcons);

    /// What the name column shows for `role` instead of `value` when the row's spec has
    /// unsaved edits: a trailing " *", in italics, and a tip that says so.
    static QVariant edited(QVariant value, int role);

    /// The column's title.
    static QString header(int section);
    /// `names` (QAbstractItemModel's) with the model's roles.
    static QHash<int, QByteArray> roleNames(QHash<int, QByteArray> names);

    /// Kinds whose names are paths are browsed a folder at a time (BrowseRequest), never shown
    /// from the store's discovered rows: a container of a million blobs is not read whole.
    static bool isBrowsedKind(const KindRegistry &kinds, const QString &name);
    /// The kinds some kind names as its owner: only their rows can have discovered children.
    static QSet<QString> ownerKinds(const KindRegistry &kinds);
    /// A browsed row's name: its path below the folder it is listed in.
    static QString relativeName(const QString &name, const QString &prefix);

private:
    /// A discovered row's tool tip, made when it is asked for: an account can list a hundred
    /// thousand of them.
    static QString toolTip(const DiscoveredResource &discovered);
    static QVariant folderData(const Entry &entry, int column, int role,
                               const ThemedIcons &kindIcons);
    static QVariant groupData(const Entry &entry, int column, int role,
                              const ThemedIcons &kindIcons);
    static QVariant discoveredData(const Entry &entry, int column, int role,
                                   const StatusIcons &icons, const ThemedIcons &kindIcons);
};

} // namespace converge

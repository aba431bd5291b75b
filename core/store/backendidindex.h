// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcekey.h"
#include "storeerror.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <optional>

namespace converge {

class WorkspaceConnection;

/// Which workspace resource manages a backend resource: the `backend_id` column of `resources`
/// and its unique index (one backend resource, one manager, whichever account reached it; see
/// BackendId). ResourceStore asks it what a write may record; the engine and the window ask it
/// who manages what a listing shows.
class BackendIdIndex final
{
public:
    /// `connection` is not owned and outlives the index.
    explicit BackendIdIndex(WorkspaceConnection &connection);

    /// What the row `rowId` of `key` (0: a row not stored yet) stores in `backend_id` when it
    /// records the normalized ID `wanted`: `wanted` when no other row holds it, NULL when
    /// `wanted` is empty or another row holds it and this row recorded the same before (a
    /// duplicate a file from before version 9 holds, kept as it is). Fails with AlreadyManaged,
    /// naming the holder, when another row holds it and this row would record it anew.
    bool column(const ResourceKey &key, qint64 rowId, const QString &wanted, bool recordedBefore,
                QVariant *value, StoreError *error) const;
    /// The failure of a write the unique index refused (another process wrote the same ID
    /// between the check and the write): AlreadyManaged when a holder is found, else `sqlError`.
    bool failRace(const ResourceKey &key, const QString &wanted, const StoreError &sqlError,
                  StoreError *error) const;

    /// A resource that holds a backend ID, and the name of its owner.
    struct Holder
    {
        ResourceKey key;
        QString ownerName;
    };

    /// The resource that holds `normalizedId`, if any.
    std::optional<ResourceKey> holderOf(const QString &normalizedId,
                                        StoreError *error = nullptr) const;
    /// The holders of any of `normalizedIds`, by ID: one statement for a listing's page.
    QHash<QString, Holder> holdersOf(const QStringList &normalizedIds,
                                     StoreError *error = nullptr) const;
    /// Every resource that records `id` in its resource-id annotation, the holder and the
    /// duplicates a file from before version 9 holds, in the order they were made.
    QList<ResourceKey> recordersOf(const QString &id, StoreError *error = nullptr) const;

    /// The message of AlreadyManaged.
    static QString alreadyManaged(const ResourceKey &key, const QString &id,
                                  const ResourceKey &holder);

private:
    WorkspaceConnection &m_connection;
};

} // namespace converge

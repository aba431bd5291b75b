// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcekey.h"
#include "storeerror.h"
#include "workspacetypes.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace converge {

class WorkspaceConnection;

/// The operation journal of a workspace (the `journal` table): an intent written before each
/// mutating backend call and its outcome after, so that a restart resolves what was in flight by
/// observing the backend. Workspace's journal calls land here.
class JournalStore final
{
public:
    /// `connection` is not owned and outlives this store.
    explicit JournalStore(WorkspaceConnection &connection);

    qint64 beginIntent(const ResourceKey &key, const QString &operation, const QJsonObject &details,
                       StoreError *error);
    bool finishIntent(qint64 id, const QString &outcome, StoreError *error);
    QList<JournalEntry> unfinishedIntents(StoreError *error = nullptr) const;

private:
    WorkspaceConnection &m_connection;
};

} // namespace converge

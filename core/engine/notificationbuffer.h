// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "event.h"
#include "resourcekey.h"

#include <QList>
#include <QSet>
#include <QString>

#include <mutex>

namespace converge {

/// What the controller's threads have to tell observers, gathered until the controller's own
/// thread takes it as one batch (Controller's signals, at most one batch per batchInterval).
/// Thread-safe; its lock is its own and is never held while another is taken.
class NotificationBuffer final
{
public:
    /// One batch, in the order things happened within each list.
    struct Batch
    {
        QList<ResourceKey> keys; ///< each once
        QList<Event> events;
        QList<ResourceKey> discoveries; ///< owners whose discovered children changed
        QString storeError;             ///< the last one
    };

    /// `key`'s stored state changed, with `events` recorded.
    void resourceChanged(const ResourceKey &key, const QList<Event> &events);
    /// What is discovered under `owner` changed.
    void discoveryChanged(const ResourceKey &owner);
    void storeFailed(const QString &message);
    /// Everything gathered since the last take().
    Batch take();

private:
    std::mutex m_mutex;
    Batch m_pending;
    QSet<ResourceKey> m_pendingKeys;
};

} // namespace converge

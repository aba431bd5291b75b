// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "notificationbuffer.h"

namespace converge {

void NotificationBuffer::resourceChanged(const ResourceKey &key, const QList<Event> &events)
{
    std::lock_guard lock(m_mutex);
    if (!m_pendingKeys.contains(key)) {
        m_pendingKeys.insert(key);
        m_pending.keys.append(key);
    }
    m_pending.events.append(events);
}

void NotificationBuffer::discoveryChanged(const ResourceKey &owner)
{
    std::lock_guard lock(m_mutex);
    if (!m_pending.discoveries.contains(owner))
        m_pending.discoveries.append(owner);
}

void NotificationBuffer::storeFailed(const QString &message)
{
    std::lock_guard lock(m_mutex);
    m_pending.storeError = message;
}

NotificationBuffer::Batch NotificationBuffer::take()
{
    Batch batch;
    std::lock_guard lock(m_mutex);
    std::swap(batch, m_pending);
    m_pendingKeys.clear();
    return batch;
}

} // namespace converge

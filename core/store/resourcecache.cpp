// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "resourcecache.h"

#include "workspace.h"

namespace converge {

ResourceCache::ResourceCache(qsizetype capacity)
    : m_cache(capacity)
{}

std::optional<Resource> ResourceCache::get(const Workspace &workspace, const ResourceKey &key)
{
    const std::optional<qint64> version = workspace.resourceVersion(key);
    if (!version) {
        m_cache.remove(key);
        return std::nullopt;
    }
    if (const Resource *kept = m_cache.object(key);
        kept && kept->metadata.resourceVersion == *version) {
        ++m_hits;
        return *kept;
    }
    std::optional<Resource> read = workspace.get(key);
    if (read)
        m_cache.insert(key, new Resource(*read));
    else
        m_cache.remove(key);
    return read;
}

} // namespace converge

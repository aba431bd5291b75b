// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resource.h"
#include "resourcekey.h"

#include <QCache>

#include <optional>

namespace converge {

class Workspace;

/// Parsed resources of one workspace connection, each kept while its row's resourceVersion is
/// unchanged.
///
/// The engine reads the same owners (an account, a container) for every child it reconciles;
/// a get() that checks one integer and hands back the parsed copy costs a fraction of reading
/// and parsing the row again. Every write to a resource raises its resourceVersion (the
/// workspace's counter only grows), so an equal version means an equal resource. Not
/// thread-safe: one per connection, like the Workspace it reads.
class ResourceCache final
{
public:
    /// `capacity`: resources kept; the least recently used goes first.
    explicit ResourceCache(qsizetype capacity = 1024);

    /// What `workspace.get(key)` returns now.
    std::optional<Resource> get(const Workspace &workspace, const ResourceKey &key);

    qsizetype size() const { return m_cache.size(); }
    qint64 hits() const { return m_hits; }

private:
    QCache<ResourceKey, Resource> m_cache;
    qint64 m_hits = 0;
};

} // namespace converge

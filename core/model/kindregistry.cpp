// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "kindregistry.h"

#include "suggestions.h"

#include <algorithm>

namespace converge {

bool KindRegistry::add(const Kind &kind)
{
    if (kind.name.isEmpty() || m_kinds.contains(kind.name))
        return false;
    m_kinds.insert(kind.name, kind);
    return true;
}

const Kind *KindRegistry::find(const QString &name) const
{
    const auto it = m_kinds.constFind(name);
    return it == m_kinds.cend() ? nullptr : &it.value();
}

const Kind *KindRegistry::find(const QString &apiVersion, const QString &name) const
{
    const Kind *kind = find(name);
    return kind && kind->apiVersion() == apiVersion ? kind : nullptr;
}

QStringList KindRegistry::names() const
{
    QStringList result = m_kinds.keys();
    std::sort(result.begin(), result.end());
    return result;
}

QStringList KindRegistry::suggestions(const QString &name) const
{
    return Suggestions::closest(name, names());
}

} // namespace converge

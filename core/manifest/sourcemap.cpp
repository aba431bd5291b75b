// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "sourcemap.h"

#include "fieldpath.h"

namespace converge {

SourceMap::SourceMap()
{
    m_nodes.append(Node{});
}

void SourceMap::setRootPos(const TextPos &pos)
{
    m_nodes[root] = Node{pos, pos};
}

int SourceMap::append(const TextPos &key, const TextPos &value)
{
    m_nodes.append(Node{key, value});
    return int(m_nodes.size() - 1);
}

int SourceMap::addKey(int parent, const QString &key, const TextPos &keyPos,
                      const TextPos &valuePos)
{
    const int node = append(keyPos, valuePos);
    m_keys.insert({parent, key}, node);
    return node;
}

int SourceMap::addItem(int parent, qsizetype index, const TextPos &pos)
{
    const int node = append(pos, pos);
    QList<int> &items = m_items[parent];
    Q_ASSERT(index == items.size());
    Q_UNUSED(index);
    items.append(node);
    return node;
}

int SourceMap::addDetached(const TextPos &pos)
{
    return append(pos, pos);
}

int SourceMap::child(int parent, const QString &key) const
{
    return m_keys.value({parent, key}, -1);
}

int SourceMap::item(int parent, qsizetype index) const
{
    const auto it = m_items.constFind(parent);
    return it == m_items.cend() ? -1 : it.value().value(index, -1);
}

SourceMap::Match SourceMap::find(const QString &path, int from) const
{
    Match match{from, true};
    if (path.isEmpty())
        return match;
    const auto segments = FieldPath::split(path);
    if (!segments) {
        match.exact = false;
        return match;
    }
    for (const FieldPath::Segment &segment : *segments) {
        const int next =
            segment.isIndex() ? item(match.node, segment.index) : child(match.node, segment.key);
        if (next < 0) {
            match.exact = false;
            return match;
        }
        match.node = next;
    }
    return match;
}

} // namespace converge

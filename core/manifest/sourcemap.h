// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "manifestreader.h"
#include "textlocator.h"

#include <QHash>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <utility>

namespace converge {

/// Where each field of one parsed document stands in its text, so that a validation error's
/// path (`spec.tags[2].value`, `metadata.annotations["a/b"]`) can be turned into file:line:column.
///
/// A tree of nodes mirroring the document: node 0 is the document's root; each other node is a
/// map key (with the place of the key and of its value) or a list item.
class SourceMap final
{
public:
    static constexpr int root = 0;

    SourceMap();

    void setRootPos(const TextPos &pos);
    /// Adds the value of `key` under `parent`; returns the new node.
    int addKey(int parent, const QString &key, const TextPos &keyPos, const TextPos &valuePos);
    /// Adds list item `index` under `parent`; returns the new node.
    int addItem(int parent, qsizetype index, const TextPos &pos);
    /// A node that no path reaches (e.g. the value of a repeated key, which is dropped).
    int addDetached(const TextPos &pos);

    /// The child of `parent` called `key` (or at `index`), or -1.
    int child(int parent, const QString &key) const;
    int item(int parent, qsizetype index) const;

    struct Match
    {
        int node = root;
        bool exact = false; ///< false: `node` is the nearest ancestor that exists
    };
    /// The node of `path` below `from`, or its nearest existing ancestor. A path that does not
    /// parse matches `from`.
    Match find(const QString &path, int from = root) const;

    TextPos keyPos(int node) const { return m_nodes.at(node).key; }
    TextPos valuePos(int node) const { return m_nodes.at(node).value; }
    int size() const { return int(m_nodes.size()); }

private:
    struct Node
    {
        TextPos key;
        TextPos value;
    };

    int append(const TextPos &key, const TextPos &value);

    QList<Node> m_nodes;
    QHash<std::pair<int, QString>, int> m_keys;
    QHash<int, QList<int>> m_items; ///< a list's item nodes, in order
};

/// One document of a manifest text: its value and where its parts stand.
struct ParsedDocument
{
    QJsonValue root;
    SourceMap sourceMap;
};

/// What a parser made of one text: the non-empty documents, or errors.
struct ParsedText
{
    /// Past this many errors a read stops: hostile input must not make a million messages.
    static constexpr qsizetype maxErrors = 100;

    QList<ParsedDocument> documents;
    QList<ManifestError> errors;
};

} // namespace converge

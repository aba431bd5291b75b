// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "treebrowse.h"

#include "controller.h"
#include "kindregistry.h"
#include "treenode.h"

#include <QLoggingCategory>

namespace converge {

Q_DECLARE_LOGGING_CATEGORY(lcTree)

using Node = TreeBrowse::Node;
using Browse = TreeBrowse::Browse;

bool TreeBrowse::isUnopenedUnmanaged(const ResourceTreeModel &m, const Node *node)
{
    return node && !node->browse && node->entry.isStoredDiscovered() &&
           m.m_browsedKinds.contains(node->entry.discovered->kind);
}

bool TreeBrowse::mayHoldMore(const ResourceTreeModel &m, const Node *node)
{
    if (!m.m_controller)
        return false;
    if (isUnopenedUnmanaged(m, node))
        return true;
    // Until it is read, a browsable row may hold anything: it shows that it can be expanded.
    const Browse *b = m.browseOf(node);
    return b && b->error.isEmpty() && (!b->started || b->inFlight || !b->continuation.isEmpty());
}

bool TreeBrowse::canAsk(const ResourceTreeModel &m, const Node *node)
{
    if (!m.m_controller)
        return false;
    if (isUnopenedUnmanaged(m, node))
        return true;
    const Browse *b = m.browseOf(node);
    return b && !b->inFlight && b->error.isEmpty() && (!b->started || !b->continuation.isEmpty());
}

void TreeBrowse::requestPage(ResourceTreeModel &m, Node *node)
{
    if (isUnopenedUnmanaged(m, node)) {
        const DiscoveredResource &d = *node->entry.discovered;
        const QString browsed = m.m_browsedKinds.value(d.kind);
        node->browse = std::make_unique<Browse>();
        node->browse->owner = d.owner;
        node->browse->within = d;
        node->browse->kind = browsed;
        node->browse->delimiter = m.m_kinds.find(browsed)->folderDelimiter;
    }
    Browse *b = m.browseOf(node);
    if (!b || !m.m_controller || b->inFlight)
        return;
    BrowseRequest request;
    request.id = ++m.m_nextBrowseId;
    request.owner = b->owner;
    request.within = b->within;
    request.kind = b->kind;
    request.prefix = b->prefix;
    request.delimiter = b->delimiter;
    request.continuation = b->started ? b->continuation : QString();
    request.pageSize = m.m_browsePageSize;
    b->started = true;
    b->inFlight = request.id;
    m.m_browsing.insert(request.id, node);
    m.m_controller->browse(request);
}

void TreeBrowse::retry(ResourceTreeModel &m, Node *node)
{
    // A page asked for while its owner was not Ready (still being created, unreachable) is
    // asked for again once the owner is: the person expanded it to see what it holds.
    Browse *b = m.browseOf(node);
    if (!b || b->error.isEmpty() || !node->entry.resource.status.ready().isReady())
        return;
    b->error.clear();
    b->started = false;
    b->listed = 0;
    b->continuation.clear();
    requestPage(m, node);
}

void TreeBrowse::applyPage(ResourceTreeModel &m, const BrowsePage &page)
{
    Node *node = m.m_browsing.take(page.request.id);
    Browse *b = m.browseOf(node);
    if (!b || b->inFlight != page.request.id)
        return; // relisted or removed meanwhile
    b->inFlight = 0;
    if (!page.error.isEmpty()) {
        b->error = page.error;
        b->continuation.clear();
        qCInfo(lcTree) << "cannot browse" << b->owner.toString() << b->prefix << ":" << page.error;
        if (m.m_reveal && m.m_reveal->at == node) {
            const QString text = m.m_reveal->text;
            m.m_reveal.reset();
            Q_EMIT m.notRevealed(text, page.error);
        }
        Q_EMIT m.browseFailed(
            ResourceTreeModel::tr("Cannot list %1 of %2: %3")
                .arg(b->prefix.isEmpty() ? b->kind : b->prefix, b->owner.toString(), page.error));
        return;
    }
    b->error.clear();
    b->continuation = page.continuation;
    std::vector<std::unique_ptr<Node>> rows;
    rows.reserve(size_t(page.folders.size() + page.items.size()));
    for (const QString &folder : page.folders) {
        auto row = std::make_unique<Node>();
        row->entry = TreeRows::folder(folder, b->owner, b->prefix, b->kind);
        row->browse = std::make_unique<Browse>();
        row->browse->owner = b->owner;
        row->browse->within = b->within;
        row->browse->kind = b->kind;
        row->browse->delimiter = b->delimiter;
        row->browse->prefix = folder;
        rows.push_back(std::move(row));
    }
    for (const DiscoveredResource &item : page.items) {
        auto row = std::make_unique<Node>();
        row->entry = TreeRows::discovered(item);
        row->entry.browsed = true;
        row->entry.text[ResourceTreeModel::NameColumn] =
            TreeRows::relativeName(item.name, b->prefix);
        rows.push_back(std::move(row));
    }
    if (!rows.empty()) {
        const int first = int(node->children.size());
        m.beginInsertRows(m.indexFor(node), first, first + int(rows.size()) - 1);
        for (auto &row : rows)
            node->attach(std::move(row));
        m.endInsertRows();
    }
    b->listed += qsizetype(page.folders.size() + page.items.size());
    Q_EMIT m.batchApplied();
    if (b->listed == 0 && b->continuation.isEmpty())
        Q_EMIT m.listedEmpty(m.indexFor(node));
    // Opened, it lists on up to a bound without waiting for a scroll: the backend lists folders
    // among the items by name, so a folder after 2,000 blobs would show only at the end.
    if (m.m_reveal && m.m_reveal->at == node)
        followReveal(m, node);
    else if (!b->continuation.isEmpty() && b->listed < m.m_browseEagerRows)
        requestPage(m, node);
}

void TreeBrowse::relist(ResourceTreeModel &m, Node *node)
{
    Browse *b = m.browseOf(node);
    if (!b)
        return;
    const bool wasRead = b->started;
    QSet<Node *> browsedRows;
    for (const auto &child : node->children) {
        if (child->entry.browsed)
            browsedRows.insert(child.get());
    }
    m.removeNodes(browsedRows);
    if (b->inFlight)
        m.m_browsing.remove(b->inFlight);
    b->inFlight = 0;
    b->started = false;
    b->listed = 0;
    b->continuation.clear();
    b->error.clear();
    if (wasRead)
        requestPage(m, node);
}

void TreeBrowse::reveal(ResourceTreeModel &m, Node *node, const QString &path, const QString &text)
{
    m.m_reveal.reset();
    if (!node || (!m.browseOf(node) && !isUnopenedUnmanaged(m, node))) {
        Q_EMIT m.notRevealed(text, ResourceTreeModel::tr("it is not in a container the tree "
                                                         "can open"));
        return;
    }
    m.m_reveal = ResourceTreeModel::Reveal{node, path, text};
    followReveal(m, node);
}

void TreeBrowse::followReveal(ResourceTreeModel &m, Node *node)
{
    ResourceTreeModel::Reveal &r = *m.m_reveal;
    for (const auto &child : node->children) {
        const ResourceTreeModel::Entry &e = child->entry;
        if (e.discovered && e.discovered->name == r.path) {
            const QString text = r.text;
            m.m_reveal.reset();
            Q_EMIT m.revealed(m.indexFor(child.get()), text);
            return;
        }
        if (!e.folder.isEmpty() && r.path.startsWith(e.folder)) {
            // A folder on the way: its listing next, from what it shows already.
            r.at = child.get();
            followReveal(m, child.get());
            return;
        }
    }
    Browse *b = m.browseOf(node);
    if (b && b->inFlight)
        return; // its next page brings more
    if (!b || !b->started || !b->continuation.isEmpty()) {
        requestPage(m, node);
        return;
    }
    const QString text = r.text;
    const QString path = r.path;
    m.m_reveal.reset();
    Q_EMIT m.notRevealed(text, ResourceTreeModel::tr("%1 holds nothing named %2")
                                   .arg(node->entry.text[ResourceTreeModel::NameColumn], path));
}

} // namespace converge

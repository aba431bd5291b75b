// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "treebrowse.h"

#include "controller.h"
#include "treenode.h"

#include <QLoggingCategory>

namespace converge {

Q_DECLARE_LOGGING_CATEGORY(lcTree)

using Node = TreeBrowse::Node;
using Browse = TreeBrowse::Browse;

void TreeBrowse::requestPage(ResourceTreeModel &m, Node *node)
{
    Browse *b = m.browseOf(node);
    if (!b || !m.m_controller || b->inFlight)
        return;
    BrowseRequest request;
    request.id = ++m.m_nextBrowseId;
    request.owner = b->owner;
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
    Q_EMIT m.batchApplied();
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
    b->continuation.clear();
    b->error.clear();
    if (wasRead)
        requestPage(m, node);
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "namelookup.h"

#include "controller.h"
#include "kindregistry.h"
#include "namequery.h"
#include "resourcetreemodel.h"

namespace converge {

NameLookup::NameLookup(const KindRegistry &kinds, ResourceTreeModel &tree, QObject *parent)
    : QObject(parent)
    , m_kinds(kinds)
    , m_tree(tree)
{
    // A found resource's row comes with a later load of the tree.
    connect(&m_tree, &ResourceTreeModel::batchApplied, this, &NameLookup::lookForFound);
}

void NameLookup::setController(Controller *controller)
{
    if (m_controller)
        disconnect(m_controller, nullptr, this, nullptr);
    m_controller = controller;
    m_pending.clear();
    m_searches.clear();
    if (m_controller)
        connect(m_controller, &Controller::browsed, this, &NameLookup::pageArrived);
}

quint64 NameLookup::send(BrowseRequest request, Pending pending)
{
    request.id = m_nextId++;
    m_pending.insert(request.id, std::move(pending));
    m_controller->browse(request);
    return request.id;
}

bool NameLookup::find(const NameQuery &query, const QString &text)
{
    const QString name = query.lookupName();
    if (!m_controller || name.isEmpty())
        return false;
    // Each Ready account shown, for each kind it holds directly (not folder kinds: those are
    // browsed), or the one kind the query names.
    Search search;
    search.text = text;
    for (int row = 0; row < m_tree.rowCount(); ++row) {
        const QModelIndex index = m_tree.index(row, 0);
        const Resource *account = m_tree.resourceAt(index);
        const Kind *accountKind = account ? m_kinds.find(account->kind) : nullptr;
        if (!accountKind || !accountKind->ownerKind.isEmpty() ||
            !account->status.ready().isReady() || account->metadata.isBeingDeleted())
            continue;
        for (const QString &kindName : m_kinds.names()) {
            const Kind *kind = m_kinds.find(kindName);
            if (!kind || kind->ownerKind != account->kind || !kind->folderDelimiter.isEmpty())
                continue;
            if (!query.kind().isEmpty() && kindName.compare(query.kind(), Qt::CaseInsensitive))
                continue;
            BrowseRequest request;
            request.owner = account->key();
            request.kind = kindName;
            request.name = name;
            send(request, Pending{Pending::Purpose::Find, text});
            ++search.outstanding;
        }
    }
    if (search.outstanding == 0)
        return false;
    m_searches.insert(text, std::move(search));
    return true;
}

void NameLookup::observe(const DiscoveredResource &item)
{
    if (!m_controller)
        return;
    BrowseRequest request;
    request.owner = item.owner;
    request.kind = item.kind;
    request.name = item.name;
    send(request, Pending{Pending::Purpose::Observe, {}});
}

void NameLookup::pageArrived(const BrowsePage &page)
{
    const auto it = m_pending.constFind(page.request.id);
    if (it == m_pending.cend())
        return; // another asker's page (the tree's), or a superseded one
    const Pending pending = *it;
    m_pending.erase(it);
    if (pending.purpose == Pending::Purpose::Observe) {
        if (!page.items.isEmpty())
            Q_EMIT observed(page.items.first());
        return;
    }
    const auto search = m_searches.find(pending.text);
    if (search == m_searches.end())
        return;
    --search->outstanding;
    search->found.append(page.items);
    if (!page.error.isEmpty())
        search->errors.append(page.error);
    if (page.managedSkipped > 0)
        search->errors.append(
            tr("%1 %2 under %3 is managed: it has its own row")
                .arg(page.request.kind, page.request.name, page.request.owner.toString()));
    lookForFound();
}

void NameLookup::lookForFound()
{
    // Said after the walk: a receiver may start another search.
    QList<std::pair<QPersistentModelIndex, QString>> founds;
    QList<std::pair<QString, QString>> misses;
    for (auto it = m_searches.begin(); it != m_searches.end();) {
        QModelIndex index;
        for (const DiscoveredResource &item : std::as_const(it->found)) {
            index = m_tree.indexOfDiscovered(item.owner, item.kind, item.name);
            if (index.isValid())
                break;
        }
        if (index.isValid()) {
            founds.append({QPersistentModelIndex(index), it->text});
            it = m_searches.erase(it);
            continue;
        }
        if (it->outstanding == 0 && it->found.isEmpty()) {
            QStringList errors = it->errors;
            errors.removeDuplicates();
            misses.append({it->text, errors.join(QLatin1String("; "))});
            it = m_searches.erase(it);
            continue;
        }
        ++it;
    }
    for (const auto &[index, text] : std::as_const(founds)) {
        if (index.isValid())
            Q_EMIT found(index, text);
    }
    for (const auto &[text, message] : std::as_const(misses))
        Q_EMIT notFound(text, message);
}

} // namespace converge

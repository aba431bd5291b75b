// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "openbyname.h"

#include "namelookup.h"
#include "namequery.h"
#include "resourcetreemodel.h"

namespace converge {

OpenByName::OpenByName(ResourceTreeModel &tree, NameLookup &lookup, Window window, QObject *parent)
    : QObject(parent)
    , m_tree(tree)
    , m_lookup(lookup)
    , m_window(std::move(window))
{
    connect(&m_lookup, &NameLookup::found, this, &OpenByName::found);
    connect(&m_tree, &ResourceTreeModel::revealed, this, &OpenByName::found);
    connect(&m_lookup, &NameLookup::notFound, this,
            [this](const QString &text, const QString &why) {
                m_window.say(why.isEmpty() ? tr("No account holds %1").arg(text)
                                           : tr("No account holds %1: %2").arg(text, why));
            });
    connect(&m_tree, &ResourceTreeModel::notRevealed, this,
            [this](const QString &text, const QString &why) {
                m_window.say(tr("Cannot open %1: %2").arg(text, why));
            });
}

bool OpenByName::open(const QString &text)
{
    const NameQuery query(text);
    const QModelIndex found = m_tree.find(query);
    if (!found.isValid() && !query.path().isEmpty()) {
        // A blob's URL: its container's listing, and its folders', down to it.
        const QModelIndex container = m_tree.find(NameQuery(query.containerText()));
        if (container.isValid()) {
            m_window.say(
                tr("Listing %1 down to %2…").arg(container.data().toString(), query.path()));
            m_tree.reveal(container, query.path(), text);
            return false;
        }
    }
    if (!found.isValid() && m_lookup.find(query, text)) {
        // Not listed yet: a get under each account; found() selects it once it is shown.
        m_window.say(tr("Looking %1 up under the accounts…").arg(text));
        return false;
    }
    if (!m_window.isShown(found)) {
        m_window.say(found.isValid()
                         ? tr("%1 is hidden by the filter").arg(text)
                         : tr("Nothing shown is named %1; Refresh its account (F5) to list what "
                              "it holds now")
                               .arg(text));
        return false;
    }
    return m_window.select(found);
}

void OpenByName::found(const QModelIndex &index, const QString &text)
{
    if (m_window.select(index))
        m_window.say(tr("%1: found, not listed before").arg(text));
}

} // namespace converge

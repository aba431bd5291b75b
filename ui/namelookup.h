// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "browserequest.h"
#include "discoveredresource.h"
#include "resourcetreemodel.h" // Q_DECLARE_METATYPE(DiscoveredResource), for the signal

#include <QHash>
#include <QObject>
#include <QPersistentModelIndex>
#include <QPointer>

namespace converge {

class Controller;
class KindRegistry;
class NameQuery;

/// Looks backend resources up with a get on the controller's workers, for what the tree does not
/// show yet: Open by name of a resource no listing showed (tried under every Ready account the
/// tree shows, for each kind it can hold), and the details of an unmanaged row with what only a
/// get sees (a table's keys and indexes). What a lookup finds is stored as discovered
/// (Browser), so its row comes with the tree's next load; found() says when it is there.
///
/// Its requests' ids are its own range of BrowseRequest ids (the tree's count up from 1).
class NameLookup final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NameLookup)

public:
    /// `kinds` and `tree` must outlive this object.
    NameLookup(const KindRegistry &kinds, ResourceTreeModel &tree, QObject *parent = nullptr);

    void setController(Controller *controller);

    /// Asks every Ready account in the tree for `query`; false (and nothing asked) when there is
    /// nothing to ask: no controller, no account, or a query that names a path.
    bool find(const NameQuery &query, const QString &text);
    /// A get of `item`, whose answer observed() brings.
    void observe(const DiscoveredResource &item);

Q_SIGNALS:
    /// What find() looked for is in the tree now, at `index` (of the tree model).
    void found(const QModelIndex &index, const QString &text);
    /// No account holds it, or the lookups failed: `message` says which.
    void notFound(const QString &text, const QString &message);
    /// observe()'s answer: the item as a get sees it.
    void observed(const converge::DiscoveredResource &item);

private:
    struct Pending
    {
        enum class Purpose { Find, Observe };
        Purpose purpose = Purpose::Find;
        QString text; ///< what the person typed (Find)
    };

    void pageArrived(const BrowsePage &page);
    void lookForFound();
    quint64 send(BrowseRequest request, Pending pending);

    const KindRegistry &m_kinds;
    ResourceTreeModel &m_tree;
    QPointer<Controller> m_controller;
    quint64 m_nextId = quint64(1) << 62;
    QHash<quint64, Pending> m_pending;
    /// A find's answers so far: what was found (owner, kind, name), and the errors.
    struct Search
    {
        QString text;
        int outstanding = 0;
        QList<DiscoveredResource> found;
        QStringList errors;
    };
    QHash<QString, Search> m_searches; // by the text typed
};

} // namespace converge

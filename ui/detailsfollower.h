// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcekey.h"

#include <QModelIndex>
#include <QObject>
#include <QPointer>

#include <functional>

class QMessageBox;
class QStackedWidget;
class QTreeView;

namespace converge {

class DetailsPane;
class NameLookup;
class ResourceTreeModel;
class UnmanagedDetails;

/// Keeps the details on the tree's selection: what the pane shows is the selected row (the
/// current one when it is selected, else the first selected), and nothing when nothing is
/// selected, whatever took the selection away (a click, a filter, a Delete, a Claim that
/// replaced the row). Leaving a resource whose spec has unsaved edits asks first (keep them as a
/// draft, discard them, or stay), unless the person said not to; the tree marks every resource
/// with unsaved edits.
class DetailsFollower final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DetailsFollower)

public:
    struct Parts
    {
        QTreeView *view = nullptr;
        /// The tree model's row of a row of the view.
        std::function<QModelIndex(const QModelIndex &)> toSource;
        /// The view's row of a tree model's row (its owners' pages grown to show it), or
        /// invalid when the filter hides it.
        std::function<QModelIndex(const QModelIndex &)> toView;
        ResourceTreeModel *tree = nullptr;
        DetailsPane *details = nullptr;
        UnmanagedDetails *unmanaged = nullptr;
        QStackedWidget *stack = nullptr; // holds details and unmanaged
        NameLookup *lookup = nullptr;    // may be null
    };
    /// Nothing in `parts` is owned; the view's model must be set.
    DetailsFollower(const Parts &parts, QObject *parent);

    /// Whether leaving unsaved edits asks first.
    void setAskBeforeLeavingEdits(bool ask) { m_ask = ask; }

Q_SIGNALS:
    /// The person ticked "Do not ask again" in the question.
    void askBeforeLeavingEditsChanged(bool ask);

private:
    /// The tree model's row the details are for (invalid when nothing is selected).
    QModelIndex shownRow() const;
    void follow();
    void followLater();
    void ask(const ResourceKey &edited);
    void markEdited();

    Parts m_parts;
    bool m_ask = true;
    bool m_queued = false;
    bool m_leaving = false; // the person chose to leave: follow() goes on
    QPointer<QMessageBox> m_question;
};

} // namespace converge

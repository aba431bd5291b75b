// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QModelIndex>
#include <QObject>

#include <functional>

namespace converge {

class NameLookup;
class ResourceTreeModel;

/// Open by name (Ctrl+L): what a person typed (a NameQuery) found among the tree's rows; else
/// looked up with a get under the accounts (NameLookup) for what no listing showed; else, for a
/// blob's URL, listed to through its container and folders (ResourceTreeModel::reveal). What it
/// finds is selected; what it cannot find is said, with why.
class OpenByName final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OpenByName)

public:
    /// What the window does with what is found (indexes of the tree model).
    struct Window
    {
        /// Selects a row and shows it; false when the filter hides it (having said so).
        std::function<bool(const QModelIndex &)> select;
        /// Whether the filter lets the row be seen.
        std::function<bool(const QModelIndex &)> isShown;
        /// A line in the status bar.
        std::function<void(const QString &)> say;
    };

    /// `tree` and `lookup` must outlive this object.
    OpenByName(ResourceTreeModel &tree, NameLookup &lookup, Window window,
               QObject *parent = nullptr);

    /// Opens `text`: true when its row was selected now, false when it is being looked up or
    /// listed to (it is selected when it comes) or cannot be found (the status bar says why).
    bool open(const QString &text);

private:
    void found(const QModelIndex &index, const QString &text);

    ResourceTreeModel &m_tree;
    NameLookup &m_lookup;
    Window m_window;
};

} // namespace converge

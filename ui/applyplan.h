// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QCoreApplication>

#include "manifestreader.h"
#include "resource.h"

#include <QList>
#include <QStringList>

namespace converge {

class KindRegistry;
class Workspace;

/// What applying manifest files would do, object by object, before anything is written: a
/// value built on a worker thread from ManifestReader's result and the stored objects.
struct ApplyPlan
{
    Q_DECLARE_TR_FUNCTIONS(ApplyPlan)

public:
    struct Item
    {
        enum class Action { Create, Update, Unchanged, Invalid };
        Action action = Action::Invalid;
        ResourceKey key;  ///< empty for errors that name no object
        QString detail;   ///< changed fields, or the error
        QString location; ///< file:line:column
    };

    QStringList files;
    QList<Item> items;
    QList<Resource> objects; ///< what apply would store; empty when anything is invalid

    /// `workspace` may be null (not created yet): every object is then new.
    static ApplyPlan build(const QStringList &files, const ManifestReader::Result &read,
                           const Workspace *workspace, const KindRegistry &kinds);

    static QString actionName(Item::Action action);
    int count(Item::Action action) const;
    bool isValid() const { return count(Item::Action::Invalid) == 0; }
    /// Valid, with something to create or update.
    bool hasChanges() const;
    /// "2 to create, 1 to update, 3 unchanged" (and "1 invalid").
    QString summary() const;
};

} // namespace converge

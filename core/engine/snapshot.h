// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "kind.h"
#include "resource.h"

#include <QString>
#include <QtGlobal>

namespace converge {

/// What the scheduler thread remembers of a stored resource, to notice what changed and to plan
/// the resync's list pages.
struct Snapshot
{
    qint64 generation = 0;
    bool deleting = false;
    QString policy;
    QString reconcileRequest; ///< converge.dev/reconcile-requested-at
    QString refreshRequest;   ///< converge.dev/refresh-requested-at
    QString owner;            ///< kind/name of the direct owner, empty for roots
    QString account;
    QString resourceId;  ///< converge.dev/resource-id, empty until the first reconcile
    QString backendName; ///< the kind's backend name field, else metadata.name
    bool hasFinalizer = false;
    bool ready = false;      ///< Ready at the current generation: its children can be listed
    bool readyAtAll = false; ///< Ready, at whatever generation: its children can run

    /// The name the backend knows a resource by: the kind's backend name field, else
    /// metadata.name.
    static QString backendNameOf(const Kind *kind, const Resource &resource)
    {
        if (kind && !kind->backendNameField.isEmpty()) {
            const QString name = resource.spec.value(kind->backendNameField).toString();
            if (!name.isEmpty())
                return name;
        }
        return resource.metadata.name;
    }
};

} // namespace converge

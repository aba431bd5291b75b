// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "manager.h"

#include <QString>
#include <QtGlobal>

namespace converge {

/// What the last run of a key that found nothing to do saw: a resync whose list page shows the
/// same, of the same stored resource, would reach the same verdict.
struct QuietRun
{
    qint64 resourceVersion = 0; ///< the stored resource that run read
    Observation observed;       ///< the list page's observation it judged
    QString phase;
    QString reason; ///< the Ready condition's, for the Timeline
    QString message;

    /// Whether two observations of a resource say the same (request IDs and hints aside).
    static bool sameObservation(const Observation &a, const Observation &b)
    {
        return a.spec == b.spec && a.details == b.details && a.resourceId == b.resourceId &&
               a.name == b.name && a.inProgress == b.inProgress && a.progress == b.progress;
    }
};

} // namespace converge

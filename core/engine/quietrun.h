// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "manager.h"
#include "resourcekey.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QtGlobal>

#include <optional>
#include <utility>

namespace converge {

/// What the last run of a key that found nothing to do saw: a resync whose list page shows the
/// same, of the same stored resource, would reach the same verdict. Kept in the workspace
/// (RunMemo) for the next start, with what makes it valid there.
struct QuietRun
{
    /// Raised whenever what a memo holds, or what an observation holds for the same backend
    /// state, changes meaning: a memo of another format is never used.
    static constexpr int memoFormat = 1;

    qint64 resourceVersion = 0; ///< the stored resource that run read
    Observation observed;       ///< the list page's observation it judged
    QString phase;
    QString reason; ///< the Ready condition's, for the Timeline
    QString message;
    /// The owners that run read (account first) and their resourceVersions: a new account
    /// spec (other credentials or endpoints) or policy written while the controller was down
    /// voids the memos of what it owns.
    QList<std::pair<ResourceKey, qint64>> owners;

    /// Whether two observations of a resource say the same (request IDs and hints aside).
    static bool sameObservation(const Observation &a, const Observation &b)
    {
        return a.spec == b.spec && a.details == b.details && a.resourceId == b.resourceId &&
               a.name == b.name && a.inProgress == b.inProgress && a.progress == b.progress;
    }
    /// Whether a memo of `other` would say what one of this run says.
    bool sameAs(const QuietRun &other) const
    {
        return resourceVersion == other.resourceVersion &&
               sameObservation(observed, other.observed) && phase == other.phase &&
               reason == other.reason && message == other.message && owners == other.owners;
    }

    /// The memo to store: this run, the memo format and the Converge version that wrote it.
    QJsonObject toMemo() const;
    /// The run a memo left for `resourceVersion`; nullopt when it is of another format or
    /// Converge version, or unreadable.
    static std::optional<QuietRun> fromMemo(const QJsonObject &memo, qint64 resourceVersion);
};

} // namespace converge

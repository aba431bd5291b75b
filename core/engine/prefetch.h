// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "manager.h"

#include <QDateTime>

namespace converge {

/// A list page's observation of a managed resource, kept for the resource's next reconcile,
/// which then needs no get of its own.
struct Prefetch
{
    Observation observation;
    QDateTime listedAt; ///< when the list began: older than a write of the key means stale

    /// As good as a get at `now`: from the last minute, and not older than our last write of
    /// the key (`lastWrite`, invalid when none), which may have landed after the list looked.
    bool usable(const QDateTime &lastWrite, const QDateTime &now) const
    {
        return (!lastWrite.isValid() || listedAt > lastWrite) && listedAt.msecsTo(now) < 60'000;
    }
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QDateTime>
#include <QString>

namespace converge {

/// The controller's bookkeeping for one resource, kept so that every process can show it.
struct ReconcileState
{
    int attempts = 0;      ///< failed attempts since the last success
    QDateTime lastAttempt; ///< UTC
    QDateTime nextAttempt; ///< UTC; invalid when nothing is scheduled
    QString lastError;
    QString waitingFor; ///< owner | backoff | rate budget | account unreachable | …
    QString lastReconcileId;

    friend bool operator==(const ReconcileState &, const ReconcileState &) = default;
};

} // namespace converge

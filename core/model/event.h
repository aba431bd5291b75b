// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcekey.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace converge {

/// A Kubernetes-style event about one resource. Repeats of the same (resource, type, reason,
/// message) aggregate into one event with a count and first/last time.
struct Event
{
    enum class Type { Normal, Warning };

    qint64 id = 0; ///< assigned by the workspace
    ResourceKey involved;
    Type type = Type::Normal;
    QString reason;      ///< PascalCase, e.g. Created, DriftDetected, WaitingForOwner
    QString message;     ///< for people; never holds a secret
    QString phase;       ///< claim | createOrUpdate | delete | updateStatus | apply | …
    QString reconcileId; ///< one per reconcile run
    QString requestId;   ///< the backend's request ID, when a request was made
    int count = 1;
    QDateTime firstTime; ///< UTC
    QDateTime lastTime;  ///< UTC

    /// Events with the same aggregation key are the same event seen again.
    QString aggregationKey() const;

    static QString typeName(Type type);
    static std::optional<Type> typeFromName(const QString &name);

    QJsonObject toJson() const;

    friend bool operator==(const Event &, const Event &) = default;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

#include <optional>

/// Annotations, finalizer and policy values that Converge reserves.
namespace converge::Annotations {

/// converge.dev/reconcile-policy: manage (default) | skip | detach-on-delete.
inline QString reconcilePolicy()
{
    return QStringLiteral("converge.dev/reconcile-policy");
}
/// converge.dev/resource-id: the backend's ID of the resource, recorded by claim.
inline QString resourceId()
{
    return QStringLiteral("converge.dev/resource-id");
}
/// converge.dev/operation: a long-running backend operation being monitored (e.g. a blob copy).
inline QString operation()
{
    return QStringLiteral("converge.dev/operation");
}
/// converge.dev/reconcile-requested-at: a person asked another process (e.g. the CLI while the
/// window runs the controller) for a reconcile now; its value is the time of the request.
inline QString reconcileRequestedAt()
{
    return QStringLiteral("converge.dev/reconcile-requested-at");
}
/// converge.dev/refresh-requested-at: the same for an observe-only refresh.
inline QString refreshRequestedAt()
{
    return QStringLiteral("converge.dev/refresh-requested-at");
}
/// The finalizer that keeps an object in the workspace until its backend resource is handled.
inline QString finalizer()
{
    return QStringLiteral("converge.dev/finalizer");
}

enum class ReconcilePolicy { Manage, Skip, DetachOnDelete };

inline QStringList policyNames()
{
    return {QStringLiteral("manage"), QStringLiteral("skip"), QStringLiteral("detach-on-delete")};
}

/// Parses a policy value; nullopt for anything else (a validation error, never a silent default).
inline std::optional<ReconcilePolicy> policyFromName(const QString &name)
{
    if (name == QLatin1String("manage"))
        return ReconcilePolicy::Manage;
    if (name == QLatin1String("skip"))
        return ReconcilePolicy::Skip;
    if (name == QLatin1String("detach-on-delete"))
        return ReconcilePolicy::DetachOnDelete;
    return std::nullopt;
}

inline QString policyName(ReconcilePolicy policy)
{
    return policyNames().at(static_cast<int>(policy));
}

} // namespace converge::Annotations

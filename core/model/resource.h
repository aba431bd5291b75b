// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "annotations.h"
#include "condition.h"
#include "objectmeta.h"
#include "resourcekey.h"

#include <QJsonObject>
#include <QList>

namespace converge {

/// What the workspace knows of a resource beyond its desired spec.
struct ResourceStatus
{
    QList<Condition> conditions; ///< Converge keeps one, Ready
    QJsonObject observed;        ///< what the backend last returned (secrets never stored)

    /// The Ready condition, or an Unknown one when there is none yet.
    Condition ready() const;
    /// Sets the condition of `incoming.type` when Condition::shouldOverwrite allows;
    /// returns whether anything changed.
    bool setCondition(const Condition &incoming);

    friend bool operator==(const ResourceStatus &, const ResourceStatus &) = default;
};

/// A Kubernetes-style object: apiVersion, kind, metadata, spec, status. A value type: workers
/// get copies, never pointers into models.
struct Resource
{
    QString apiVersion; ///< e.g. azure.converge.dev/v1
    QString kind;       ///< e.g. BlobContainer
    ObjectMeta metadata;
    QJsonObject spec;
    ResourceStatus status;

    ResourceKey key() const { return {kind, metadata.name}; }

    /// The reconcile policy annotation; Manage when absent. Call only on validated resources
    /// (validation rejects unknown values).
    Annotations::ReconcilePolicy policy() const;
    /// spec.owner.name, or empty when the resource has no owner.
    QString ownerName() const;
    bool hasFinalizer() const { return metadata.finalizers.contains(Annotations::finalizer()); }

    /// The whole object as JSON, in Kubernetes' shape; status only when `withStatus`.
    QJsonObject toJson(bool withStatus = true) const;
    /// Reads what toJson() wrote (no schema validation; see SchemaValidator for that).
    static Resource fromJson(const QJsonObject &json, QString *error = nullptr);

    friend bool operator==(const Resource &, const Resource &) = default;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

/// The API groups, versions and annotations of Azure Service Operator v2, AWS Controllers for
/// Kubernetes and Google's Config Connector that export writes and import reads.
namespace converge::InteropTerms {

inline QString asoStorageGroup()
{
    return QStringLiteral("storage.azure.com");
}
inline QString asoResourcesGroup()
{
    return QStringLiteral("resources.azure.com");
}
/// The newest served, non-storage version of the storage.azure.com kinds: what export writes.
inline QString asoStorageVersion()
{
    return QStringLiteral("v20250601");
}
/// resources.azure.com's only served, non-storage version.
inline QString asoResourcesVersion()
{
    return QStringLiteral("v1api20200601");
}
/// Every served, non-storage version of storage.azure.com that import reads (the versions of
/// the Table service kinds start at 2022-09-01; import checks that per kind).
inline QStringList asoStorageVersions()
{
    return {QStringLiteral("v1api20210401"), QStringLiteral("v1api20220901"),
            QStringLiteral("v1api20230101"), QStringLiteral("v20210401"),
            QStringLiteral("v20220901"),     QStringLiteral("v20230101"),
            QStringLiteral("v20250601")};
}
inline QString asoReconcilePolicy()
{
    return QStringLiteral("serviceoperator.azure.com/reconcile-policy");
}
/// The ARM name of an account's blob, queue and table service objects.
inline QString asoServiceName()
{
    return QStringLiteral("default");
}

/// Every API group of ACK ends in this (sqs.services.k8s.aws, …).
inline QString ackGroupSuffix()
{
    return QStringLiteral(".services.k8s.aws");
}
inline QString ackRegion()
{
    return QStringLiteral("services.k8s.aws/region");
}
/// `delete` (default) | `retain`.
inline QString ackDeletionPolicy()
{
    return QStringLiteral("services.k8s.aws/deletion-policy");
}
/// `"true"`: observe only.
inline QString ackReadOnly()
{
    return QStringLiteral("services.k8s.aws/read-only");
}
/// `adopt` | `adopt-or-create`, with ackAdoptionFields().
inline QString ackAdoptionPolicy()
{
    return QStringLiteral("services.k8s.aws/adoption-policy");
}
/// JSON naming the resource to adopt; for a Table `{"tableName": "…"}`, for most declared kinds
/// `{"name": "…"}` (DeclaredAck::adoptionFields).
inline QString ackAdoptionFields()
{
    return QStringLiteral("services.k8s.aws/adoption-fields");
}

/// Config Connector: the project a resource lives in (KCC takes the namespace's without it).
inline QString kccProjectId()
{
    return QStringLiteral("cnrm.cloud.google.com/project-id");
}
/// `abandon`: deleting the object leaves the Google Cloud resource; anything else deletes it.
inline QString kccDeletionPolicy()
{
    return QStringLiteral("cnrm.cloud.google.com/deletion-policy");
}
/// Every annotation KCC reads or writes starts with this.
inline QString kccPrefix()
{
    return QStringLiteral("cnrm.cloud.google.com/");
}

/// Converge's own annotations (the policy, the engine's bookkeeping) start with this.
inline QString convergePrefix()
{
    return QStringLiteral("converge.dev/");
}

} // namespace converge::InteropTerms

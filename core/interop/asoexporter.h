// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "exportresult.h"
#include "resource.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace converge {

/// Maps the Azure kinds to Azure Service Operator v2 resources (storage.azure.com/v20250601,
/// resources.azure.com/v1api20200601), one document each.
///
/// A StorageAccount becomes a ResourceGroup (one per resource group, unless left out), the
/// StorageAccount and its three service objects (ARM name `default`, which ASO requires as the
/// owners of containers, queues and tables); BlobContainer, Queue and Table become
/// StorageAccountsBlobServicesContainer, …QueueServicesQueue and …TableServicesTable owned by
/// their service. A Converge StorageAccount is a connection to an account that exists, so the
/// account, its services and its resource group are written with reconcile-policy `skip`: ASO
/// then only reads them and never creates, updates or deletes them (`manage` would PUT the
/// account with only the fields given — resetting what Azure holds otherwise — and delete it
/// with its data when the object is deleted; `detach-on-delete` still PUTs). Children carry the
/// Converge policy one to one. Blobs have no counterpart and are dropped with a reason.
class AsoExporter final
{
public:
    /// What ASO needs of an account that Converge does not: each overrides the spec field of
    /// the same name (`accountKind` is ASO's `kind`) when not empty.
    struct AccountFields
    {
        QString location;
        QString sku;
        QString accountKind;
        QString resourceGroup;
    };

    struct Options
    {
        QString ns; ///< metadata.namespace of every document; none when empty
        // Override spec.location, spec.sku, spec.accountKind, spec.resourceGroup of every
        // StorageAccount exported (the command line's flags).
        QString location;
        QString sku;
        QString accountKind;
        QString resourceGroup;
        /// Per StorageAccount (by metadata.name), ahead of the fields above: what the window
        /// asks for when the accounts lack them.
        QHash<QString, AccountFields> accounts;
        bool resourceGroups = true; ///< write the ResourceGroup objects the accounts name
    };

    /// The StorageAccount spec fields ASO needs and Converge does not: location, sku,
    /// accountKind, resourceGroup.
    static QStringList accountFieldNames();
    /// Those of `account`'s fields that its spec leaves empty, by name.
    static QStringList missingFields(const Resource &account);

    explicit AsoExporter(const Options &options);

    /// Exports `selection`; `workspace` (everything, the selection included) resolves owners.
    ExportResult exportResources(const QList<Resource> &selection,
                                 const QList<Resource> &workspace) const;

    /// The metadata.name of the service object (`blob`, `queue` or `table`) of the account
    /// called `account` in the workspace.
    static QString serviceName(const QString &account, const QString &service);

private:
    Options m_options;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "manifesttranslator.h"
#include "resource.h"

#include <QList>

namespace converge {

/// Reads Azure Service Operator v2 resources (storage.azure.com, resources.azure.com, every
/// served non-storage version) as Converge objects, for ManifestReader.
///
/// StorageAccount becomes a StorageAccount: the workspace's one with the same account name when
/// there is one (its connection kept, location, sku, kind and resource group taken), else a new
/// one with Azure's default endpoints and no credential, which stays Ready False until it is
/// connected. Containers, queues and tables become BlobContainer, Queue and Table under the
/// account their service object names. ResourceGroup and the service objects are structure:
/// accepted, and used only to find the account and its resource group. The reconcile-policy
/// annotation maps one to one on containers, queues and tables; on the account (which Converge
/// never writes) it is not kept. Fields Converge cannot honour are refused by name.
class AsoImporter final : public ManifestTranslator
{
public:
    /// `accounts`: the workspace's StorageAccounts (other kinds are ignored).
    explicit AsoImporter(const QList<Resource> &accounts);

    bool handles(const QJsonObject &object) const override;
    Result translate(const QList<ForeignDocument> &documents) const override;

private:
    QList<Resource> m_accounts;
};

} // namespace converge

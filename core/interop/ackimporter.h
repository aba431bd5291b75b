// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "manifesttranslator.h"
#include "resource.h"

#include <QList>
#include <QString>

namespace converge {

/// Reads the Tables of AWS Controllers for Kubernetes (dynamodb.services.k8s.aws/v1alpha1) as
/// DynamoDBTables, for ManifestReader.
///
/// A Table goes under the AwsAccount named by the constructor's `account`, else under the
/// workspace's AwsAccount for its `services.k8s.aws/region` (the first by name); when there is
/// none, an AwsAccount `aws-REGION` is created for it, without a credential (Ready False until
/// it is connected). `read-only: "true"` becomes the policy `skip`, `deletion-policy: retain`
/// `detach-on-delete`; `adoption-policy` is kept (export writes it back). Every spec field of
/// DynamoDBTable maps by name; the Table fields that Converge's backend does not honour
/// (tableClass, deletionProtectionEnabled, sseSpecification, timeToLive, …) are refused by name.
class AckImporter final : public ManifestTranslator
{
public:
    /// `accounts`: the workspace's AwsAccounts (other kinds are ignored); `account`: the one to
    /// put every Table under, whatever its region (empty: by region).
    AckImporter(const QList<Resource> &accounts, const QString &account);

    bool handles(const QJsonObject &object) const override;
    Result translate(const QList<ForeignDocument> &documents) const override;

    /// The name of the AwsAccount created for `region` when the workspace has none.
    static QString accountNameFor(const QString &region);

private:
    QList<Resource> m_accounts;
    QString m_account;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "manifesttranslator.h"
#include "resource.h"

#include <QList>
#include <QString>

namespace converge {

/// Reads the resources of AWS Controllers for Kubernetes (any `*.services.k8s.aws` group) as
/// Converge's AWS kinds, for ManifestReader: Tables as DynamoDBTables, and the counterparts
/// that declared kinds name (DeclaredAck) as those kinds. Another ACK kind is refused by name.
///
/// A resource goes under the AwsAccount named by the constructor's `account` (created, without
/// a credential, when the workspace has none: its region is the first the documents give),
/// else under the workspace's AwsAccount for its `services.k8s.aws/region` (the first by
/// name); when there is none, an AwsAccount `aws-REGION` is created for it, without a
/// credential (Ready False until it is connected). `read-only: "true"` becomes the policy
/// `skip`, `deletion-policy: retain` `detach-on-delete`; `adoption-policy` is kept (export
/// writes it back). Fields map by the declaration; ACK fields Converge's kind does not have
/// (and the Table fields that Converge's backend does not honour: tableClass,
/// deletionProtectionEnabled, sseSpecification, timeToLive, …) are refused by name. A secret
/// ACK reads from a Kubernetes Secret's key becomes `{keychain: [NAMESPACE/]NAME/KEY}`, with a
/// note on how to give the value; a secret in plain text is refused, never stored.
class AckImporter final : public ManifestTranslator
{
public:
    /// `accounts`: the workspace's AwsAccounts (other kinds are ignored); `account`: the one to
    /// put every resource under, whatever its region (empty: by region).
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

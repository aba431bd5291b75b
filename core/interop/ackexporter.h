// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "exportresult.h"
#include "resource.h"

#include <QList>
#include <QString>

namespace converge {

/// Maps DynamoDBTable to the Table of AWS Controllers for Kubernetes
/// (dynamodb.services.k8s.aws/v1alpha1), one document each.
///
/// Every spec field of DynamoDBTable has the same name and shape in ACK's Table; `tableName`
/// and `billingMode` are always written, because ACK requires the first and AWS's default for
/// the second (PROVISIONED) is not Converge's. The owner AwsAccount's region becomes the
/// `services.k8s.aws/region` annotation; `detach-on-delete` becomes `deletion-policy: retain`
/// and `skip` `read-only: "true"`. A table that exists in AWS (it has a recorded resource ID,
/// because it was claimed or created) is written with `adoption-policy: adopt` and its
/// `adoption-fields`, so that ACK takes it over instead of failing to create it again.
class AckExporter final
{
public:
    struct Options
    {
        QString ns; ///< metadata.namespace of every document; none when empty
    };

    explicit AckExporter(const Options &options);

    /// Exports `selection`; `workspace` (everything) holds the owner accounts.
    ExportResult exportResources(const QList<Resource> &selection,
                                 const QList<Resource> &workspace) const;

private:
    Options m_options;
};

} // namespace converge

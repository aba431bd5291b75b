// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "exportresult.h"
#include "resource.h"

#include <QList>
#include <QString>

namespace converge {

/// Maps the AWS kinds to the resources of AWS Controllers for Kubernetes, one document each:
/// DynamoDBTable to dynamodb.services.k8s.aws/v1alpha1 Table, and every kind declared as data to
/// the counterpart its declaration names (DeclaredAck: field renames, fields ACK lacks, `…Ref`
/// fields, secret values as a Kubernetes Secret's key). A kind without a counterpart is
/// `dropped`; a field that cannot go is said in `notes`.
///
/// Every spec field of DynamoDBTable has the same name and shape in ACK's Table; `tableName`
/// and `billingMode` are always written, because ACK requires the first and AWS's default for
/// the second (PROVISIONED) is not Converge's. A declared kind's backend name is always
/// written (`metadata.name` by default), as ACK requires it. A reference `topicRef: {name}` is
/// ACK's `topicRef: {from: {name}}`. A secret given as `{keychain: [NAMESPACE/]NAME/KEY}` is
/// ACK's `{name, key, namespace?}`; other references are left out, with a note.
///
/// The owner AwsAccount's region becomes the `services.k8s.aws/region` annotation;
/// `detach-on-delete` becomes `deletion-policy: retain` and `skip` `read-only: "true"`. A
/// resource that exists in AWS (it has a recorded resource ID, because it was claimed or
/// created) is written with `adoption-policy: adopt` and its `adoption-fields`, so that ACK
/// takes it over instead of failing to create it again.
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

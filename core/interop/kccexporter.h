// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "exportresult.h"
#include "resource.h"

#include <QList>
#include <QString>

namespace converge {

/// Maps the Google Cloud kinds to Config Connector's resources, one document each, as each
/// declaration's DeclaredKcc says (pubsub.cnrm.cloud.google.com/v1beta1 PubSubTopic, …): the
/// owner GcpProject's projectId becomes the `cnrm.cloud.google.com/project-id` annotation, the
/// labels field becomes metadata.labels, a reference `topicRef: {name}` stays as it is and a
/// Google name given directly (`topic`) becomes `topicRef: {external: …}`; `spec.resourceID` is
/// written where the Google name differs from metadata.name; `detach-on-delete` becomes
/// `cnrm.cloud.google.com/deletion-policy: abandon`. KCC acquires a resource that exists, so a
/// claimed one needs nothing more. A kind without a counterpart is `dropped`; what cannot go
/// (`skip`, which KCC has no form of; fields KCC's kind lacks) is said in `notes`.
class KccExporter final
{
public:
    struct Options
    {
        QString ns; ///< metadata.namespace of every document; none when empty
    };

    explicit KccExporter(const Options &options);

    /// Exports `selection`; `workspace` (everything) holds the owner projects.
    ExportResult exportResources(const QList<Resource> &selection,
                                 const QList<Resource> &workspace) const;

private:
    Options m_options;
};

} // namespace converge

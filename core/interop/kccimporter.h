// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "manifesttranslator.h"
#include "resource.h"

#include <QList>
#include <QString>

namespace converge {

/// Reads Config Connector's resources (any `*.cnrm.cloud.google.com` group) as Converge's Google
/// Cloud kinds, for ManifestReader: the counterparts that declared kinds name (DeclaredKcc).
/// Another KCC kind is refused by name.
///
/// A resource goes under the GcpProject its `cnrm.cloud.google.com/project-id` names (the
/// workspace's with that projectId), else under the one the constructor's `project` names;
/// without the annotation KCC takes the namespace's project, so the namespace is the project ID
/// (KCC's rule) under `project`. A project the workspace does not have is created without a
/// credential (Ready False until it is connected), named `project` or the project ID.
/// `deletion-policy: abandon` becomes the policy `detach-on-delete`; metadata.labels without a
/// `/` become the labels field (the resource's labels in Google Cloud, as KCC makes them); a
/// `{external: …}` reference becomes the Google name it holds (`topicRef: {external}` →
/// `topic`), a `{name}` reference the kind's reference field where it has one. Fields map by
/// the declaration: what Converge's kind does not have is refused by name at its place.
class KccImporter final : public ManifestTranslator
{
public:
    /// `projects`: the workspace's GcpProjects (other kinds are ignored); `project`: the one a
    /// resource without a project-id annotation goes under (empty: such a resource is refused).
    KccImporter(const QList<Resource> &projects, const QString &project);

    bool handles(const QJsonObject &object) const override;
    Result translate(const QList<ForeignDocument> &documents) const override;

private:
    QList<Resource> m_projects;
    QString m_project;
};

} // namespace converge

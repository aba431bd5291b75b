// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "kccexporter.h"

#include "annotations.h"
#include "declaredservices.h"
#include "gcpkinds.h"
#include "interopterms.h"
#include "jsonpath.h"

#include <QJsonArray>

namespace converge {

namespace T = InteropTerms;

KccExporter::KccExporter(const Options &options)
    : m_options(options)
{}

ExportResult KccExporter::exportResources(const QList<Resource> &selection,
                                          const QList<Resource> &workspace) const
{
    ExportResult result;
    QMap<QString, QString> projects; // GcpProject name → projectId
    for (const Resource &r : workspace) {
        if (r.kind == GcpKinds::projectKind() && r.apiVersion == GcpKinds::apiVersion())
            projects.insert(r.metadata.name, r.spec.value(QStringLiteral("projectId")).toString());
    }
    for (const Resource &r : selection) {
        const QString id = r.kind + QLatin1Char('/') + r.metadata.name;
        if (r.apiVersion != GcpKinds::apiVersion())
            continue; // another provider's kind: the other target's business
        if (r.kind == GcpKinds::projectKind()) {
            result.notes.append(
                QStringLiteral("%1: not a resource in Config Connector: its project ID is written "
                               "on each resource (%2); its credential is the controller's, not "
                               "exported")
                    .arg(id, T::kccProjectId()));
            continue;
        }
        const KindDeclaration *declared = GcpKinds::declared().declaration(r.kind);
        if (!declared || !declared->kcc.isDeclared()) {
            result.dropped.append(
                QStringLiteral("%1: not exported: Config Connector has no counterpart of this kind")
                    .arg(id));
            continue;
        }
        const DeclaredKcc &kcc = declared->kcc;
        const QString projectId = projects.value(r.ownerName());
        if (projectId.isEmpty()) {
            result.missing.append(QStringLiteral("%1: its GcpProject %2 is not in the workspace, "
                                                 "so its project ID is unknown: add the project")
                                      .arg(id, r.ownerName()));
            continue;
        }

        QJsonObject spec = r.spec;
        spec.remove(QStringLiteral("owner"));
        QMap<QString, QString> labels = r.metadata.labels;
        if (!kcc.labels.isEmpty()) {
            const QJsonObject given = spec.take(kcc.labels).toObject();
            for (auto it = given.begin(); it != given.end(); ++it)
                labels.insert(it.key(), it.value().toString());
        }
        for (const QString &path : kcc.omit) {
            if (!JsonPath::take(spec, path.split(QLatin1Char('.'))).isUndefined())
                result.notes.append(QStringLiteral("%1: spec.%2 is not exported: Config "
                                                   "Connector's %3 has no such field")
                                        .arg(id, path, kcc.kind));
        }
        for (auto it = kcc.externalRefs.cbegin(); it != kcc.externalRefs.cend(); ++it) {
            const QJsonValue value = JsonPath::take(spec, it.key().split(QLatin1Char('.')));
            if (!value.isUndefined() && !value.toString().isEmpty())
                JsonPath::put(spec, it->ref.split(QLatin1Char('.')),
                              QJsonObject{{QStringLiteral("external"), value}});
        }
        // KCC's name in Google Cloud is resourceID, else metadata.name.
        const QString nameField = declared->kind.backendNameField;
        if (!nameField.isEmpty() && spec.value(nameField).toString() == r.metadata.name)
            spec.remove(nameField);

        QMap<QString, QString> annotations;
        for (auto it = r.metadata.annotations.cbegin(); it != r.metadata.annotations.cend(); ++it) {
            if (!it.key().startsWith(T::convergePrefix()))
                annotations.insert(it.key(), it.value());
        }
        annotations.insert(T::kccProjectId(), projectId);
        const QString policy = r.metadata.annotations.value(Annotations::reconcilePolicy());
        if (policy == QLatin1String("detach-on-delete"))
            annotations.insert(T::kccDeletionPolicy(), QStringLiteral("abandon"));
        else if (policy == QLatin1String("skip"))
            result.notes.append(QStringLiteral("%1: the skip policy is not exported: Config "
                                               "Connector has no observe-only mode, and will "
                                               "write the resource as its spec says")
                                    .arg(id));

        QJsonObject metadata{{QStringLiteral("name"), r.metadata.name}};
        if (!m_options.ns.isEmpty())
            metadata.insert(QStringLiteral("namespace"), m_options.ns);
        if (!labels.isEmpty())
            metadata.insert(QStringLiteral("labels"), jsonObjectOf(labels));
        metadata.insert(QStringLiteral("annotations"), jsonObjectOf(annotations));
        result.documents.append({{QStringLiteral("apiVersion"), kcc.apiVersion},
                                 {QStringLiteral("kind"), kcc.kind},
                                 {QStringLiteral("metadata"), metadata},
                                 {QStringLiteral("spec"), spec}});
    }
    if (!result.ok())
        result.documents.clear();
    return result;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "ackexporter.h"

#include "annotations.h"
#include "awskinds.h"
#include "interopterms.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>

namespace converge {

namespace T = InteropTerms;

AckExporter::AckExporter(const Options &options)
    : m_options(options)
{}

ExportResult AckExporter::exportResources(const QList<Resource> &selection,
                                          const QList<Resource> &workspace) const
{
    ExportResult result;
    QMap<QString, QString> regions;
    for (const Resource &r : workspace) {
        if (r.kind == AwsKinds::accountKind() && r.apiVersion == AwsKinds::apiVersion())
            regions.insert(r.metadata.name, r.spec.value(QStringLiteral("region")).toString());
    }
    for (const Resource &r : selection) {
        const QString id = r.kind + QLatin1Char('/') + r.metadata.name;
        if (r.apiVersion != AwsKinds::apiVersion())
            continue; // another provider's kind: the other target's business
        if (r.kind == AwsKinds::accountKind()) {
            result.notes.append(
                QStringLiteral("%1: not a resource in ACK: its region is written on each Table "
                               "(services.k8s.aws/region); its credential is the "
                               "controller's, not exported")
                    .arg(id));
            continue;
        }
        if (r.kind != AwsKinds::tableKind()) {
            result.dropped.append(
                QStringLiteral("%1: not exported: ACK has no counterpart of this kind").arg(id));
            continue;
        }
        const auto region = regions.constFind(r.ownerName());
        if (region == regions.cend() || region->isEmpty()) {
            result.missing.append(QStringLiteral("%1: its AwsAccount %2 is not in the workspace, "
                                                 "so its region is unknown: add the account")
                                      .arg(id, r.ownerName()));
            continue;
        }

        QJsonObject spec = r.spec;
        spec.remove(QStringLiteral("owner"));
        const QString tableName = r.spec.value(QStringLiteral("tableName")).toString();
        spec.insert(QStringLiteral("tableName"), tableName.isEmpty() ? r.metadata.name : tableName);
        if (!spec.contains(QStringLiteral("billingMode")))
            spec.insert(QStringLiteral("billingMode"), QStringLiteral("PAY_PER_REQUEST"));

        QMap<QString, QString> annotations;
        for (auto it = r.metadata.annotations.cbegin(); it != r.metadata.annotations.cend(); ++it) {
            if (!it.key().startsWith(T::convergePrefix()))
                annotations.insert(it.key(), it.value());
        }
        annotations.insert(T::ackRegion(), *region);
        const QString policy = r.metadata.annotations.value(Annotations::reconcilePolicy());
        if (policy == QLatin1String("detach-on-delete"))
            annotations.insert(T::ackDeletionPolicy(), QStringLiteral("retain"));
        else if (policy == QLatin1String("skip"))
            annotations.insert(T::ackReadOnly(), QStringLiteral("true"));
        if (r.metadata.annotations.contains(Annotations::resourceId()) ||
            annotations.contains(T::ackAdoptionPolicy())) {
            if (!annotations.contains(T::ackAdoptionPolicy()))
                annotations.insert(T::ackAdoptionPolicy(), QStringLiteral("adopt"));
            const QJsonObject fields{
                {QStringLiteral("tableName"), spec.value(QStringLiteral("tableName"))}};
            annotations.insert(
                T::ackAdoptionFields(),
                QString::fromUtf8(QJsonDocument(fields).toJson(QJsonDocument::Compact)));
        }

        QJsonObject metadata{{QStringLiteral("name"), r.metadata.name}};
        if (!m_options.ns.isEmpty())
            metadata.insert(QStringLiteral("namespace"), m_options.ns);
        if (!r.metadata.labels.isEmpty())
            metadata.insert(QStringLiteral("labels"), jsonObjectOf(r.metadata.labels));
        metadata.insert(QStringLiteral("annotations"), jsonObjectOf(annotations));
        const QString apiVersion = T::ackDynamoGroup() + QLatin1Char('/') + T::ackDynamoVersion();
        result.documents.append({{QStringLiteral("apiVersion"), apiVersion},
                                 {QStringLiteral("kind"), QStringLiteral("Table")},
                                 {QStringLiteral("metadata"), metadata},
                                 {QStringLiteral("spec"), spec}});
    }
    if (!result.missing.isEmpty())
        result.documents.clear();
    return result;
}

} // namespace converge

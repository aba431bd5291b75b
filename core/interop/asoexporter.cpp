// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "asoexporter.h"

#include "annotations.h"
#include "azurekinds.h"
#include "interopterms.h"
#include "kubernetesname.h"

#include <QJsonObject>
#include <QMap>
#include <QSet>

namespace converge {

namespace T = InteropTerms;

namespace {

QString storageApiVersion()
{
    return T::asoStorageGroup() + QLatin1Char('/') + T::asoStorageVersion();
}

// Labels and annotations travel, except Converge's own: its policy becomes ASO's.
QJsonObject metadataFor(const QString &name, const QString &ns, const Resource *from,
                        const QString &policy)
{
    QJsonObject metadata{{QStringLiteral("name"), name}};
    if (!ns.isEmpty())
        metadata.insert(QStringLiteral("namespace"), ns);
    QMap<QString, QString> annotations;
    if (from) {
        if (!from->metadata.labels.isEmpty())
            metadata.insert(QStringLiteral("labels"), jsonObjectOf(from->metadata.labels));
        for (auto it = from->metadata.annotations.cbegin(); it != from->metadata.annotations.cend();
             ++it) {
            if (!it.key().startsWith(T::convergePrefix()))
                annotations.insert(it.key(), it.value());
        }
    }
    if (!policy.isEmpty())
        annotations.insert(T::asoReconcilePolicy(), policy);
    if (!annotations.isEmpty())
        metadata.insert(QStringLiteral("annotations"), jsonObjectOf(annotations));
    return metadata;
}

QJsonObject document(const QString &apiVersion, const QString &kind, const QJsonObject &metadata,
                     const QJsonObject &spec)
{
    return {{QStringLiteral("apiVersion"), apiVersion},
            {QStringLiteral("kind"), kind},
            {QStringLiteral("metadata"), metadata},
            {QStringLiteral("spec"), spec}};
}

QJsonObject owner(const QString &name)
{
    return {{QStringLiteral("name"), name}};
}

QString childPolicy(const Resource &resource)
{
    return resource.metadata.annotations.value(Annotations::reconcilePolicy());
}

} // namespace

AsoExporter::AsoExporter(const Options &options)
    : m_options(options)
{}

QStringList AsoExporter::accountFieldNames()
{
    return {QStringLiteral("location"), QStringLiteral("sku"), QStringLiteral("accountKind"),
            QStringLiteral("resourceGroup")};
}

QStringList AsoExporter::missingFields(const Resource &account)
{
    QStringList missing;
    for (const QString &field : accountFieldNames()) {
        if (account.spec.value(field).toString().isEmpty())
            missing.append(field);
    }
    return missing;
}

QString AsoExporter::serviceName(const QString &account, const QString &service)
{
    return account + QLatin1Char('-') + service;
}

ExportResult AsoExporter::exportResources(const QList<Resource> &selection,
                                          const QList<Resource> &workspace) const
{
    Q_UNUSED(workspace) // children name their service by the account's metadata.name alone
    ExportResult result;
    const QString skip = QStringLiteral("skip");
    QList<QJsonObject> groups;
    QSet<QString> groupNames;
    QList<QJsonObject> accounts;
    QList<QJsonObject> children;

    for (const Resource &r : selection) {
        const QString id = r.kind + QLatin1Char('/') + r.metadata.name;
        if (r.apiVersion != AzureKinds::apiVersion())
            continue; // another provider's kind: the other target's business
        if (r.kind == AzureKinds::storageAccount()) {
            const AccountFields given = m_options.accounts.value(r.metadata.name);
            const auto value = [&](const char *field, const QString &override,
                                   const QString &flag) {
                const QString v =
                    override.isEmpty() ? r.spec.value(QLatin1String(field)).toString() : override;
                if (v.isEmpty())
                    result.missing.append(
                        QStringLiteral("%1: spec.%2 is not set: add it to the StorageAccount's "
                                       "spec or pass %3")
                            .arg(id, QLatin1String(field), flag));
                return v;
            };
            const auto either = [](const QString &mine, const QString &everyone) {
                return mine.isEmpty() ? everyone : mine;
            };
            const QString location = value("location", either(given.location, m_options.location),
                                           QStringLiteral("--location"));
            const QString sku =
                value("sku", either(given.sku, m_options.sku), QStringLiteral("--sku"));
            const QString accountKind =
                value("accountKind", either(given.accountKind, m_options.accountKind),
                      QStringLiteral("--account-kind"));
            const QString group =
                value("resourceGroup", either(given.resourceGroup, m_options.resourceGroup),
                      QStringLiteral("--resource-group"));
            if (location.isEmpty() || sku.isEmpty() || accountKind.isEmpty() || group.isEmpty())
                continue;

            const QString groupName = KubernetesName::from(group);
            if (m_options.resourceGroups && !groupNames.contains(groupName)) {
                groupNames.insert(groupName);
                QJsonObject spec{{QStringLiteral("location"), location}};
                if (groupName != group)
                    spec.insert(QStringLiteral("azureName"), group);
                groups.append(
                    document(T::asoResourcesGroup() + QLatin1Char('/') + T::asoResourcesVersion(),
                             QStringLiteral("ResourceGroup"),
                             metadataFor(groupName, m_options.ns, nullptr, skip), spec));
            }
            QJsonObject spec{{QStringLiteral("location"), location},
                             {QStringLiteral("kind"), accountKind},
                             {QStringLiteral("sku"), QJsonObject{{QStringLiteral("name"), sku}}},
                             {QStringLiteral("owner"), owner(groupName)}};
            const QString accountName = r.spec.value(QStringLiteral("accountName")).toString();
            if (accountName != r.metadata.name)
                spec.insert(QStringLiteral("azureName"), accountName);
            accounts.append(document(storageApiVersion(), QStringLiteral("StorageAccount"),
                                     metadataFor(r.metadata.name, m_options.ns, &r, skip), spec));
            for (const auto &[service, kind] :
                 {std::pair{QStringLiteral("blob"), QStringLiteral("StorageAccountsBlobService")},
                  std::pair{QStringLiteral("queue"), QStringLiteral("StorageAccountsQueueService")},
                  std::pair{QStringLiteral("table"),
                            QStringLiteral("StorageAccountsTableService")}})
                accounts.append(document(
                    storageApiVersion(), kind,
                    metadataFor(serviceName(r.metadata.name, service), m_options.ns, nullptr, skip),
                    {{QStringLiteral("owner"), owner(r.metadata.name)}}));
            result.notes.append(
                QStringLiteral("%1: spec.credential and spec.endpoints are not exported: ASO "
                               "reaches Azure Resource Manager with its own identity")
                    .arg(id));
            continue;
        }
        if (r.kind == AzureKinds::blob()) {
            result.dropped.append(
                QStringLiteral("%1: not exported: ASO has no kind for blobs (they are data, "
                               "not Azure Resource Manager resources); keep it in Converge or "
                               "copy it with azcopy")
                    .arg(id));
            continue;
        }
        QString kind;
        QString service;
        if (r.kind == AzureKinds::blobContainer()) {
            kind = QStringLiteral("StorageAccountsBlobServicesContainer");
            service = QStringLiteral("blob");
        } else if (r.kind == AzureKinds::queue()) {
            kind = QStringLiteral("StorageAccountsQueueServicesQueue");
            service = QStringLiteral("queue");
        } else if (r.kind == AzureKinds::table()) {
            kind = QStringLiteral("StorageAccountsTableServicesTable");
            service = QStringLiteral("table");
        } else {
            result.dropped.append(
                QStringLiteral("%1: not exported: ASO has no counterpart of this kind").arg(id));
            continue;
        }
        QJsonObject spec{{QStringLiteral("owner"), owner(serviceName(r.ownerName(), service))}};
        const QString azureName = AzureKinds::azureName(r);
        if (azureName != r.metadata.name)
            spec.insert(QStringLiteral("azureName"), azureName);
        for (const char *field : {"publicAccess", "metadata"}) {
            if (r.spec.contains(QLatin1String(field)))
                spec.insert(QLatin1String(field), r.spec.value(QLatin1String(field)));
        }
        children.append(document(storageApiVersion(), kind,
                                 metadataFor(r.metadata.name, m_options.ns, &r, childPolicy(r)),
                                 spec));
    }
    if (!result.missing.isEmpty())
        return result;
    result.documents = groups + accounts + children;
    return result;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "asoimporter.h"

#include "annotations.h"
#include "azurekinds.h"
#include "interopterms.h"

#include <QHash>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>

namespace converge {

namespace T = InteropTerms;

namespace {

const QString resourceGroupKind = QStringLiteral("ResourceGroup");
const QString accountKind = QStringLiteral("StorageAccount");

struct AsoService
{
    QString converge; ///< the Converge kind of its children
    QString child;    ///< the ASO kind of its children
};

const QHash<QString, AsoService> &services()
{
    static const QHash<QString, AsoService> map{
        {QStringLiteral("StorageAccountsBlobService"),
         {AzureKinds::blobContainer(), QStringLiteral("StorageAccountsBlobServicesContainer")}},
        {QStringLiteral("StorageAccountsQueueService"),
         {AzureKinds::queue(), QStringLiteral("StorageAccountsQueueServicesQueue")}},
        {QStringLiteral("StorageAccountsTableService"),
         {AzureKinds::table(), QStringLiteral("StorageAccountsTableServicesTable")}}};
    return map;
}

QString serviceOfChild(const QString &child)
{
    for (auto it = services().cbegin(); it != services().cend(); ++it) {
        if (it->child == child)
            return it.key();
    }
    return {};
}

// The spec fields Converge takes, per ASO kind; anything else is refused by name.
QStringList takenFields(const QString &kind)
{
    if (kind == resourceGroupKind)
        return {QStringLiteral("azureName"), QStringLiteral("location"), QStringLiteral("tags"),
                QStringLiteral("managedBy")};
    if (kind == accountKind)
        return {QStringLiteral("azureName"), QStringLiteral("location"), QStringLiteral("kind"),
                QStringLiteral("sku"), QStringLiteral("owner")};
    if (services().contains(kind))
        return {QStringLiteral("owner")};
    if (kind == QLatin1String("StorageAccountsBlobServicesContainer"))
        return {QStringLiteral("owner"), QStringLiteral("azureName"),
                QStringLiteral("publicAccess"), QStringLiteral("metadata")};
    if (kind == QLatin1String("StorageAccountsQueueServicesQueue"))
        return {QStringLiteral("owner"), QStringLiteral("azureName"), QStringLiteral("metadata")};
    return {QStringLiteral("owner"), QStringLiteral("azureName")};
}

QString fieldRefusal(const QString &kind, const QString &field)
{
    if (kind == accountKind)
        return QStringLiteral("Converge connects to an existing account and cannot set %1; "
                              "remove it (or keep this file for the cluster only)")
            .arg(field);
    if (services().contains(kind))
        return QStringLiteral("Converge does not manage the service's settings (%1); remove it")
            .arg(field);
    if (kind == resourceGroupKind)
        return QStringLiteral("Converge does not manage resource groups (%1); remove it")
            .arg(field);
    return QStringLiteral("is not supported by Converge's %1; remove it")
        .arg(kind == QLatin1String("StorageAccountsBlobServicesContainer")
                 ? QStringLiteral("BlobContainer")
             : kind == QLatin1String("StorageAccountsQueueServicesQueue")
                 ? QStringLiteral("Queue")
                 : QStringLiteral("Table"));
}

bool servedVersion(const QString &kind, const QString &version)
{
    if (!T::asoStorageVersions().contains(version))
        return false;
    // The Table service kinds begin with API version 2022-09-01.
    const bool tables = kind == QLatin1String("StorageAccountsTableService") ||
                        kind == QLatin1String("StorageAccountsTableServicesTable");
    return !tables || !version.endsWith(QLatin1String("20210401"));
}

QString resourceGroupFromArmId(const QString &armId)
{
    static const QRegularExpression group(QStringLiteral("/resourcegroups/([^/]+)"),
                                          QRegularExpression::CaseInsensitiveOption);
    return group.match(armId).captured(1);
}

QJsonObject stringsOf(const QJsonValue &value)
{
    return value.isObject() ? value.toObject() : QJsonObject();
}

struct Doc
{
    qsizetype index;
    QString kind;
    QString name;
    QJsonObject spec;
    QJsonObject metadata;
};

} // namespace

AsoImporter::AsoImporter(const QList<Resource> &accounts)
{
    for (const Resource &r : accounts) {
        if (r.kind == AzureKinds::storageAccount())
            m_accounts.append(r);
    }
}

bool AsoImporter::handles(const QJsonObject &object) const
{
    const QString group =
        object.value(QStringLiteral("apiVersion")).toString().section(QLatin1Char('/'), 0, 0);
    return group == T::asoStorageGroup() || group == T::asoResourcesGroup();
}

ManifestTranslator::Result AsoImporter::translate(const QList<ForeignDocument> &documents) const
{
    Result result;
    const auto fail = [&result](qsizetype index, const QString &path, const QString &message) {
        result.errors.append(Error{index, path, message});
    };

    QHash<QString, QHash<QString, Doc>> byKind; // ASO kind → metadata.name → document
    QList<Doc> docs;
    for (qsizetype i = 0; i < documents.size(); ++i) {
        const QJsonObject &o = documents.at(i).object;
        const QString apiVersion = o.value(QStringLiteral("apiVersion")).toString();
        const QString group = apiVersion.section(QLatin1Char('/'), 0, 0);
        const QString version = apiVersion.section(QLatin1Char('/'), 1);
        const QString kind = o.value(QStringLiteral("kind")).toString();
        const bool known = group == T::asoResourcesGroup()
                               ? kind == resourceGroupKind
                               : kind == accountKind || services().contains(kind) ||
                                     !serviceOfChild(kind).isEmpty();
        if (!known) {
            fail(i, QStringLiteral("kind"),
                 QStringLiteral("%1 %2 has no Converge counterpart (Converge reads ResourceGroup, "
                                "StorageAccount, its blob, queue and table services, their "
                                "containers, queues and tables)")
                     .arg(group, kind));
            continue;
        }
        const bool served = group == T::asoResourcesGroup() ? version == T::asoResourcesVersion()
                                                            : servedVersion(kind, version);
        if (!served) {
            fail(i, QStringLiteral("apiVersion"),
                 version.endsWith(QLatin1String("storage"))
                     ? QStringLiteral("%1 is the operator's storage version, not one to write; "
                                      "use %2/%3")
                           .arg(apiVersion, group,
                                group == T::asoResourcesGroup() ? T::asoResourcesVersion()
                                                                : T::asoStorageVersion())
                     : QStringLiteral("%1 is not a served version of %2").arg(apiVersion, kind));
            continue;
        }
        for (const QString &key : o.keys()) {
            if (key != QLatin1String("apiVersion") && key != QLatin1String("kind") &&
                key != QLatin1String("metadata") && key != QLatin1String("spec") &&
                key != QLatin1String("status"))
                fail(i, key, QStringLiteral("is not a field of %1").arg(kind));
        }
        const QJsonObject metadata = o.value(QStringLiteral("metadata")).toObject();
        const QString name = metadata.value(QStringLiteral("name")).toString();
        if (name.isEmpty()) {
            fail(i, QStringLiteral("metadata.name"), QStringLiteral("is required"));
            continue;
        }
        const QJsonObject spec = o.value(QStringLiteral("spec")).toObject();
        const QStringList taken = takenFields(kind);
        for (const QString &field : spec.keys()) {
            if (!taken.contains(field))
                fail(i, QStringLiteral("spec.") + field, fieldRefusal(kind, field));
        }
        const QString policy = stringsOf(metadata.value(QStringLiteral("annotations")))
                                   .value(T::asoReconcilePolicy())
                                   .toString();
        if (!policy.isEmpty() && !Annotations::policyFromName(policy))
            fail(i, QStringLiteral("metadata.annotations[\"%1\"]").arg(T::asoReconcilePolicy()),
                 QStringLiteral("\"%1\" is not one of manage, skip, detach-on-delete").arg(policy));
        const Doc doc{i, kind, name, spec, metadata};
        byKind[kind].insert(name, doc);
        docs.append(doc);
    }
    if (!result.errors.isEmpty())
        return result;

    // metadata.name of an ASO StorageAccount → the Converge StorageAccount's name.
    QHash<QString, QString> accountNames;
    for (const Doc &d : std::as_const(docs)) {
        if (d.kind != accountKind)
            continue;
        const QString accountName = d.spec.value(QStringLiteral("azureName")).toString(d.name);
        const QJsonObject owner = d.spec.value(QStringLiteral("owner")).toObject();
        QString group = owner.value(QStringLiteral("name")).toString();
        if (group.isEmpty())
            group = resourceGroupFromArmId(owner.value(QStringLiteral("armId")).toString());
        else if (byKind.value(resourceGroupKind).contains(group))
            group = byKind.value(resourceGroupKind)
                        .value(group)
                        .spec.value(QStringLiteral("azureName"))
                        .toString(group);
        if (group.isEmpty()) {
            fail(d.index, QStringLiteral("spec.owner"),
                 QStringLiteral("names no resource group (owner.name of a ResourceGroup, or an "
                                "armId with /resourceGroups/NAME)"));
            continue;
        }

        const Resource *existing = nullptr;
        for (const Resource &r : m_accounts) {
            if (r.spec.value(QStringLiteral("accountName")).toString() == accountName)
                existing = &r;
        }
        QJsonObject spec;
        QJsonObject metadata{{QStringLiteral("name"), d.name}};
        if (existing) {
            // The connection stays as it is; only what ASO knows and Converge keeps is taken.
            spec = existing->spec;
            metadata = existing->toJson(false).value(QStringLiteral("metadata")).toObject();
            for (const char *key : {"uid", "generation", "resourceVersion", "creationTimestamp",
                                    "deletionTimestamp", "finalizers"})
                metadata.remove(QLatin1String(key));
        } else {
            spec.insert(QStringLiteral("accountName"), accountName);
            // No credential: Ready stays False until the account is connected.
            spec.insert(QStringLiteral("credential"), QJsonObject());
            if (d.metadata.contains(QStringLiteral("labels")))
                metadata.insert(QStringLiteral("labels"),
                                d.metadata.value(QStringLiteral("labels")));
            QJsonObject annotations = stringsOf(d.metadata.value(QStringLiteral("annotations")));
            annotations.remove(T::asoReconcilePolicy());
            if (!annotations.isEmpty())
                metadata.insert(QStringLiteral("annotations"), annotations);
        }
        accountNames.insert(d.name, metadata.value(QStringLiteral("name")).toString());
        spec.insert(QStringLiteral("location"), d.spec.value(QStringLiteral("location")));
        spec.insert(QStringLiteral("accountKind"), d.spec.value(QStringLiteral("kind")));
        spec.insert(QStringLiteral("sku"),
                    d.spec.value(QStringLiteral("sku"))[QStringLiteral("name")]);
        spec.insert(QStringLiteral("resourceGroup"), group);
        for (const char *required : {"location", "accountKind", "sku"}) {
            if (spec.value(QLatin1String(required)).isUndefined())
                spec.remove(QLatin1String(required));
        }
        result.objects.append(Translated{d.index,
                                         {{QStringLiteral("apiVersion"), AzureKinds::apiVersion()},
                                          {QStringLiteral("kind"), AzureKinds::storageAccount()},
                                          {QStringLiteral("metadata"), metadata},
                                          {QStringLiteral("spec"), spec}}});
    }

    for (const Doc &d : std::as_const(docs)) {
        const QString service = serviceOfChild(d.kind);
        const QString ownerName =
            d.spec.value(QStringLiteral("owner"))[QStringLiteral("name")].toString();
        if (services().contains(d.kind)) {
            if (!byKind.value(accountKind).contains(ownerName))
                fail(d.index, QStringLiteral("spec.owner.name"),
                     QStringLiteral("names the StorageAccount \"%1\", which is not in the files "
                                    "read")
                         .arg(ownerName));
            continue;
        }
        if (service.isEmpty())
            continue; // ResourceGroup, StorageAccount: done above
        const auto owner = byKind.value(service).constFind(ownerName);
        if (ownerName.isEmpty() || owner == byKind.value(service).cend()) {
            fail(d.index, QStringLiteral("spec.owner.name"),
                 QStringLiteral("must name a %1 in the files read (ASO's owner of a %2); \"%3\" "
                                "is not there")
                     .arg(service, d.kind, ownerName));
            continue;
        }
        const QString account = accountNames.value(
            owner->spec.value(QStringLiteral("owner"))[QStringLiteral("name")].toString());
        if (account.isEmpty())
            continue; // the service's own error says why
        QJsonObject spec{{QStringLiteral("owner"), QJsonObject{{QStringLiteral("name"), account}}}};
        for (const char *field : {"azureName", "publicAccess", "metadata"}) {
            if (d.spec.contains(QLatin1String(field)))
                spec.insert(QLatin1String(field), d.spec.value(QLatin1String(field)));
        }
        if (spec.value(QStringLiteral("azureName")) == d.name)
            spec.remove(QStringLiteral("azureName"));
        QJsonObject metadata{{QStringLiteral("name"), d.name}};
        if (d.metadata.contains(QStringLiteral("labels")))
            metadata.insert(QStringLiteral("labels"), d.metadata.value(QStringLiteral("labels")));
        QJsonObject annotations = stringsOf(d.metadata.value(QStringLiteral("annotations")));
        const QJsonValue policy = annotations.take(T::asoReconcilePolicy());
        if (policy.isString())
            annotations.insert(Annotations::reconcilePolicy(), policy);
        if (!annotations.isEmpty())
            metadata.insert(QStringLiteral("annotations"), annotations);
        result.objects.append(
            Translated{d.index,
                       {{QStringLiteral("apiVersion"), AzureKinds::apiVersion()},
                        {QStringLiteral("kind"), services().value(service).converge},
                        {QStringLiteral("metadata"), metadata},
                        {QStringLiteral("spec"), spec}}});
    }
    if (!result.errors.isEmpty())
        result.objects.clear();
    return result;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "ackimporter.h"

#include "annotations.h"
#include "awskinds.h"
#include "interopterms.h"

#include <QMap>

#include <algorithm>

namespace converge {

namespace T = InteropTerms;

namespace {

QStringList mappedFields()
{
    return {QStringLiteral("tableName"),
            QStringLiteral("attributeDefinitions"),
            QStringLiteral("keySchema"),
            QStringLiteral("billingMode"),
            QStringLiteral("provisionedThroughput"),
            QStringLiteral("globalSecondaryIndexes"),
            QStringLiteral("streamSpecification"),
            QStringLiteral("tags")};
}

QString annotationPath(const QString &name)
{
    return QStringLiteral("metadata.annotations[\"%1\"]").arg(name);
}

} // namespace

AckImporter::AckImporter(const QList<Resource> &accounts, const QString &account)
    : m_account(account)
{
    for (const Resource &r : accounts) {
        if (r.kind == AwsKinds::accountKind())
            m_accounts.append(r);
    }
    std::sort(m_accounts.begin(), m_accounts.end(), [](const Resource &a, const Resource &b) {
        return a.metadata.name < b.metadata.name;
    });
}

QString AckImporter::accountNameFor(const QString &region)
{
    return QStringLiteral("aws-") + region;
}

bool AckImporter::handles(const QJsonObject &object) const
{
    return object.value(QStringLiteral("apiVersion")).toString().section(QLatin1Char('/'), 0, 0) ==
           T::ackDynamoGroup();
}

ManifestTranslator::Result AckImporter::translate(const QList<ForeignDocument> &documents) const
{
    Result result;
    const auto fail = [&result](qsizetype index, const QString &path, const QString &message) {
        result.errors.append(Error{index, path, message});
    };
    if (!m_account.isEmpty() &&
        std::none_of(m_accounts.cbegin(), m_accounts.cend(),
                     [this](const Resource &r) { return r.metadata.name == m_account; })) {
        for (qsizetype i = 0; i < documents.size(); ++i)
            fail(i, {},
                 QStringLiteral("the AwsAccount \"%1\" (--aws-account) is not in the "
                                "workspace")
                     .arg(m_account));
        return result;
    }
    QMap<QString, qsizetype> newAccounts; // region → the first document that needs it
    for (qsizetype i = 0; i < documents.size(); ++i) {
        const QJsonObject &o = documents.at(i).object;
        const QString apiVersion = o.value(QStringLiteral("apiVersion")).toString();
        const QString kind = o.value(QStringLiteral("kind")).toString();
        if (kind != QLatin1String("Table")) {
            fail(i, QStringLiteral("kind"),
                 QStringLiteral("%1 has no Converge counterpart (Converge reads the Table of "
                                "%2)")
                     .arg(kind, T::ackDynamoGroup()));
            continue;
        }
        if (apiVersion.section(QLatin1Char('/'), 1) != T::ackDynamoVersion()) {
            fail(i, QStringLiteral("apiVersion"),
                 QStringLiteral("%1 is not a served version of Table (%2/%3)")
                     .arg(apiVersion, T::ackDynamoGroup(), T::ackDynamoVersion()));
            continue;
        }
        for (const QString &key : o.keys()) {
            if (key != QLatin1String("apiVersion") && key != QLatin1String("kind") &&
                key != QLatin1String("metadata") && key != QLatin1String("spec") &&
                key != QLatin1String("status"))
                fail(i, key, QStringLiteral("is not a field of Table"));
        }
        const QJsonObject metadata = o.value(QStringLiteral("metadata")).toObject();
        const QString name = metadata.value(QStringLiteral("name")).toString();
        if (name.isEmpty()) {
            fail(i, QStringLiteral("metadata.name"), QStringLiteral("is required"));
            continue;
        }
        QJsonObject spec = o.value(QStringLiteral("spec")).toObject();
        for (const QString &field : spec.keys()) {
            if (!mappedFields().contains(field))
                fail(i, QStringLiteral("spec.") + field,
                     QStringLiteral("is not supported by Converge's DynamoDBTable; remove it "
                                    "(or keep this file for the cluster only)"));
        }

        QJsonObject annotations = metadata.value(QStringLiteral("annotations")).toObject();
        const QString region = annotations.take(T::ackRegion()).toString();
        QString account = m_account;
        if (account.isEmpty()) {
            if (region.isEmpty()) {
                fail(i, QStringLiteral("metadata"),
                     QStringLiteral("has no %1 annotation: give the region, or name the "
                                    "account with --aws-account")
                         .arg(T::ackRegion()));
                continue;
            }
            const auto found =
                std::find_if(m_accounts.cbegin(), m_accounts.cend(), [&region](const Resource &r) {
                    return r.spec.value(QStringLiteral("region")) == region;
                });
            if (found != m_accounts.cend()) {
                account = found->metadata.name;
            } else {
                account = accountNameFor(region);
                if (!newAccounts.contains(region))
                    newAccounts.insert(region, i);
            }
        }

        QString policy;
        const QString readOnly = annotations.take(T::ackReadOnly()).toString();
        const QString deletion = annotations.take(T::ackDeletionPolicy()).toString();
        if (!readOnly.isEmpty() && readOnly != QLatin1String("true") &&
            readOnly != QLatin1String("false"))
            fail(i, annotationPath(T::ackReadOnly()),
                 QStringLiteral("\"%1\" is not \"true\" or \"false\"").arg(readOnly));
        if (!deletion.isEmpty() && deletion != QLatin1String("delete") &&
            deletion != QLatin1String("retain"))
            fail(i, annotationPath(T::ackDeletionPolicy()),
                 QStringLiteral("\"%1\" is not delete or retain").arg(deletion));
        if (readOnly == QLatin1String("true"))
            policy = QStringLiteral("skip"); // observe only: it never deletes either
        else if (deletion == QLatin1String("retain"))
            policy = QStringLiteral("detach-on-delete");
        const QString adoption = annotations.value(T::ackAdoptionPolicy()).toString();
        if (!adoption.isEmpty() && adoption != QLatin1String("adopt") &&
            adoption != QLatin1String("adopt-or-create"))
            fail(i, annotationPath(T::ackAdoptionPolicy()),
                 QStringLiteral("\"%1\" is not adopt or adopt-or-create").arg(adoption));
        // Export writes them again from tableName.
        annotations.remove(T::ackAdoptionFields());
        if (!policy.isEmpty())
            annotations.insert(Annotations::reconcilePolicy(), policy);

        if (spec.value(QStringLiteral("tableName")) == name)
            spec.remove(QStringLiteral("tableName"));
        spec.insert(QStringLiteral("owner"), QJsonObject{{QStringLiteral("name"), account}});
        QJsonObject out{{QStringLiteral("name"), name}};
        if (metadata.contains(QStringLiteral("labels")))
            out.insert(QStringLiteral("labels"), metadata.value(QStringLiteral("labels")));
        if (!annotations.isEmpty())
            out.insert(QStringLiteral("annotations"), annotations);
        result.objects.append(Translated{i,
                                         {{QStringLiteral("apiVersion"), AwsKinds::apiVersion()},
                                          {QStringLiteral("kind"), AwsKinds::tableKind()},
                                          {QStringLiteral("metadata"), out},
                                          {QStringLiteral("spec"), spec}}});
    }
    for (auto it = newAccounts.cbegin(); it != newAccounts.cend(); ++it) {
        // No credential: Ready stays False until the account is connected.
        result.objects.append(
            Translated{it.value(),
                       {{QStringLiteral("apiVersion"), AwsKinds::apiVersion()},
                        {QStringLiteral("kind"), AwsKinds::accountKind()},
                        {QStringLiteral("metadata"),
                         QJsonObject{{QStringLiteral("name"), accountNameFor(it.key())}}},
                        {QStringLiteral("spec"),
                         QJsonObject{{QStringLiteral("region"), it.key()},
                                     {QStringLiteral("credential"), QJsonObject()}}}}});
    }
    if (!result.errors.isEmpty())
        result.objects.clear();
    return result;
}

} // namespace converge

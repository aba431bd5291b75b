// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "fieldschema.h"

#include <QJsonObject>

#include <QList>
#include <QString>

namespace converge {

/// A spec field that names another resource of the workspace (`topicRef: {name: orders}`):
/// the engine waits for it as for an owner, and the Manager sends its backend ID in `idField`,
/// the field a person may give instead (`topicARN`).
struct KindReference
{
    QString field;         ///< e.g. topicRef, an object with a name
    QString kind;          ///< e.g. SNSTopic
    QString idField;       ///< e.g. topicARN
    bool required = false; ///< one of `field` and `idField` must be given
    /// The referenced resource's spec field whose value is sent (an event bus's name), its
    /// metadata.name when that field is not given; empty: its backend ID.
    QString from;
};

/// What a provider declares about one kind of resource: its API group and version, the schema
/// of its spec, which kind owns it, and how its metadata.name is checked.
struct Kind
{
    QString group;     ///< e.g. azure.converge.dev
    QString version;   ///< e.g. v1
    QString name;      ///< e.g. BlobContainer
    QString ownerKind; ///< the kind spec.owner names; empty for roots such as StorageAccount
    /// The cloud service it belongs to, as people name it (SQS, DynamoDB): the window groups an
    /// account's resources by it. Empty for kinds shown straight under their owner.
    QString service;
    /// The spec field that holds the backend's name of the resource (azureName, tableName);
    /// empty, or the field left out, means metadata.name. Lists are matched on it.
    QString backendNameField;
    /// Backend names are paths split at this (a blob's '/'): people browse them folder by
    /// folder, a page at a time, rather than all at once. Empty for flat kinds.
    QString folderDelimiter;
    /// Why a resource of this kind that a listing found cannot be claimed as it is (a blob:
    /// its bytes are nowhere the workspace could declare them); empty when it can.
    QString claimRefusal;
    QString description;
    QList<KindReference> references; ///< the spec fields that name other resources
    FieldSchema spec = FieldSchema::object(QStringLiteral("spec"), {});

    /// Rules for metadata.name (defaults: DNS-1123 subdomain, 1-253 characters).
    QString namePattern = QStringLiteral("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$");
    QString namePatternHint =
        QStringLiteral("lower-case letters, digits, '-' and '.', starting and ending with a "
                       "letter or digit");
    int nameMaxLength = 253;

    QString apiVersion() const { return group + QLatin1Char('/') + version; }
    /// The name `spec` gives the resource `reference` names; empty when it names none.
    static QString referencedName(const KindReference &reference, const QJsonObject &spec)
    {
        return spec.value(reference.field).toObject().value(QStringLiteral("name")).toString();
    }
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "fieldschema.h"

#include <QString>

namespace converge {

/// What a provider declares about one kind of resource: its API group and version, the schema
/// of its spec, which kind owns it, and how its metadata.name is checked.
struct Kind
{
    QString group;     ///< e.g. azure.converge.dev
    QString version;   ///< e.g. v1
    QString name;      ///< e.g. BlobContainer
    QString ownerKind; ///< the kind spec.owner names; empty for roots such as StorageAccount
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
    FieldSchema spec = FieldSchema::object(QStringLiteral("spec"), {});

    /// Rules for metadata.name (defaults: DNS-1123 subdomain, 1-253 characters).
    QString namePattern = QStringLiteral("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$");
    QString namePatternHint =
        QStringLiteral("lower-case letters, digits, '-' and '.', starting and ending with a "
                       "letter or digit");
    int nameMaxLength = 253;

    QString apiVersion() const { return group + QLatin1Char('/') + version; }
};

} // namespace converge

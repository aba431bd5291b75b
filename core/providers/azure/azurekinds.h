// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "kind.h"

#include <QString>
#include <QStringList>

namespace converge {

class KindRegistry;
struct Resource;

/// The Azure Storage kinds (group azure.converge.dev, version v1) and their naming rules.
///
/// The schemas carry the rules Azure enforces on names, so that validation reports a bad name
/// with its file:line:column before anything is sent. When `spec.azureName` is absent the
/// backend name is `metadata.name`; the Managers check that name with the same rules before
/// any request (a schema cannot see metadata.name from spec).
class AzureKinds final
{
public:
    static QString group() { return QStringLiteral("azure.converge.dev"); }
    static QString version() { return QStringLiteral("v1"); }
    static QString apiVersion() { return group() + QStringLiteral("/v1"); }

    static QString storageAccount() { return QStringLiteral("StorageAccount"); }
    static QString blobContainer() { return QStringLiteral("BlobContainer"); }
    static QString blob() { return QStringLiteral("Blob"); }
    static QString queue() { return QStringLiteral("Queue"); }
    static QString table() { return QStringLiteral("Table"); }
    static QStringList names();
    /// The values of StorageAccount's spec.sku and spec.accountKind (Azure's, as ASO lists them).
    static QStringList skuNames();
    static QStringList accountKinds();

    static Kind storageAccountKind();
    static Kind blobContainerKind();
    static Kind blobKind();
    static Kind queueKind();
    static Kind tableKind();
    /// The kind called `name`, or one with an empty name.
    static Kind kind(const QString &name);

    static void registerAll(KindRegistry &registry);

    /// The name the backend knows `resource` by: spec.azureName, else metadata.name.
    static QString azureName(const Resource &resource);
    /// Why `name` is not a valid backend name for `kind` (empty when it is).
    static QString nameError(const QString &kind, const QString &name);

    // The rules, shared by the schemas and nameError().
    static QString accountNamePattern() { return QStringLiteral("[a-z0-9]{3,24}"); }
    /// Containers and queues: lower-case letters, digits and single hyphens, starting and
    /// ending with a letter or digit; lengths are checked separately (3–63).
    static QString containerNamePattern()
    {
        return QStringLiteral("[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9]))*");
    }
    static QString tableNamePattern()
    {
        return QStringLiteral("(?!(?i:tables)$)[A-Za-z][A-Za-z0-9]{2,62}");
    }
    /// Blob names: 1–1024 characters, no control characters or backslashes, not ending in '.'
    /// or '/'.
    static QString blobNamePattern()
    {
        return QStringLiteral("[^\\x00-\\x1F\\x7F\\\\]*[^\\x00-\\x1F\\x7F\\\\./]");
    }
    /// Metadata names are C# identifiers; Azure matches them case-insensitively.
    static QString metadataKeyPattern() { return QStringLiteral("[A-Za-z_][A-Za-z0-9_]*"); }
    /// Metadata values travel in HTTP headers: printable ASCII without surrounding whitespace.
    static QString metadataValuePattern()
    {
        return QStringLiteral("[\\x21-\\x7E](?:[\\x20-\\x7E]*[\\x21-\\x7E])?");
    }
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace converge {

/// Reads the XML of Azure's List Containers, List Blobs and List Queues answers
/// (`<EnumerationResults>` … `<NextMarker>`). Pure and robust to garbage: a body that is not
/// such a listing gives an error, never a crash or a half-read page passed off as complete.
class AzureListParser final
{
public:
    struct Item
    {
        QString name;
        QMap<QString, QString> properties; ///< <Properties> children, e.g. "Etag", "PublicAccess"
        QJsonObject metadata;              ///< <Metadata> children, names as Azure spells them
    };
    struct Page
    {
        QList<Item> items;
        QString nextMarker;   ///< empty on the last page
        QStringList prefixes; ///< <BlobPrefix><Name> of a hierarchical listing
    };

    /// Parses a listing whose items are `<itemElement>` elements ("Container", "Blob",
    /// "Queue"). Returns false and sets `error` when the body is not such a listing.
    static bool parse(const QByteArray &body, const QString &itemElement, Page *page,
                      QString *error);
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace converge {

/// What an exporter made of a selection: the documents to write, and what it could not write.
struct ExportResult
{
    /// The documents, owners before what they own; empty whenever `missing` is not.
    QList<QJsonObject> documents;
    /// Fields the target requires that the workspace does not hold, each with how to give it:
    /// `StorageAccount/dev: spec.location is not set (…)`. Nothing is written then.
    QStringList missing;
    /// Resources left out because the target has no counterpart, each with the reason.
    QStringList dropped;
    /// What is not carried over although its resource is (credentials, endpoints), and why.
    QStringList notes;
    bool ok() const { return missing.isEmpty(); }
    /// Every selected resource has its documents.
    bool complete() const { return missing.isEmpty() && dropped.isEmpty(); }
};

/// Labels or annotations as the JSON object of a document's metadata.
inline QJsonObject jsonObjectOf(const QMap<QString, QString> &map)
{
    QJsonObject object;
    for (auto it = map.cbegin(); it != map.cend(); ++it)
        object.insert(it.key(), it.value());
    return object;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>

/// Field paths as validation errors and deltas spell them: `spec.tags[2].value`,
/// `spec.metadata.team`, and a key that is not an identifier quoted: `spec.metadata["a.b"]`
/// (with `"` and `\` escaped by a backslash).
namespace converge::FieldPath {

/// One step of a path: a key (field or map key), or a list index.
struct Segment
{
    QString key;
    qsizetype index = -1; ///< >= 0 for a list index; key is empty then

    bool isIndex() const { return index >= 0; }
    friend bool operator==(const Segment &, const Segment &) = default;
};

/// Whether `key` can be written bare: a letter or '_', then letters, digits or '_'.
bool isIdentifier(const QString &key);

/// `parent.key`, or `parent["key"]` when key is not an identifier; `parent` may be empty.
QString child(const QString &parent, const QString &key);
/// `parent[index]`.
QString index(const QString &parent, qsizetype index);

/// The segments of a path; nullopt when it is not well formed.
std::optional<QList<Segment>> split(const QString &path);

/// The value at `segments` (the first names the object itself, e.g. "spec"), or Undefined when
/// any step is missing.
QJsonValue valueAt(const QJsonObject &object, const QList<Segment> &segments);
/// The same for a path; Undefined when it does not parse.
QJsonValue valueAt(const QJsonObject &object, const QString &path);

/// Whether `path` is `prefix` or lies under it (`spec.metadata.team` under `spec.metadata`, but
/// `spec.metadataX` not).
bool isWithin(const QString &path, const QString &prefix);

} // namespace converge::FieldPath

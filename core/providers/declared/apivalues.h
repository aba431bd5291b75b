// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "fieldschema.h"
#include "kinddeclaration.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QMap>
#include <QString>

namespace converge {

/// How values travel in AWS's model-described APIs, for the declared kinds: members at dotted
/// paths, attribute maps of strings, the query protocol's answers typed by the spec, JSON
/// documents inside strings, IDs whose last segment is a name.
class ApiValues final
{
public:
    /// The value at a dotted member path ("StreamDescriptionSummary.StreamStatus"); `object`
    /// itself for an empty path.
    static QJsonValue at(const QJsonObject &object, const QString &path);
    /// A value as an attribute map wants it: 30, true and "30" all travel as text.
    static QString text(const QJsonValue &value);
    /// `value` as `schema`'s type says: the query protocol's XML answers every number and
    /// truth as text (IAM's MaxSessionDuration="3600").
    static QJsonValue typed(const FieldSchema &schema, const QJsonValue &value);
    /// A JSON document in a string, as given or as IAM answers it (percent-encoded); undefined
    /// when it is neither.
    static QJsonValue document(const QString &text);
    /// `observed`, a document, as `desired` spells it when both mean the same; else decoded and
    /// compact.
    static QString documentAsDesired(const QString &observed, const QString &desired);
    /// What follows an ID's last '/' or ':' (an ARN's or a URL's name).
    static QString lastSegment(const QString &id);
    /// The token `answer` gives for the page after it, by `call`'s paginator; empty when it is
    /// the last page or `call` has no paginator.
    static QString nextPageToken(const DeclaredCall &call, const QJsonObject &answer);
    /// `tags` (the spelling `shape` says) as a map of strings.
    static QMap<QString, QString> tagMap(const QJsonValue &tags, const DeclaredTags::Shape &shape);
    /// And back.
    static QJsonValue tagValue(const QMap<QString, QString> &tags,
                               const DeclaredTags::Shape &shape);
};

} // namespace converge

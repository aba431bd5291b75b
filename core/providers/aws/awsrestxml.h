// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "awsrestrequest.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>

namespace converge {

/// AWS's rest-xml protocol (S3) on the wire, both ways, as botocore's model says it: an
/// operation's JSON input as a method, a URI from its template (`/{Bucket}?versioning`), query
/// items, headers and an XML (or raw) payload; its answer (headers and XML body) as JSON in the
/// same shapes the json protocol gives (lists as arrays, structures as objects, booleans and
/// numbers typed).
///
/// Unlike the query protocol's, rest-xml's XML cannot be read without the model: S3 spells most
/// lists flattened (`<Rule/><Rule/>`) or with a member name of their own (`<TagSet><Tag/>`), so
/// the shapes travel with the declaration (`shapes`, botocore's own spelling, trimmed to what the
/// declared operations reach). Pure functions; AwsRestXmlClient sends what they build.
class AwsRestXml final
{
public:
    /// The operations (`{method, requestUri, input?, output?, checksumRequired?}`) and shapes of
    /// a service, as a declaration carries them.
    struct Model
    {
        QJsonObject operations;
        QJsonObject shapes;
    };

    using Request = AwsRestRequest;
    static Request request(const Model &model, const QString &operation, const QJsonObject &input);

    struct Answer
    {
        QJsonObject result;
        QString parseError; ///< non-empty when the body is not the XML the model says
    };
    /// `operation`'s answer from its headers and body.
    static Answer read(const Model &model, const QString &operation,
                       const QList<QPair<QByteArray, QByteArray>> &headers, const QByteArray &body);
    /// `xml`'s root element read as shape `shape` (what the fuzz target drives).
    static Answer readXml(const QJsonObject &shapes, const QString &shape, const QByteArray &xml);
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "awsrestrequest.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace converge {

/// AWS's rest-json protocol (Lambda) on the wire, both ways, as botocore's model says it: an
/// operation's JSON input as a method, a URI from its template
/// (`/2015-03-31/functions/{FunctionName}/code`), query items, headers, and a JSON body of the
/// members located nowhere else (or the payload member alone); its answer (status, headers and
/// JSON body) as JSON in the output shape, members named as the model names them.
///
/// The operations and shapes travel with the declaration as for rest-xml (AwsRestXml). A blob
/// member (Lambda's ZipFile) is base64 text in the input, as it is in the JSON body. Pure
/// functions; AwsRestJsonClient sends what they build.
class AwsRestJson final
{
public:
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
        QString parseError; ///< non-empty when the body is not the JSON the model says
    };
    /// `operation`'s answer from its status, headers and body.
    static Answer read(const Model &model, const QString &operation, int status,
                       const AwsRestRequest::Headers &headers, const QByteArray &body);
    /// `json` read as structure shape `shape` (what the fuzz target drives).
    static Answer readJson(const QJsonObject &shapes, const QString &shape, const QByteArray &json);
};

} // namespace converge

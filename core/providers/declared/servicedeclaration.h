// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "kinddeclaration.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace converge {

/// One declaration file: a service of a model-described API, how its protocol addresses it,
/// and its kinds.
struct ServiceDeclaration
{
    QString name;           ///< e.g. logs (botocore's folder)
    QString title;          ///< e.g. CloudWatch Logs
    QString protocol;       ///< json, query, rest-xml or rest-json
    QString jsonVersion;    ///< json: 1.0 or 1.1
    QString targetPrefix;   ///< json: the X-Amz-Target prefix
    QString signingName;    ///< SigV4's service name
    QString endpointPrefix; ///< the first label of the public endpoint's host
    QString apiVersion;     ///< the model's, e.g. 2014-03-28 (query sends it as Version)
    /// rest-xml and rest-json: each declared operation's `{method, requestUri, input, output,
    /// checksumRequired}`, and the model's shapes they reach (botocore's spelling).
    QJsonObject operations;
    QJsonObject shapes;
    QList<KindDeclaration> kinds;
};

} // namespace converge

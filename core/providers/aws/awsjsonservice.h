// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "awsendpoint.h"

#include <QByteArray>
#include <QString>
#include <QUrl>

namespace converge {

/// What addresses one service of AWS's JSON protocol, as botocore's `service-2.json` metadata
/// says it: the name SigV4 signs for, the X-Amz-Target prefix, the JSON version of the content
/// type and the prefix of its public endpoints.
struct AwsJsonService
{
    QString signingName;    ///< e.g. dynamodb, logs
    QString targetPrefix;   ///< e.g. DynamoDB_20120810, Logs_20140328
    QString jsonVersion;    ///< 1.0 or 1.1
    QString endpointPrefix; ///< e.g. dynamodb, logs

    static AwsJsonService dynamoDb()
    {
        return {QStringLiteral("dynamodb"), QStringLiteral("DynamoDB_20120810"),
                QStringLiteral("1.0"), QStringLiteral("dynamodb")};
    }

    /// "<targetPrefix>.<operation>".
    QByteArray target(const QString &operation) const
    {
        return (targetPrefix + QLatin1Char('.') + operation).toLatin1();
    }
    /// "application/x-amz-json-<jsonVersion>".
    QByteArray contentType() const
    {
        return QByteArrayLiteral("application/x-amz-json-") + jsonVersion.toLatin1();
    }
    /// https://<endpointPrefix>.<region>.amazonaws.com/ (.com.cn for the China regions).
    QUrl endpoint(const QString &region) const
    {
        return AwsEndpoint::defaultFor(endpointPrefix, region);
    }
};

} // namespace converge

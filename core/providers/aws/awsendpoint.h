// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QString>
#include <QUrl>

namespace converge {

/// Where an AwsAccount sends a service's requests.
struct AwsEndpoint
{
    /// https://<prefix>.<region>.amazonaws.com/ (.com.cn for the China regions).
    static QUrl defaultFor(const QString &endpointPrefix, const QString &region)
    {
        const QString suffix = region.startsWith(QLatin1String("cn-"))
                                   ? QStringLiteral(".amazonaws.com.cn")
                                   : QStringLiteral(".amazonaws.com");
        return QUrl(QStringLiteral("https://") + endpointPrefix + QLatin1Char('.') + region +
                    suffix + QLatin1Char('/'));
    }

    /// The account spec's `endpoints.<prefix>`, else its `endpoint`, else AWS's own.
    static QUrl of(const QJsonObject &accountSpec, const QString &endpointPrefix,
                   const QString &region)
    {
        const QString own = accountSpec.value(QStringLiteral("endpoints"))
                                .toObject()
                                .value(endpointPrefix)
                                .toString();
        if (!own.isEmpty())
            return QUrl(own);
        const QString endpoint = accountSpec.value(QStringLiteral("endpoint")).toString();
        return endpoint.isEmpty() ? defaultFor(endpointPrefix, region) : QUrl(endpoint);
    }
};

} // namespace converge

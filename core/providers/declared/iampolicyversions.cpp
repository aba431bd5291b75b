// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "iampolicyversions.h"

#include <QJsonArray>

#include <algorithm>

namespace converge {

namespace {

struct PolicyVersion
{
    QString id;
    QString created; ///< ISO 8601: orders as text
    bool isDefault = false;
};

Outcome<QList<PolicyVersion>> versionsOf(ApiCaller &caller, const QString &arn)
{
    QList<PolicyVersion> versions;
    QJsonObject request{{QStringLiteral("PolicyArn"), arn}};
    // At most five, in one page; a marker is followed all the same.
    for (int page = 0; page < 10; ++page) {
        auto reply = caller.call(QStringLiteral("ListPolicyVersions"), request);
        if (!reply)
            return reply.error();
        const QJsonObject &body = reply.value().body;
        for (const QJsonValue &v : body.value(QStringLiteral("Versions")).toArray()) {
            const QJsonValue isDefault = v[QStringLiteral("IsDefaultVersion")];
            versions.append({v[QStringLiteral("VersionId")].toString(),
                             v[QStringLiteral("CreateDate")].toString(),
                             isDefault.isBool() ? isDefault.toBool()
                                                : isDefault.toString() == QLatin1String("true")});
        }
        const QString marker = body.value(QStringLiteral("Marker")).toString();
        if (marker.isEmpty())
            break;
        request.insert(QStringLiteral("Marker"), marker);
    }
    std::sort(versions.begin(), versions.end(),
              [](const PolicyVersion &a, const PolicyVersion &b) { return a.created < b.created; });
    return versions;
}

std::optional<BackendError> dropVersion(ApiCaller &caller, const QString &arn, const QString &id)
{
    auto reply = caller.call(
        QStringLiteral("DeletePolicyVersion"),
        QJsonObject{{QStringLiteral("PolicyArn"), arn}, {QStringLiteral("VersionId"), id}});
    if (!reply)
        return reply.error();
    return std::nullopt;
}

} // namespace

std::optional<BackendError> IamPolicyVersions::makeRoom(ApiCaller &caller, const QString &arn)
{
    auto versions = versionsOf(caller, arn);
    if (!versions)
        return versions.error();
    if (versions.value().size() < maxVersions)
        return std::nullopt;
    for (const PolicyVersion &v : std::as_const(versions.value())) {
        if (!v.isDefault)
            return dropVersion(caller, arn, v.id);
    }
    return std::nullopt;
}

std::optional<BackendError> IamPolicyVersions::dropOthers(ApiCaller &caller, const QString &arn)
{
    auto versions = versionsOf(caller, arn);
    if (!versions)
        return versions.error();
    for (const PolicyVersion &v : std::as_const(versions.value())) {
        if (v.isDefault)
            continue;
        if (auto failed = dropVersion(caller, arn, v.id))
            return failed;
    }
    return std::nullopt;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "quietrun.h"

#include "buildinfo.h"

#include <QJsonArray>

namespace converge {

namespace {

const QString formatKey = QStringLiteral("format");
const QString versionKey = QStringLiteral("converge");

} // namespace

QJsonObject QuietRun::toMemo() const
{
    QJsonArray ownerList;
    for (const auto &[key, version] : owners)
        ownerList.append(QJsonArray{key.toString(), version});
    return {{formatKey, memoFormat},
            {versionKey, BuildInfo::version()},
            {QStringLiteral("spec"), observed.spec},
            {QStringLiteral("details"), observed.details},
            {QStringLiteral("resourceId"), observed.resourceId},
            {QStringLiteral("name"), observed.name},
            {QStringLiteral("inProgress"), observed.inProgress},
            {QStringLiteral("progress"), observed.progress},
            {QStringLiteral("phase"), phase},
            {QStringLiteral("reason"), reason},
            {QStringLiteral("message"), message},
            {QStringLiteral("owners"), ownerList}};
}

std::optional<QuietRun> QuietRun::fromMemo(const QJsonObject &memo, qint64 resourceVersion)
{
    // Another build may observe the same backend state in another shape: its memo would never
    // match a page, or worse, match one it should not.
    if (memo.value(formatKey).toInt() != memoFormat ||
        memo.value(versionKey).toString() != BuildInfo::version())
        return std::nullopt;
    QuietRun run;
    run.resourceVersion = resourceVersion;
    run.observed.spec = memo.value(QStringLiteral("spec")).toObject();
    run.observed.details = memo.value(QStringLiteral("details")).toObject();
    run.observed.resourceId = memo.value(QStringLiteral("resourceId")).toString();
    run.observed.name = memo.value(QStringLiteral("name")).toString();
    run.observed.inProgress = memo.value(QStringLiteral("inProgress")).toBool();
    run.observed.progress = memo.value(QStringLiteral("progress")).toString();
    run.phase = memo.value(QStringLiteral("phase")).toString();
    run.reason = memo.value(QStringLiteral("reason")).toString();
    run.message = memo.value(QStringLiteral("message")).toString();
    for (const QJsonValue &owner : memo.value(QStringLiteral("owners")).toArray()) {
        const QJsonArray pair = owner.toArray();
        const std::optional<ResourceKey> key = ResourceKey::fromString(pair.at(0).toString());
        if (!key || pair.size() != 2)
            return std::nullopt;
        run.owners.append({*key, pair.at(1).toInteger()});
    }
    return run;
}

} // namespace converge

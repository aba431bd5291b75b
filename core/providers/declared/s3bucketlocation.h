// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "declaredhook.h"

#include <QJsonObject>
#include <QString>

namespace converge {

/// The `s3BucketLocation` hook: S3 makes a bucket in us-east-1 unless CreateBucket names
/// another region in its CreateBucketConfiguration's LocationConstraint, and refuses one that
/// names us-east-1 (InvalidLocationConstraint). The region is the account's, which the
/// declaration cannot know.
class S3BucketLocation final : public DeclaredHook
{
public:
    explicit S3BucketLocation(QString region)
        : m_region(std::move(region))
    {}

    Outcome<QJsonObject> completeInput(const DeclaredCall &call, QJsonObject input,
                                       const QJsonObject &spec, const Observation *latest,
                                       QStringList *secrets) override
    {
        Q_UNUSED(spec)
        Q_UNUSED(latest)
        Q_UNUSED(secrets)
        return call.operation == QLatin1String("CreateBucket")
                   ? complete(std::move(input), m_region)
                   : input;
    }

    /// `createInput` with the LocationConstraint of `region`, unless it gives one already or
    /// `region` is us-east-1 (or unknown).
    static QJsonObject complete(QJsonObject createInput, const QString &region);

private:
    QString m_region;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "s3bucketlocation.h"

namespace converge {

QJsonObject S3BucketLocation::complete(QJsonObject createInput, const QString &region)
{
    const QString member = QStringLiteral("CreateBucketConfiguration");
    const QString constraint = QStringLiteral("LocationConstraint");
    QJsonObject configuration = createInput.value(member).toObject();
    if (region.isEmpty() || region == QLatin1String("us-east-1") ||
        !configuration.value(constraint).toString().isEmpty())
        return createInput;
    configuration.insert(constraint, region);
    createInput.insert(member, configuration);
    return createInput;
}

} // namespace converge

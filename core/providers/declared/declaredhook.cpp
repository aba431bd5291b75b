// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "declaredhook.h"

#include "dynamodbtablehook.h"
#include "iampolicyversions.h"
#include "lambdafunctionhook.h"
#include "s3bucketlocation.h"
#include "spannerdatabasehook.h"
#include "spannerinstancehook.h"

namespace converge {

std::unique_ptr<DeclaredHook> DeclaredHook::make(const QString &name, ApiCaller &caller,
                                                 CredentialStore *keychain)
{
    if (name == QLatin1String("dynamoDbTable"))
        return std::make_unique<DynamoDbTableHook>();
    if (name == QLatin1String("iamPolicyVersions"))
        return std::make_unique<IamPolicyVersions>(caller);
    if (name == QLatin1String("lambdaFunction"))
        return std::make_unique<LambdaFunctionHook>(keychain);
    if (name == QLatin1String("s3BucketLocation"))
        return std::make_unique<S3BucketLocation>(caller.region());
    if (name == QLatin1String("spannerDatabase"))
        return std::make_unique<SpannerDatabaseHook>();
    if (name == QLatin1String("spannerInstance"))
        return std::make_unique<SpannerInstanceHook>();
    return std::make_unique<DeclaredHook>(); // no hook: every point does nothing
}

} // namespace converge

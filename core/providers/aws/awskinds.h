// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "kind.h"

#include <QString>

namespace converge {

class KindRegistry;

/// The kinds of the AWS provider (group aws.converge.dev, version v1): AwsAccount, the
/// connection, and DynamoDBTable, shaped like the Table resource of AWS Controllers for
/// Kubernetes (camelCase spec fields).
class AwsKinds final
{
public:
    static QString group() { return QStringLiteral("aws.converge.dev"); }
    static QString version() { return QStringLiteral("v1"); }
    static QString apiVersion() { return group() + QLatin1Char('/') + version(); }
    static QString accountKind() { return QStringLiteral("AwsAccount"); }
    static QString tableKind() { return QStringLiteral("DynamoDBTable"); }

    /// AwsAccount: region, endpoint, allowInsecureHttp, credential (exactly one of emulator,
    /// keychain, env, file).
    static Kind account();
    /// DynamoDBTable, owned by an AwsAccount.
    static Kind table();

    static void registerKinds(KindRegistry &registry);
};

} // namespace converge

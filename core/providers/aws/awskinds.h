// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "kind.h"
#include "servicedeclaration.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace converge {

class DeclaredServices;
class KindRegistry;

/// The kinds of the AWS provider (group aws.converge.dev, version v1): AwsAccount, the
/// connection; S3Object; and the kinds declared as data in resources/kinds/aws (docs/kinds.md),
/// DynamoDBTable among them, completed by DynamoDbTableRules.
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

    /// The declared services and their kinds, read from the program's resources once.
    static const DeclaredServices &declared();
    static const QList<ServiceDeclaration> &declarations();
    /// The declaration of `kind`, or nullptr when it is not a declared kind.
    static const KindDeclaration *declaration(const QString &kind);
    /// The service that declares `kind`, or nullptr.
    static const ServiceDeclaration *serviceOf(const QString &kind);
    /// The names of the declared kinds.
    static QStringList declaredKinds();

    static void registerKinds(KindRegistry &registry);
};

} // namespace converge

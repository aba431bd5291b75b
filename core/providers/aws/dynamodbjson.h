// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

/// Names and values of DynamoDB's JSON that more than one file of the AWS provider writes.
namespace converge::DynamoDbJson {

/// A field or operation name: shorter to read than QStringLiteral in the files made of them.
inline QString s(const char *text)
{
    return QString::fromLatin1(text);
}

/// The billing modes, DynamoDB's BillingMode and a DynamoDBTable's spec.billingMode alike.
inline const QString payPerRequest = QStringLiteral("PAY_PER_REQUEST");
inline const QString provisioned = QStringLiteral("PROVISIONED");

} // namespace converge::DynamoDbJson

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "declaredhook.h"

namespace converge {

/// The `dynamoDbTable` hook: what DynamoDB does unlike its model (DynamoDbTableSteps has the
/// rules).
/// - UpdateTable changes one thing a call (an index created or deleted, the capacity, the
///   stream, a setting): the call the declaration makes is replaced by the next step towards the
///   spec, and the table is Reconciling until no step is left. A step that the endpoint accepts
///   but does not make (dynalite ignores index and stream changes) is a Terminal
///   ChangeNotApplied rather than the same call forever.
/// - DescribeTable answers the spec its own way (billing mode and class in summaries, capacity
///   0/0 on demand, no stream as no member, encryption and time to live as statuses, lists in no
///   promised order): observed as the spec writes it.
/// - A global index being created or deleted is Reconciling, as the table's own states are.
/// - CreateTable is sent no disabled stream (a new table has none) and no empty list (DynamoDB
///   refuses an empty GlobalSecondaryIndexes), and an UpdateTimeToLive that
///   turns it off names the attribute it was on, as DynamoDB requires.
class DynamoDbTableHook final : public DeclaredHook
{
public:
    Outcome<QJsonObject> completeInput(const DeclaredCall &call, QJsonObject input,
                                       const QJsonObject &spec, const Observation *latest,
                                       QStringList *secrets) override;
    std::optional<BackendError> observe(Observation &o, const QJsonObject &resource,
                                        const QJsonObject &desired, const Target &target,
                                        const QSet<QString> &sent) override;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

namespace converge {

struct Kind;

/// What DynamoDB's model cannot say about a DynamoDBTable and CreateTable checks all the same:
/// the rules that tie fields together (billing mode and capacity, every key attribute defined and
/// no other, a local index under the table's partition key), the order of a key schema, an
/// index's projection, a stream's view type, names that appear twice, and metadata.name as the
/// table name it stands for. Added to the declared kind (resources/kinds/aws/generated/
/// dynamodb.json) by AwsKinds, so that a manifest is refused at its file:line:column before any
/// request, as the hand-written kind refused it.
class DynamoDbTableRules final
{
public:
    /// Adds the rules to `table`, the declared DynamoDBTable, beside the checks it has.
    static void apply(Kind &table);
};

} // namespace converge

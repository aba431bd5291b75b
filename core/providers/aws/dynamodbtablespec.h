// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace converge {

struct Resource;

/// Pure translations between a DynamoDBTable spec (camelCase, AWS Controllers for Kubernetes'
/// shape) and DynamoDB's JSON (PascalCase), so that DynamoDbTableManager only sequences calls.
///
/// observedSpec() normalises what DescribeTable adds or reorders, so that a table created from a
/// spec observes as that spec: capacity 0/0 under PAY_PER_REQUEST is dropped, a missing billing
/// mode summary means PROVISIONED, a missing stream specification means a disabled stream,
/// attribute definitions keep only key attributes of the table and its global indexes (AWS's
/// own rule; local secondary indexes are not part of the kind), and lists keyed by a name are
/// put in the desired order.
class DynamoDbTableSpec final
{
public:
    /// spec.tableName, or metadata.name when it has none.
    static QString desiredTableName(const Resource &resource);
    /// The table the resource manages: the one named by its converge.dev/resource-id ARN when
    /// that is recorded (so that a changed tableName is seen as an immutable change rather than
    /// a new table), else desiredTableName().
    static QString tableName(const Resource &resource);
    /// "orders" from "arn:aws:dynamodb:us-east-1:123456789012:table/orders"; empty otherwise.
    static QString tableNameFromArn(const QString &arn);

    /// The CreateTable request.
    static QJsonObject createRequest(const QJsonObject &spec, const QString &tableName);

    /// The observed spec from a TableDescription and the table's tags (`{Key, Value}` items;
    /// `hasTags` false when they were not read). `desired` gives list order and the owner.
    static QJsonObject observedSpec(const QJsonObject &table, const QJsonArray &tags, bool hasTags,
                                    const QJsonObject &desired);

    /// Further facts for people: status, ARN, item count, index states, stream ARN, …
    static QJsonObject details(const QJsonObject &table);

    /// "table is CREATING", "index byCustomer is DELETING"; empty when the table and all its
    /// indexes are ACTIVE.
    static QString progress(const QJsonObject &table);

    /// One UpdateTable call towards the desired spec. DynamoDB accepts one index creation or
    /// deletion per call and refuses most combinations, so changes go one kind at a time: index
    /// deletions (indexes no longer desired, or whose keys or projection changed), then billing
    /// mode and capacity, then the stream, then index creations.
    struct Step
    {
        enum class Kind { None, DeleteIndex, Capacity, Stream, CreateIndex };
        Kind kind = Kind::None;
        QString index;       ///< the index of a DeleteIndex or CreateIndex step
        QJsonObject request; ///< the UpdateTable body
        QString description; ///< e.g. "delete index byCustomer"
        friend bool operator==(const Step &, const Step &) = default;
    };
    /// The next step from `observed` (an observedSpec()) to `desired`; Kind::None when
    /// UpdateTable has nothing left to do (tags are not UpdateTable's).
    static Step nextStep(const QJsonObject &desired, const QJsonObject &observed,
                         const QString &tableName);

    /// Tags to set (`{Key, Value}` items for TagResource) and keys to remove (UntagResource);
    /// both empty when the desired spec does not manage tags.
    struct TagChanges
    {
        QJsonArray set;
        QStringList remove;
        bool isEmpty() const { return set.isEmpty() && remove.isEmpty(); }
    };
    static TagChanges tagChanges(const QJsonObject &desired, const QJsonObject &observed);
};

} // namespace converge

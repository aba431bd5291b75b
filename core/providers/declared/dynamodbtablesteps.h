// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace converge {

/// What DynamoDB does its own way, as pure functions for DynamoDbTableHook: how DescribeTable
/// answers a table's spec, and the order in which UpdateTable may change it.
///
/// observedSpec() normalises what DescribeTable adds or reorders, so that a table created from a
/// spec observes as that spec: capacity 0/0 under PAY_PER_REQUEST is dropped, a missing billing
/// mode summary means PROVISIONED, a missing stream specification means a disabled stream, the
/// table class and encryption are read from their summaries, attribute definitions keep only
/// key attributes of the table and its indexes (AWS's own rule), and lists keyed by a name are
/// put in the desired order.
class DynamoDbTableSteps final
{
public:
    /// The spec fields of a TableDescription (`table`, with the TimeToLiveDescription and
    /// ContinuousBackupsDescription of the follow reads when they were made): every field but
    /// owner and tags. `desired` gives list order and what AWS answers otherwise than it is
    /// written (a KMS key given by alias).
    static QJsonObject observedSpec(const QJsonObject &table, const QJsonObject &desired);
    /// "index byCustomer is CREATING"; empty when every global index is ACTIVE.
    static QString indexProgress(const QJsonObject &table);
    /// The spec fields that UpdateTable changes, through nextStep().
    static QStringList updateTableFields();
    /// One UpdateTable call towards the desired spec. DynamoDB accepts one index creation or
    /// deletion per call and refuses most combinations, so changes go one kind at a time: index
    /// deletions (indexes no longer desired, or whose keys or projection changed), then billing
    /// mode and capacity, then the stream, then the table's settings (class, encryption, deletion
    /// protection), then index creations.
    struct Step
    {
        enum class Kind { None, DeleteIndex, Capacity, Stream, Settings, CreateIndex };
        Kind kind = Kind::None;
        QString index;       ///< the index of a DeleteIndex or CreateIndex step
        QJsonObject request; ///< the UpdateTable body
        QString description; ///< e.g. "delete index byCustomer"
        friend bool operator==(const Step &, const Step &) = default;
    };
    /// The next step from `observed` (an observedSpec()) to `desired`; Kind::None when
    /// UpdateTable has nothing left to do (tags, time to live and backups are not UpdateTable's).
    static Step nextStep(const QJsonObject &desired, const QJsonObject &observed,
                         const QString &tableName);
};

} // namespace converge

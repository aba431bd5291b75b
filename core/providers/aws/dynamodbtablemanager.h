// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "fieldschema.h"
#include "manager.h"

#include <QJsonArray>
#include <QJsonObject>

#include <chrono>
#include <memory>

namespace converge {

class AwsJsonClient;

/// DynamoDBTable over DynamoDB's control plane.
///
/// get = DescribeTable (+ ListTagsOfResource once the table is ACTIVE or UPDATING), mapped into
/// the spec shape by DynamoDbTableSpec. A table or index CREATING, UPDATING or DELETING is an
/// operation in progress: the engine polls and never writes meanwhile. create = CreateTable (an
/// existing table is found, not an error). update = TagResource / UntagResource, then at most
/// one UpdateTable step (DynamoDB takes one index change per call); the answer is always
/// in progress so that the engine looks again and takes the next step. deleteResource =
/// DeleteTable, answered while the table is DELETING. list = ListTables, names only.
class DynamoDbTableManager final : public Manager
{
public:
    struct Options
    {
        int listLimit = 100; ///< ListTables' Limit (1–100)
        std::chrono::milliseconds pollAfter{500};
    };

    DynamoDbTableManager(std::shared_ptr<AwsJsonClient> client, Options options);

    Outcome<Observation> get(const Target &target) override;
    Outcome<Observation> create(const Target &target) override;
    Outcome<Observation> update(const Target &target, const Observation &latest,
                                const QStringList &delta) override;
    Outcome<std::optional<Observation>> deleteResource(const Target &target,
                                                       const Observation &latest) override;
    Outcome<ListPage> list(const ListScope &scope) override;
    bool createAdopts() const override { return true; }

private:
    Observation observe(const QJsonObject &table, const QJsonArray &tags, bool hasTags,
                        const Target &target, const QString &requestId) const;
    Outcome<QJsonArray> listTags(const QString &arn);

    std::shared_ptr<AwsJsonClient> m_client;
    Options m_options;
    FieldSchema m_spec;
};

} // namespace converge

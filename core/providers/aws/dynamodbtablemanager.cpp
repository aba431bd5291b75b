// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "dynamodbtablemanager.h"

#include "awsjsonclient.h"
#include "awskinds.h"
#include "delta.h"
#include "dynamodbjson.h"
#include "dynamodbtablespec.h"

#include <algorithm>

namespace converge {

namespace {

using DynamoDbJson::s;

BackendError invalidResponse(const QString &operation, const QString &requestId)
{
    BackendError error;
    error.category = BackendError::Category::Transient;
    error.code = QStringLiteral("InvalidResponse");
    error.message = QStringLiteral("the answer to %1 has no table description").arg(operation);
    error.requestId = requestId;
    return error;
}

} // namespace

DynamoDbTableManager::DynamoDbTableManager(std::shared_ptr<AwsJsonClient> client, Options options)
    : m_client(std::move(client))
    , m_options(options)
    , m_spec(AwsKinds::table().spec)
{
    m_options.listLimit = std::clamp(m_options.listLimit, 1, 100);
}

Observation DynamoDbTableManager::observe(const QJsonObject &table, const QJsonArray &tags,
                                          bool hasTags, const Target &target,
                                          const QString &requestId) const
{
    Observation o;
    o.spec = DynamoDbTableSpec::observedSpec(table, tags, hasTags, target.resource.spec);
    o.details = DynamoDbTableSpec::details(table);
    o.resourceId = table.value(s("TableArn")).toString();
    o.name = table.value(s("TableName")).toString();
    o.progress = DynamoDbTableSpec::progress(table);
    o.inProgress = !o.progress.isEmpty();
    if (o.inProgress)
        o.pollAfter = m_options.pollAfter;
    o.requestId = requestId;
    return o;
}

Outcome<QJsonArray> DynamoDbTableManager::listTags(const QString &arn)
{
    QJsonArray tags;
    QString next;
    do {
        QJsonObject request{{s("ResourceArn"), arn}};
        if (!next.isEmpty())
            request.insert(s("NextToken"), next);
        auto reply = m_client->call(s("ListTagsOfResource"), request);
        if (!reply)
            return reply.error();
        for (const QJsonValue &tag : reply.value().body.value(s("Tags")).toArray())
            tags.append(tag);
        next = reply.value().body.value(s("NextToken")).toString();
    } while (!next.isEmpty());
    return tags;
}

Outcome<Observation> DynamoDbTableManager::get(const Target &target)
{
    const QString name = DynamoDbTableSpec::tableName(target.resource);
    auto reply = m_client->call(s("DescribeTable"), QJsonObject{{s("TableName"), name}});
    if (!reply)
        return reply.error();
    const QJsonObject table = reply.value().body.value(s("Table")).toObject();
    if (table.isEmpty())
        return invalidResponse(s("DescribeTable"), reply.value().requestId);

    // Tags are read only once the table is settled: AWS may not find the ARN while it is
    // CREATING, and the engine compares nothing while an operation runs anyway.
    const QString status = table.value(s("TableStatus")).toString();
    if (status != QLatin1String("ACTIVE") && status != QLatin1String("UPDATING"))
        return observe(table, {}, false, target, reply.value().requestId);
    auto tags = listTags(table.value(s("TableArn")).toString());
    if (!tags)
        return tags.error();
    return observe(table, tags.value(), true, target, reply.value().requestId);
}

Outcome<Observation> DynamoDbTableManager::create(const Target &target)
{
    const QString name = DynamoDbTableSpec::tableName(target.resource);
    const QJsonObject request = DynamoDbTableSpec::createRequest(target.resource.spec, name);
    auto reply = m_client->call(s("CreateTable"), request);
    if (!reply) {
        // It exists already (created by an earlier attempt, or by someone else): found.
        if (reply.error().code == QLatin1String("ResourceInUseException")) {
            Outcome<Observation> found = get(target);
            if (found)
                found.value().existed = true;
            return found;
        }
        return reply.error();
    }
    const QJsonObject table = reply.value().body.value(s("TableDescription")).toObject();
    if (table.isEmpty())
        return invalidResponse(s("CreateTable"), reply.value().requestId);
    // The table holds the tags it was created with (CreateTable takes them with it): the first
    // reconcile then finds nothing to tag.
    return observe(table, request.value(s("Tags")).toArray(), true, target,
                   reply.value().requestId);
}

Outcome<Observation> DynamoDbTableManager::update(const Target &target, const Observation &latest,
                                                  const QStringList &delta)
{
    Q_UNUSED(delta); // the plan compares whole specs: a path list cannot say which index to drop
    const QJsonObject &desired = target.resource.spec;
    const QString name = DynamoDbTableSpec::tableName(target.resource);
    const QString arn = latest.resourceId;
    QString requestId = latest.requestId;

    // Tags first: they do not change the table's status and need no waiting.
    const DynamoDbTableSpec::TagChanges tags = DynamoDbTableSpec::tagChanges(desired, latest.spec);
    if (!tags.set.isEmpty()) {
        auto reply = m_client->call(s("TagResource"),
                                    QJsonObject{{s("ResourceArn"), arn}, {s("Tags"), tags.set}});
        if (!reply)
            return reply.error();
        requestId = reply.value().requestId;
    }
    if (!tags.remove.isEmpty()) {
        auto reply =
            m_client->call(s("UntagResource"),
                           QJsonObject{{s("ResourceArn"), arn},
                                       {s("TagKeys"), QJsonArray::fromStringList(tags.remove)}});
        if (!reply)
            return reply.error();
        requestId = reply.value().requestId;
    }
    // What the table has now as far as tags go (tag reads are eventually consistent on AWS).
    QJsonObject seen = latest.spec;
    if (desired.contains(s("tags")))
        seen.insert(s("tags"), desired.value(s("tags")));

    const DynamoDbTableSpec::Step step = DynamoDbTableSpec::nextStep(desired, seen, name);
    if (step.kind == DynamoDbTableSpec::Step::Kind::None) {
        const QStringList left = Delta::between(m_spec, desired, seen);
        if (!left.isEmpty()) {
            BackendError error;
            error.category = BackendError::Category::Invalid;
            error.code = QStringLiteral("UnsupportedChange");
            error.message = QStringLiteral("DynamoDB cannot change %1 of an existing table; "
                                           "restore the previous value, or delete and "
                                           "re-create the table")
                                .arg(left.join(QStringLiteral(", ")));
            error.requestId = requestId;
            return error;
        }
        Observation done = latest;
        done.spec = seen;
        done.requestId = requestId;
        return done;
    }

    auto reply = m_client->call(s("UpdateTable"), step.request);
    if (!reply)
        return reply.error();
    const QJsonObject table = reply.value().body.value(s("TableDescription")).toObject();
    if (table.isEmpty())
        return invalidResponse(s("UpdateTable"), reply.value().requestId);
    Observation updated = observe(table, {}, false, target, reply.value().requestId);
    if (seen.contains(s("tags")))
        updated.spec.insert(s("tags"), seen.value(s("tags")));

    // An endpoint that accepts the call but neither starts nor makes the change (dynalite
    // ignores index and stream changes) would otherwise be asked again forever.
    if (!updated.inProgress && DynamoDbTableSpec::nextStep(desired, updated.spec, name) == step) {
        BackendError error;
        error.category = BackendError::Category::Terminal;
        error.code = QStringLiteral("ChangeNotApplied");
        error.message = QStringLiteral("DynamoDB accepted UpdateTable (%1) on %2 but the table "
                                       "shows no such change; the endpoint may not implement it "
                                       "(dynalite ignores index and stream changes)")
                            .arg(step.description, name);
        error.requestId = reply.value().requestId;
        return error;
    }
    // Always in progress: the engine looks again, and takes the next step if there is one.
    updated.progress = updated.inProgress
                           ? step.description + QStringLiteral(": ") + updated.progress
                           : step.description;
    updated.inProgress = true;
    updated.pollAfter = m_options.pollAfter;
    return updated;
}

Outcome<std::optional<Observation>> DynamoDbTableManager::deleteResource(const Target &target,
                                                                         const Observation &)
{
    const QString name = DynamoDbTableSpec::tableName(target.resource);
    auto reply = m_client->call(s("DeleteTable"), QJsonObject{{s("TableName"), name}});
    if (!reply) {
        if (reply.error().category == BackendError::Category::NotFound)
            return std::optional<Observation>();
        return reply.error();
    }
    const QJsonObject table = reply.value().body.value(s("TableDescription")).toObject();
    if (table.isEmpty())
        return invalidResponse(s("DeleteTable"), reply.value().requestId);
    Observation deleting = observe(table, {}, false, target, reply.value().requestId);
    if (!deleting.inProgress) {
        // DeleteTable answers DELETING; anything else still means "look again until it is gone".
        deleting.inProgress = true;
        deleting.progress = QStringLiteral("table is DELETING");
        deleting.pollAfter = m_options.pollAfter;
    }
    return std::optional<Observation>(deleting);
}

Outcome<ListPage> DynamoDbTableManager::list(const ListScope &scope)
{
    QJsonObject request{{s("Limit"), m_options.listLimit}};
    if (!scope.continuation.isEmpty())
        request.insert(s("ExclusiveStartTableName"), scope.continuation);
    auto reply = m_client->call(s("ListTables"), request);
    if (!reply)
        return reply.error();
    ListPage page;
    for (const QJsonValue &v : reply.value().body.value(s("TableNames")).toArray()) {
        Observation o;
        o.name = v.toString();
        o.spec = QJsonObject{{s("tableName"), o.name}};
        o.requestId = reply.value().requestId;
        page.items.append(o);
    }
    page.continuation = reply.value().body.value(s("LastEvaluatedTableName")).toString();
    return page;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awsrestjson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <algorithm>

namespace converge {

namespace {

constexpr int restJsonMaxDepth = 64; // deeper answers are garbage, not AWS

QJsonObject restJsonShape(const QJsonObject &shapes, const QJsonObject &ref)
{
    return shapes.value(ref.value(QStringLiteral("shape")).toString()).toObject();
}

QString restJsonType(const QJsonObject &shape)
{
    return shape.value(QStringLiteral("type")).toString();
}

// `value` as the model's `shape`, both ways: a structure's members under their wire names
// (`locationName`, rarely set in rest-json bodies) on the wire and the model's names in Converge;
// members located in the URI, query or headers are not in the body. Scalars pass as they are
// (JSON types them already; a blob is base64 text both ways).
QJsonValue restJsonConvert(const QJsonObject &shapes, const QJsonObject &shape,
                           const QJsonValue &value, bool toWire, int depth)
{
    if (depth > restJsonMaxDepth)
        return QJsonValue(QJsonValue::Undefined);
    const QString type = restJsonType(shape);
    if (type == QLatin1String("structure")) {
        if (!value.isObject())
            return QJsonValue(QJsonValue::Undefined);
        const QJsonObject in = value.toObject();
        const QJsonObject members = shape.value(QStringLiteral("members")).toObject();
        QJsonObject out;
        for (auto it = members.begin(); it != members.end(); ++it) {
            const QJsonObject ref = it.value().toObject();
            if (ref.contains(QStringLiteral("location")))
                continue;
            const QString wire = ref.value(QStringLiteral("locationName")).toString(it.key());
            const QString from = toWire ? it.key() : wire;
            if (!in.contains(from))
                continue;
            const QJsonValue converted = restJsonConvert(shapes, restJsonShape(shapes, ref),
                                                         in.value(from), toWire, depth + 1);
            if (!converted.isUndefined())
                out.insert(toWire ? wire : it.key(), converted);
        }
        return out;
    }
    if (type == QLatin1String("list")) {
        if (!value.isArray())
            return QJsonValue(QJsonValue::Undefined);
        const QJsonObject item =
            restJsonShape(shapes, shape.value(QStringLiteral("member")).toObject());
        QJsonArray out;
        for (const QJsonValue &v : value.toArray()) {
            const QJsonValue converted = restJsonConvert(shapes, item, v, toWire, depth + 1);
            out.append(converted.isUndefined() ? QJsonValue(QJsonValue::Null) : converted);
        }
        return out;
    }
    if (type == QLatin1String("map")) {
        if (!value.isObject())
            return QJsonValue(QJsonValue::Undefined);
        const QJsonObject item =
            restJsonShape(shapes, shape.value(QStringLiteral("value")).toObject());
        const QJsonObject in = value.toObject();
        QJsonObject out;
        for (auto it = in.begin(); it != in.end(); ++it) {
            const QJsonValue converted =
                restJsonConvert(shapes, item, it.value(), toWire, depth + 1);
            if (!converted.isUndefined())
                out.insert(it.key(), converted);
        }
        return out;
    }
    return value;
}

} // namespace

AwsRestJson::Request AwsRestJson::request(const Model &model, const QString &operation,
                                          const QJsonObject &input)
{
    Request out = AwsRestRequest::bind(model.operations, model.shapes, operation, input);
    if (!out.error.isEmpty())
        return out;
    const QJsonObject op = model.operations.value(operation).toObject();
    const QJsonObject shape =
        model.shapes.value(op.value(QStringLiteral("input")).toString()).toObject();
    const QString payload = shape.value(QStringLiteral("payload")).toString();
    if (!payload.isEmpty()) {
        // The payload member alone is the body: a structure as JSON, a blob or string as it is.
        if (!input.contains(payload))
            return out;
        const QJsonObject ref =
            shape.value(QStringLiteral("members")).toObject().value(payload).toObject();
        const QJsonObject payloadShape = restJsonShape(model.shapes, ref);
        if (restJsonType(payloadShape) == QLatin1String("structure"))
            out.body = QJsonDocument(restJsonConvert(model.shapes, payloadShape,
                                                     input.value(payload), true, 0)
                                         .toObject())
                           .toJson(QJsonDocument::Compact);
        else
            out.body = AwsRestRequest::text(input.value(payload)).toUtf8();
        return out;
    }
    // Every member not in the URI, query or headers goes into one JSON object; an operation
    // whose input has a body member sends `{}` when none is given, as botocore does.
    const QJsonObject body = restJsonConvert(model.shapes, shape, input, true, 0).toObject();
    const QJsonObject members = shape.value(QStringLiteral("members")).toObject();
    const bool hasBodyMembers =
        std::any_of(members.begin(), members.end(), [](const QJsonValue &r) {
            return !r.toObject().contains(QStringLiteral("location"));
        });
    if (hasBodyMembers) {
        out.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
        out.headers.append(
            {QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json")});
    }
    return out;
}

AwsRestJson::Answer AwsRestJson::readJson(const QJsonObject &shapes, const QString &shape,
                                          const QByteArray &json)
{
    Answer answer;
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError) {
        answer.parseError = error.errorString();
        return answer;
    }
    if (!document.isObject()) {
        answer.parseError = QStringLiteral("not a JSON object");
        return answer;
    }
    const QJsonObject rootShape = shapes.value(shape).toObject();
    if (restJsonType(rootShape) != QLatin1String("structure")) {
        answer.parseError = QStringLiteral("%1 is not a structure").arg(shape);
        return answer;
    }
    answer.result = restJsonConvert(shapes, rootShape, document.object(), false, 0).toObject();
    return answer;
}

AwsRestJson::Answer AwsRestJson::read(const Model &model, const QString &operation, int status,
                                      const AwsRestRequest::Headers &headers,
                                      const QByteArray &body)
{
    Answer answer;
    const QJsonObject op = model.operations.value(operation).toObject();
    const QString shapeName = op.value(QStringLiteral("output")).toString();
    if (shapeName.isEmpty())
        return answer; // an operation that answers nothing (TagResource: 204)
    const QJsonObject shape = model.shapes.value(shapeName).toObject();
    const QString payload = shape.value(QStringLiteral("payload")).toString();
    if (!payload.isEmpty()) {
        const QJsonObject ref =
            shape.value(QStringLiteral("members")).toObject().value(payload).toObject();
        const QString payloadShape = ref.value(QStringLiteral("shape")).toString();
        if (restJsonType(model.shapes.value(payloadShape).toObject()) ==
            QLatin1String("structure")) {
            if (!body.trimmed().isEmpty()) {
                answer = readJson(model.shapes, payloadShape, body);
                answer.result = QJsonObject{{payload, answer.result}};
            }
        } else {
            answer.result.insert(payload, QString::fromUtf8(body));
        }
    } else if (!body.trimmed().isEmpty()) {
        answer = readJson(model.shapes, shapeName, body);
    }
    AwsRestRequest::readLocated(model.shapes, shape, headers, status, answer.result);
    return answer;
}

} // namespace converge

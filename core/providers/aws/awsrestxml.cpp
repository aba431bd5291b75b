// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awsrestxml.h"

#include <QJsonArray>
#include <QXmlStreamReader>
#include <QXmlStreamWriter>

namespace converge {

namespace {

constexpr int restXmlMaxDepth = 64; // deeper answers are garbage, not AWS
constexpr int restXmlMaxNodes = 200000;

// An element as read, before the model gives it a shape.
struct RestXmlNode
{
    QString name;
    QString text;
    QList<RestXmlNode> children;
};

bool restXmlReadNode(QXmlStreamReader &xml, RestXmlNode &node, int depth, int &count)
{
    if (depth > restXmlMaxDepth || ++count > restXmlMaxNodes) {
        xml.raiseError(QStringLiteral("nested too deep or too large"));
        return false;
    }
    node.name = xml.name().toString();
    while (xml.readNext() != QXmlStreamReader::Invalid) {
        if (xml.isEndElement())
            return true;
        if (xml.isCharacters()) {
            node.text += xml.text();
        } else if (xml.isStartElement()) {
            node.children.append(RestXmlNode{});
            if (!restXmlReadNode(xml, node.children.last(), depth + 1, count))
                return false;
        }
    }
    return false;
}

QString restXmlShapeName(const QJsonObject &ref)
{
    return ref.value(QStringLiteral("shape")).toString();
}

QJsonObject restXmlShape(const QJsonObject &shapes, const QJsonObject &ref)
{
    return shapes.value(restXmlShapeName(ref)).toObject();
}

QString restXmlType(const QJsonObject &shape)
{
    return shape.value(QStringLiteral("type")).toString();
}

QJsonValue restXmlParse(const QJsonObject &shapes, const QJsonObject &shape,
                        const QList<const RestXmlNode *> &nodes, int depth);

// The name a member's element has in its parent: a flattened list's items carry the list
// member's own name, if it has one (botocore's _member_key_name).
QString restXmlMemberKey(const QJsonObject &shapes, const QString &member, const QJsonObject &ref)
{
    const QJsonObject shape = restXmlShape(shapes, ref);
    if (restXmlType(shape) == QLatin1String("list") &&
        shape.value(QStringLiteral("flattened")).toBool()) {
        const QString itemName = shape.value(QStringLiteral("member"))
                                     .toObject()
                                     .value(QStringLiteral("locationName"))
                                     .toString();
        if (!itemName.isEmpty())
            return itemName;
    }
    return ref.value(QStringLiteral("locationName")).toString(member);
}

QJsonValue restXmlParseStructure(const QJsonObject &shapes, const QJsonObject &shape,
                                 const RestXmlNode &node, int depth)
{
    QJsonObject out;
    const QJsonObject members = shape.value(QStringLiteral("members")).toObject();
    for (auto it = members.begin(); it != members.end(); ++it) {
        const QJsonObject ref = it.value().toObject();
        if (ref.contains(QStringLiteral("location")))
            continue; // headers and the status code are not in the body
        const QString key = restXmlMemberKey(shapes, it.key(), ref);
        QList<const RestXmlNode *> found;
        for (const RestXmlNode &child : node.children) {
            if (child.name == key)
                found.append(&child);
        }
        if (found.isEmpty())
            continue;
        const QJsonValue value = restXmlParse(shapes, restXmlShape(shapes, ref), found, depth + 1);
        if (!value.isUndefined())
            out.insert(it.key(), value);
    }
    return out;
}

QJsonValue restXmlParse(const QJsonObject &shapes, const QJsonObject &shape,
                        const QList<const RestXmlNode *> &nodes, int depth)
{
    if (depth > restXmlMaxDepth || nodes.isEmpty())
        return QJsonValue(QJsonValue::Undefined);
    const QString type = restXmlType(shape);
    if (type == QLatin1String("list")) {
        const QJsonObject memberRef = shape.value(QStringLiteral("member")).toObject();
        const QJsonObject memberShape = restXmlShape(shapes, memberRef);
        QList<const RestXmlNode *> items;
        if (shape.value(QStringLiteral("flattened")).toBool()) {
            items = nodes;
        } else {
            const QString itemName =
                memberRef.value(QStringLiteral("locationName")).toString(QStringLiteral("member"));
            for (const RestXmlNode &child : nodes.first()->children) {
                if (child.name == itemName)
                    items.append(&child);
            }
        }
        QJsonArray list;
        for (const RestXmlNode *item : std::as_const(items)) {
            const QJsonValue value = restXmlParse(shapes, memberShape, {item}, depth + 1);
            list.append(value.isUndefined() ? QJsonValue(QJsonValue::Null) : value);
        }
        return list;
    }
    const RestXmlNode &node = *nodes.first();
    if (type == QLatin1String("structure"))
        return restXmlParseStructure(shapes, shape, node, depth);
    if (type == QLatin1String("map")) {
        const QString keyName = shape.value(QStringLiteral("key"))
                                    .toObject()
                                    .value(QStringLiteral("locationName"))
                                    .toString(QStringLiteral("key"));
        const QJsonObject valueRef = shape.value(QStringLiteral("value")).toObject();
        const QString valueName =
            valueRef.value(QStringLiteral("locationName")).toString(QStringLiteral("value"));
        QList<const RestXmlNode *> entries;
        if (shape.value(QStringLiteral("flattened")).toBool()) {
            entries = nodes;
        } else {
            for (const RestXmlNode &child : node.children)
                entries.append(&child);
        }
        QJsonObject map;
        for (const RestXmlNode *entry : std::as_const(entries)) {
            QString key;
            const RestXmlNode *value = nullptr;
            for (const RestXmlNode &part : entry->children) {
                if (part.name == keyName)
                    key = part.text;
                else if (part.name == valueName)
                    value = &part;
            }
            if (value)
                map.insert(
                    key, restXmlParse(shapes, restXmlShape(shapes, valueRef), {value}, depth + 1));
        }
        return map;
    }
    return AwsRestRequest::scalar(shape, node.text);
}

void restXmlWrite(QXmlStreamWriter &xml, const QJsonObject &shapes, const QJsonObject &shape,
                  const QJsonValue &value, const QString &name, const QString &xmlNamespace,
                  int depth);

void restXmlWriteMembers(QXmlStreamWriter &xml, const QJsonObject &shapes, const QJsonObject &shape,
                         const QJsonObject &value, int depth)
{
    const QJsonObject members = shape.value(QStringLiteral("members")).toObject();
    for (const QString &member : AwsRestRequest::memberNames(shape)) {
        if (!value.contains(member))
            continue;
        const QJsonObject ref = members.value(member).toObject();
        if (ref.contains(QStringLiteral("location")))
            continue;
        restXmlWrite(xml, shapes, restXmlShape(shapes, ref), value.value(member),
                     ref.value(QStringLiteral("locationName")).toString(member), {}, depth + 1);
    }
}

void restXmlWrite(QXmlStreamWriter &xml, const QJsonObject &shapes, const QJsonObject &shape,
                  const QJsonValue &value, const QString &name, const QString &xmlNamespace,
                  int depth)
{
    if (depth > restXmlMaxDepth || value.isUndefined() || value.isNull())
        return;
    const QString type = restXmlType(shape);
    if (type == QLatin1String("list")) {
        const QJsonObject memberRef = shape.value(QStringLiteral("member")).toObject();
        const QJsonObject memberShape = restXmlShape(shapes, memberRef);
        const bool flattened = shape.value(QStringLiteral("flattened")).toBool();
        if (!flattened)
            xml.writeStartElement(name);
        const QString itemName = flattened ? name
                                           : memberRef.value(QStringLiteral("locationName"))
                                                 .toString(QStringLiteral("member"));
        for (const QJsonValue &item : value.toArray())
            restXmlWrite(xml, shapes, memberShape, item, itemName, {}, depth + 1);
        if (!flattened)
            xml.writeEndElement();
        return;
    }
    xml.writeStartElement(name);
    if (!xmlNamespace.isEmpty())
        xml.writeDefaultNamespace(xmlNamespace);
    if (type == QLatin1String("structure")) {
        restXmlWriteMembers(xml, shapes, shape, value.toObject(), depth);
    } else if (type == QLatin1String("map")) {
        const QJsonObject o = value.toObject();
        const QJsonObject valueRef = shape.value(QStringLiteral("value")).toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            xml.writeStartElement(QStringLiteral("entry"));
            xml.writeTextElement(QStringLiteral("key"), it.key());
            restXmlWrite(xml, shapes, restXmlShape(shapes, valueRef), it.value(),
                         QStringLiteral("value"), {}, depth + 1);
            xml.writeEndElement();
        }
    } else {
        xml.writeCharacters(AwsRestRequest::text(value));
    }
    xml.writeEndElement();
}

} // namespace

AwsRestXml::Request AwsRestXml::request(const Model &model, const QString &operation,
                                        const QJsonObject &input)
{
    Request out = AwsRestRequest::bind(model.operations, model.shapes, operation, input);
    if (!out.error.isEmpty())
        return out;
    const QJsonObject op = model.operations.value(operation).toObject();
    const QJsonObject shape =
        model.shapes.value(op.value(QStringLiteral("input")).toString()).toObject();
    const QJsonObject members = shape.value(QStringLiteral("members")).toObject();
    const QString payloadMember = shape.value(QStringLiteral("payload")).toString();

    // The body: the payload member (a structure as XML, a string as UTF-8, a blob's bytes).
    if (!payloadMember.isEmpty() &&
        restXmlType(restXmlShape(model.shapes, members.value(payloadMember).toObject())) ==
            QLatin1String("blob"))
        out.blobPayload = payloadMember;
    if (!payloadMember.isEmpty() && input.contains(payloadMember)) {
        const QJsonObject ref = members.value(payloadMember).toObject();
        const QJsonObject payloadShape = restXmlShape(model.shapes, ref);
        const QString type = restXmlType(payloadShape);
        if (type == QLatin1String("structure")) {
            QXmlStreamWriter xml(&out.body);
            restXmlWrite(xml, model.shapes, payloadShape, input.value(payloadMember),
                         ref.value(QStringLiteral("locationName")).toString(payloadMember),
                         ref.value(QStringLiteral("xmlNamespace"))
                             .toObject()
                             .value(QStringLiteral("uri"))
                             .toString(),
                         0);
        } else if (type == QLatin1String("blob")) {
            // Bytes travel in JSON as base64, as in botocore's json protocols (an object's Body).
            out.body = QByteArray::fromBase64(input.value(payloadMember).toString().toLatin1());
        } else {
            out.body = input.value(payloadMember).toString().toUtf8();
        }
    }
    return out;
}

AwsRestXml::Answer AwsRestXml::readXml(const QJsonObject &shapes, const QString &shape,
                                       const QByteArray &xmlText)
{
    Answer answer;
    QXmlStreamReader xml(xmlText);
    while (!xml.atEnd() && !xml.isStartElement())
        xml.readNext();
    if (!xml.isStartElement()) {
        answer.parseError = xml.hasError() ? xml.errorString() : QStringLiteral("no element");
        return answer;
    }
    RestXmlNode root;
    int count = 0;
    if (!restXmlReadNode(xml, root, 0, count) || xml.hasError()) {
        answer.parseError = xml.hasError() ? xml.errorString() : QStringLiteral("unfinished");
        return answer;
    }
    const QJsonObject rootShape = shapes.value(shape).toObject();
    const QJsonValue value = restXmlParse(shapes, rootShape, {&root}, 0);
    if (restXmlType(rootShape) == QLatin1String("structure"))
        answer.result = value.toObject();
    else
        answer.parseError = QStringLiteral("%1 is not a structure").arg(shape);
    return answer;
}

AwsRestXml::Answer AwsRestXml::read(const Model &model, const QString &operation,
                                    const QList<QPair<QByteArray, QByteArray>> &headers,
                                    const QByteArray &body)
{
    Answer answer;
    const QJsonObject op = model.operations.value(operation).toObject();
    const QString shapeName = op.value(QStringLiteral("output")).toString();
    if (shapeName.isEmpty())
        return answer; // an operation that answers nothing
    const QJsonObject shape = model.shapes.value(shapeName).toObject();
    const QJsonObject members = shape.value(QStringLiteral("members")).toObject();
    const QString payload = shape.value(QStringLiteral("payload")).toString();
    if (!payload.isEmpty()) {
        const QJsonObject ref = members.value(payload).toObject();
        const QString payloadShape = restXmlShapeName(ref);
        if (restXmlType(model.shapes.value(payloadShape).toObject()) ==
            QLatin1String("structure")) {
            if (!body.trimmed().isEmpty()) {
                answer = readXml(model.shapes, payloadShape, body);
                const QJsonObject value = answer.result;
                answer.result = QJsonObject{{payload, value}};
            }
        } else {
            answer.result.insert(payload, QString::fromUtf8(body));
        }
    } else if (!body.trimmed().isEmpty()) {
        answer = readXml(model.shapes, shapeName, body);
    }
    AwsRestRequest::readLocated(model.shapes, shape, headers, 0, answer.result);
    return answer;
}

} // namespace converge

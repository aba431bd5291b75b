// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awsrestxml.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QUrl>
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

// A structure's members in the model's order (`order`, which the generator keeps: QJsonObject
// sorts its keys, and S3 reads some configurations' elements in their schema's order).
QStringList restXmlMemberNames(const QJsonObject &shape)
{
    QStringList names;
    for (const QJsonValue &name : shape.value(QStringLiteral("order")).toArray())
        names << name.toString();
    return names.isEmpty() ? shape.value(QStringLiteral("members")).toObject().keys() : names;
}

QString restXmlType(const QJsonObject &shape)
{
    return shape.value(QStringLiteral("type")).toString();
}

// A scalar's text as JSON, by the shape's type.
QJsonValue restXmlScalar(const QJsonObject &shape, const QString &text)
{
    const QString type = restXmlType(shape);
    if (type == QLatin1String("boolean"))
        return text.trimmed() == QLatin1String("true");
    if (type == QLatin1String("integer") || type == QLatin1String("long")) {
        bool ok = false;
        const qint64 n = text.trimmed().toLongLong(&ok);
        return ok ? QJsonValue(n) : QJsonValue(text);
    }
    if (type == QLatin1String("float") || type == QLatin1String("double")) {
        bool ok = false;
        const double d = text.trimmed().toDouble(&ok);
        return ok ? QJsonValue(d) : QJsonValue(text);
    }
    return text;
}

QString restXmlText(const QJsonValue &value)
{
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isDouble()) {
        const double d = value.toDouble();
        return d == double(qint64(d)) ? QString::number(qint64(d)) : QString::number(d, 'g', 17);
    }
    return value.toString();
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
    return restXmlScalar(shape, node.text);
}

void restXmlWrite(QXmlStreamWriter &xml, const QJsonObject &shapes, const QJsonObject &shape,
                  const QJsonValue &value, const QString &name, const QString &xmlNamespace,
                  int depth);

void restXmlWriteMembers(QXmlStreamWriter &xml, const QJsonObject &shapes, const QJsonObject &shape,
                         const QJsonObject &value, int depth)
{
    const QJsonObject members = shape.value(QStringLiteral("members")).toObject();
    for (const QString &member : restXmlMemberNames(shape)) {
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
        xml.writeCharacters(restXmlText(value));
    }
    xml.writeEndElement();
}

QString restXmlEncode(const QString &text, bool keepSlashes)
{
    return QString::fromLatin1(
        QUrl::toPercentEncoding(text, keepSlashes ? QByteArrayLiteral("/") : QByteArray()));
}

} // namespace

AwsRestXml::Request AwsRestXml::request(const Model &model, const QString &operation,
                                        const QJsonObject &input)
{
    Request out;
    const QJsonObject op = model.operations.value(operation).toObject();
    if (op.isEmpty()) {
        out.error = QStringLiteral("the declaration has no operation %1").arg(operation);
        return out;
    }
    out.method = op.value(QStringLiteral("method")).toString().toLatin1();
    out.checksumRequired = op.value(QStringLiteral("checksumRequired")).toBool();
    const QJsonObject shape =
        model.shapes.value(op.value(QStringLiteral("input")).toString()).toObject();
    const QJsonObject members = shape.value(QStringLiteral("members")).toObject();

    // The URI template: "/{Bucket}?versioning", "/{Bucket}/{Key+}?tagging".
    const QString uri = op.value(QStringLiteral("requestUri")).toString(QStringLiteral("/"));
    const qsizetype mark = uri.indexOf(QLatin1Char('?'));
    const QString path = mark < 0 ? uri : uri.left(mark);
    QStringList query;
    if (mark >= 0 && mark + 1 < uri.size())
        query << uri.mid(mark + 1);
    static const QRegularExpression label(QStringLiteral("\\{([A-Za-z0-9_]+)(\\+?)\\}"));
    // Labels are filled decoded; QUrl encodes the path once, as S3 wants it signed. A label
    // that is not greedy ({Bucket}, not {Key+}) cannot hold a '/' that way.
    for (auto it = label.globalMatch(path); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const QString value = input.value(m.captured(1)).toString();
        if (value.isEmpty()) {
            out.error = QStringLiteral("%1 needs %2").arg(operation, m.captured(1));
            return out;
        }
        if (m.captured(2).isEmpty() && value.contains(QLatin1Char('/'))) {
            out.error = QStringLiteral("%1's %2 cannot hold a '/'").arg(operation, m.captured(1));
            return out;
        }
    }
    const auto fill = [&input](const QString &text) -> QString {
        QString filled;
        qsizetype at = 0;
        for (auto it = label.globalMatch(text); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            filled += text.mid(at, m.capturedStart() - at) + input.value(m.captured(1)).toString();
            at = m.capturedEnd();
        }
        return filled + text.mid(at);
    };
    out.path = fill(path);
    if (const QRegularExpressionMatch leading = label.match(path);
        leading.hasMatch() && leading.capturedStart() == 1) {
        out.leadingLabel = input.value(leading.captured(1)).toString();
        out.pathAfterLabel = fill(path.mid(leading.capturedEnd()));
    }

    const QString payloadMember = shape.value(QStringLiteral("payload")).toString();
    for (const QString &member : restXmlMemberNames(shape)) {
        const QJsonObject ref = members.value(member).toObject();
        const QString location = ref.value(QStringLiteral("location")).toString();
        const QString wire = ref.value(QStringLiteral("locationName")).toString(member);
        if (!input.contains(member))
            continue;
        const QJsonValue value = input.value(member);
        if (location == QLatin1String("querystring")) {
            const QJsonArray values = value.isArray() ? value.toArray() : QJsonArray{value};
            for (const QJsonValue &v : values)
                query << restXmlEncode(wire, false) + QLatin1Char('=') +
                             restXmlEncode(restXmlText(v), false);
        } else if (location == QLatin1String("header")) {
            out.headers.append({wire.toLatin1(), restXmlText(value).toUtf8()});
        } else if (location == QLatin1String("headers")) {
            const QJsonObject map = value.toObject();
            for (auto h = map.begin(); h != map.end(); ++h)
                out.headers.append({(wire + h.key()).toLatin1(), restXmlText(h.value()).toUtf8()});
        }
    }
    out.query = query.join(QLatin1Char('&'));

    // The body: the payload member (a structure as XML, a string as UTF-8, a blob's bytes).
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
    for (auto it = members.begin(); it != members.end(); ++it) {
        const QJsonObject ref = it.value().toObject();
        const QString location = ref.value(QStringLiteral("location")).toString();
        const QByteArray wire =
            ref.value(QStringLiteral("locationName")).toString(it.key()).toLatin1().toLower();
        if (location == QLatin1String("header")) {
            for (const auto &[name, value] : headers) {
                if (name.toLower() == wire) {
                    answer.result.insert(it.key(), restXmlScalar(restXmlShape(model.shapes, ref),
                                                                 QString::fromUtf8(value)));
                    break;
                }
            }
        } else if (location == QLatin1String("headers")) {
            QJsonObject map;
            for (const auto &[name, value] : headers) {
                if (name.toLower().startsWith(wire))
                    map.insert(QString::fromLatin1(name.toLower().mid(wire.size())),
                               QString::fromUtf8(value));
            }
            if (!map.isEmpty())
                answer.result.insert(it.key(), map);
        }
    }
    return answer;
}

} // namespace converge

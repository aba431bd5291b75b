// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awsrestrequest.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QUrl>

namespace converge {

QUrl AwsRestRequest::url(QUrl endpoint, const QString &path) const
{
    QString base = endpoint.path(QUrl::FullyDecoded);
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    endpoint.setPath(base + path, QUrl::DecodedMode);
    if (query.isEmpty())
        endpoint.setQuery(QString()); // no '?' at all
    else
        endpoint.setQuery(query, QUrl::StrictMode);
    return endpoint;
}

HttpRequest AwsRestRequest::http(const QUrl &to) const
{
    HttpRequest out;
    out.method = method;
    out.url = to;
    out.body = body;
    out.clientRequestId = HttpRequest::ClientRequestId::Aws;
    for (const auto &[name, value] : headers)
        out.setHeader(name, value);
    return out;
}

namespace {

QString restRequestEncode(const QString &text)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(text));
}

QJsonObject restRequestShape(const QJsonObject &shapes, const QJsonObject &ref)
{
    return shapes.value(ref.value(QStringLiteral("shape")).toString()).toObject();
}

} // namespace

QStringList AwsRestRequest::memberNames(const QJsonObject &shape)
{
    QStringList names;
    for (const QJsonValue &name : shape.value(QStringLiteral("order")).toArray())
        names << name.toString();
    return names.isEmpty() ? shape.value(QStringLiteral("members")).toObject().keys() : names;
}

QString AwsRestRequest::text(const QJsonValue &value)
{
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isDouble()) {
        const double d = value.toDouble();
        return d == double(qint64(d)) ? QString::number(qint64(d)) : QString::number(d, 'g', 17);
    }
    return value.toString();
}

QJsonValue AwsRestRequest::scalar(const QJsonObject &shape, const QString &text)
{
    const QString type = shape.value(QStringLiteral("type")).toString();
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

AwsRestRequest AwsRestRequest::bind(const QJsonObject &operations, const QJsonObject &shapes,
                                    const QString &operation, const QJsonObject &input)
{
    AwsRestRequest out;
    const QJsonObject op = operations.value(operation).toObject();
    if (op.isEmpty()) {
        out.error = QStringLiteral("the declaration has no operation %1").arg(operation);
        return out;
    }
    out.method = op.value(QStringLiteral("method")).toString().toLatin1();
    out.checksumRequired = op.value(QStringLiteral("checksumRequired")).toBool();
    const QJsonObject shape = shapes.value(op.value(QStringLiteral("input")).toString()).toObject();
    const QJsonObject members = shape.value(QStringLiteral("members")).toObject();

    // The URI template: "/{Bucket}?versioning", "/{Bucket}/{Key+}?tagging".
    const QString uri = op.value(QStringLiteral("requestUri")).toString(QStringLiteral("/"));
    const qsizetype mark = uri.indexOf(QLatin1Char('?'));
    const QString path = mark < 0 ? uri : uri.left(mark);
    QStringList query;
    if (mark >= 0 && mark + 1 < uri.size())
        query << uri.mid(mark + 1);
    static const QRegularExpression label(QStringLiteral("\\{([A-Za-z0-9_]+)(\\+?)\\}"));
    // Labels are filled decoded; QUrl encodes the path once, as SigV4 signs it here. A label
    // that is not greedy ({Bucket}, not {Key+}) cannot hold a '/' that way.
    for (auto it = label.globalMatch(path); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const QString value = text(input.value(m.captured(1)));
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
            filled += text.mid(at, m.capturedStart() - at) +
                      AwsRestRequest::text(input.value(m.captured(1)));
            at = m.capturedEnd();
        }
        return filled + text.mid(at);
    };
    out.path = fill(path);
    if (const QRegularExpressionMatch leading = label.match(path);
        leading.hasMatch() && leading.capturedStart() == 1) {
        out.leadingLabel = text(input.value(leading.captured(1)));
        out.pathAfterLabel = fill(path.mid(leading.capturedEnd()));
    }

    for (const QString &member : memberNames(shape)) {
        const QJsonObject ref = members.value(member).toObject();
        const QString location = ref.value(QStringLiteral("location")).toString();
        const QString wire = ref.value(QStringLiteral("locationName")).toString(member);
        if (!input.contains(member))
            continue;
        const QJsonValue value = input.value(member);
        if (location == QLatin1String("querystring")) {
            const QJsonArray values = value.isArray() ? value.toArray() : QJsonArray{value};
            for (const QJsonValue &v : values)
                query << restRequestEncode(wire) + QLatin1Char('=') + restRequestEncode(text(v));
        } else if (location == QLatin1String("header")) {
            out.headers.append({wire.toLatin1(), text(value).toUtf8()});
        } else if (location == QLatin1String("headers")) {
            const QJsonObject map = value.toObject();
            for (auto h = map.begin(); h != map.end(); ++h)
                out.headers.append({(wire + h.key()).toLatin1(), text(h.value()).toUtf8()});
        }
    }
    out.query = query.join(QLatin1Char('&'));
    return out;
}

void AwsRestRequest::readLocated(const QJsonObject &shapes, const QJsonObject &shape,
                                 const Headers &headers, int status, QJsonObject &result)
{
    const QJsonObject members = shape.value(QStringLiteral("members")).toObject();
    for (auto it = members.begin(); it != members.end(); ++it) {
        const QJsonObject ref = it.value().toObject();
        const QString location = ref.value(QStringLiteral("location")).toString();
        const QByteArray wire =
            ref.value(QStringLiteral("locationName")).toString(it.key()).toLatin1().toLower();
        if (location == QLatin1String("header")) {
            for (const auto &[name, value] : headers) {
                if (name.toLower() == wire) {
                    result.insert(it.key(),
                                  scalar(restRequestShape(shapes, ref), QString::fromUtf8(value)));
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
                result.insert(it.key(), map);
        } else if (location == QLatin1String("statusCode") && status > 0) {
            result.insert(it.key(), status);
        }
    }
}

} // namespace converge

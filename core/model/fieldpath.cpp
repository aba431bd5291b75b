// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "fieldpath.h"

#include <QJsonArray>

namespace converge::FieldPath {

namespace {

bool isIdentifierStart(QChar c)
{
    return (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
           (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) || c == QLatin1Char('_');
}

bool isIdentifierPart(QChar c)
{
    return isIdentifierStart(c) || (c >= QLatin1Char('0') && c <= QLatin1Char('9'));
}

} // namespace

bool isIdentifier(const QString &key)
{
    if (key.isEmpty() || !isIdentifierStart(key.front()))
        return false;
    for (QChar c : key) {
        if (!isIdentifierPart(c))
            return false;
    }
    return true;
}

QString child(const QString &parent, const QString &key)
{
    if (isIdentifier(key))
        return parent.isEmpty() ? key : parent + QLatin1Char('.') + key;
    QString quoted = key;
    quoted.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
    quoted.replace(QLatin1Char('"'), QLatin1String("\\\""));
    return parent + QLatin1String("[\"") + quoted + QLatin1String("\"]");
}

QString index(const QString &parent, qsizetype index)
{
    return parent + QLatin1Char('[') + QString::number(index) + QLatin1Char(']');
}

std::optional<QList<Segment>> split(const QString &path)
{
    QList<Segment> segments;
    qsizetype i = 0;
    const qsizetype n = path.size();
    while (i < n) {
        const QChar c = path.at(i);
        if (c == QLatin1Char('[')) {
            ++i;
            if (i < n && path.at(i) == QLatin1Char('"')) {
                ++i;
                QString key;
                bool closed = false;
                while (i < n) {
                    const QChar k = path.at(i++);
                    if (k == QLatin1Char('\\') && i < n) {
                        key.append(path.at(i++));
                    } else if (k == QLatin1Char('"')) {
                        closed = true;
                        break;
                    } else {
                        key.append(k);
                    }
                }
                if (!closed || i >= n || path.at(i) != QLatin1Char(']'))
                    return std::nullopt;
                ++i;
                segments.append({key, -1});
            } else {
                const qsizetype close = path.indexOf(QLatin1Char(']'), i);
                bool ok = false;
                const qsizetype number = close < 0 ? -1 : path.mid(i, close - i).toLongLong(&ok);
                if (!ok || number < 0)
                    return std::nullopt;
                segments.append({QString(), number});
                i = close + 1;
            }
        } else {
            if (c == QLatin1Char('.')) {
                if (segments.isEmpty())
                    return std::nullopt;
                ++i;
            } else if (!segments.isEmpty()) {
                return std::nullopt; // a bare key must follow a '.'
            }
            const qsizetype start = i;
            while (i < n && isIdentifierPart(path.at(i)))
                ++i;
            const QString key = path.mid(start, i - start);
            if (!isIdentifier(key))
                return std::nullopt;
            segments.append({key, -1});
        }
    }
    if (segments.isEmpty())
        return std::nullopt;
    return segments;
}

bool isWithin(const QString &path, const QString &prefix)
{
    if (!path.startsWith(prefix))
        return false;
    if (path.size() == prefix.size())
        return true;
    const QChar next = path.at(prefix.size());
    return next == QLatin1Char('.') || next == QLatin1Char('[');
}

QJsonValue valueAt(const QJsonObject &object, const QList<Segment> &segments)
{
    QJsonValue value = object;
    for (qsizetype i = 1; i < segments.size(); ++i) {
        const Segment &s = segments.at(i);
        if (s.isIndex()) {
            const QJsonArray array = value.toArray();
            if (!value.isArray() || s.index >= array.size())
                return QJsonValue::Undefined;
            value = array.at(s.index);
        } else {
            if (!value.isObject() || !value.toObject().contains(s.key))
                return QJsonValue::Undefined;
            value = value.toObject().value(s.key);
        }
    }
    return value;
}

QJsonValue valueAt(const QJsonObject &object, const QString &path)
{
    const std::optional<QList<Segment>> segments = split(path);
    return segments ? valueAt(object, *segments) : QJsonValue(QJsonValue::Undefined);
}

} // namespace converge::FieldPath

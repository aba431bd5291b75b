// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "apifield.h"

#include <QJsonArray>

namespace converge {

namespace {

enum class Direction { ToApi, FromApi };

QJsonValue convert(const ApiField &field, const QJsonValue &value, Direction direction);

QJsonObject convertObject(const QList<ApiField> &fields, const QJsonObject &from,
                          Direction direction, const QStringList &only = {})
{
    QJsonObject to;
    for (const ApiField &f : fields) {
        if (!only.isEmpty() && !only.contains(f.field))
            continue;
        // A field no call carries as a member (an IAM role's attached policies, read and
        // changed item by item).
        if (f.member.isEmpty())
            continue;
        const QString &source = direction == Direction::ToApi ? f.field : f.observedMember();
        const QString &target = direction == Direction::ToApi ? f.member : f.field;
        const auto it = from.constFind(source);
        if (it == from.constEnd() || it->isNull() || it->isUndefined())
            continue;
        to.insert(target, convert(f, *it, direction));
    }
    return to;
}

QJsonValue convert(const ApiField &field, const QJsonValue &value, Direction direction)
{
    if (field.fields.isEmpty())
        return value;
    if (value.isObject())
        return convertObject(field.fields, value.toObject(), direction);
    if (value.isArray()) {
        QJsonArray items;
        for (const QJsonValue &item : value.toArray())
            items.append(item.isObject()
                             ? QJsonValue(convertObject(field.fields, item.toObject(), direction))
                             : item);
        return items;
    }
    return value;
}

} // namespace

QJsonObject ApiField::toApi(const QList<ApiField> &fields, const QJsonObject &spec,
                            const QStringList &only)
{
    return convertObject(fields, spec, Direction::ToApi, only);
}

QJsonObject ApiField::fromApi(const QList<ApiField> &fields, const QJsonObject &api)
{
    return convertObject(fields, api, Direction::FromApi);
}

QStringList ApiField::observedMembers(const QList<ApiField> &fields)
{
    QStringList members;
    for (const ApiField &f : fields)
        members << f.observedMember();
    return members;
}

} // namespace converge

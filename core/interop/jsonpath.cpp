// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "jsonpath.h"

namespace converge {

QJsonValue JsonPath::take(QJsonObject &o, const QStringList &path)
{
    if (path.isEmpty())
        return QJsonValue(QJsonValue::Undefined);
    if (path.size() == 1)
        return o.take(path.first());
    auto it = o.find(path.first());
    if (it == o.end() || !it->isObject())
        return QJsonValue(QJsonValue::Undefined);
    QJsonObject inner = it->toObject();
    const QJsonValue value = take(inner, path.mid(1));
    if (inner.isEmpty())
        o.remove(path.first());
    else
        *it = inner;
    return value;
}

void JsonPath::put(QJsonObject &o, const QStringList &path, const QJsonValue &value)
{
    if (path.isEmpty())
        return;
    if (path.size() == 1) {
        o.insert(path.first(), value);
        return;
    }
    QJsonObject inner = o.value(path.first()).toObject();
    put(inner, path.mid(1), value);
    o.insert(path.first(), inner);
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "event.h"

namespace converge {

QString Event::aggregationKey() const
{
    return involved.toString() + QLatin1Char('\x1f') + typeName(type) + QLatin1Char('\x1f') +
           reason + QLatin1Char('\x1f') + message;
}

QString Event::typeName(Type type)
{
    return type == Type::Warning ? QStringLiteral("Warning") : QStringLiteral("Normal");
}

std::optional<Event::Type> Event::typeFromName(const QString &name)
{
    if (name == QLatin1String("Normal"))
        return Type::Normal;
    if (name == QLatin1String("Warning"))
        return Type::Warning;
    return std::nullopt;
}

QJsonObject Event::toJson() const
{
    QJsonObject json{
        {QStringLiteral("id"), id},
        {QStringLiteral("involvedObject"), involved.toString()},
        {QStringLiteral("type"), typeName(type)},
        {QStringLiteral("reason"), reason},
        {QStringLiteral("message"), message},
        {QStringLiteral("count"), count},
        {QStringLiteral("firstTimestamp"), firstTime.toUTC().toString(Qt::ISODateWithMs)},
        {QStringLiteral("lastTimestamp"), lastTime.toUTC().toString(Qt::ISODateWithMs)}};
    if (!phase.isEmpty())
        json.insert(QStringLiteral("phase"), phase);
    if (!reconcileId.isEmpty())
        json.insert(QStringLiteral("reconcileId"), reconcileId);
    if (!requestId.isEmpty())
        json.insert(QStringLiteral("requestId"), requestId);
    return json;
}

} // namespace converge

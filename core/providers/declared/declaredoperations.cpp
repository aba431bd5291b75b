// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "declaredoperations.h"

#include "apivalues.h"

#include <QJsonArray>

namespace converge {

std::optional<BackendError> DeclaredOperations::follow(const DeclaredCall &pending,
                                                       const QJsonObject &input, const Send &send,
                                                       Observation &o,
                                                       std::chrono::milliseconds pollAfter)
{
    auto reply = send(pending, input);
    if (!reply)
        return reply.error();
    // The filter asks for those not done; an API or emulator that ignores it answers them all.
    for (const QJsonValue &item : ApiValues::at(reply.value().body, pending.result).toArray()) {
        if (item[QStringLiteral("done")].toBool())
            continue;
        o.inProgress = true;
        o.progress = QStringLiteral("%1 in progress").arg(describe(item.toObject()));
        o.pollAfter = pollAfter;
        return std::nullopt;
    }
    return std::nullopt;
}

QString DeclaredOperations::describe(const QJsonObject &operation)
{
    QString type = operation.value(QStringLiteral("metadata"))
                       .toObject()
                       .value(QStringLiteral("@type"))
                       .toString();
    type = type.mid(type.lastIndexOf(QLatin1Char('.')) + 1);
    if (type.endsWith(QLatin1String("Metadata")))
        type.chop(8);
    const QString id = ApiValues::lastSegment(operation.value(QStringLiteral("name")).toString());
    if (type.isEmpty())
        return QStringLiteral("operation %1").arg(id);
    return QStringLiteral("%1 (operation %2)").arg(type, id);
}

} // namespace converge

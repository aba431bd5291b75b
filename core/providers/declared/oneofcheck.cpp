// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "oneofcheck.h"

#include <QJsonObject>

#include <algorithm>

namespace converge {

std::function<QString(const QJsonValue &)> OneOfCheck::make(const QList<QStringList> &groups)
{
    QStringList said;
    for (const QStringList &group : groups)
        said << group.join(QStringLiteral(" with "));
    return [groups, said](const QJsonValue &value) {
        const QJsonObject given = value.toObject();
        int count = 0;
        for (const QStringList &group : groups) {
            const auto present = std::count_if(group.begin(), group.end(),
                                               [&](const QString &f) { return given.contains(f); });
            if (present > 0 && present < group.size())
                return QStringLiteral("give %1 together").arg(group.join(QStringLiteral(" and ")));
            count += present > 0 ? 1 : 0;
        }
        return count == 1
                   ? QString()
                   : QStringLiteral("give exactly one of %1").arg(said.join(QStringLiteral(", ")));
    };
}

} // namespace converge

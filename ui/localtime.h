// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QDateTime>
#include <QString>

namespace converge {

/// A UTC time as the window shows it: local time, to the second; empty when invalid.
inline QString localTimeText(const QDateTime &utc)
{
    return utc.isValid() ? utc.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                         : QString();
}

/// A UTC time for a narrow column: the local time alone (`time`) when it is today, else with its
/// date (`dated`); empty when invalid.
inline QString shortTimeText(const QDateTime &utc, const QString &time = QStringLiteral("HH:mm:ss"),
                             const QString &dated = QStringLiteral("yyyy-MM-dd HH:mm"))
{
    if (!utc.isValid())
        return {};
    const QDateTime local = utc.toLocalTime();
    return local.toString(local.date() == QDate::currentDate() ? time : dated);
}

} // namespace converge

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

/// A UTC time for a narrow column: the local time alone when it is today, else the date and
/// the minute; empty when invalid.
inline QString shortTimeText(const QDateTime &utc)
{
    if (!utc.isValid())
        return {};
    const QDateTime local = utc.toLocalTime();
    return local.toString(local.date() == QDate::currentDate()
                              ? QStringLiteral("HH:mm:ss")
                              : QStringLiteral("yyyy-MM-dd HH:mm"));
}

} // namespace converge

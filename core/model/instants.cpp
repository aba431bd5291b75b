// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "instants.h"

#include <QDateTime>
#include <QTimeZone>

namespace converge::Instants {

std::optional<QString> canonical(const QJsonValue &value)
{
    QDateTime at;
    if (value.isDouble()) {
        at = QDateTime::fromMSecsSinceEpoch(qint64(value.toDouble() * 1000.0), QTimeZone::utc());
    } else if (value.isString()) {
        const QString text = value.toString().trimmed();
        // A date alone: Qt reads it as local midnight; AWS and Google mean UTC.
        if (text.size() == 10) {
            const QDate date = QDate::fromString(text, Qt::ISODate);
            if (date.isValid())
                at = QDateTime(date, QTime(0, 0), QTimeZone::utc());
        } else {
            at = QDateTime::fromString(text, Qt::ISODateWithMs);
            // Without an offset Qt takes local time; an instant in a manifest or an answer
            // without one is UTC.
            if (at.isValid() && at.timeSpec() == Qt::LocalTime)
                at.setTimeZone(QTimeZone::utc());
        }
    }
    if (!at.isValid())
        return std::nullopt;
    at = at.toUTC();
    const QString format = at.time().msec() == 0 ? QStringLiteral("yyyy-MM-ddTHH:mm:ss'Z'")
                                                 : QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz'Z'");
    return at.toString(format);
}

} // namespace converge::Instants

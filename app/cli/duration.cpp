// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "duration.h"

#include <QRegularExpression>

#include <cmath>

namespace converge {

std::optional<std::chrono::milliseconds> Duration::parse(const QString &text)
{
    if (text == QLatin1String("0"))
        return std::chrono::milliseconds(0);
    static const QRegularExpression part(QStringLiteral("(\\d+(?:\\.\\d+)?)(ms|s|m|h|d)"));
    if (text.isEmpty())
        return std::nullopt;
    double total = 0;
    qsizetype at = 0;
    while (at < text.size()) {
        const QRegularExpressionMatch m = part.match(text, at, QRegularExpression::NormalMatch,
                                                     QRegularExpression::AnchorAtOffsetMatchOption);
        if (!m.hasMatch())
            return std::nullopt;
        const double value = m.captured(1).toDouble();
        const QString unit = m.captured(2);
        double factor = 1;
        if (unit == QLatin1String("s"))
            factor = 1000;
        else if (unit == QLatin1String("m"))
            factor = 60 * 1000;
        else if (unit == QLatin1String("h"))
            factor = 3600 * 1000;
        else if (unit == QLatin1String("d"))
            factor = 24 * 3600 * 1000;
        total += value * factor;
        at += m.capturedLength();
    }
    // A century is plenty; beyond it the arithmetic below would overflow.
    if (total > 100.0 * 365 * 24 * 3600 * 1000)
        return std::nullopt;
    return std::chrono::milliseconds(qint64(std::llround(total)));
}

QString Duration::format(std::chrono::milliseconds duration)
{
    qint64 ms = duration.count();
    if (ms <= 0)
        return QStringLiteral("0s");
    QString text;
    const std::pair<qint64, const char *> units[] = {
        {24 * 3600 * 1000, "d"}, {3600 * 1000, "h"}, {60 * 1000, "m"}, {1000, "s"}, {1, "ms"}};
    for (const auto &[size, name] : units) {
        if (ms >= size) {
            text += QString::number(ms / size) + QLatin1String(name);
            ms %= size;
        }
    }
    return text;
}

QString Duration::human(std::chrono::milliseconds age)
{
    const qint64 seconds = std::max<qint64>(0, age.count() / 1000);
    const qint64 minutes = seconds / 60;
    const qint64 hours = minutes / 60;
    const qint64 days = hours / 24;
    const qint64 years = days / 365;
    if (seconds < 120)
        return QStringLiteral("%1s").arg(seconds);
    if (minutes < 10) {
        const qint64 s = seconds % 60;
        return s == 0 ? QStringLiteral("%1m").arg(minutes)
                      : QStringLiteral("%1m%2s").arg(minutes).arg(s);
    }
    if (minutes < 3 * 60)
        return QStringLiteral("%1m").arg(minutes);
    if (hours < 8) {
        const qint64 m = minutes % 60;
        return m == 0 ? QStringLiteral("%1h").arg(hours)
                      : QStringLiteral("%1h%2m").arg(hours).arg(m);
    }
    if (hours < 48)
        return QStringLiteral("%1h").arg(hours);
    if (hours < 8 * 24) {
        const qint64 h = hours % 24;
        return h == 0 ? QStringLiteral("%1d").arg(days) : QStringLiteral("%1d%2h").arg(days).arg(h);
    }
    if (hours < 2 * 365 * 24)
        return QStringLiteral("%1d").arg(days);
    if (years < 8) {
        const qint64 d = days % 365;
        return d == 0 ? QStringLiteral("%1y").arg(years)
                      : QStringLiteral("%1y%2d").arg(years).arg(d);
    }
    return QStringLiteral("%1y").arg(years);
}

} // namespace converge

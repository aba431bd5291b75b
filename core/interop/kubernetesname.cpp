// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "kubernetesname.h"

#include <QRegularExpression>

namespace converge {

bool KubernetesName::isValid(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$"));
    return name.size() <= 253 && pattern.match(name).hasMatch();
}

QString KubernetesName::from(const QString &name)
{
    QString out;
    out.reserve(name.size());
    for (const QChar c : name.toLower()) {
        const bool keep = (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
                          (c >= QLatin1Char('0') && c <= QLatin1Char('9')) ||
                          c == QLatin1Char('.') || c == QLatin1Char('-');
        out += keep ? c : QLatin1Char('-');
    }
    out.truncate(253);
    while (!out.isEmpty() && !out.front().isLetterOrNumber())
        out.remove(0, 1);
    while (!out.isEmpty() && !out.back().isLetterOrNumber())
        out.chop(1);
    return out.isEmpty() ? QStringLiteral("unnamed") : out;
}

} // namespace converge

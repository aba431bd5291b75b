// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "suggestions.h"

#include <QList>

#include <algorithm>
#include <utility>

namespace converge::Suggestions {

int editDistance(const QString &a, const QString &b)
{
    const QString s = a.toCaseFolded();
    const QString t = b.toCaseFolded();
    // Two rows suffice: each row only reads the one before it.
    QList<int> previous(t.size() + 1);
    QList<int> current(t.size() + 1);
    for (qsizetype j = 0; j <= t.size(); ++j)
        previous[j] = int(j);
    for (qsizetype i = 1; i <= s.size(); ++i) {
        current[0] = int(i);
        for (qsizetype j = 1; j <= t.size(); ++j) {
            const int substitution = previous[j - 1] + (s.at(i - 1) == t.at(j - 1) ? 0 : 1);
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
        }
        std::swap(previous, current);
    }
    return previous[t.size()];
}

QStringList closest(const QString &name, const QStringList &candidates)
{
    const int limit = std::max<int>(2, int(name.size() / 3));
    QList<std::pair<int, QString>> near;
    for (const QString &candidate : candidates) {
        const int distance = editDistance(name, candidate);
        if (distance <= limit)
            near.append({distance, candidate});
    }
    std::stable_sort(near.begin(), near.end(),
                     [](const auto &x, const auto &y) { return x.first < y.first; });
    QStringList result;
    for (const auto &[distance, candidate] : std::as_const(near))
        result.append(candidate);
    return result;
}

QString hint(const QString &name, const QStringList &candidates)
{
    const QStringList near = closest(name, candidates);
    if (!near.isEmpty())
        return QStringLiteral("; did you mean \"%1\"?").arg(near.first());
    if (candidates.isEmpty())
        return {};
    return QStringLiteral(" (known: %1)").arg(candidates.join(QStringLiteral(", ")));
}

} // namespace converge::Suggestions

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "patterns.h"

#include <QHash>
#include <QRegularExpression>

namespace converge::Patterns {

namespace {

const QRegularExpression &compiled(const QString &pattern)
{
    // Per thread, so that no thread waits for another's compile. Patterns come from kind
    // schemas: a few dozen at most.
    thread_local QHash<QString, QRegularExpression> cache;
    auto it = cache.find(pattern);
    if (it == cache.end())
        it =
            cache.insert(pattern, QRegularExpression(QRegularExpression::anchoredPattern(pattern)));
    return *it;
}

} // namespace

bool matchesWhole(const QString &text, const QString &pattern)
{
    return compiled(pattern).match(text).hasMatch();
}

bool isValid(const QString &pattern)
{
    return compiled(pattern).isValid();
}

} // namespace converge::Patterns

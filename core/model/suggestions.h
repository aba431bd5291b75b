// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

/// "Did you mean" for unknown kinds and fields.
namespace converge::Suggestions {

/// Levenshtein distance between `a` and `b`, ignoring case.
int editDistance(const QString &a, const QString &b);

/// The candidates near `name`, best first (ties keep the candidates' order): those within an edit
/// distance of max(2, name's length / 3), ignoring case.
QStringList closest(const QString &name, const QStringList &candidates);

/// `; did you mean "x"?` for the best candidate, or `(known: a, b, c)` when none is near; the
/// second form is left out when `candidates` is empty.
QString hint(const QString &name, const QStringList &candidates);

} // namespace converge::Suggestions

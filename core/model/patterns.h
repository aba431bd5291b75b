// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

/// Whole-text pattern checks for names and fields.
namespace converge::Patterns {

/// Whether all of `text` matches the regular expression `pattern`. The compiled expression is
/// kept per thread: compiling (and JIT-compiling) it at every call was a tenth of the CPU a
/// create spends in Converge.
bool matchesWhole(const QString &text, const QString &pattern);

/// Whether `pattern` is a valid regular expression.
bool isValid(const QString &pattern);

} // namespace converge::Patterns

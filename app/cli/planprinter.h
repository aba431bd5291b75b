// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "applyplan.h"

namespace converge {

class Console;

/// Prints an ApplyPlan for `converge diff` and `converge apply --dry-run`: a line per object
/// (what apply would do), its changed fields old → new (secrets never shown), and what the
/// next reconcile would do to the backend; invalid input as apply reports it.
class PlanPrinter final
{
public:
    /// `suffix` follows each action, e.g. " (dry run)".
    static void print(Console &console, const ApplyPlan &plan, const QString &suffix = {});
    /// The errors of an invalid plan, `file:line:column: field: message` on standard error.
    static void printErrors(Console &console, const ApplyPlan &plan);
};

} // namespace converge

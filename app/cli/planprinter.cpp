// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "planprinter.h"

#include "console.h"
#include "kindresolver.h"

namespace converge {

void PlanPrinter::printErrors(Console &console, const ApplyPlan &plan)
{
    for (const ApplyPlan::Item &item : plan.items) {
        if (item.action != ApplyPlan::Item::Action::Invalid)
            continue;
        console.err((item.location.isEmpty() ? QString() : item.location + QStringLiteral(": ")) +
                    item.detail + QLatin1Char('\n'));
    }
}

void PlanPrinter::print(Console &console, const ApplyPlan &plan, const QString &suffix)
{
    using Item = ApplyPlan::Item;
    for (const Item &item : plan.items) {
        if (item.action == Item::Action::Invalid)
            continue;
        console.info(KindResolver::display(item.key) + QLatin1Char(' ') +
                     ApplyPlan::actionName(item.action) + suffix);
        for (const ApplyPlan::Change &change : item.changes)
            console.info(QStringLiteral("    ") + change.toString());
        if (item.backend == Item::Backend::None)
            continue;
        console.info(QStringLiteral("  backend: ") + item.backendNote);
        for (const ApplyPlan::Change &change : item.backendChanges)
            console.info(QStringLiteral("    ") + change.toString());
    }
    console.info(QStringLiteral("workspace: %1; backend: %2 to create, %3 to update")
                     .arg(plan.summary())
                     .arg(plan.count(Item::Backend::Create))
                     .arg(plan.count(Item::Backend::Update)));
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "applyplan.h"

#include <QDialog>

namespace converge {

/// Shows an ApplyPlan (create / update / unchanged / invalid per object, the changed fields and
/// what the backend would get) and asks whether to apply it. Apply is enabled only for a valid
/// plan that changes something.
class ApplyPlanDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ApplyPlanDialog)

public:
    explicit ApplyPlanDialog(const ApplyPlan &plan, QWidget *parent = nullptr);

    const ApplyPlan &plan() const { return m_plan; }

private:
    ApplyPlan m_plan;
};

} // namespace converge

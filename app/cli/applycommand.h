// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "command.h"

namespace converge {

/// `converge apply -f PATH… [--wait[=DURATION]]`: reads manifests (any error: nothing is
/// stored, exit 2), stores them in one transaction and says per object whether it was created,
/// configured or unchanged; with --wait, waits until each is Ready at its new generation; with
/// --dry-run, prints the ApplyPlan and stores nothing.
class ApplyCommand final : public Command
{
public:
    ApplyCommand() = default;

    QString name() const override { return QStringLiteral("apply"); }
    QString summary() const override;
    QString synopsis() const override;
    QString description() const override;
    QString examples() const override;
    QList<QCommandLineOption> options() const override;
    int run(CommandContext &ctx, const QCommandLineParser &parser) override;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "command.h"

namespace converge {

/// `converge run`: the controller alone, headless, until SIGINT or SIGTERM; then it stops
/// cleanly (in-flight work cancelled, threads joined) and exits 0. Refuses (exit 2) when another
/// process already runs the workspace's controller.
class RunCommand final : public Command
{
public:
    RunCommand() = default;

    QString name() const override { return QStringLiteral("run"); }
    QString summary() const override;
    QString synopsis() const override;
    QString description() const override;
    QString examples() const override;
    QList<QCommandLineOption> options() const override;
    int run(CommandContext &ctx, const QCommandLineParser &parser) override;
};

} // namespace converge

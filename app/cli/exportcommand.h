// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "command.h"

namespace converge {

/// `converge export [KIND[/NAME]…] [-o yaml|json]`: the desired state as manifests that `apply`
/// takes back unchanged (no status, no workspace bookkeeping).
class ExportCommand final : public Command
{
public:
    ExportCommand() = default;

    QString name() const override { return QStringLiteral("export"); }
    QString summary() const override;
    QString synopsis() const override;
    QString description() const override;
    QString examples() const override;
    QList<QCommandLineOption> options() const override;
    int run(CommandContext &ctx, const QCommandLineParser &parser) override;
};

} // namespace converge

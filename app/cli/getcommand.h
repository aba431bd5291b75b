// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "command.h"

namespace converge {

/// `converge get [KIND[/NAME]…] [-o table|wide|yaml|json|name]`: lists resources with their
/// Ready condition, or prints them as manifests with status.
class GetCommand final : public Command
{
public:
    GetCommand() = default;

    QString name() const override { return QStringLiteral("get"); }
    QString summary() const override;
    QString synopsis() const override;
    QString description() const override;
    QString examples() const override;
    QList<QCommandLineOption> options() const override;
    int run(CommandContext &ctx, const QCommandLineParser &parser) override;
};

} // namespace converge

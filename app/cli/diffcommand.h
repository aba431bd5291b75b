// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "command.h"

namespace converge {

/// `converge diff -f PATH…`: what `apply -f` would do to the workspace and, once reconciled,
/// to the backend, without storing anything. Exit 0 when nothing would change, 1 when
/// something would, 2 on invalid input (as `kubectl diff`).
class DiffCommand final : public Command
{
public:
    DiffCommand() = default;

    QString name() const override { return QStringLiteral("diff"); }
    QString summary() const override;
    QString synopsis() const override;
    QString description() const override;
    QString examples() const override;
    QList<QCommandLineOption> options() const override;
    int run(CommandContext &ctx, const QCommandLineParser &parser) override;
};

} // namespace converge

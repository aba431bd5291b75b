// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "command.h"

namespace converge {

/// `converge explain [KIND[.FIELD…]] [--recursive]`: a kind's fields and their rules, as
/// `kubectl explain` documents a resource; without an argument, every kind. Reads only the
/// kinds: no workspace is opened.
class ExplainCommand final : public Command
{
public:
    ExplainCommand() = default;

    QString name() const override { return QStringLiteral("explain"); }
    QString summary() const override;
    QString synopsis() const override;
    QString description() const override;
    QString examples() const override;
    QList<QCommandLineOption> options() const override;
    int run(CommandContext &ctx, const QCommandLineParser &parser) override;
};

} // namespace converge

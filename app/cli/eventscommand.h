// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "command.h"

namespace converge {

/// `converge events [KIND/NAME] [--since DURATION] [--type Warning|Normal] [-o table|wide|json|
/// jsonl] [--follow]`: the workspace's events, oldest first; --follow keeps printing new ones
/// (polling every 250 ms) until SIGINT or SIGTERM.
class EventsCommand final : public Command
{
public:
    EventsCommand() = default;

    QString name() const override { return QStringLiteral("events"); }
    QString summary() const override;
    QString synopsis() const override;
    QString description() const override;
    QString examples() const override;
    QList<QCommandLineOption> options() const override;
    int run(CommandContext &ctx, const QCommandLineParser &parser) override;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "command.h"

namespace converge {

/// `converge delete KIND/NAME…|-f PATH [--detach] [--wait[=DURATION]]`: requests deletion (the
/// controller deletes the backend resource, then removes the object); --detach first sets the
/// detach-on-delete policy so that the backend resource stays; --wait waits until the objects
/// are gone from the workspace.
class DeleteCommand final : public Command
{
public:
    DeleteCommand() = default;

    QString name() const override { return QStringLiteral("delete"); }
    QString summary() const override;
    QString synopsis() const override;
    QString description() const override;
    QString examples() const override;
    QList<QCommandLineOption> options() const override;
    int run(CommandContext &ctx, const QCommandLineParser &parser) override;
};

} // namespace converge

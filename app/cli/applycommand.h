// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "command.h"
#include "resource.h"

namespace converge {

class Workspace;

/// `converge apply -f PATH… [--wait[=DURATION]]`: reads manifests (any error: nothing is
/// stored, exit 2), stores them in one transaction and says per object whether it was created,
/// configured or unchanged; with --wait, waits until each is Ready at its new generation.
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

    /// Annotations the engine writes (the backend's resource ID, a monitored operation, a
    /// pending request from the CLI): a manifest never names them, so applying it again keeps
    /// the stored values instead of dropping them.
    static QStringList engineAnnotations();
    /// Copies the stored values of engineAnnotations() that `objects` do not set (the stored
    /// objects read in one statement).
    static void keepEngineAnnotations(QList<Resource> &objects, const Workspace &workspace);
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "command.h"
#include "resource.h"

#include <QList>

namespace converge {

class Workspace;

/// `converge export [KIND[/NAME]…] [-o yaml|json] [--for aso|ack …]`: the desired state as
/// manifests that `apply` takes back unchanged (no status, no workspace bookkeeping); with
/// `--for`, the resources of Azure Service Operator or AWS Controllers for Kubernetes.
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

private:
    /// --for aso|ack: the exporter's documents, and on stderr what it could not export.
    static int exportFor(CommandContext &ctx, const QCommandLineParser &parser,
                         const Workspace &workspace, const QList<Resource> &selection, bool json);
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "diffcommand.h"

#include "applyplan.h"
#include "commandcontext.h"
#include "console.h"
#include "planprinter.h"
#include "services.h"
#include "workspace.h"

#include <QCommandLineParser>
#include <QFileInfo>

namespace converge {

QString DiffCommand::summary() const
{
    return QStringLiteral("Show what apply would change, in the workspace and the backend");
}

QString DiffCommand::synopsis() const
{
    return QStringLiteral("-f PATH… [--aws-account NAME] [--gcp-project NAME]");
}

QString DiffCommand::description() const
{
    return QStringLiteral(
        "Reads manifests as `apply -f` does (Converge, Azure Service Operator and AWS "
        "Controllers for Kubernetes files alike) and prints, without storing anything, what "
        "apply would do: one line per object (create, update or unchanged), each changed field "
        "as `path: old → new` (a secret only as changed), and what the next reconcile would do "
        "to the backend: create, update the fields that differ from what was last observed, or "
        "nothing. An object stored but not observed yet says so.\n\n"
        "Exits 0 when nothing would change, 1 when something would (in the workspace or the "
        "backend), 2 on invalid input, printed as file:line:column: field: message.");
}

QString DiffCommand::examples() const
{
    return QStringLiteral("# What applying a folder would change\n"
                          "converge diff -f manifests/\n"
                          "# An ASO export, back to the workspace it came from: exit 0\n"
                          "converge export --for aso > aso.yaml && converge diff -f aso.yaml\n");
}

QList<QCommandLineOption> DiffCommand::options() const
{
    return {QCommandLineOption(
                {QStringLiteral("f"), QStringLiteral("filename")},
                QStringLiteral("A manifest file, a folder of them, or - for standard input; "
                               "repeatable."),
                QStringLiteral("PATH")),
            QCommandLineOption(QStringLiteral("aws-account"),
                               QStringLiteral("Put every ACK Table read under this AwsAccount, "
                                              "whatever its region."),
                               QStringLiteral("NAME")),
            QCommandLineOption(QStringLiteral("gcp-project"),
                               QStringLiteral("Put every Config Connector resource without a "
                                              "project-id annotation under this GcpProject."),
                               QStringLiteral("NAME"))};
}

int DiffCommand::run(CommandContext &ctx, const QCommandLineParser &parser)
{
    Console &console = ctx.console();
    const QStringList paths =
        parser.values(QStringLiteral("filename")) + parser.positionalArguments();
    if (parser.values(QStringLiteral("filename")).isEmpty()) {
        console.error(QStringLiteral("diff needs -f PATH: a manifest file, a folder, or - for "
                                     "standard input (see converge diff --help)"));
        return ExitUsage;
    }
    // A workspace that does not exist yet is not created: everything would be new.
    std::unique_ptr<Workspace> ws;
    if (QFileInfo::exists(ctx.workspacePath())) {
        int code = ExitSuccess;
        ws = ctx.openWorkspace(&code);
        if (!ws)
            return code;
    }
    const KindRegistry &kinds = ctx.services().kinds();
    const ManifestReader::Result read =
        ApplyPlan::readPaths(paths, ws.get(), kinds, parser.value(QStringLiteral("aws-account")),
                             parser.value(QStringLiteral("gcp-project")));
    const ApplyPlan plan = ApplyPlan::build(paths, read, ws.get(), kinds);
    if (!plan.isValid()) {
        PlanPrinter::printErrors(console, plan);
        return ExitUsage;
    }
    for (const ManifestError &note : read.notes)
        console.warning(note.toString());
    if (plan.items.isEmpty()) {
        console.error(QStringLiteral("no objects in %1").arg(paths.join(QStringLiteral(", "))));
        return ExitUsage;
    }
    PlanPrinter::print(console, plan);
    return plan.hasChanges() || plan.hasBackendChanges() ? ExitFailed : ExitSuccess;
}

} // namespace converge

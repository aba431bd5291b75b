// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "getcommand.h"

#include "commandcontext.h"
#include "console.h"
#include "outputformatter.h"
#include "services.h"
#include "workspace.h"

#include <QCommandLineParser>

namespace converge {

QString GetCommand::summary() const
{
    return QStringLiteral("List resources and their Ready condition");
}

QString GetCommand::synopsis() const
{
    return QStringLiteral("[KIND[/NAME]…] [-o table|wide|yaml|json|name]");
}

QString GetCommand::description() const
{
    return QStringLiteral(
        "Without arguments lists every resource of the workspace; KIND lists those of a kind, "
        "KIND/NAME one resource. Kinds are case-insensitive and may be plural: blobcontainer, "
        "blobcontainers and BlobContainer are the same.\n\n"
        "table: KIND/NAME, READY, REASON, AGE. wide adds POLICY, GENERATION, OBSERVED (the "
        "generation the status describes) and MESSAGE. yaml and json print the objects as "
        "manifests with status and the workspace's bookkeeping (uid, generation, "
        "resourceVersion, timestamps, finalizers); one KIND/NAME gives one object, anything "
        "else a List. name prints kind/name lines.\n\n"
        "A KIND/NAME that does not exist is an error (exit 1) after the others are printed.");
}

QString GetCommand::examples() const
{
    return QStringLiteral("# Everything in the workspace\n"
                          "converge get\n"
                          "# All blob containers, with generations and messages\n"
                          "converge get blobcontainers -o wide\n"
                          "# One resource as JSON, with its status\n"
                          "converge get blobcontainer/invoices -o json\n");
}

QList<QCommandLineOption> GetCommand::options() const
{
    return {outputOption({QStringLiteral("table"), QStringLiteral("wide"), QStringLiteral("yaml"),
                          QStringLiteral("json"), QStringLiteral("name")})};
}

int GetCommand::run(CommandContext &ctx, const QCommandLineParser &parser)
{
    Console &console = ctx.console();
    const QString formatName = parser.value(QStringLiteral("output"));
    const std::optional<OutputFormatter::Format> format =
        OutputFormatter::formatFromName(formatName);
    if (!format || *format == OutputFormatter::Format::JsonLines) {
        console.error(QStringLiteral("unknown output format \"%1\" (table, wide, yaml, json, "
                                     "name)")
                          .arg(formatName));
        return ExitUsage;
    }
    int code = ExitSuccess;
    std::unique_ptr<Workspace> ws = ctx.openWorkspace(&code);
    if (!ws)
        return code;
    QList<Resource> resources;
    bool single = false;
    if (!ctx.selectResources(*ws, parser.positionalArguments(), &resources, &single, &code))
        return code;
    const bool table =
        *format == OutputFormatter::Format::Table || *format == OutputFormatter::Format::Wide;
    if (resources.isEmpty() && (table || *format == OutputFormatter::Format::Name)) {
        if (code == ExitSuccess && !console.isQuiet())
            console.err(QStringLiteral("No resources found in %1.\n").arg(ctx.workspacePath()));
        return code;
    }
    if (single && resources.isEmpty())
        return code;
    const OutputFormatter formatter(ctx.services().kinds(), *format, ctx.now(), &console);
    console.out(formatter.resources(resources, single));
    return code;
}

} // namespace converge

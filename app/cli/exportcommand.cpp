// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "exportcommand.h"

#include "commandcontext.h"
#include "console.h"
#include "manifestwriter.h"
#include "services.h"
#include "workspace.h"

#include <QCommandLineParser>

namespace converge {

QString ExportCommand::summary() const
{
    return QStringLiteral("Write the desired state as manifests that apply takes back");
}

QString ExportCommand::synopsis() const
{
    return QStringLiteral("[KIND[/NAME]…] [-o yaml|json]");
}

QString ExportCommand::description() const
{
    return QStringLiteral(
        "Writes manifests of every resource (or of the kinds and resources named) to standard "
        "output: apiVersion, kind, metadata (name, labels, annotations) and spec, without "
        "status or the workspace's bookkeeping. Applying the output to the same workspace "
        "reports every object unchanged and bumps no generation; applying it to another one "
        "recreates the same desired state.");
}

QString ExportCommand::examples() const
{
    return QStringLiteral("# Keep the workspace's desired state in git\n"
                          "converge export > manifests/all.yaml\n"
                          "# One kind, as JSON\n"
                          "converge export queues -o json\n");
}

QList<QCommandLineOption> ExportCommand::options() const
{
    return {outputOption({QStringLiteral("yaml"), QStringLiteral("json")})};
}

int ExportCommand::run(CommandContext &ctx, const QCommandLineParser &parser)
{
    Console &console = ctx.console();
    const QString format = parser.value(QStringLiteral("output")).toLower();
    if (format != QLatin1String("yaml") && format != QLatin1String("json")) {
        console.error(QStringLiteral("unknown output format \"%1\" (yaml, json)")
                          .arg(parser.value(QStringLiteral("output"))));
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
    if (resources.isEmpty())
        return code;
    const ManifestWriter writer(ctx.services().kinds());
    console.out(format == QLatin1String("json") ? writer.toJson(resources)
                                                : writer.toYaml(resources));
    return code;
}

} // namespace converge

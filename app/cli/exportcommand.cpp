// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "exportcommand.h"

#include "ackexporter.h"
#include "asoexporter.h"
#include "commandcontext.h"
#include "console.h"
#include "kccexporter.h"
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
    return QStringLiteral("[KIND[/NAME]…] [-o yaml|json] [--for aso|ack|kcc [--namespace NS] "
                          "[--location L] [--sku S] [--account-kind K] [--resource-group G] "
                          "[--no-resource-group]]");
}

QString ExportCommand::description() const
{
    return QStringLiteral(
        "Writes manifests of every resource (or of the kinds and resources named) to standard "
        "output: apiVersion, kind, metadata (name, labels, annotations) and spec, without "
        "status or the workspace's bookkeeping. Applying the output to the same workspace "
        "reports every object unchanged and bumps no generation; applying it to another one "
        "recreates the same desired state.\n\n"
        "--for aso writes Azure Service Operator v2 resources for the Azure kinds, --for ack "
        "AWS Controllers for Kubernetes resources for the AWS kinds, --for kcc Config Connector "
        "resources for the Google Cloud kinds (docs/interop.md has the mapping); apply reads "
        "the first two back. A StorageAccount needs spec.location, spec.sku, "
        "spec.accountKind and spec.resourceGroup there, or the flags that override them; when "
        "one is missing nothing is written and the exit code is 2. Resources with no "
        "counterpart (blobs) are named on standard error and the exit code is 1.");
}

QString ExportCommand::examples() const
{
    return QStringLiteral("# Keep the workspace's desired state in git\n"
                          "converge export > manifests/all.yaml\n"
                          "# One kind, as JSON\n"
                          "converge export queues -o json\n"
                          "# Move the Azure resources to a cluster running ASO\n"
                          "converge export --for aso --namespace team --location westeurope "
                          "--sku Standard_LRS --account-kind StorageV2 --resource-group rg-team "
                          "> aso.yaml\n"
                          "# The DynamoDB tables for ACK\n"
                          "converge export --for ack > ack.yaml\n"
                          "# The Pub/Sub topics and subscriptions for Config Connector\n"
                          "converge export --for kcc --namespace team > kcc.yaml\n");
}

QList<QCommandLineOption> ExportCommand::options() const
{
    return {outputOption({QStringLiteral("yaml"), QStringLiteral("json")}),
            {QStringLiteral("for"),
             QStringLiteral("Write the resources of Azure Service Operator (aso) or AWS "
                            "Controllers for Kubernetes (ack) instead of Converge's."),
             QStringLiteral("aso|ack")},
            {QStringLiteral("namespace"),
             QStringLiteral("With --for: the metadata.namespace of every document."),
             QStringLiteral("NS")},
            {QStringLiteral("location"),
             QStringLiteral("With --for aso: the accounts' location (overrides spec.location)."),
             QStringLiteral("REGION")},
            {QStringLiteral("sku"),
             QStringLiteral("With --for aso: the accounts' SKU (overrides spec.sku)."),
             QStringLiteral("SKU")},
            {QStringLiteral("account-kind"),
             QStringLiteral("With --for aso: the accounts' kind (overrides spec.accountKind)."),
             QStringLiteral("KIND")},
            {QStringLiteral("resource-group"),
             QStringLiteral("With --for aso: the accounts' resource group (overrides "
                            "spec.resourceGroup)."),
             QStringLiteral("NAME")},
            {QStringLiteral("no-resource-group"),
             QStringLiteral("With --for aso: no ResourceGroup objects (the cluster has them).")}};
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
    if (parser.isSet(QStringLiteral("for")))
        return exportFor(ctx, parser, *ws, resources, format == QLatin1String("json"));
    const ManifestWriter writer(ctx.services().kinds());
    console.out(format == QLatin1String("json") ? writer.toJson(resources)
                                                : writer.toYaml(resources));
    return code;
}

int ExportCommand::exportFor(CommandContext &ctx, const QCommandLineParser &parser,
                             const Workspace &workspace, const QList<Resource> &selection,
                             bool json)
{
    Console &console = ctx.console();
    const QString target = parser.value(QStringLiteral("for")).toLower();
    const QString ns = parser.value(QStringLiteral("namespace"));
    StoreError readError;
    const QList<Resource> all = workspace.list({}, &readError);
    if (readError.isError()) {
        console.error(readError.message);
        return ExitFailed;
    }
    ExportResult result;
    if (target == QLatin1String("aso")) {
        AsoExporter::Options options;
        options.ns = ns;
        options.location = parser.value(QStringLiteral("location"));
        options.sku = parser.value(QStringLiteral("sku"));
        options.accountKind = parser.value(QStringLiteral("account-kind"));
        options.resourceGroup = parser.value(QStringLiteral("resource-group"));
        options.resourceGroups = !parser.isSet(QStringLiteral("no-resource-group"));
        result = AsoExporter(options).exportResources(selection, all);
    } else if (target == QLatin1String("ack")) {
        result = AckExporter({ns}).exportResources(selection, all);
    } else if (target == QLatin1String("kcc")) {
        result = KccExporter({ns}).exportResources(selection, all);
    } else {
        console.error(QStringLiteral("unknown target \"%1\" for --for (aso, ack, kcc)")
                          .arg(parser.value(QStringLiteral("for"))));
        return ExitUsage;
    }
    if (!result.ok()) {
        for (const QString &line : std::as_const(result.missing))
            console.error(line);
        console.error(QStringLiteral("nothing was written"));
        return ExitUsage;
    }
    for (const QString &line : std::as_const(result.notes))
        console.warning(line);
    for (const QString &line : std::as_const(result.dropped))
        console.warning(line);
    if (!result.documents.isEmpty())
        console.out(json ? ManifestWriter::documentsToJson(result.documents)
                         : ManifestWriter::documentsToYaml(result.documents));
    else
        console.warning(
            QStringLiteral("nothing selected has a counterpart in %1").arg(target.toUpper()));
    return result.complete() ? ExitSuccess : ExitFailed;
}

} // namespace converge

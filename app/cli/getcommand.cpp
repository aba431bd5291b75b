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
    return QStringLiteral("[KIND[/NAME]…] [--unmanaged|--all] [-o table|wide|yaml|json|name]");
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
        "A KIND/NAME that does not exist is an error (exit 1) after the others are printed.\n\n"
        "--unmanaged lists instead what the backend holds under the workspace's accounts and "
        "containers that nothing manages (as last listed: `converge refresh` of an account or "
        "container lists it again), NAME being the backend name; --all lists both. In yaml and "
        "json each unmanaged object is what `converge claim` would store, with "
        "status.unmanaged: true, status.owner, status.backendName, status.firstSeen, "
        "status.lastSeen and status.observed.");
}

QString GetCommand::examples() const
{
    return QStringLiteral("# Everything in the workspace\n"
                          "converge get\n"
                          "# All blob containers, with generations and messages\n"
                          "converge get blobcontainers -o wide\n"
                          "# One resource as JSON, with its status\n"
                          "converge get blobcontainer/invoices -o json\n"
                          "# What the accounts hold that nothing manages\n"
                          "converge get --unmanaged\n"
                          "# Managed and unmanaged tables, as JSON\n"
                          "converge get tables --all -o json\n");
}

QList<QCommandLineOption> GetCommand::options() const
{
    return {outputOption({QStringLiteral("table"), QStringLiteral("wide"), QStringLiteral("yaml"),
                          QStringLiteral("json"), QStringLiteral("name")}),
            QCommandLineOption(QStringLiteral("unmanaged"),
                               QStringLiteral("List what nothing manages instead (discovered).")),
            QCommandLineOption(QStringLiteral("all"),
                               QStringLiteral("List managed and unmanaged resources."))};
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
    const bool all = parser.isSet(QStringLiteral("all"));
    const bool unmanagedOnly = parser.isSet(QStringLiteral("unmanaged"));
    if (all && unmanagedOnly) {
        console.error(QStringLiteral("--unmanaged and --all exclude each other"));
        return ExitUsage;
    }
    QList<Resource> resources;
    bool single = false;
    if (unmanagedOnly || all) {
        const QStringList arguments = parser.positionalArguments();
        // With --all a KIND/NAME is the managed resource when the workspace has it, else the
        // unmanaged one; a KIND is both.
        QStringList managedArguments;
        QStringList unmanagedArguments;
        for (const QString &argument : arguments) {
            QString error;
            const std::optional<ResourceKey> key = argument.contains(QLatin1Char('/'))
                                                       ? ctx.kinds().resolveKey(argument, &error)
                                                       : std::nullopt;
            if (argument.contains(QLatin1Char('/')) && !key) {
                console.error(error);
                return ExitUsage;
            }
            if (all && (!key || ws->get(*key)))
                managedArguments << argument;
            if (!key || !all || !ws->get(*key))
                unmanagedArguments << argument;
        }
        bool ignored = false;
        if (all && (arguments.isEmpty() || !managedArguments.isEmpty()) &&
            !ctx.selectResources(*ws, managedArguments, &resources, &ignored, &code))
            return code;
        QList<DiscoveredResource> unmanaged;
        if ((arguments.isEmpty() || !unmanagedArguments.isEmpty()) &&
            !ctx.selectDiscovered(*ws, unmanagedArguments, &unmanaged, true, &code))
            return code;
        // What another account's resource manages is not unmanaged: said, not listed.
        for (qsizetype i = unmanaged.size() - 1; i >= 0; --i) {
            const DiscoveredResource &item = unmanaged.at(i);
            if (!item.isManagedElsewhere())
                continue;
            if (!console.isQuiet())
                console.err(QStringLiteral("%1 under %2 is %3's (account %4), not unmanaged\n")
                                .arg(KindResolver::display({item.kind, item.name}),
                                     KindResolver::display(item.owner),
                                     KindResolver::display(item.managedBy),
                                     item.managedByAccount.name));
            unmanaged.removeAt(i);
        }
        single = arguments.size() == 1 && arguments.first().contains(QLatin1Char('/')) &&
                 resources.size() + unmanaged.size() == 1;
        if (resources.isEmpty() && unmanaged.isEmpty()) {
            if (code == ExitSuccess && !console.isQuiet())
                console.err(QStringLiteral("No resources found in %1.\n").arg(ctx.workspacePath()));
            return code;
        }
        const OutputFormatter formatter(ctx.services().kinds(), *format, ctx.now(), &console);
        console.out(formatter.withUnmanaged(resources, unmanaged, single));
        return code;
    }
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

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "applycommand.h"

#include "applyplan.h"
#include "commandcontext.h"
#include "console.h"
#include "planprinter.h"
#include "resourcewaiter.h"
#include "services.h"
#include "workspace.h"

#include <QCommandLineParser>
#include <QFileInfo>

namespace converge {

QString ApplyCommand::summary() const
{
    return QStringLiteral("Store manifests in the workspace; with --wait, until they are Ready");
}

QString ApplyCommand::synopsis() const
{
    return QStringLiteral(
        "-f PATH… [--wait[=DURATION]] [--dry-run] [--aws-account NAME] [--gcp-project NAME]");
}

QString ApplyCommand::description() const
{
    return QStringLiteral(
        "Reads YAML and JSON manifests from files, folders (*.yaml, *.yml, *.json, not "
        "recursive) and standard input (-), validates every object, and stores them all in one "
        "transaction. Any error is printed as file:line:column: field: message, and nothing is "
        "stored (exit 2).\n\n"
        "Azure Service Operator (storage.azure.com, resources.azure.com) and AWS Controllers for "
        "Kubernetes (dynamodb.services.k8s.aws Table) resources are read too, in every served "
        "version, and stored as the Converge kinds they map to (docs/interop.md). An ASO "
        "StorageAccount joins the workspace's account of the same name, or is created without a "
        "credential, to be connected; an ACK Table goes under the AwsAccount of its region "
        "(services.k8s.aws/region) or the one --aws-account names. Config Connector's Pub/Sub "
        "resources (pubsub.cnrm.cloud.google.com) go under the GcpProject of their "
        "cnrm.cloud.google.com/project-id, or the one --gcp-project names.\n\n"
        "Prints one line per object: created, configured (metadata or spec changed) or "
        "unchanged. A changed spec bumps the object's generation, which the controller "
        "reconciles.\n\n"
        "With --dry-run, validates and prints the plan that `converge diff` prints (what "
        "would change, field by field, in the workspace and the backend) and stores "
        "nothing.\n\n"
        "With --wait, waits until every object is Ready at its new generation (exit 0), or one "
        "failed for good (Ready False with severity Error; exit 1), or the timeout passed (exit "
        "1). While waiting, this process runs the controller unless another process (the "
        "window, `converge run`) already does; then it follows the status that process "
        "writes.");
}

QString ApplyCommand::examples() const
{
    return QStringLiteral("# Store the manifests of a folder\n"
                          "converge apply -f manifests/\n"
                          "# Store, then wait up to two minutes until everything is Ready\n"
                          "converge apply -f storage.yaml --wait=2m\n"
                          "# From standard input\n"
                          "cat storage.yaml | converge apply -f -\n"
                          "# A GitOps folder of ASO and ACK resources\n"
                          "converge apply -f cluster/ --aws-account local\n"
                          "# Config Connector files of a namespace's project\n"
                          "converge apply -f kcc/ --gcp-project local-gcp\n"
                          "# Validate and show the plan, store nothing\n"
                          "converge apply --dry-run -f storage.yaml\n");
}

QList<QCommandLineOption> ApplyCommand::options() const
{
    QList<QCommandLineOption> list{QCommandLineOption(
        {QStringLiteral("f"), QStringLiteral("filename")},
        QStringLiteral("A manifest file, a folder of them, or - for standard input; repeatable."),
        QStringLiteral("PATH"))};
    list += waitOptions(QStringLiteral("every object is Ready"));
    list.append(QCommandLineOption(QStringLiteral("aws-account"),
                                   QStringLiteral("Put every ACK Table read under this "
                                                  "AwsAccount, whatever its region."),
                                   QStringLiteral("NAME")));
    list.append(QCommandLineOption(QStringLiteral("gcp-project"),
                                   QStringLiteral("Put every Config Connector resource without "
                                                  "a cnrm.cloud.google.com/project-id "
                                                  "annotation under this GcpProject (created "
                                                  "without a credential when there is none)."),
                                   QStringLiteral("NAME")));
    list.append(QCommandLineOption(QStringLiteral("dry-run"),
                                   QStringLiteral("Validate and print what would change; store "
                                                  "nothing.")));
    return list;
}

int ApplyCommand::run(CommandContext &ctx, const QCommandLineParser &parser)
{
    Console &console = ctx.console();
    // `apply -f a.yaml b.yaml` (what a shell glob gives) means both files.
    const QStringList paths =
        parser.values(QStringLiteral("filename")) + parser.positionalArguments();
    if (parser.values(QStringLiteral("filename")).isEmpty()) {
        console.error(QStringLiteral("apply needs -f PATH: a manifest file, a folder, or - for "
                                     "standard input (see converge apply --help)"));
        return ExitUsage;
    }
    int code = ExitSuccess;
    const std::optional<std::chrono::milliseconds> timeout = waitTimeout(ctx, parser, &code);
    if (code != ExitSuccess)
        return code;

    // ASO and ACK resources join the workspace's accounts: read them first, when there is a
    // workspace to read (a new one has none, and a dry run does not create it).
    std::unique_ptr<Workspace> ws;
    if (QFileInfo::exists(ctx.workspacePath())) {
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
    if (parser.isSet(QStringLiteral("dry-run"))) {
        PlanPrinter::print(console, plan, QStringLiteral(" (dry run)"));
        return ExitSuccess;
    }

    if (!ws)
        ws = ctx.openWorkspace(&code);
    if (!ws)
        return code;
    const QList<Resource> &objects = plan.objects;
    QList<ApplyOutcome> outcomes;
    StoreError error;
    if (!ws->apply(objects, &outcomes, &error)) {
        console.error(QStringLiteral("nothing was stored: %1").arg(error.message));
        return error.code == StoreError::Code::Invalid ||
                       error.code == StoreError::Code::AlreadyManaged
                   ? ExitUsage
                   : ExitFailed;
    }

    QList<ResourceWaiter::Target> targets;
    for (const ApplyOutcome &outcome : std::as_const(outcomes)) {
        const char *action = outcome.action == ApplyOutcome::Action::Created   ? "created"
                             : outcome.action == ApplyOutcome::Action::Updated ? "configured"
                                                                               : "unchanged";
        console.info(KindResolver::display(outcome.key) + QLatin1Char(' ') + QLatin1String(action));
        targets.append({outcome.key, ResourceWaiter::Goal::Ready, outcome.generation, false,
                        outcome.action == ApplyOutcome::Action::Created});
    }
    if (!timeout)
        return ExitSuccess;

    ResourceWaiter waiter(ctx.services(), console, *ws);
    waiter.setTimeout(*timeout);
    return ResourceWaiter::exitCode(waiter.wait(targets));
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "deletecommand.h"

#include "commandcontext.h"
#include "console.h"
#include "resourcewaiter.h"
#include "services.h"
#include "workspace.h"

#include <QCommandLineParser>

namespace converge {

namespace {

/// Sets the detach-on-delete policy, reading again when someone else wrote first.
bool detach(Workspace &ws, const ResourceKey &key, StoreError *error)
{
    const QString policy = Annotations::policyName(Annotations::ReconcilePolicy::DetachOnDelete);
    for (int attempt = 0; attempt < 5; ++attempt) {
        std::optional<Resource> r = ws.get(key);
        if (!r) {
            *error = {StoreError::Code::NotFound, QStringLiteral("it was removed meanwhile")};
            return false;
        }
        if (r->metadata.annotations.value(Annotations::reconcilePolicy()) == policy)
            return true;
        r->metadata.annotations.insert(Annotations::reconcilePolicy(), policy);
        if (ws.update(*r, error))
            return true;
        if (error->code != StoreError::Code::Conflict)
            return false;
    }
    return false;
}

} // namespace

QString DeleteCommand::summary() const
{
    return QStringLiteral("Delete resources (or only forget them, with --detach)");
}

QString DeleteCommand::synopsis() const
{
    return QStringLiteral("KIND/NAME…|-f PATH [--detach] [--wait[=DURATION]]");
}

QString DeleteCommand::description() const
{
    return QStringLiteral(
        "Marks each resource for deletion. The controller then deletes the backend resource "
        "and removes the object from the workspace (its events and condition history stay). "
        "Until a controller runs (the window, `converge run`, or this command with --wait), "
        "the object stays, marked as being deleted.\n\n"
        "With --detach, the reconcile policy is first set to detach-on-delete: the object "
        "leaves the workspace and the backend resource is left as it is.\n\n"
        "With --wait, waits until every object is gone from the workspace (exit 1 on "
        "timeout); this process runs the controller meanwhile unless another process does.");
}

QString DeleteCommand::examples() const
{
    return QStringLiteral("# Delete a container and the blobs it holds in Azure\n"
                          "converge delete blobcontainer/invoices --wait\n"
                          "# Stop managing a table but keep it in the backend\n"
                          "converge delete table/customers --detach\n"
                          "# Delete what a manifest declares\n"
                          "converge delete -f storage.yaml\n");
}

QList<QCommandLineOption> DeleteCommand::options() const
{
    QList<QCommandLineOption> list{
        QCommandLineOption({QStringLiteral("f"), QStringLiteral("filename")},
                           QStringLiteral("Delete the objects a manifest (file, folder, or - "
                                          "for standard input) declares; repeatable."),
                           QStringLiteral("PATH")),
        QCommandLineOption(QStringLiteral("detach"),
                           QStringLiteral("Leave the backend resources as they are (sets the "
                                          "detach-on-delete policy first).")),
        QCommandLineOption(QStringLiteral("ignore-not-found"),
                           QStringLiteral("A missing object is not an error."))};
    list += waitOptions(QStringLiteral("the objects are gone from the workspace"));
    return list;
}

int DeleteCommand::run(CommandContext &ctx, const QCommandLineParser &parser)
{
    Console &console = ctx.console();
    int code = ExitSuccess;
    QList<ResourceKey> keys;
    if (!ctx.resolveKeys(parser.positionalArguments(), &keys, &code))
        return code;
    const QStringList paths = parser.values(QStringLiteral("filename"));
    if (!paths.isEmpty() && !ctx.keysFromManifests(paths, &keys, &code))
        return code;
    if (keys.isEmpty()) {
        console.error(QStringLiteral("delete needs KIND/NAME or -f PATH (see converge delete "
                                     "--help)"));
        return ExitUsage;
    }
    const std::optional<std::chrono::milliseconds> timeout = waitTimeout(ctx, parser, &code);
    if (code != ExitSuccess)
        return code;
    std::unique_ptr<Workspace> ws = ctx.openWorkspace(&code);
    if (!ws)
        return code;

    const bool ignoreMissing = parser.isSet(QStringLiteral("ignore-not-found"));
    QList<ResourceWaiter::Target> targets;
    for (const ResourceKey &key : std::as_const(keys)) {
        const QString name = KindResolver::display(key);
        if (!ws->get(key)) {
            if (!ignoreMissing) {
                console.error(QStringLiteral("%1 not found").arg(name));
                code = ExitFailed;
            }
            continue;
        }
        StoreError error;
        if (parser.isSet(QStringLiteral("detach")) && !detach(*ws, key, &error)) {
            console.error(QStringLiteral("cannot detach %1: %2").arg(name, error.message));
            code = ExitFailed;
            continue;
        }
        if (!ws->requestDeletion(key, &error)) {
            console.error(QStringLiteral("cannot delete %1: %2").arg(name, error.message));
            code = ExitFailed;
            continue;
        }
        console.info(name + QStringLiteral(" marked for deletion"));
        targets.append({key, ResourceWaiter::Goal::Gone});
    }
    if (!timeout || targets.isEmpty())
        return code;

    ResourceWaiter waiter(ctx.services(), console, *ws);
    waiter.setTimeout(*timeout);
    const ResourceWaiter::Result result = waiter.wait(targets);
    if (result == ResourceWaiter::Result::Succeeded) {
        for (const ResourceWaiter::Target &t : std::as_const(targets))
            console.info(KindResolver::display(t.key) + QStringLiteral(" deleted"));
    }
    return code != ExitSuccess ? code : ResourceWaiter::exitCode(result);
}

} // namespace converge

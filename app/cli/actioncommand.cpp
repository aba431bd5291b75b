// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "actioncommand.h"

#include "annotations.h"
#include "discoveredclaim.h"
#include "factory.h"
#include "factoryregistry.h"
#include "httpclient.h"
#include "kindregistry.h"

#include "commandcontext.h"
#include "console.h"
#include "resourcewaiter.h"
#include "services.h"
#include "workspace.h"

#include <QCommandLineParser>

namespace converge {

ActionCommand::ActionCommand(Action action)
    : m_action(action)
{}

QString ActionCommand::reconcileRequestedAnnotation()
{
    return Annotations::reconcileRequestedAt();
}

QString ActionCommand::refreshRequestedAnnotation()
{
    return Annotations::refreshRequestedAt();
}

QString ActionCommand::name() const
{
    switch (m_action) {
    case Action::Claim:
        return QStringLiteral("claim");
    case Action::Reconcile:
        return QStringLiteral("reconcile");
    case Action::Refresh:
        break;
    }
    return QStringLiteral("refresh");
}

QString ActionCommand::summary() const
{
    switch (m_action) {
    case Action::Claim:
        return QStringLiteral("Take ownership of resources (record their ID and finalizer)");
    case Action::Reconcile:
        return QStringLiteral("Reconcile resources now, ahead of background work");
    case Action::Refresh:
        break;
    }
    return QStringLiteral("Observe resources now without changing the backend");
}

QString ActionCommand::synopsis() const
{
    return QStringLiteral("KIND/NAME… [--wait[=DURATION]]");
}

QString ActionCommand::description() const
{
    QString what;
    switch (m_action) {
    case Action::Claim:
        what = QStringLiteral(
            "Queues a reconcile of each resource; its claim phase resolves the owner, records "
            "the backend resource ID (converge.dev/resource-id) and adds the finalizer before "
            "anything is written, then the resource is made to match its spec as by "
            "`converge reconcile`.\n\nA KIND/NAME the workspace does not have is looked for "
            "among the unmanaged resources (`converge get --unmanaged`), NAME being the backend "
            "name: it is added to the workspace with what was observed as its spec, named after "
            "the backend name, without any backend write, and then reconciled (which finds "
            "nothing to change).");
        break;
    case Action::Reconcile:
        what = QStringLiteral("Queues each resource ahead of background work: claim, then make "
                              "the backend match the spec (or only observe, under the skip "
                              "policy).");
        break;
    case Action::Refresh:
        what = QStringLiteral("Queues each resource for observation only (GET): its status is "
                              "updated from the backend, which is never written.");
        break;
    }
    return what +
           QStringLiteral("\n\nWhen no other process runs the controller of the workspace, this "
                          "process runs it until each resource was processed once (with --wait: "
                          "until each is Ready, or failed for good: exit 1). When another process "
                          "runs it (the window, `converge run`), the request is written as the "
                          "annotation %1 (the time of the request) for that process to act on.")
               .arg(m_action == Action::Refresh ? refreshRequestedAnnotation()
                                                : reconcileRequestedAnnotation());
}

QString ActionCommand::examples() const
{
    const QString n = name();
    return QStringLiteral("# %1 one resource\n"
                          "converge %2 blobcontainer/invoices\n"
                          "# %1 two, and wait up to a minute until they are Ready\n"
                          "converge %2 queue/events table/customers --wait=1m\n")
        .arg(n.at(0).toUpper() + n.mid(1), n);
}

QList<QCommandLineOption> ActionCommand::options() const
{
    return waitOptions(QStringLiteral("each resource is Ready"));
}

std::optional<Resource> ActionCommand::claimDiscovered(CommandContext &ctx, Workspace &ws,
                                                       const ResourceKey &key, int *exitCode)
{
    Console &console = ctx.console();
    QList<DiscoveredResource> found;
    if (!ctx.selectDiscovered(ws, {KindResolver::display(key)}, &found, false, exitCode))
        return std::nullopt;
    if (found.isEmpty()) {
        console.error(QStringLiteral("%1 not found, neither in the workspace nor among the "
                                     "unmanaged resources (converge get --unmanaged)")
                          .arg(KindResolver::display(key)));
        *exitCode = ExitFailed;
        return std::nullopt;
    }
    // Listed under several accounts that reach one endpoint, it is one backend resource: if a
    // resource of the workspace manages it, no listing makes it claimable.
    for (const DiscoveredResource &item : std::as_const(found)) {
        if (const QString why = DiscoveredClaim::refusal(item, ctx.services().kinds());
            item.isManagedElsewhere()) {
            console.error(QStringLiteral("cannot claim %1 (%2 under %3): %4")
                              .arg(KindResolver::display(key), item.name,
                                   KindResolver::display(item.owner), why));
            *exitCode = ExitUsage;
            return std::nullopt;
        }
    }
    if (found.size() > 1) {
        QStringList owners;
        for (const DiscoveredResource &item : std::as_const(found))
            owners << KindResolver::display(item.owner);
        console.error(QStringLiteral("%1 is listed under %2: claim it from the window, or "
                                     "refresh so that one remains")
                          .arg(KindResolver::display(key), owners.join(QStringLiteral(", "))));
        *exitCode = ExitFailed;
        return std::nullopt;
    }
    const DiscoveredResource &item = found.first();
    const std::optional<Resource> owner = ws.get(item.owner);
    if (!owner) {
        console.error(QStringLiteral("%1 is no longer in the workspace")
                          .arg(KindResolver::display(item.owner)));
        *exitCode = ExitFailed;
        return std::nullopt;
    }
    // The owners' chain, the account first, as a worker builds it.
    QList<Resource> owners{*owner};
    const KindRegistry &kinds = ctx.services().kinds();
    for (int depth = 0; depth < 8; ++depth) {
        const Kind *kind = kinds.find(owners.first().kind);
        if (!kind || kind->ownerKind.isEmpty())
            break;
        const std::optional<Resource> up =
            ws.get(ResourceKey{kind->ownerKind, owners.first().ownerName()});
        if (!up)
            break;
        owners.prepend(*up);
    }
    const Resource probe = DiscoveredClaim::probe(item, *owner);
    Factory *factory = ctx.services().factories().factoryFor(item.kind);
    HttpClient http;
    ManagerEnvironment env;
    env.http = &http;
    env.credentials = ctx.services().keychain();
    const Outcome<std::shared_ptr<Manager>> manager =
        factory ? factory->manager(item.kind, owners.first(), env)
                : Outcome<std::shared_ptr<Manager>>(
                      BackendError{BackendError::Category::Terminal,
                                   QString(),
                                   0,
                                   QStringLiteral("no provider handles the kind %1").arg(item.kind),
                                   QString(),
                                   {}});
    QString error;
    bool managedElsewhere = false;
    std::optional<Resource> resource =
        manager ? DiscoveredClaim::prepare(item, probe, owners, *manager.value(), ws, kinds, &error,
                                           &managedElsewhere)
                : std::nullopt;
    if (!manager)
        error = manager.error().message;
    StoreError storeError;
    if (resource && !ws.apply({*resource}, nullptr, &storeError)) {
        error = storeError.message;
        managedElsewhere = storeError.code == StoreError::Code::AlreadyManaged;
    }
    if (!error.isEmpty()) {
        // A second manager is refused as an invalid manifest is: nothing was stored.
        console.error(QStringLiteral("cannot claim %1 (%2 under %3): %4")
                          .arg(KindResolver::display(key), item.name,
                               KindResolver::display(item.owner), error));
        *exitCode = managedElsewhere ? ExitUsage : ExitFailed;
        return std::nullopt;
    }
    // Nothing was written to the backend: the reconcile that follows finds nothing to change.
    console.info(QStringLiteral("%1 (%2 under %3) added to the workspace")
                     .arg(KindResolver::display(resource->key()), item.name,
                          KindResolver::display(item.owner)));
    return ws.get(resource->key());
}

int ActionCommand::run(CommandContext &ctx, const QCommandLineParser &parser)
{
    Console &console = ctx.console();
    int code = ExitSuccess;
    if (parser.positionalArguments().isEmpty()) {
        console.error(QStringLiteral("%1 needs KIND/NAME (see converge %1 --help)").arg(name()));
        return ExitUsage;
    }
    QList<ResourceKey> keys;
    if (!ctx.resolveKeys(parser.positionalArguments(), &keys, &code))
        return code;
    const std::optional<std::chrono::milliseconds> timeout = waitTimeout(ctx, parser, &code);
    if (code != ExitSuccess)
        return code;
    std::unique_ptr<Workspace> ws = ctx.openWorkspace(&code);
    if (!ws)
        return code;
    QList<Resource> resources;
    for (ResourceKey &key : keys) {
        std::optional<Resource> r = ws->get(key);
        if (!r && m_action == Action::Claim) {
            // Not in the workspace: a backend resource that nothing manages, by its name.
            r = claimDiscovered(ctx, *ws, key, &code);
            if (!r)
                continue;
            key = r->key();
        }
        if (!r) {
            console.error(QStringLiteral("%1 not found").arg(KindResolver::display(key)));
            code = ExitFailed;
            continue;
        }
        resources.append(*r);
    }
    if (code != ExitSuccess)
        return code;

    ResourceWaiter waiter(ctx.services(), console, *ws);
    if (timeout)
        waiter.setTimeout(*timeout);
    QList<ResourceWaiter::Target> targets;
    const bool here = waiter.acquireController();
    if (here) {
        if (m_action == Action::Refresh)
            waiter.requestRefresh(keys);
        else
            waiter.requestReconcile(keys);
        for (const Resource &r : std::as_const(resources)) {
            targets.append(timeout
                               ? ResourceWaiter::Target{r.key(), ResourceWaiter::Goal::Ready,
                                                        r.metadata.generation, true}
                               : ResourceWaiter::Target{r.key(), ResourceWaiter::Goal::Processed});
        }
    } else {
        // Another process runs the controller; leave the request where it looks.
        const QString annotation = m_action == Action::Refresh ? refreshRequestedAnnotation()
                                                               : reconcileRequestedAnnotation();
        const QString at = ctx.now().toUTC().toString(Qt::ISODateWithMs);
        for (Resource r : std::as_const(resources)) {
            StoreError error;
            bool stored = false;
            for (int attempt = 0; attempt < 5 && !stored; ++attempt) {
                if (attempt > 0) {
                    const std::optional<Resource> again = ws->get(r.key());
                    if (!again)
                        break;
                    r = *again;
                }
                r.metadata.annotations.insert(annotation, at);
                stored = ws->update(r, &error);
                if (!stored && error.code != StoreError::Code::Conflict)
                    break;
            }
            if (!stored) {
                console.error(QStringLiteral("cannot request a %1 of %2: %3")
                                  .arg(name(), KindResolver::display(r.key()), error.message));
                return ExitFailed;
            }
            console.info(QStringLiteral("%1 %2 requested from the controller in process %3")
                             .arg(KindResolver::display(r.key()), name())
                             .arg(waiter.ownerPid()));
            targets.append({r.key(), ResourceWaiter::Goal::Ready, r.metadata.generation, false});
        }
        if (!timeout)
            return ExitSuccess;
    }

    const ResourceWaiter::Result result = waiter.wait(targets);
    if (result == ResourceWaiter::Result::Succeeded && here) {
        const QString done = m_action == Action::Claim       ? QStringLiteral("claimed")
                             : m_action == Action::Reconcile ? QStringLiteral("reconciled")
                                                             : QStringLiteral("refreshed");
        for (const ResourceKey &key : std::as_const(keys))
            console.info(KindResolver::display(key) + QLatin1Char(' ') + done);
    }
    return ResourceWaiter::exitCode(result);
}

} // namespace converge

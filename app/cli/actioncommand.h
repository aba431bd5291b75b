// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "command.h"
#include "resource.h"

#include <optional>

namespace converge {

class Workspace;

/// `converge claim|reconcile|refresh KIND/NAME… [--wait[=DURATION]]`: the window's buttons.
///
/// They need the controller. When no other process runs it, this process does, with the keys
/// queued ahead of everything else, until each was processed once (with --wait: until each is
/// Ready or failed for good). When another process runs it, the request is written to the
/// workspace as an annotation (reconcileRequestedAnnotation() or refreshRequestedAnnotation(),
/// an ISO time) for that process to act on. `claim` queues a reconcile, whose claim phase
/// records the resource ID and the finalizer.
class ActionCommand final : public Command
{
public:
    enum class Action { Claim, Reconcile, Refresh };
    explicit ActionCommand(Action action);

    /// converge.dev/reconcile-requested-at
    static QString reconcileRequestedAnnotation();
    /// converge.dev/refresh-requested-at
    static QString refreshRequestedAnnotation();

    QString name() const override;
    QString summary() const override;
    QString synopsis() const override;
    QString description() const override;
    QString examples() const override;
    QList<QCommandLineOption> options() const override;
    int run(CommandContext &ctx, const QCommandLineParser &parser) override;

private:
    /// `claim` of a KIND/NAME the workspace does not have: the discovered resource of that
    /// kind and backend name is added to the workspace as the window's Claim adds it, with no
    /// backend write (a get when the kind's lists are not complete). Nullopt after printing
    /// why not.
    static std::optional<Resource> claimDiscovered(CommandContext &ctx, Workspace &ws,
                                                   const ResourceKey &key, int *exitCode);

    Action m_action;
};

} // namespace converge

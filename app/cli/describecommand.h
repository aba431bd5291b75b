// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "command.h"
#include "resource.h"
#include "workspacetypes.h"

namespace converge {

class Workspace;

/// `converge describe KIND/NAME…`: everything known about a resource, for people: metadata,
/// spec (YAML), status, the Ready condition's history, recent events and the controller's
/// bookkeeping (attempts, next attempt, last error, what it waits for).
class DescribeCommand final : public Command
{
public:
    DescribeCommand() = default;

    QString name() const override { return QStringLiteral("describe"); }
    QString summary() const override;
    QString synopsis() const override;
    QString description() const override;
    QString examples() const override;
    QList<QCommandLineOption> options() const override;
    int run(CommandContext &ctx, const QCommandLineParser &parser) override;

private:
    /// A discovered resource: where it was listed, first and last seen, what Claim would
    /// store and what was observed.
    static QString describeUnmanaged(CommandContext &ctx, const DiscoveredResource &item);
    QString describe(CommandContext &ctx, const Workspace &ws, const Resource &r,
                     int eventCount) const;
};

} // namespace converge

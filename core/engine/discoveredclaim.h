// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resource.h"
#include "workspacetypes.h"

#include <QJsonObject>
#include <QSet>
#include <QString>

#include <optional>

namespace converge {

class KindRegistry;
class Manager;
class Workspace;

/// Turns a discovered backend resource into the workspace resource that claims it: the desired
/// spec is what was observed (so the first reconcile finds nothing to change and writes
/// nothing), the owner is the one it was listed under, and the backend ID is recorded.
class DiscoveredClaim final
{
public:
    /// `observedSpec` is the resource's full observed spec (a list page's when lists are
    /// complete, else a get's). `takenNames` are the names of this kind already in the
    /// workspace: the new name is derived from the backend name and made unique. Nullopt (and
    /// `error`) when the result would not validate.
    static std::optional<Resource> build(const DiscoveredResource &item,
                                         const QJsonObject &observedSpec, const KindRegistry &kinds,
                                         const QSet<QString> &takenNames, QString *error);
    /// Why `item` cannot be claimed whatever it holds (its kind's Kind::claimRefusal, or a
    /// resource of the workspace that manages it through another owner), or empty: build() and
    /// prepare() refuse with it before any request, and the window greys Claim.
    static QString refusal(const DiscoveredResource &item, const KindRegistry &kinds);
    /// What the Manager of `item` is asked for: its kind, backend name, listed spec and owner.
    static Resource probe(const DiscoveredResource &item, const Resource &owner);
    /// The resource a claim of `item` stores, for the window (on a worker) and the command line
    /// alike: observed by `manager` with a get when the kind's lists are not complete (a page
    /// names a table, a get sees its keys and indexes), named apart from the resources of its
    /// kind in `workspace`. `owners` are the probe's, the account first. Reads only. Refused
    /// (with `managedElsewhere` set, when given) when a resource of the workspace manages the
    /// backend ID already (SoleManager): one backend resource has one manager.
    static std::optional<Resource> prepare(const DiscoveredResource &item, const Resource &probe,
                                           const QList<Resource> &owners, Manager &manager,
                                           const Workspace &workspace, const KindRegistry &kinds,
                                           QString *error, bool *managedElsewhere = nullptr);
    /// A metadata.name for the backend name under the kind's name rules: lower case, other
    /// characters as '-', unique among `takenNames`.
    static QString nameFor(const QString &backendName, const QString &kind,
                           const KindRegistry &kinds, const QSet<QString> &takenNames);
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcekey.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>

namespace converge {

/// A backend resource that list() found under a workspace owner and that no workspace resource
/// manages: the window shows it greyed so that a person can claim it. One that a resource of the
/// workspace manages through another account (two accounts on one endpoint) names it in
/// `managedBy`: a backend resource has one manager, so it is not offered for Claim.
struct DiscoveredResource
{
    QString kind;
    QString name;      ///< the backend name (container name, table name)
    ResourceKey owner; ///< the workspace resource it was listed under (an account, a container)
    QString resourceId;
    QJsonObject spec;             ///< what was observed, in the kind's spec shape (no owner)
    QJsonObject details;          ///< further observed facts
    QDateTime seenAt;             ///< UTC: the last list that showed it
    QDateTime firstSeenAt;        ///< UTC: the first list that showed it, kept across listings
    ResourceKey managedBy;        ///< the workspace resource that manages it, through another owner
    ResourceKey managedByAccount; ///< the account that resource is under, where known

    bool isManagedElsewhere() const { return managedBy.isValid(); }

    friend bool operator==(const DiscoveredResource &, const DiscoveredResource &) = default;
};

} // namespace converge

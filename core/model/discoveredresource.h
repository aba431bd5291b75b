// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcekey.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>

namespace converge {

/// A backend resource that list() found under a workspace owner and that no workspace resource
/// manages: the window shows it greyed so that a person can claim it.
struct DiscoveredResource
{
    QString kind;
    QString name;      ///< the backend name (container name, table name)
    ResourceKey owner; ///< the workspace resource it was listed under (an account, a container)
    QString resourceId;
    QJsonObject spec;      ///< what was observed, in the kind's spec shape (no owner)
    QJsonObject details;   ///< further observed facts
    QDateTime seenAt;      ///< UTC: the last list that showed it
    QDateTime firstSeenAt; ///< UTC: the first list that showed it, kept across listings

    friend bool operator==(const DiscoveredResource &, const DiscoveredResource &) = default;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace converge {

/// Which discovered resource a row is under its owner, without what was observed of it: what
/// the window reads to see which rows a listing dropped.
struct DiscoveredName
{
    QString kind;
    QString name;

    friend bool operator==(const DiscoveredName &, const DiscoveredName &) = default;
};

} // namespace converge

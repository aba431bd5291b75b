// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "kind.h"

#include <QHash>
#include <QStringList>

namespace converge {

/// The kinds this process knows. Built in app/ (providers add theirs) and passed to whoever
/// needs it; there is no global registry.
class KindRegistry final
{
public:
    /// Adds a kind; returns false (and changes nothing) if a kind of that name exists.
    bool add(const Kind &kind);

    /// The kind called `name`, or nullptr.
    const Kind *find(const QString &name) const;
    /// The kind called `name` in `apiVersion`, or nullptr.
    const Kind *find(const QString &apiVersion, const QString &name) const;

    /// All kind names, sorted.
    QStringList names() const;

    /// Kind names near `name` (edit distance, case-insensitive), best first, for "did you mean".
    QStringList suggestions(const QString &name) const;

private:
    QHash<QString, Kind> m_kinds;
};

} // namespace converge

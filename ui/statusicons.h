// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QIcon>
#include <QString>

#include <array>

namespace converge {

struct Resource;

/// What a resource's row says at a glance, derived from its Ready condition and policy.
enum class StatusKind {
    Unknown,    ///< Ready Unknown: not reconciled yet
    Ready,      ///< Ready True
    InProgress, ///< Ready False with severity Info (or none), or deletion in progress
    Warning,    ///< Ready False, Warning: failing, retried
    Error,      ///< Ready False, Error: fatal until the spec changes
    Unmanaged,  ///< policy skip: observed only, never written
};

/// The status icons (SVG from the application's resources, :/icons/status/), loaded once per
/// owner. A missing resource gives a null icon, never a crash.
class StatusIcons final
{
public:
    StatusIcons();

    QIcon icon(StatusKind kind) const { return m_icons.at(static_cast<size_t>(kind)); }

    static QString iconPath(StatusKind kind);
    /// "Ready", "In progress", … for tool tips and legends.
    static QString label(StatusKind kind);
    /// Deletion first, then failures (they show even under policy skip), then readiness.
    static StatusKind kindOf(const Resource &resource);

private:
    std::array<QIcon, 6> m_icons;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "statusicons.h"

#include "resource.h"

#include <QCoreApplication>

namespace converge {

StatusIcons::StatusIcons()
{
    for (size_t i = 0; i < m_icons.size(); ++i)
        m_icons[i] = QIcon(iconPath(static_cast<StatusKind>(i)));
}

QString StatusIcons::iconPath(StatusKind kind)
{
    switch (kind) {
    case StatusKind::Unknown:
        return QStringLiteral(":/icons/status/unknown.svg");
    case StatusKind::Ready:
        return QStringLiteral(":/icons/status/ready.svg");
    case StatusKind::InProgress:
        return QStringLiteral(":/icons/status/inprogress.svg");
    case StatusKind::Warning:
        return QStringLiteral(":/icons/status/warning.svg");
    case StatusKind::Error:
        return QStringLiteral(":/icons/status/error.svg");
    case StatusKind::Unmanaged:
        return QStringLiteral(":/icons/status/unmanaged.svg");
    }
    return {};
}

QString StatusIcons::label(StatusKind kind)
{
    switch (kind) {
    case StatusKind::Unknown:
        return QCoreApplication::translate("StatusIcons", "Unknown");
    case StatusKind::Ready:
        return QCoreApplication::translate("StatusIcons", "Ready");
    case StatusKind::InProgress:
        return QCoreApplication::translate("StatusIcons", "In progress");
    case StatusKind::Warning:
        return QCoreApplication::translate("StatusIcons", "Warning");
    case StatusKind::Error:
        return QCoreApplication::translate("StatusIcons", "Error");
    case StatusKind::Unmanaged:
        return QCoreApplication::translate("StatusIcons", "Not managed (skip)");
    }
    return {};
}

StatusKind StatusIcons::kindOf(const Resource &resource)
{
    if (resource.metadata.isBeingDeleted())
        return StatusKind::InProgress;
    const Condition ready = resource.status.ready();
    if (ready.status == Condition::Status::False) {
        switch (ready.severity) {
        case Condition::Severity::Error:
            return StatusKind::Error;
        case Condition::Severity::Warning:
            return StatusKind::Warning;
        case Condition::Severity::Info:
        case Condition::Severity::None:
            return StatusKind::InProgress;
        }
    }
    const bool skip = resource.metadata.annotations.value(Annotations::reconcilePolicy()) ==
                      QLatin1String("skip");
    if (skip)
        return StatusKind::Unmanaged;
    return ready.isReady() ? StatusKind::Ready : StatusKind::Unknown;
}

} // namespace converge

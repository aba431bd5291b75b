// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "buildinfo.h"

#include <QSysInfo>
#include <QtGlobal>

namespace converge::BuildInfo {

QString version()
{
    return QStringLiteral(CONVERGE_VERSION);
}

QString applicationId()
{
    return QStringLiteral("dev.converge.Converge");
}

QString userAgent()
{
    return QStringLiteral("Converge/") + version() + QStringLiteral(" (Qt ") +
           QString::fromLatin1(qVersion()) + QStringLiteral("; ") + QSysInfo::kernelType() +
           QLatin1Char(')');
}

} // namespace converge::BuildInfo

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "services.h"

#include "awsfactory.h"
#include "azurefactory.h"
#include "gcpfactory.h"

#include <QDir>
#include <QStandardPaths>

namespace converge {

Services::Services()
    : m_reconciler(m_kinds)
{
    m_factories.add(std::make_unique<AzureFactory>());
    m_factories.add(std::make_unique<AwsFactory>());
    m_factories.add(std::make_unique<GcpFactory>());
    m_factories.registerKinds(m_kinds);
}

Services::~Services() = default;

std::unique_ptr<Controller> Services::makeController(const QString &workspacePath, QObject *parent)
{
    return std::make_unique<Controller>(workspacePath, m_kinds, m_factories, m_reconciler, m_clock,
                                        &m_keychain, m_controllerOptions, parent);
}

QString Services::workspacePath(const QString &given)
{
    QString path = given;
    if (path.isEmpty())
        path = qEnvironmentVariable("CONVERGE_WORKSPACE");
    if (path.isEmpty()) {
        const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
        QDir().mkpath(dir);
        path = QDir(dir).filePath(QStringLiteral("default.converge"));
    }
    return QDir::current().absoluteFilePath(path);
}

} // namespace converge

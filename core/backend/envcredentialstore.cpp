// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "envcredentialstore.h"

#include <QRegularExpression>

namespace converge {

QString EnvCredentialStore::description() const
{
    return QStringLiteral("the environment");
}

std::optional<QString> EnvCredentialStore::read(const QString &name, BackendError *error)
{
    static const QRegularExpression validName(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    if (!validName.match(name).hasMatch()) {
        fail(error, BackendError::Category::Invalid, QStringLiteral("InvalidVariableName"),
             QStringLiteral("\"%1\" is not an environment variable name").arg(name));
        return std::nullopt;
    }
    const QString value = qEnvironmentVariable(name.toLocal8Bit().constData());
    if (value.isEmpty()) {
        fail(error, BackendError::Category::NotFound, QStringLiteral("CredentialNotFound"),
             QStringLiteral("the environment variable %1 is not set").arg(name));
        return std::nullopt;
    }
    return value;
}

bool EnvCredentialStore::write(const QString &name, const QString &, BackendError *error)
{
    return fail(error, BackendError::Category::Invalid, QStringLiteral("ReadOnlyStore"),
                QStringLiteral("cannot store a secret in the environment variable %1: set it "
                               "before starting Converge")
                    .arg(name));
}

bool EnvCredentialStore::remove(const QString &name, BackendError *error)
{
    return fail(error, BackendError::Category::Invalid, QStringLiteral("ReadOnlyStore"),
                QStringLiteral("cannot remove the environment variable %1 from Converge: unset "
                               "it where it is defined")
                    .arg(name));
}

} // namespace converge

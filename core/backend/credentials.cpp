// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "credentials.h"

#include "redactor.h"

#include <QDebug>

namespace converge {

Credentials Credentials::azureSharedKey(const QString &account, const QString &key)
{
    Credentials credentials;
    credentials.m_value = AzureSharedKey{account, key};
    return credentials;
}

Credentials Credentials::azureSas(const QString &token)
{
    Credentials credentials;
    credentials.m_value = AzureSas{token.startsWith(QLatin1Char('?')) ? token.mid(1) : token};
    return credentials;
}

Credentials Credentials::aws(const QString &accessKeyId, const QString &secretAccessKey,
                             const QString &sessionToken)
{
    Credentials credentials;
    credentials.m_value = Aws{accessKeyId, secretAccessKey, sessionToken};
    return credentials;
}

Credentials Credentials::azureBearer(const QString &token, const QString &source)
{
    Credentials credentials;
    credentials.m_value = AzureBearer{token, source};
    return credentials;
}

const Credentials::AzureBearer *Credentials::azureBearerValue() const
{
    return std::get_if<AzureBearer>(&m_value);
}

const Credentials::AzureSharedKey *Credentials::azureSharedKeyValue() const
{
    return std::get_if<AzureSharedKey>(&m_value);
}

const Credentials::AzureSas *Credentials::azureSasValue() const
{
    return std::get_if<AzureSas>(&m_value);
}

const Credentials::Aws *Credentials::awsValue() const
{
    return std::get_if<Aws>(&m_value);
}

QString Credentials::redactedDescription() const
{
    const QString hidden = Redactor::mask();
    if (const auto *value = azureSharedKeyValue())
        return QStringLiteral("azureSharedKey{account=%1, key=%2}").arg(value->account, hidden);
    if (azureSasValue())
        return QStringLiteral("azureSas{token=%1}").arg(hidden);
    if (const auto *bearer = azureBearerValue())
        return QStringLiteral("azureBearer{source=%1, token=%2}").arg(bearer->source, hidden);
    if (const auto *value = awsValue()) {
        return QStringLiteral("aws{accessKeyId=%1, secretAccessKey=%2%3}")
            .arg(value->accessKeyId, hidden,
                 value->sessionToken.isEmpty() ? QString()
                                               : QStringLiteral(", sessionToken=") + hidden);
    }
    return QStringLiteral("none");
}

QStringList Credentials::secrets() const
{
    QStringList list;
    if (const auto *value = azureSharedKeyValue())
        list << value->key;
    else if (const auto *sas = azureSasValue())
        list << sas->token;
    else if (const auto *bearer = azureBearerValue())
        list << bearer->token;
    else if (const auto *aws = awsValue())
        list << aws->secretAccessKey << aws->sessionToken;
    list.removeAll(QString());
    return list;
}

QDebug operator<<(QDebug debug, const Credentials &credentials)
{
    const QDebugStateSaver saver(debug);
    debug.noquote().nospace() << "Credentials(" << credentials.redactedDescription() << ')';
    return debug;
}

} // namespace converge

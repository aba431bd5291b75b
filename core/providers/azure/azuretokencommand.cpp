// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "azuretokencommand.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace converge {

namespace {

BackendError invalidOutput(const QString &message)
{
    BackendError error;
    error.category = BackendError::Category::Terminal;
    error.code = QStringLiteral("InvalidTokenOutput");
    error.message = message;
    return error;
}

} // namespace

TokenCommand AzureTokenCommand::azureCli(const QString &tenant, const QString &subscription)
{
    TokenCommand command;
    command.parse = parseAzureTokenOutput;
    command.argv = QStringList{QStringLiteral("az"),
                               QStringLiteral("account"),
                               QStringLiteral("get-access-token"),
                               QStringLiteral("--resource"),
                               QStringLiteral("https://storage.azure.com/"),
                               QStringLiteral("-o"),
                               QStringLiteral("json")};
    QString login = QStringLiteral("az login");
    if (!tenant.isEmpty()) {
        command.argv << QStringLiteral("--tenant") << tenant;
        login += QStringLiteral(" --tenant ") + tenant;
    }
    if (!subscription.isEmpty())
        command.argv << QStringLiteral("--subscription") << subscription;
    command.description = QStringLiteral("the Azure CLI (az account get-access-token)");
    command.remedy = QStringLiteral("sign in with `%1` (the Azure CLI is the Debian package "
                                    "azure-cli), then Reconcile the account")
                         .arg(login);
    return command;
}

TokenCommand AzureTokenCommand::custom(const QStringList &argv)
{
    TokenCommand command;
    command.parse = parseAzureTokenOutput;
    command.argv = argv;
    command.description =
        QStringLiteral("the token command %1").arg(argv.isEmpty() ? QString() : argv.first());
    command.remedy = QStringLiteral("fix what it reports, then Reconcile the account");
    return command;
}

Outcome<AccessToken> parseAzureTokenOutput(const QByteArray &output)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(output.trimmed(), &parseError);
    if (!document.isObject())
        return invalidOutput(
            QStringLiteral("its output is not a JSON object (%1)").arg(parseError.errorString()));
    const QJsonObject json = document.object();
    AccessToken token;
    token.accessToken = json.value(QStringLiteral("accessToken")).toString();
    if (token.accessToken.isEmpty())
        return invalidOutput(QStringLiteral("its output has no accessToken"));

    // expires_on (Unix seconds, a number or a string) is unambiguous; expiresOn is local time
    // in the Azure CLI's output.
    const QJsonValue epoch = json.value(QStringLiteral("expires_on"));
    bool ok = false;
    const qint64 seconds =
        epoch.isDouble() ? qint64(epoch.toDouble()) : epoch.toString().toLongLong(&ok);
    if (epoch.isDouble() || ok) {
        token.expiresOn = QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC);
        return token;
    }
    const QString text = json.value(QStringLiteral("expiresOn")).toString().trimmed();
    QDateTime when = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!when.isValid() || !text.contains(QLatin1Char('T'))) {
        // "2026-12-01 15:04:05.123456", local time
        when = QDateTime::fromString(text.section(QLatin1Char('.'), 0, 0),
                                     QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    }
    if (!when.isValid())
        return invalidOutput(QStringLiteral("its output has neither expires_on nor a readable "
                                            "expiresOn"));
    token.expiresOn = when.toUTC();
    return token;
}

} // namespace converge

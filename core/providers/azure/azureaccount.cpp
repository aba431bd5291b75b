// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "azureaccount.h"

#include "connectionstring.h"
#include "credentialstore.h"
#include "envcredentialstore.h"
#include "filecredentialstore.h"
#include "httpclient.h"
#include "sastoken.h"
#include "tokencommandcache.h"

#include <QDir>
#include <QJsonArray>

namespace converge {

namespace {

BackendError unauthorized(const QString &code, const QString &message)
{
    BackendError error;
    error.category = BackendError::Category::Unauthorized;
    error.code = code;
    error.message = message;
    return error;
}

/// A store's refusal, re-filed as Unauthorized (the resource cannot authenticate until someone
/// fixes the credential) but keeping the store's code and explanation.
BackendError credentialError(const BackendError &storeError, const QString &source)
{
    BackendError error = storeError;
    error.category = BackendError::Category::Unauthorized;
    if (error.code.isEmpty())
        error.code = QStringLiteral("CredentialUnavailable");
    error.message =
        QStringLiteral("cannot read the account key from %1: %2").arg(source, storeError.message);
    return error;
}

Outcome<QString> readSecret(CredentialStore &store, const QString &name, const QString &source)
{
    BackendError error;
    const std::optional<QString> value = store.read(name, &error);
    if (!value)
        return credentialError(error, source);
    if (value->trimmed().isEmpty())
        return unauthorized(QStringLiteral("CredentialNotFound"),
                            QStringLiteral("%1 is empty").arg(source));
    return value->trimmed();
}

Outcome<Credentials> sharedKey(const QString &account, const QString &key, const QString &source)
{
    const auto decoded =
        QByteArray::fromBase64Encoding(key.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded || decoded.decoded.isEmpty())
        return unauthorized(QStringLiteral("InvalidAccountKey"),
                            QStringLiteral("the account key from %1 is not valid base64 (copy "
                                           "key1 or key2 from the portal's Access keys page)")
                                .arg(source));
    return Credentials::azureSharedKey(account, key);
}

} // namespace

QUrl AzureAccount::endpoint(Service service) const
{
    switch (service) {
    case Service::Blob:
        return blobEndpoint;
    case Service::Queue:
        return queueEndpoint;
    case Service::Table:
        break;
    }
    return tableEndpoint;
}

QStringList AzureAccount::services()
{
    return {QStringLiteral("blob"), QStringLiteral("queue"), QStringLiteral("table")};
}

QString AzureAccount::serviceName(Service service)
{
    return services().at(static_cast<int>(service));
}

QStringList AzureAccount::credentialSources()
{
    return {QStringLiteral("emulator"), QStringLiteral("keychain"),
            QStringLiteral("env"),      QStringLiteral("file"),
            QStringLiteral("sasEnv"),   QStringLiteral("connectionStringEnv"),
            QStringLiteral("azureCli"), QStringLiteral("tokenCommand")};
}

QUrl AzureAccount::defaultEndpoint(const QString &account, const QString &service)
{
    QUrl url;
    url.setScheme(QStringLiteral("https"));
    url.setHost(account + QLatin1Char('.') + service + QStringLiteral(".core.windows.net"));
    url.setPath(QStringLiteral("/"));
    return url;
}

QString AzureAccount::emulatorAccountName()
{
    return QStringLiteral("devstoreaccount1");
}

QString AzureAccount::emulatorKey()
{
    // Published by Microsoft for the storage emulators ("Use Azurite for local Azure Storage
    // development"); the same for every installation, so not a secret.
    return QStringLiteral("Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/"
                          "K1SZFPTOtr/KBHBeksoGMGw==");
}

Outcome<AzureAccount> AzureAccount::fromSpec(const QJsonObject &spec, CredentialStore *keychain,
                                             std::shared_ptr<TokenCommandCache> tokens)
{
    AzureAccount account;
    account.name = spec.value(QStringLiteral("accountName")).toString();
    account.allowInsecureHttp = spec.value(QStringLiteral("allowInsecureHttp")).toBool();
    const QJsonObject endpoints = spec.value(QStringLiteral("endpoints")).toObject();
    const QJsonObject credential = spec.value(QStringLiteral("credential")).toObject();
    const auto text = [&credential](const char *name) {
        return credential.value(QLatin1String(name)).toString();
    };

    std::optional<ConnectionString> connection;
    if (credential.contains(QStringLiteral("connectionStringEnv"))) {
        const QString variable = text("connectionStringEnv");
        const QString source = QStringLiteral("environment variable %1").arg(variable);
        EnvCredentialStore env;
        Outcome<QString> value = readSecret(env, variable, source);
        if (!value)
            return value.error();
        QString parseError;
        connection = ConnectionString::parse(value.value(), &parseError);
        if (!connection)
            return unauthorized(QStringLiteral("InvalidConnectionString"),
                                QStringLiteral("the connection string in %1 is not valid: %2")
                                    .arg(source, parseError));
        if (!connection->accountName.isEmpty() && connection->accountName != account.name)
            return unauthorized(
                QStringLiteral("InvalidConnectionString"),
                QStringLiteral("the connection string in %1 is for account %2, but accountName "
                               "is %3")
                    .arg(source, connection->accountName, account.name));
        account.credentials = connection->credentials();
        account.credentialSource = source;
        if (account.credentials.isEmpty())
            return unauthorized(QStringLiteral("CredentialNotFound"),
                                QStringLiteral("the connection string in %1 has neither "
                                               "AccountKey nor SharedAccessSignature; for an "
                                               "account you sign in to with Microsoft Entra "
                                               "ID, give its endpoints in spec.endpoints and "
                                               "use credential azureCli or tokenCommand")
                                    .arg(source));
    }

    for (const QString &service : services()) {
        QUrl url;
        if (endpoints.contains(service))
            url = QUrl(endpoints.value(service).toString());
        else if (connection)
            url = service == QLatin1String("blob")
                      ? connection->blobEndpoint
                      : (service == QLatin1String("queue") ? connection->queueEndpoint
                                                           : connection->tableEndpoint);
        else
            url = defaultEndpoint(account.name, service);
        if (service == QLatin1String("blob"))
            account.blobEndpoint = url;
        else if (service == QLatin1String("queue"))
            account.queueEndpoint = url;
        else
            account.tableEndpoint = url;
    }

    if (connection)
        return account;

    if (credential.value(QStringLiteral("emulator")).toBool()) {
        for (const QUrl &url :
             {account.blobEndpoint, account.queueEndpoint, account.tableEndpoint}) {
            if (!HttpClient::isLoopbackHost(url.host())) {
                BackendError error;
                error.category = BackendError::Category::Invalid;
                error.code = QStringLiteral("EmulatorKeyOffLoopback");
                error.message = QStringLiteral("the emulator's published key is used only with "
                                               "loopback endpoints, not with %1")
                                    .arg(url.host());
                return error;
            }
        }
        account.credentialSource = QStringLiteral("the emulator's published key");
        account.credentials = Credentials::azureSharedKey(account.name, emulatorKey());
        return account;
    }

    if (credential.contains(QStringLiteral("azureCli")) ||
        credential.contains(QStringLiteral("tokenCommand"))) {
        TokenCommand command;
        if (credential.contains(QStringLiteral("azureCli"))) {
            const QJsonObject cli = credential.value(QStringLiteral("azureCli")).toObject();
            command =
                AzureTokenCommand::azureCli(cli.value(QStringLiteral("tenant")).toString(),
                                            cli.value(QStringLiteral("subscription")).toString());
        } else {
            QStringList argv;
            const QJsonObject custom = credential.value(QStringLiteral("tokenCommand")).toObject();
            for (const QJsonValue &arg : custom.value(QStringLiteral("command")).toArray())
                argv << arg.toString();
            command = AzureTokenCommand::custom(argv);
        }
        if (!tokens) // a caller without a cache of its own (a one-off check) asks once
            tokens = std::make_shared<TokenCommandCache>();
        const Outcome<AccessToken> token = tokens->token(command);
        if (!token)
            return token.error();
        account.credentialSource = command.description;
        account.credentials =
            Credentials::azureBearer(token.value().accessToken, command.description);
        account.tokenCommand = command;
        account.tokens = std::move(tokens);
        return account;
    }

    Outcome<QString> secret = QString();
    if (credential.contains(QStringLiteral("keychain"))) {
        account.credentialSource =
            QStringLiteral("the OS keychain entry \"%1\"").arg(text("keychain"));
        if (!keychain)
            return unauthorized(QStringLiteral("NoKeychain"),
                                QStringLiteral("no keychain available; use env or file (credential "
                                               "keychain: %1)")
                                    .arg(text("keychain")));
        secret = readSecret(*keychain, text("keychain"), account.credentialSource);
    } else if (credential.contains(QStringLiteral("env"))) {
        account.credentialSource = QStringLiteral("environment variable %1").arg(text("env"));
        EnvCredentialStore env;
        secret = readSecret(env, text("env"), account.credentialSource);
    } else if (credential.contains(QStringLiteral("file"))) {
        const QString path = QDir::current().absoluteFilePath(text("file"));
        account.credentialSource = QStringLiteral("entry %1 of file %2").arg(account.name, path);
        FileCredentialStore file(path);
        secret = readSecret(file, account.name, account.credentialSource);
    } else if (credential.contains(QStringLiteral("sasEnv"))) {
        account.credentialSource = QStringLiteral("environment variable %1").arg(text("sasEnv"));
        EnvCredentialStore env;
        Outcome<QString> token = readSecret(env, text("sasEnv"), account.credentialSource);
        if (!token)
            return token.error();
        QString parseError;
        const std::optional<SasToken> sas = SasToken::parse(token.value(), &parseError);
        if (!sas)
            return unauthorized(QStringLiteral("InvalidSasToken"),
                                QStringLiteral("the SAS token in %1 is not valid: %2")
                                    .arg(account.credentialSource, parseError));
        if (sas->isExpired(QDateTime::currentDateTimeUtc()))
            return unauthorized(
                QStringLiteral("SasTokenExpired"),
                QStringLiteral("the SAS token in %1 expired at %2")
                    .arg(account.credentialSource, sas->expiry().toString(Qt::ISODate)));
        account.credentials = Credentials::azureSas(sas->toString());
        return account;
    } else {
        return unauthorized(QStringLiteral("CredentialNotFound"),
                            QStringLiteral("the StorageAccount is not connected: it names "
                                           "no credential; connect it (File ▸ Connect "
                                           "account) or set spec.credential"));
    }
    if (!secret)
        return secret.error();
    Outcome<Credentials> key = sharedKey(account.name, secret.value(), account.credentialSource);
    if (!key)
        return key.error();
    account.credentials = key.value();
    return account;
}

} // namespace converge

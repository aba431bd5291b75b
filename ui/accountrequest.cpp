// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "accountrequest.h"

#include "awskinds.h"
#include "azurekinds.h"
#include "backenderror.h"
#include "connectionstring.h"
#include "credentialstore.h"
#include "gcpkinds.h"
#include "kindregistry.h"
#include "schemavalidator.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QRegularExpression>

namespace converge {

namespace {

const QString awsKeyIdEntry = QStringLiteral("aws_access_key_id");
const QString awsSecretEntry = QStringLiteral("aws_secret_access_key");

QJsonObject azuriteEndpoints()
{
    const ConnectionString dev = ConnectionString::developmentStorage();
    return {{QStringLiteral("blob"), dev.blobEndpoint.toString()},
            {QStringLiteral("queue"), dev.queueEndpoint.toString()},
            {QStringLiteral("table"), dev.tableEndpoint.toString()}};
}

bool isEnvName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    return re.match(name).hasMatch();
}

// The credential object for an Azure key kept in the chosen store, plus the secret to write.
QString azureKeyCredential(const AccountForm &form, const QString &account, const QString &key,
                           AccountRequest &request, QJsonObject *credential)
{
    switch (form.store) {
    case AccountForm::SecretStore::Keychain: {
        const QString entry = form.keychainEntry.trimmed();
        if (entry.isEmpty())
            return AccountRequest::tr("Name the keychain entry for the account key.");
        credential->insert(QStringLiteral("keychain"), entry);
        request.secrets.append({entry, key});
        return {};
    }
    case AccountForm::SecretStore::File: {
        const QString path = form.filePath.trimmed();
        if (path.isEmpty())
            return AccountRequest::tr("Choose the file for the account key.");
        // Relative paths would be resolved against whichever directory Converge starts in.
        credential->insert(QStringLiteral("file"), QDir::current().absoluteFilePath(path));
        request.secrets.append({account, key});
        return {};
    }
    case AccountForm::SecretStore::Environment: {
        const QString variable = form.envVariable.trimmed();
        if (!isEnvName(variable))
            return AccountRequest::tr(
                "Name the environment variable that will hold the account key "
                "(letters, digits and '_').");
        credential->insert(QStringLiteral("env"), variable);
        request.note =
            AccountRequest::tr("Set %1 to the account key in the environment Converge starts in; "
                               "nothing was stored.")
                .arg(variable);
        return {};
    }
    }
    return {};
}

QString buildAzure(const AccountForm &form, AccountRequest &request, QJsonObject *spec)
{
    QString account = form.accountName.trimmed();
    QString key = form.accountKey.trimmed();
    QJsonObject credential;
    if (form.preset == AccountForm::Preset::AzureConnectionString) {
        QString parseError;
        const std::optional<ConnectionString> cs =
            ConnectionString::parse(form.connectionString.trimmed(), &parseError);
        if (!cs)
            return AccountRequest::tr("The connection string is not valid: %1").arg(parseError);
        if (cs->isDevelopmentStorage) {
            spec->insert(QStringLiteral("accountName"), cs->accountName);
            spec->insert(QStringLiteral("endpoints"), azuriteEndpoints());
            spec->insert(QStringLiteral("credential"),
                         QJsonObject{{QStringLiteral("emulator"), true}});
            return {};
        }
        account = cs->accountName;
        key = cs->accountKey;
        spec->insert(QStringLiteral("endpoints"),
                     QJsonObject{{QStringLiteral("blob"), cs->blobEndpoint.toString()},
                                 {QStringLiteral("queue"), cs->queueEndpoint.toString()},
                                 {QStringLiteral("table"), cs->tableEndpoint.toString()}});
        if (key.isEmpty()) {
            // Converge reads a SAS from an environment variable only.
            if (form.store != AccountForm::SecretStore::Environment)
                return AccountRequest::tr(
                    "This connection string has a shared access signature and no account "
                    "key. Converge reads a SAS only from an environment variable: choose "
                    "\"An environment variable\" and set it to the SAS token.");
            const QString variable = form.envVariable.trimmed();
            if (!isEnvName(variable))
                return AccountRequest::tr(
                    "Name the environment variable that will hold the SAS token.");
            credential.insert(QStringLiteral("sasEnv"), variable);
            request.note =
                AccountRequest::tr("Set %1 to the SAS token in the environment Converge starts in; "
                                   "nothing was stored.")
                    .arg(variable);
        }
    } else {
        if (key.isEmpty())
            return AccountRequest::tr("Enter the account key.");
    }
    if (account.isEmpty())
        return AccountRequest::tr("Enter the storage account's name.");
    if (!key.isEmpty()) {
        if (QByteArray::fromBase64(key.toLatin1(), QByteArray::AbortOnBase64DecodingErrors)
                .isEmpty())
            return AccountRequest::tr("The account key is not base64, as the portal shows it.");
        if (QString e = azureKeyCredential(form, account, key, request, &credential); !e.isEmpty())
            return e;
    }
    spec->insert(QStringLiteral("accountName"), account);
    spec->insert(QStringLiteral("credential"), credential);
    return {};
}

// A sign-in preset: the account's name and endpoints, and a credential that names where the
// token comes from; nothing secret is typed in, so a connection string with a key is refused.
QString buildAzureToken(const AccountForm &form, QJsonObject *spec)
{
    QString account = form.accountName.trimmed();
    const QString text = form.connectionString.trimmed();
    if (!text.isEmpty()) {
        QString parseError;
        const std::optional<ConnectionString> cs = ConnectionString::parse(text, &parseError);
        if (!cs)
            return AccountRequest::tr("The connection string is not valid: %1").arg(parseError);
        if (!cs->isDevelopmentStorage && (!cs->accountKey.isEmpty() || cs->sas))
            return AccountRequest::tr(
                "This connection string holds a secret (AccountKey or SharedAccessSignature), "
                "which a sign-in does not need: remove it, or choose \"Azure Storage account: "
                "connection string\" to use the key.");
        const QString named = cs->accountNameFromEndpoints();
        if (account.isEmpty())
            account = named;
        else if (!named.isEmpty() && named != account)
            return AccountRequest::tr("The connection string is for the account %1, not %2.")
                .arg(named, account);
        QJsonObject endpoints;
        for (const auto &[service, url] : {std::pair{QStringLiteral("blob"), cs->blobEndpoint},
                                           std::pair{QStringLiteral("queue"), cs->queueEndpoint},
                                           std::pair{QStringLiteral("table"), cs->tableEndpoint}}) {
            if (!url.isEmpty())
                endpoints.insert(service, url.toString());
        }
        spec->insert(QStringLiteral("endpoints"), endpoints);
    }
    if (account.isEmpty())
        return AccountRequest::tr("Enter the storage account's name.");
    spec->insert(QStringLiteral("accountName"), account);

    QJsonObject credential;
    if (form.preset == AccountForm::Preset::AzureCli) {
        QJsonObject cli;
        if (!form.tenant.trimmed().isEmpty())
            cli.insert(QStringLiteral("tenant"), form.tenant.trimmed());
        if (!form.subscription.trimmed().isEmpty())
            cli.insert(QStringLiteral("subscription"), form.subscription.trimmed());
        credential.insert(QStringLiteral("azureCli"), cli);
    } else {
        QString splitError;
        const QStringList argv = AccountRequest::splitCommandLine(form.tokenCommand, &splitError);
        if (!splitError.isEmpty())
            return splitError;
        if (argv.isEmpty())
            return AccountRequest::tr("Enter the command that prints the token.");
        credential.insert(
            QStringLiteral("tokenCommand"),
            QJsonObject{{QStringLiteral("command"), QJsonArray::fromStringList(argv)}});
    }
    spec->insert(QStringLiteral("credential"), credential);
    return {};
}

QString buildAwsProfile(const AccountForm &form, QJsonObject *spec)
{
    const QString profile = form.awsProfile.trimmed();
    if (profile.isEmpty())
        return AccountRequest::tr("Choose a profile of the AWS configuration files.");
    if (!form.region.trimmed().isEmpty())
        spec->insert(QStringLiteral("region"), form.region.trimmed());
    if (!form.endpoint.trimmed().isEmpty())
        spec->insert(QStringLiteral("endpoint"), form.endpoint.trimmed());
    spec->insert(QStringLiteral("credential"), QJsonObject{{QStringLiteral("profile"), profile}});
    return {};
}

QString buildAws(const AccountForm &form, AccountRequest &request, QJsonObject *spec)
{
    spec->insert(QStringLiteral("region"), form.region.trimmed());
    if (!form.endpoint.trimmed().isEmpty())
        spec->insert(QStringLiteral("endpoint"), form.endpoint.trimmed());
    QJsonObject credential;
    const QString keyId = form.accessKeyId.trimmed();
    const QString secret = form.secretAccessKey.trimmed();
    if (form.store != AccountForm::SecretStore::Environment &&
        (keyId.isEmpty() || secret.isEmpty()))
        return AccountRequest::tr("Enter the access key ID and the secret access key.");
    switch (form.store) {
    case AccountForm::SecretStore::Keychain: {
        const QString entry = form.keychainEntry.trimmed();
        if (entry.isEmpty())
            return AccountRequest::tr("Name the keychain entry for the access keys.");
        credential.insert(QStringLiteral("keychain"), entry);
        const QString prefix = entry + QLatin1Char('/');
        request.secrets.append({prefix + awsKeyIdEntry, keyId});
        request.secrets.append({prefix + awsSecretEntry, secret});
        break;
    }
    case AccountForm::SecretStore::File: {
        const QString path = form.filePath.trimmed();
        if (path.isEmpty())
            return AccountRequest::tr("Choose the file for the access keys.");
        credential.insert(QStringLiteral("file"), QDir::current().absoluteFilePath(path));
        request.secrets.append({awsKeyIdEntry, keyId});
        request.secrets.append({awsSecretEntry, secret});
        break;
    }
    case AccountForm::SecretStore::Environment:
        credential.insert(QStringLiteral("env"), true);
        request.note = AccountRequest::tr(
            "Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN "
            "for temporary keys) in the environment Converge starts in; nothing "
            "was stored.");
        break;
    }
    spec->insert(QStringLiteral("credential"), credential);
    return {};
}

} // namespace

QString AccountRequest::suggestedName(const AccountForm &form)
{
    switch (form.preset) {
    case AccountForm::Preset::Azurite:
        return QStringLiteral("azurite");
    case AccountForm::Preset::Dynalite:
        return QStringLiteral("dynalite");
    case AccountForm::Preset::AzureConnectionString: {
        const auto cs = ConnectionString::parse(form.connectionString.trimmed());
        return cs && !cs->accountName.isEmpty() ? cs->accountName : QStringLiteral("storage");
    }
    case AccountForm::Preset::AzureKey:
        return form.accountName.trimmed().isEmpty() ? QStringLiteral("storage")
                                                    : form.accountName.trimmed();
    case AccountForm::Preset::Aws:
        return form.region.trimmed().isEmpty() ? QStringLiteral("aws")
                                               : QStringLiteral("aws-") + form.region.trimmed();
    case AccountForm::Preset::AzureCli:
    case AccountForm::Preset::AzureTokenCommand: {
        QString account = form.accountName.trimmed();
        if (account.isEmpty()) {
            const auto cs = ConnectionString::parse(form.connectionString.trimmed());
            account = cs ? cs->accountNameFromEndpoints() : QString();
        }
        return account.isEmpty() ? QStringLiteral("storage") : account;
    }
    case AccountForm::Preset::GcpEmulators:
    case AccountForm::Preset::GcpGcloud: {
        // A project ID is a valid resource name (lower-case letters, digits, '-').
        const QString project = form.gcpProject.trimmed();
        return project.isEmpty() ? QStringLiteral("gcp") : project;
    }
    case AccountForm::Preset::AwsProfile: {
        // A profile's name may hold capitals, '_' or spaces; a resource name may not.
        static const QRegularExpression other(QStringLiteral("[^a-z0-9.-]+"));
        const QString name =
            form.awsProfile.trimmed().toLower().replace(other, QStringLiteral("-"));
        return name.isEmpty() ? QStringLiteral("aws") : QStringLiteral("aws-") + name;
    }
    }
    return {};
}

QString AccountRequest::suggestedKeychainEntry(const AccountForm &form)
{
    if (form.preset == AccountForm::Preset::Aws)
        return QStringLiteral("aws/") + form.name.trimmed();
    QString account = form.accountName.trimmed();
    if (form.preset == AccountForm::Preset::AzureConnectionString) {
        const auto cs = ConnectionString::parse(form.connectionString.trimmed());
        account = cs ? cs->accountName : QString();
    }
    return QStringLiteral("azure-storage/") + account;
}

// A Google Cloud project: on the emulators (their default loopback ports, as `scripts/dev.sh
// run` starts them), or as the Google Cloud CLI's signed-in user; nothing secret either way.
QString buildGcp(const AccountForm &form, QJsonObject *spec)
{
    const QString project = form.gcpProject.trimmed();
    if (project.isEmpty())
        return AccountRequest::tr("Enter the Google Cloud project's ID.");
    spec->insert(QStringLiteral("projectId"), project);
    if (form.preset == AccountForm::Preset::GcpEmulators) {
        spec->insert(
            QStringLiteral("endpoints"),
            QJsonObject{{QStringLiteral("pubsub"), QStringLiteral("http://127.0.0.1:8085")},
                        {QStringLiteral("spanner"), QStringLiteral("http://127.0.0.1:9020")}});
        spec->insert(QStringLiteral("credential"), QJsonObject{{QStringLiteral("emulator"), true}});
        return {};
    }
    QJsonObject gcloud;
    if (const QString account = form.gcloudAccount.trimmed(); !account.isEmpty())
        gcloud.insert(QStringLiteral("account"), account);
    spec->insert(QStringLiteral("credential"), QJsonObject{{QStringLiteral("gcloud"), gcloud}});
    return {};
}

AccountRequest AccountRequest::build(const AccountForm &form, const KindRegistry &kinds)
{
    AccountRequest request;
    Resource &r = request.resource;
    r.metadata.name = form.name.trimmed();
    QJsonObject spec;
    switch (form.preset) {
    case AccountForm::Preset::Azurite:
        r.kind = AzureKinds::storageAccount();
        spec.insert(QStringLiteral("accountName"),
                    ConnectionString::developmentStorage().accountName);
        spec.insert(QStringLiteral("endpoints"), azuriteEndpoints());
        spec.insert(QStringLiteral("credential"), QJsonObject{{QStringLiteral("emulator"), true}});
        break;
    case AccountForm::Preset::Dynalite:
        r.kind = AwsKinds::accountKind();
        spec.insert(QStringLiteral("region"), QStringLiteral("us-east-1"));
        spec.insert(QStringLiteral("endpoint"), QStringLiteral("http://127.0.0.1:8000"));
        spec.insert(QStringLiteral("credential"), QJsonObject{{QStringLiteral("emulator"), true}});
        break;
    case AccountForm::Preset::AzureConnectionString:
    case AccountForm::Preset::AzureKey:
        r.kind = AzureKinds::storageAccount();
        request.error = buildAzure(form, request, &spec);
        break;
    case AccountForm::Preset::Aws:
        r.kind = AwsKinds::accountKind();
        request.error = buildAws(form, request, &spec);
        break;
    case AccountForm::Preset::AzureCli:
    case AccountForm::Preset::AzureTokenCommand:
        r.kind = AzureKinds::storageAccount();
        request.error = buildAzureToken(form, &spec);
        break;
    case AccountForm::Preset::AwsProfile:
        r.kind = AwsKinds::accountKind();
        request.error = buildAwsProfile(form, &spec);
        break;
    case AccountForm::Preset::GcpEmulators:
    case AccountForm::Preset::GcpGcloud:
        r.kind = GcpKinds::projectKind();
        request.error = buildGcp(form, &spec);
        break;
    }
    if (const Kind *kind = kinds.find(r.kind))
        r.apiVersion = kind->apiVersion();
    r.spec = spec;
    if (request.ok()) {
        QStringList errors;
        for (const ValidationError &e : SchemaValidator(kinds).validate(r))
            errors << e.toString();
        request.error = errors.join(QLatin1Char('\n'));
    }
    if (!request.ok()) {
        request.secrets.clear();
        request.note.clear();
    }
    return request;
}

QStringList AccountRequest::splitCommandLine(const QString &text, QString *error)
{
    // QProcess::splitCommand knows double quotes only; people paste commands with single ones.
    QStringList words;
    QString word;
    bool inWord = false;
    QChar quote;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quote == QLatin1Char('\'')) {
            if (c == quote)
                quote = QChar();
            else
                word += c;
        } else if (quote == QLatin1Char('"')) {
            if (c == quote) {
                quote = QChar();
            } else if (c == QLatin1Char('\\') && i + 1 < text.size() &&
                       QStringLiteral("\"\\$`").contains(text.at(i + 1))) {
                word += text.at(++i);
            } else {
                word += c;
            }
        } else if (c.isSpace()) {
            if (inWord)
                words << word;
            word.clear();
            inWord = false;
        } else {
            inWord = true;
            if (c == QLatin1Char('\'') || c == QLatin1Char('"'))
                quote = c;
            else if (c == QLatin1Char('\\') && i + 1 < text.size())
                word += text.at(++i);
            else
                word += c;
        }
    }
    if (!quote.isNull()) {
        if (error)
            *error = tr("The command has an unterminated %1 quote.").arg(quote);
        return {};
    }
    if (inWord)
        words << word;
    return words;
}

bool AccountRequest::storeSecrets(CredentialStore &store, const QList<Secret> &secrets,
                                  BackendError *error)
{
    for (qsizetype i = 0; i < secrets.size(); ++i) {
        if (store.write(secrets.at(i).name, secrets.at(i).value, error))
            continue;
        for (qsizetype j = 0; j < i; ++j)
            store.remove(secrets.at(j).name);
        return false;
    }
    return true;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awsprofile.h"

#include "awsinifile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace converge {

namespace {

BackendError refused(const QString &code, const QString &message)
{
    BackendError error;
    error.category = BackendError::Category::Unauthorized;
    error.code = code;
    error.message = message;
    return error;
}

QString orDefault(const char *variable, const QString &fallback)
{
    const QString value = qEnvironmentVariable(variable);
    if (value.isEmpty())
        return fallback;
    if (value.startsWith(QLatin1String("~/")))
        return QDir::homePath() + value.mid(1);
    return value;
}

// Reads and parses one file; a missing file is an empty one (`*exists` false).
bool readFile(const QString &path, AwsIniFile *ini, bool *exists, BackendError *error)
{
    QFile file(path);
    *exists = file.exists();
    if (!*exists)
        return true;
    if (!file.open(QIODevice::ReadOnly)) {
        *error = refused(QStringLiteral("ProfileFileUnreadable"),
                         QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
        return false;
    }
    QString parseError;
    if (!ini->parse(file.readAll(), &parseError)) {
        *error = refused(
            QStringLiteral("ProfileFileInvalid"),
            QStringLiteral("%1 is not a valid AWS configuration file: %2").arg(path, parseError));
        return false;
    }
    return true;
}

struct Unsupported
{
    const char *key;
    const char *what;
};

// What each refused setting needs, and what a person can do today instead.
const Unsupported unsupported[] = {
    {"role_arn", "assuming a role (role_arn) needs AWS STS, which Converge does not call yet"},
    {"credential_source",
     "assuming a role (credential_source) needs AWS STS, which Converge does not call yet"},
    {"source_profile",
     "assuming a role (source_profile) needs AWS STS, which Converge does not call yet"},
    {"sso_session", "AWS IAM Identity Center sign-in (sso_session) is not supported yet"},
    {"sso_start_url", "AWS IAM Identity Center sign-in (sso_start_url) is not supported yet"},
    {"web_identity_token_file",
     "web identity federation (web_identity_token_file) needs AWS STS, which Converge does not "
     "call yet"},
};

} // namespace

AwsProfile::Files AwsProfile::filesFromEnvironment()
{
    const QString aws = QDir::homePath() + QStringLiteral("/.aws/");
    return Files{orDefault("AWS_CONFIG_FILE", aws + QStringLiteral("config")),
                 orDefault("AWS_SHARED_CREDENTIALS_FILE", aws + QStringLiteral("credentials"))};
}

Outcome<AwsProfile> AwsProfile::load(const QString &name, const Files &files)
{
    AwsProfile profile;
    profile.m_name = name;
    profile.m_files = files;

    AwsIniFile config;
    AwsIniFile credentials;
    bool configExists = false;
    bool credentialsExists = false;
    BackendError error;
    if (!readFile(files.config, &config, &configExists, &error) ||
        !readFile(files.credentials, &credentials, &credentialsExists, &error))
        return error;

    const QString configSection = QStringLiteral("profile ") + name;
    const AwsIniFile::Section *fromConfig = config.section(configSection);
    if (!fromConfig && name == QLatin1String("default"))
        fromConfig = config.section(name);
    const AwsIniFile::Section *fromCredentials = credentials.section(name);
    if (!fromConfig && !fromCredentials) {
        auto where = [](const QString &path, bool exists, const QString &section) {
            return QStringLiteral("%1 [%2]%3")
                .arg(path, section,
                     exists ? QString() : QStringLiteral(" (the file does not exist)"));
        };
        return refused(QStringLiteral("ProfileNotFound"),
                       QStringLiteral("the AWS profile \"%1\" is in neither %2 nor %3")
                           .arg(name, where(files.config, configExists, configSection),
                                where(files.credentials, credentialsExists, name)));
    }
    if (fromConfig)
        profile.m_values = fromConfig->values;
    if (fromCredentials) {
        for (auto it = fromCredentials->values.cbegin(); it != fromCredentials->values.cend(); ++it)
            profile.m_values.insert(it.key(), it.value());
    }

    for (const Unsupported &u : unsupported) {
        if (profile.m_values.contains(QLatin1String(u.key)))
            return refused(QStringLiteral("ProfileNotSupported"),
                           QStringLiteral("%1: %2; give the profile's temporary keys through a "
                                          "credential_process instead, or use static keys")
                               .arg(profile.description(), QLatin1String(u.what)));
    }
    if (!profile.credentialProcess().isEmpty())
        return profile;
    const bool hasId = !profile.value(QStringLiteral("aws_access_key_id")).isEmpty();
    const bool hasSecret = !profile.value(QStringLiteral("aws_secret_access_key")).isEmpty();
    if (!hasId || !hasSecret)
        return refused(QStringLiteral("ProfileHasNoCredentials"),
                       QStringLiteral("%1 has %2: give aws_access_key_id and "
                                      "aws_secret_access_key, or a credential_process")
                           .arg(profile.description(),
                                hasId || hasSecret
                                    ? (hasId ? QStringLiteral("no aws_secret_access_key")
                                             : QStringLiteral("no aws_access_key_id"))
                                    : QStringLiteral("no credentials")));
    return profile;
}

Credentials AwsProfile::staticCredentials() const
{
    return Credentials::aws(value(QStringLiteral("aws_access_key_id")),
                            value(QStringLiteral("aws_secret_access_key")),
                            value(QStringLiteral("aws_session_token")));
}

QString AwsProfile::description() const
{
    return QStringLiteral("the AWS profile \"%1\" (%2, %3)")
        .arg(m_name, m_files.config, m_files.credentials);
}

} // namespace converge

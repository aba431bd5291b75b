// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "credentials.h"
#include "outcome.h"

#include <QHash>
#include <QString>

namespace converge {

/// One named profile of the AWS shared files, as the AWS CLI finds it: `[profile NAME]` (or
/// `[default]`) in the config file and `[NAME]` in the credentials file, the latter's keys
/// winning. The files are AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE, by default
/// ~/.aws/config and ~/.aws/credentials; a missing file counts as empty.
///
/// load() accepts only what Converge can use: static keys (aws_access_key_id,
/// aws_secret_access_key, aws_session_token) or a credential_process. Profiles that need a
/// service Converge does not speak (role_arn, credential_source, sso_session, sso_start_url,
/// web_identity_token_file) are refused with a message naming the setting, never used half.
/// Errors are Unauthorized BackendErrors naming the profile and the files, never a value.
class AwsProfile final
{
public:
    struct Files
    {
        QString config;
        QString credentials;
    };

    /// The files the environment names, or the defaults under the home folder.
    static Files filesFromEnvironment();
    static Outcome<AwsProfile> load(const QString &name, const Files &files);

    const QString &name() const { return m_name; }
    /// The merged setting, e.g. "region"; empty when neither file has it.
    QString value(const QString &key) const { return m_values.value(key); }
    QString region() const { return value(QStringLiteral("region")); }
    /// Empty when the profile holds static keys.
    QString credentialProcess() const { return value(QStringLiteral("credential_process")); }
    /// The static keys; only when credentialProcess() is empty.
    Credentials staticCredentials() const;
    /// "profile dev (FILE, FILE)", for messages.
    QString description() const;

private:
    AwsProfile() = default;

    QString m_name;
    Files m_files;
    QHash<QString, QString> m_values;
};

} // namespace converge

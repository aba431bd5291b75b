// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awscredentialprocess.h"

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

namespace converge {

namespace {

BackendError refused(const QString &profile, const QString &code, const QString &message)
{
    BackendError error;
    error.category = BackendError::Category::Unauthorized;
    error.code = code;
    error.message =
        QStringLiteral("the credential_process of the AWS profile \"%1\" %2").arg(profile, message);
    return error;
}

// The command's own explanation ("Please run 'aws sso login'"), short enough for a condition.
QString stderrSummary(const QByteArray &errorOutput)
{
    QString text = QString::fromUtf8(errorOutput).trimmed();
    if (text.size() > 500)
        text = QStringLiteral("…") + text.right(500);
    return text.isEmpty() ? QString() : QStringLiteral(": ") + text;
}

} // namespace

AwsCredentialProcess::AwsCredentialProcess()
    : AwsCredentialProcess(Options{})
{}

AwsCredentialProcess::AwsCredentialProcess(Options options)
    : m_options(options)
{}

Outcome<Credentials> AwsCredentialProcess::credentials(const QString &profile,
                                                       const QString &command,
                                                       const std::function<bool()> &isCancelled)
{
    std::shared_ptr<Entry> entry;
    {
        const QMutexLocker locker(&m_mutex);
        std::shared_ptr<Entry> &slot = m_entries[command];
        if (!slot)
            slot = std::make_shared<Entry>();
        entry = slot;
    }
    // Workers asking at once wait for one run instead of starting one each.
    const QMutexLocker locker(&entry->running);
    if (entry->answer && isFresh(*entry->answer))
        return entry->answer->credentials;
    Outcome<Answer> answer = run(profile, command, isCancelled);
    if (!answer)
        return answer.error();
    entry->answer = answer.value();
    return answer.value().credentials;
}

bool AwsCredentialProcess::isFresh(const Answer &answer) const
{
    if (!answer.expiration.isValid())
        return true;
    return QDateTime::currentDateTimeUtc().addSecs(m_options.refreshBefore.count()) <
           answer.expiration;
}

Outcome<AwsCredentialProcess::Answer>
AwsCredentialProcess::run(const QString &profile, const QString &command,
                          const std::function<bool()> &isCancelled) const
{
    QProcess process;
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), command});
    if (!process.waitForStarted(int(m_options.timeout.count())))
        return refused(profile, QStringLiteral("CredentialProcessFailed"),
                       QStringLiteral("could not be started: %1").arg(process.errorString()));
    const QDeadlineTimer deadline(m_options.timeout);
    while (!process.waitForFinished(100)) {
        const bool cancelled = isCancelled && isCancelled();
        if (cancelled || deadline.hasExpired()) {
            process.kill();
            process.waitForFinished(1000);
            if (cancelled)
                return refused(profile, QStringLiteral("Cancelled"),
                               QStringLiteral("was stopped: the work was cancelled"));
            return refused(
                profile, QStringLiteral("CredentialProcessTimeout"),
                QStringLiteral("did not finish within %1 s")
                    .arg(std::chrono::duration_cast<std::chrono::seconds>(m_options.timeout)
                             .count()));
        }
        if (process.state() == QProcess::NotRunning)
            break;
    }
    const QByteArray errorOutput = process.readAllStandardError();
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return refused(profile, QStringLiteral("CredentialProcessFailed"),
                       QStringLiteral("failed (%1)%2")
                           .arg(process.exitStatus() == QProcess::NormalExit
                                    ? QStringLiteral("exit status %1").arg(process.exitCode())
                                    : QStringLiteral("killed by a signal"),
                                stderrSummary(errorOutput)));
    return parse(process.readAllStandardOutput(), profile, QDateTime::currentDateTimeUtc());
}

Outcome<AwsCredentialProcess::Answer>
AwsCredentialProcess::parse(const QByteArray &output, const QString &profile, const QDateTime &now)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(output, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject())
        return refused(profile, QStringLiteral("CredentialProcessInvalidOutput"),
                       QStringLiteral("printed no JSON object (%1 bytes)").arg(output.size()));
    const QJsonObject o = document.object();
    if (o.value(QStringLiteral("Version")).toInt() != 1)
        return refused(profile, QStringLiteral("CredentialProcessInvalidOutput"),
                       QStringLiteral("printed an answer without \"Version\": 1"));
    const QString keyId = o.value(QStringLiteral("AccessKeyId")).toString();
    const QString secret = o.value(QStringLiteral("SecretAccessKey")).toString();
    if (keyId.isEmpty() || secret.isEmpty())
        return refused(profile, QStringLiteral("CredentialProcessInvalidOutput"),
                       QStringLiteral("printed no %1")
                           .arg(keyId.isEmpty() ? QStringLiteral("AccessKeyId")
                                                : QStringLiteral("SecretAccessKey")));
    Answer answer;
    answer.credentials =
        Credentials::aws(keyId, secret, o.value(QStringLiteral("SessionToken")).toString());
    const QJsonValue expiration = o.value(QStringLiteral("Expiration"));
    if (!expiration.isUndefined() && !expiration.isNull()) {
        answer.expiration = QDateTime::fromString(expiration.toString(), Qt::ISODateWithMs);
        if (!answer.expiration.isValid())
            return refused(profile, QStringLiteral("CredentialProcessInvalidOutput"),
                           QStringLiteral("printed an Expiration that is not an ISO 8601 time: "
                                          "%1")
                               .arg(expiration.toString().left(40)));
        if (answer.expiration <= now)
            return refused(profile, QStringLiteral("CredentialProcessExpired"),
                           QStringLiteral("printed credentials that expired at %1")
                               .arg(answer.expiration.toUTC().toString(Qt::ISODate)));
    }
    return answer;
}

} // namespace converge

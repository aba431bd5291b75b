// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "tokencommandcache.h"

#include <QProcess>

namespace converge {

namespace {

BackendError failed(const TokenCommand &command, const QString &what)
{
    BackendError error;
    error.category = BackendError::Category::Terminal;
    error.code = QStringLiteral("TokenCommandFailed");
    error.message = QStringLiteral("%1 %2; %3").arg(command.description, what, command.remedy);
    return error;
}

/// The first lines of what the program said, enough to read in a status line.
QString excerpt(const QByteArray &bytes)
{
    QStringList lines = QString::fromLocal8Bit(bytes).trimmed().split(QLatin1Char('\n'));
    for (QString &line : lines)
        line = line.trimmed();
    lines.removeAll(QString());
    QString text = lines.mid(0, 3).join(QLatin1Char(' '));
    if (text.size() > 400)
        text = text.left(400) + QStringLiteral("…");
    return text;
}

} // namespace

TokenCommandCache::TokenCommandCache()
    : TokenCommandCache(Options{})
{}

TokenCommandCache::TokenCommandCache(Options options)
    : m_options(options)
{}

Outcome<AccessToken> TokenCommandCache::token(const TokenCommand &command)
{
    QMutexLocker lock(&m_mutex);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (const auto it = m_tokens.constFind(command.key());
        it != m_tokens.constEnd() &&
        now.secsTo(it->expiresOn) > qint64(m_options.refreshBefore.count())) {
        return *it;
    }
    m_tokens.remove(command.key());
    if (const auto it = m_failures.constFind(command.key());
        it != m_failures.constEnd() && now < it->until) {
        return it->error;
    }
    m_failures.remove(command.key());
    Outcome<AccessToken> fresh = run(command);
    if (fresh && fresh.value().expiresOn <= now) {
        fresh = failed(command, QStringLiteral("printed a token that expired at %1")
                                    .arg(fresh.value().expiresOn.toString(Qt::ISODate)));
    }
    if (!fresh) {
        m_failures.insert(command.key(),
                          {fresh.error(), now.addSecs(qint64(m_options.failureHold.count()))});
        return fresh;
    }
    m_tokens.insert(command.key(), fresh.value());
    return fresh;
}

void TokenCommandCache::forget(const TokenCommand &command)
{
    QMutexLocker lock(&m_mutex);
    m_tokens.remove(command.key());
    m_failures.remove(command.key());
}

Outcome<AccessToken> TokenCommandCache::run(const TokenCommand &command)
{
    if (command.argv.isEmpty())
        return failed(command, QStringLiteral("is empty"));
    ++m_runs;
    QProcess process;
    process.setProgram(command.argv.first());
    process.setArguments(command.argv.mid(1));
    process.setStandardInputFile(QProcess::nullDevice());
    process.start();
    if (!process.waitForStarted(int(m_options.timeout.count())))
        return failed(command, QStringLiteral("could not be started (%1: %2)")
                                   .arg(command.argv.first(), process.errorString()));
    if (!process.waitForFinished(int(m_options.timeout.count()))) {
        process.kill();
        process.waitForFinished(2000);
        return failed(
            command,
            QStringLiteral("did not finish within %1 s").arg(m_options.timeout.count() / 1000));
    }
    const QByteArray output = process.readAllStandardOutput();
    const QByteArray errors = process.readAllStandardError();
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        const QString said = excerpt(errors);
        return failed(command, QStringLiteral("failed (exit %1)%2")
                                   .arg(process.exitCode())
                                   .arg(said.isEmpty() ? QString() : QStringLiteral(": ") + said));
    }
    if (!command.parse)
        return failed(command, QStringLiteral("has no reader of its output"));
    Outcome<AccessToken> parsed = command.parse(output);
    if (!parsed)
        return failed(command, parsed.error().message);
    return parsed;
}

} // namespace converge

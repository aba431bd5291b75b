// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "credentials.h"
#include "outcome.h"

#include <QDateTime>
#include <QHash>
#include <QMutex>
#include <QString>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace converge {

/// Credentials from a profile's `credential_process`: runs the command with /bin/sh -c (as the
/// AWS SDKs for Go and JavaScript do, so quoting works as typed in the config file), reads the
/// JSON it prints (Version 1, AccessKeyId, SecretAccessKey, optional SessionToken and
/// Expiration) and keeps the answer in memory until `refreshBefore` ahead of its Expiration; an
/// answer without Expiration is kept for the life of the process.
///
/// Thread-safe: one instance (the AwsFactory's) serves every worker, and a command runs at most
/// once at a time. credentials() blocks for up to `timeout` while the command runs: call it on a
/// worker thread, never the GUI thread. Errors are Unauthorized, naming the profile and what the
/// command wrote to stderr, never what it printed on stdout.
class AwsCredentialProcess final
{
public:
    struct Options
    {
        std::chrono::milliseconds timeout{std::chrono::seconds(30)};
        std::chrono::seconds refreshBefore{std::chrono::minutes(5)};
    };

    /// One parsed answer.
    struct Answer
    {
        Credentials credentials;
        QDateTime expiration; ///< invalid when the credentials do not expire
    };

    AwsCredentialProcess();
    explicit AwsCredentialProcess(Options options);
    Q_DISABLE_COPY_MOVE(AwsCredentialProcess)

    /// The cached answer for `command`, or a new one from running it. `profile` is for
    /// messages; `isCancelled` stops the wait early.
    Outcome<Credentials> credentials(const QString &profile, const QString &command,
                                     const std::function<bool()> &isCancelled = {});

    /// Parses what the command printed, checked against `now`.
    static Outcome<Answer> parse(const QByteArray &output, const QString &profile,
                                 const QDateTime &now);

private:
    struct Entry
    {
        QMutex running;
        std::optional<Answer> answer;
    };

    Outcome<Answer> run(const QString &profile, const QString &command,
                        const std::function<bool()> &isCancelled) const;
    bool isFresh(const Answer &answer) const;

    Options m_options;
    QMutex m_mutex; // guards m_entries, not the entries
    QHash<QString, std::shared_ptr<Entry>> m_entries;
};

} // namespace converge

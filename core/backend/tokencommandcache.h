// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "outcome.h"
#include "tokencommand.h"

#include <QHash>
#include <QMutex>

#include <atomic>
#include <chrono>

namespace converge {

/// Access tokens from token commands (TokenCommand), kept in memory only and shared by
/// the workers: a token is reused until `refreshBefore` its expiry, then the command runs
/// again. A failure is given again without running the command for `failureHold`: the
/// resources under the account ask for it while they wait for their owner, and a command that
/// said "run az login" or "run gcloud auth login" would otherwise be run by each of them on every
/// retry. After that, the next ask (the person's Reconcile) runs it again. Thread-safe; the command
/// runs on the calling (worker) thread under the cache's lock, so that workers asking at once run
/// it once.
class TokenCommandCache final
{
public:
    struct Options
    {
        std::chrono::seconds refreshBefore{300};
        std::chrono::milliseconds timeout{
            60000}; ///< the Azure and Google Cloud CLIs take a few seconds
        std::chrono::seconds failureHold{15};
    };

    TokenCommandCache();
    explicit TokenCommandCache(Options options);
    Q_DISABLE_COPY_MOVE(TokenCommandCache)

    /// A token valid for more than `refreshBefore`, or the freshly run command's. Errors are
    /// Terminal (nothing heals by retrying) and say what failed and what to do.
    Outcome<AccessToken> token(const TokenCommand &command);

    /// Forgets the command's token and failure (its token was refused): the next token() runs it.
    void forget(const TokenCommand &command);

    /// How many times a command was started (for tests and diagnostics).
    int runs() const { return m_runs; }

private:
    Outcome<AccessToken> run(const TokenCommand &command);

    Options m_options;
    QMutex m_mutex;
    QHash<QString, AccessToken> m_tokens;
    struct Failure
    {
        BackendError error;
        QDateTime until;
    };
    QHash<QString, Failure> m_failures;
    std::atomic<int> m_runs{0};
};

} // namespace converge

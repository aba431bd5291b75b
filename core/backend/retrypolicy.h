// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QNetworkReply>
#include <QPair>

#include <chrono>
#include <functional>
#include <optional>

namespace converge {

/// When HttpClient tries a request again, after the Azure SDK guidelines: 3 retries, 0.8 s base
/// delay doubling per retry, capped at 60 s, each delay jittered by 0.8–1.3×, on 408, 429, 500,
/// 502, 503, 504 and connection-level failures.
///
/// The server's own hint wins over the computed delay, read in the order `retry-after-ms`,
/// `x-ms-retry-after-ms`, `Retry-After` (seconds or an HTTP date). A hint longer than the cap
/// is not waited for in-process: the caller returns it so that the engine requeues the work.
///
/// Pure and deterministic given its random source, so it is tested with data rows.
class RetryPolicy final
{
public:
    using Headers = QList<QPair<QByteArray, QByteArray>>;
    /// Returns a number uniformly distributed in [0, 1).
    using RandomSource = std::function<double()>;

    struct Options
    {
        int maxRetries = 3;
        std::chrono::milliseconds baseDelay{800};
        std::chrono::milliseconds maxDelay{60000};
    };

    /// What to do after a failed attempt.
    struct Decision
    {
        bool retry = false;                 ///< wait `delay`, then try again in-process
        std::chrono::milliseconds delay{0}; ///< only meaningful when retry is true
        /// Set when not retrying although the server named a time: the engine requeues after it.
        std::optional<std::chrono::milliseconds> retryAfter;
        friend bool operator==(const Decision &, const Decision &) = default;
    };

    RetryPolicy();
    /// Without a random source, QRandomGenerator::global() is used.
    explicit RetryPolicy(Options options, RandomSource random = {});

    const Options &options() const { return m_options; }

    /// The decision after attempt number `attempt` (1 = the first request) failed retriably,
    /// given that response's headers (empty for a transport failure) and the current time.
    Decision delayFor(int attempt, const Headers &headers, const QDateTime &now) const;

    /// The server's wait hint, if it gave one that parses; never negative.
    static std::optional<std::chrono::milliseconds> serverHint(const Headers &headers,
                                                               const QDateTime &now);

    /// 408, 429, 500, 502, 503, 504.
    static bool isRetriableStatus(int httpStatus);
    /// Connection refused or reset, timeouts, temporary network failures. Not: unknown hosts,
    /// TLS failures, protocol errors.
    static bool isRetriableTransportError(QNetworkReply::NetworkError error);

private:
    Options m_options;
    RandomSource m_random;
};

} // namespace converge

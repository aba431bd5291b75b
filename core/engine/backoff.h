// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QtGlobal>

#include <chrono>
#include <functional>
#include <optional>

namespace converge {

/// Per-resource retry delays by class: Fast (1 s doubling to 30 s), Slow (5 s doubling to 3 min),
/// Fatal (no retry), each with jitter; a server's retry-after wins when it is longer.
///
/// delay = min(base * 2^(failures - 1), cap) * factor, factor in [jitterMin, jitterMax]. The jitter
/// is applied after the cap, so that resources that all reached the cap do not retry in step: a
/// Fast delay lies in [24 s, 36 s] once capped. A longer retry-after is returned as it is.
class Backoff final
{
public:
    enum class RetryClass { Fast, Slow, Fatal };

    struct Settings
    {
        std::chrono::milliseconds fastBase{1000};
        std::chrono::milliseconds fastCap{30'000};
        std::chrono::milliseconds slowBase{5000};
        std::chrono::milliseconds slowCap{180'000};
        double jitterMin = 0.8; ///< the delay is multiplied by a factor in [jitterMin, jitterMax]
        double jitterMax = 1.2;
    };

    /// Default settings and QRandomGenerator. (A `Settings settings = {}` default argument does not
    /// compile: the nested struct's member initializers are not parsed yet at that point.)
    Backoff();
    /// `random` returns a number in [0, 1); injectable for tests (default: QRandomGenerator).
    explicit Backoff(Settings settings, std::function<double()> random = {});

    /// The delay before attempt number `failures` + 1, after `failures` failures in a row
    /// (failures < 1 counts as 1); nullopt for Fatal, even with a retry-after. `retryAfter` from
    /// the server is returned exactly when it is longer than the jittered delay.
    std::optional<std::chrono::milliseconds>
    delay(RetryClass retryClass, int failures,
          std::optional<std::chrono::milliseconds> retryAfter = std::nullopt) const;

    const Settings &settings() const { return m_settings; }

private:
    Settings m_settings;
    std::function<double()> m_random;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "backoff.h"

#include <QRandomGenerator>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace converge {

using std::chrono::milliseconds;

Backoff::Backoff()
    : Backoff(Settings{})
{}

Backoff::Backoff(Settings settings, std::function<double()> random)
    : m_settings(settings)
    , m_random(std::move(random))
{
    if (!m_random)
        m_random = [] { return QRandomGenerator::global()->generateDouble(); };
}

std::optional<milliseconds> Backoff::delay(RetryClass retryClass, int failures,
                                           std::optional<milliseconds> retryAfter) const
{
    if (retryClass == RetryClass::Fatal)
        return std::nullopt;

    const bool fast = retryClass == RetryClass::Fast;
    const qint64 base =
        std::max<qint64>(0, (fast ? m_settings.fastBase : m_settings.slowBase).count());
    const qint64 cap =
        std::max<qint64>(0, (fast ? m_settings.fastCap : m_settings.slowCap).count());

    // base * 2^(failures - 1), compared before shifting so that failures = 1000 cannot overflow.
    const int doublings = std::max(failures, 1) - 1;
    const qint64 capped =
        (doublings >= 62 || base > (cap >> doublings)) ? cap : std::min(cap, base << doublings);

    // Jitter after capping: retries that reached the cap still spread over [0.8, 1.2] * cap
    // instead of all firing together at the cap.
    const double random = std::clamp(m_random(), 0.0, 1.0);
    const double factor = std::max(0.0, m_settings.jitterMin +
                                            random * (m_settings.jitterMax - m_settings.jitterMin));
    const double jittered = double(capped) * factor;
    const qint64 largest = std::numeric_limits<qint64>::max();
    const milliseconds result{jittered >= double(largest) ? largest : std::llround(jittered)};

    if (retryAfter && *retryAfter > result)
        return *retryAfter;
    return result;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "retrypolicy.h"

#include <QLocale>
#include <QRandomGenerator>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

namespace converge {

namespace {

constexpr double jitterMin = 0.8;
constexpr double jitterMax = 1.3;

QByteArray headerValue(const RetryPolicy::Headers &headers, QByteArrayView name)
{
    for (const auto &[key, value] : headers) {
        if (name.compare(key, Qt::CaseInsensitive) == 0)
            return value.trimmed();
    }
    return {};
}

std::optional<qint64> wholeNumber(const QByteArray &text)
{
    bool ok = false;
    const qint64 value = text.toLongLong(&ok);
    if (!ok || value < 0)
        return std::nullopt;
    return value;
}

} // namespace

RetryPolicy::RetryPolicy()
    : RetryPolicy(Options{})
{}

RetryPolicy::RetryPolicy(Options options, RandomSource random)
    : m_options(options)
    , m_random(std::move(random))
{
    if (!m_random)
        m_random = [] { return QRandomGenerator::global()->generateDouble(); };
}

RetryPolicy::Decision RetryPolicy::delayFor(int attempt, const Headers &headers,
                                            const QDateTime &now) const
{
    Decision decision;
    const std::optional<std::chrono::milliseconds> hint = serverHint(headers, now);
    if (attempt > m_options.maxRetries) {
        decision.retryAfter = hint;
        return decision;
    }
    if (hint) {
        if (*hint > m_options.maxDelay) {
            decision.retryAfter = hint;
            return decision;
        }
        decision.retry = true;
        decision.delay = *hint;
        return decision;
    }
    // base × 2^(attempt-1), jittered, then capped: the cap is a promise about the longest wait.
    const int doublings = std::clamp(attempt - 1, 0, 30);
    const double exponential = double(m_options.baseDelay.count()) * std::ldexp(1.0, doublings);
    const double jitter = jitterMin + (jitterMax - jitterMin) * std::clamp(m_random(), 0.0, 1.0);
    const double capped = std::min(exponential * jitter, double(m_options.maxDelay.count()));
    decision.retry = true;
    decision.delay = std::chrono::milliseconds(qint64(std::llround(capped)));
    return decision;
}

std::optional<std::chrono::milliseconds> RetryPolicy::serverHint(const Headers &headers,
                                                                 const QDateTime &now)
{
    for (const char *name : {"retry-after-ms", "x-ms-retry-after-ms"}) {
        if (const auto ms = wholeNumber(headerValue(headers, name)))
            return std::chrono::milliseconds(*ms);
    }
    const QByteArray retryAfter = headerValue(headers, "retry-after");
    if (retryAfter.isEmpty())
        return std::nullopt;
    if (const auto seconds = wholeNumber(retryAfter))
        return std::chrono::seconds(*seconds);
    // An HTTP date (RFC 9110 IMF-fixdate), e.g. "Sun, 06 Nov 1994 08:49:37 GMT". Qt's
    // RFC2822Date parser rejects the "GMT" zone name, so parse the fixed format in the C locale.
    QDateTime when = QLocale::c().toDateTime(QString::fromLatin1(retryAfter),
                                             QStringLiteral("ddd, dd MMM yyyy HH:mm:ss 'GMT'"));
    if (!when.isValid())
        return std::nullopt;
    when.setTimeZone(QTimeZone::utc());
    return std::chrono::milliseconds(std::max<qint64>(0, now.msecsTo(when)));
}

bool RetryPolicy::isRetriableStatus(int httpStatus)
{
    switch (httpStatus) {
    case 408:
    case 429:
    case 500:
    case 502:
    case 503:
    case 504:
        return true;
    default:
        return false;
    }
}

bool RetryPolicy::isRetriableTransportError(QNetworkReply::NetworkError error)
{
    switch (error) {
    case QNetworkReply::ConnectionRefusedError:
    case QNetworkReply::RemoteHostClosedError:
    case QNetworkReply::TimeoutError:
    case QNetworkReply::TemporaryNetworkFailureError:
    case QNetworkReply::NetworkSessionFailedError:
    case QNetworkReply::ProxyConnectionRefusedError:
    case QNetworkReply::ProxyConnectionClosedError:
    case QNetworkReply::ProxyTimeoutError:
    case QNetworkReply::UnknownNetworkError:
        return true;
    default:
        return false;
    }
}

} // namespace converge

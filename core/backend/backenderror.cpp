// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "backenderror.h"

#include <QStringList>

#include <array>
#include <utility>

namespace converge {

namespace {

constexpr std::array<std::pair<BackendError::Category, const char *>, 7> categoryNames{{
    {BackendError::Category::NotFound, "NotFound"},
    {BackendError::Category::Conflict, "Conflict"},
    {BackendError::Category::Throttled, "Throttled"},
    {BackendError::Category::Transient, "Transient"},
    {BackendError::Category::Unauthorized, "Unauthorized"},
    {BackendError::Category::Invalid, "Invalid"},
    {BackendError::Category::Terminal, "Terminal"},
}};

} // namespace

bool BackendError::isRetriable() const
{
    switch (category) {
    case Category::Throttled:
    case Category::Transient:
    case Category::Conflict:
        return true;
    case Category::NotFound:
    case Category::Unauthorized:
    case Category::Invalid:
    case Category::Terminal:
        return false;
    }
    return false;
}

BackendError::Category BackendError::categoryForStatus(int httpStatus)
{
    switch (httpStatus) {
    case 0:
        return Category::Transient;
    case 401:
    case 403:
        return Category::Unauthorized;
    case 404:
        return Category::NotFound;
    case 409:
    case 412:
        return Category::Conflict;
    case 429:
    case 503: // Azure Storage answers 503 ServerBusy when an account or partition is throttled
        return Category::Throttled;
    case 408:
    case 500:
    case 502:
    case 504:
        return Category::Transient;
    default:
        break;
    }
    if (httpStatus >= 500)
        return Category::Transient;
    if (httpStatus >= 300)
        return Category::Invalid;
    return Category::Terminal; // a 1xx/2xx reported as an error is a bug somewhere: do not retry
}

QString BackendError::toString() const
{
    QString text = categoryName(category);
    QStringList detail;
    if (httpStatus != 0)
        detail << QString::number(httpStatus);
    if (!code.isEmpty())
        detail << code;
    if (!detail.isEmpty())
        text += QStringLiteral(" (") + detail.join(QLatin1Char(' ')) + QLatin1Char(')');
    if (!message.isEmpty())
        text += QStringLiteral(": ") + message;
    if (!requestId.isEmpty())
        text += QStringLiteral(" [request ") + requestId + QLatin1Char(']');
    return text;
}

QString BackendError::categoryName(Category category)
{
    for (const auto &[value, name] : categoryNames) {
        if (value == category)
            return QString::fromLatin1(name);
    }
    return {};
}

std::optional<BackendError::Category> BackendError::categoryFromName(const QString &name)
{
    for (const auto &[value, spelling] : categoryNames) {
        if (name == QLatin1String(spelling))
            return value;
    }
    return std::nullopt;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <chrono>
#include <optional>

namespace converge {

/// An error from a backend call, in the categories the generic reconciler maps to a Ready
/// condition's severity and a retry class (DESIGN.md, "Conditions, events, retries").
///
/// Progress is not an error: long operations are tracked by the engine, not reported here.
struct BackendError
{
    enum class Category {
        NotFound,     ///< the resource does not exist (404)
        Conflict,     ///< exists already, being deleted, lease held, precondition failed (409, 412)
        Throttled,    ///< the backend asks us to slow down (429, Azure's 503 ServerBusy)
        Transient,    ///< network trouble, timeouts, 5xx: likely to pass
        Unauthorized, ///< wrong or missing credentials, not permitted (401, 403)
        Invalid,      ///< the request or its data is wrong: retrying the same thing fails again
        Terminal,     ///< nothing we can do by retrying (TLS failure, oversized response, ...)
    };

    Category category = Category::Terminal;
    QString code;       ///< the backend's error code, e.g. "ContainerAlreadyExists"; or ours
    int httpStatus = 0; ///< 0 when no HTTP response was received
    QString message;    ///< for people; never holds a secret
    QString requestId;  ///< the backend's request id (x-ms-request-id, x-amzn-RequestId)
    /// How long the backend asked us to wait before trying again, if it said so.
    std::optional<std::chrono::milliseconds> retryAfter;

    /// Whether the same request may succeed later without anyone changing anything: Throttled,
    /// Transient and Conflict (a container being deleted, a lease that expires). NotFound,
    /// Unauthorized, Invalid and Terminal wait for a change by the user.
    bool isRetriable() const;

    /// An error of `category` with `code` and `message`, nothing else known (no HTTP answer).
    static BackendError make(Category category, const QString &code, const QString &message)
    {
        BackendError e;
        e.category = category;
        e.code = code;
        e.message = message;
        return e;
    }

    /// The category an HTTP status implies when the backend's error code says nothing better.
    /// 0 (no response) is Transient.
    static Category categoryForStatus(int httpStatus);

    /// "Conflict (409 ContainerAlreadyExists): The specified container already exists.
    /// [request 8f3...]".
    QString toString() const;

    static QString categoryName(Category category);
    static std::optional<Category> categoryFromName(const QString &name);

    friend bool operator==(const BackendError &, const BackendError &) = default;
};

} // namespace converge

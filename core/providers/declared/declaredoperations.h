// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "apicaller.h"
#include "kinddeclaration.h"
#include "manager.h"

#include <QJsonObject>

#include <chrono>
#include <functional>
#include <optional>

namespace converge {

/// Google's long-running operations of a declared resource (the `pending` call: its operations'
/// list, filtered to those not done). An update of a Spanner instance or a database's schema
/// answers an operation and leaves the resource's state READY while it runs: the operation is
/// what says the update is in flight, read from the cloud at each get, so that it is followed
/// after a restart too.
class DeclaredOperations final
{
public:
    using Send =
        std::function<Outcome<ApiCaller::Reply>(const DeclaredCall &, const QJsonObject &)>;

    /// Sends `pending` with `input`; when an operation in its answer is not done, `o` is in
    /// progress (its progress names the operation), polled again after `pollAfter`.
    static std::optional<BackendError> follow(const DeclaredCall &pending, const QJsonObject &input,
                                              const Send &send, Observation &o,
                                              std::chrono::milliseconds pollAfter);
    /// What an operation is doing, from its metadata's type (UpdateDatabaseDdlMetadata:
    /// "UpdateDatabaseDdl") and its last segment (its ID).
    static QString describe(const QJsonObject &operation);
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "backenderror.h"
#include "httpresponse.h"

#include <QByteArray>
#include <QString>

namespace converge {

/// Turns an Azure Storage error answer into a BackendError: the code from `x-ms-error-code` or
/// the body (Blob/Queue XML `<Error><Code/><Message/></Error>`, Table JSON
/// `{"odata.error": {"code": …, "message": {"value": …}}}`), the category from the code, then
/// from the status. Pure; bodies that are not what they claim give a clear message, never a
/// crash.
///
/// Categories: 404 NotFound; *AlreadyExists and *BeingDeleted Conflict (callers treat
/// AlreadyExists on create as found); AuthenticationFailed, AuthorizationFailure and 401/403
/// Unauthorized; InvalidResourceName, OutOfRangeInput, InvalidHeaderValue,
/// InvalidQueryParameterValue and the like Invalid; ServerBusy Throttled; OperationTimedOut and
/// InternalError Transient.
class AzureErrorMapper final
{
public:
    /// The error for a response that is not a success (HTTP error, transport failure or the
    /// client's own refusal). The message is not redacted: the caller's Redactor does that.
    static BackendError map(const HttpResponse &response);

    /// The category Azure's error code implies, if the code is one we know.
    static std::optional<BackendError::Category> categoryForCode(const QString &code);

    struct Body
    {
        QString code;
        QString message;    ///< the first line (Azure appends RequestId and Time lines)
        QString parseError; ///< set when the body was not the error document it claimed
    };
    /// Reads an XML or JSON error body; an empty body gives an empty Body.
    static Body parseBody(const QByteArray &body);

    static bool isAlreadyExists(const BackendError &error)
    {
        return error.code.endsWith(QLatin1String("AlreadyExists"));
    }
};

} // namespace converge

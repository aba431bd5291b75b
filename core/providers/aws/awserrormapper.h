// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "backenderror.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace converge {

class Redactor;
struct HttpResponse;

/// Turns DynamoDB answers (the AWS JSON 1.0 protocol) into BackendErrors. Pure functions, tested
/// with data rows.
///
/// Error bodies look like `{"__type": "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
/// "message": "…"}`: the code is the name after the last '#'. Every body is checked against its
/// `x-amz-crc32` header (decimal CRC-32); a mismatch is a Transient "response corrupted in
/// transit", because the bytes we read are not the bytes AWS sent.
class AwsErrorMapper final
{
public:
    /// "ns#Name" → "Name"; also drops the ":http://…" suffix of `x-amzn-ErrorType` headers.
    static QString errorCode(const QString &type);

    /// The category of a DynamoDB error code, or of the HTTP status when the code is unknown.
    static BackendError::Category categoryFor(const QString &code, int httpStatus);

    /// Whether `body` matches the `x-amz-crc32` value `header` (absent header: nothing to check;
    /// a header that is not a decimal number never matches).
    static bool crcMatches(const QByteArray &body, const QByteArray &header);

    /// The error an answer to `operation` means, or nullopt for a 2xx answer whose body is intact.
    /// Messages go through `redactor` (an InvalidSignatureException quotes the string to sign).
    static std::optional<BackendError> errorFor(const HttpResponse &response,
                                                const QString &operation, const Redactor &redactor);
};

} // namespace converge

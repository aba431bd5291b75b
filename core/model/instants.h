// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonValue>
#include <QString>

#include <optional>

/// Instants (FieldSchema::timestamp) in one spelling, so that a date a person wrote and the
/// same instant as an API answers it compare equal: `2027-01-01`, `2027-01-01T00:00:00Z` and S3's
/// `2027-01-01T00:00:00.000Z` are all `2027-01-01T00:00:00Z`.
namespace converge::Instants {

/// `value` in UTC as `yyyy-MM-ddTHH:mm:ssZ` (with `.zzz` only when the milliseconds are not
/// zero), or nothing when it is not one. Takes ISO 8601 text (a date alone is its midnight UTC;
/// a time without an offset is UTC) and seconds since the epoch as a number (the AWS json
/// protocols' spelling).
std::optional<QString> canonical(const QJsonValue &value);

} // namespace converge::Instants

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonValue>
#include <QList>
#include <QStringList>

#include <functional>

namespace converge {

/// A declaration's `oneOf` rule (a function's code: file, or s3Bucket with s3Key, or imageURI)
/// as an object field's check: exactly one of the groups given, and a group's fields together.
class OneOfCheck final
{
public:
    static std::function<QString(const QJsonValue &)> make(const QList<QStringList> &groups);
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

namespace converge {

/// A value at a dotted path of nested JSON objects (`deadLetterPolicy.deadLetterTopic`), taken
/// out or put in, for the mappings whose fields move between paths (KccExporter, KccImporter).
struct JsonPath
{
    /// The value at `path` (Undefined when there is none), removed from `o`, with objects it
    /// leaves empty.
    static QJsonValue take(QJsonObject &o, const QStringList &path);
    /// Puts `value` at `path`, making the objects on the way.
    static void put(QJsonObject &o, const QStringList &path, const QJsonValue &value);
};

} // namespace converge

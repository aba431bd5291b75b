// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "event.h"

#include <QByteArray>
#include <QList>

namespace converge {

/// The log panel's export formats: CSV (RFC 4180: a header row, fields quoted when they hold a
/// comma, a quote or a line break; times in UTC, ISO 8601) and JSON (an array of the events as
/// the CLI's `events -o json` writes them).
class EventExport final
{
public:
    enum class Format { Csv, Json };
    static QByteArray write(const QList<Event> &events, Format format);
    /// Json for a path ending in .json (any case), else Csv.
    static Format formatFor(const QString &path);
};

} // namespace converge

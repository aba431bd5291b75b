// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <chrono>
#include <optional>

namespace converge {

/// Durations as the CLI reads and writes them, in the manner of Go and kubectl.
class Duration final
{
public:
    /// Reads one or more number+unit pairs: `30s`, `2m`, `1h30m`, `1.5h`, `500ms`, `7d`; `0`
    /// alone is zero. Units: ms, s, m, h, d. Nothing else is accepted (no bare numbers, no
    /// signs, no spaces); nullopt then.
    static std::optional<std::chrono::milliseconds> parse(const QString &text);

    /// The shortest exact spelling parse() reads back: `5m`, `1h30m`, `1500ms`, `0s`.
    static QString format(std::chrono::milliseconds duration);

    /// An age as kubectl shows it: `45s`, `5m30s`, `95m`, `7h12m`, `30h`, `5d4h`, `400d`,
    /// `2y30d`; what a table's AGE column holds. Negative ages (clock skew) show as `0s`.
    static QString human(std::chrono::milliseconds age);
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "sourcemap.h"
#include "textlocator.h"

namespace converge {

/// Parses a JSON manifest into one document with its source map.
///
/// QJsonDocument decides what is valid JSON and gives the values; its error offset is turned into
/// line:column. A second, cheap pass over the valid text records where each key stands and finds
/// keys given twice in one object (QJsonDocument silently keeps one). Nesting is counted before
/// anything else so that deep input is refused with our message and limit. Text that is only
/// whitespace gives no document.
class JsonParser final
{
public:
    static ParsedText parse(const TextLocator &text, int maxDepth);
};

} // namespace converge

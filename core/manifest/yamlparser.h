// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "sourcemap.h"
#include "textlocator.h"

#include <QJsonValue>
#include <QString>

namespace converge {

/// Parses YAML text (several documents separated by ---) into JSON values with source maps.
///
/// Scalars are typed by plain rules rather than by a full YAML schema: quoted and block scalars
/// are strings; a plain scalar is null (empty, `~`, `null`), a boolean (`true`, `false`), an
/// integer (`-12`), a number (`1.5`, `2e3`), or else a string. The standard tags !!str, !!int,
/// !!float, !!bool, !!null, !!map and !!seq are honoured; any other tag is an error.
///
/// Refused, each with a location: syntax errors; nesting deeper than `maxDepth` (checked as
/// yaml-cpp descends, so that hostile input never recurses deeper); keys that are not scalars;
/// a key given twice in one mapping (at the second); merge keys (`<<`); an alias inside the node
/// it names; aliases that expand to more than a fixed number of values (a "billion laughs").
/// Empty documents are skipped.
class YamlParser final
{
public:
    static ParsedText parse(const TextLocator &text, int maxDepth);

    /// What a plain (unquoted) scalar reads as.
    static QJsonValue plainScalar(const QString &text);

    /// "nesting is deeper than N levels", as both parsers say it.
    static QString depthMessage(int maxDepth);

    /// The most values aliases may add to one text.
    static constexpr qint64 maxAliasValues = 100000;
};

} // namespace converge

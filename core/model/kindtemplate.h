// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "kind.h"

#include <QJsonObject>
#include <QString>

namespace converge {

/// A starting manifest for one object of a kind, generated from the kind's schema: the required
/// fields, the fields that have defaults (with them), and every other field commented out; above
/// each field one comment line with its type, flags, enum values or default, and the first
/// sentence of its description.
///
/// Rules that span fields ("exactly one credential", "the key attributes are defined") are code in
/// the kinds, not schema, so the schema alone cannot produce a valid object. starterSpec() holds
/// the few values the built-in kinds need for that (a local emulator account, inline blob
/// content, a one-attribute key); with a valid name and owner the result validates as it is.
class KindTemplate final
{
public:
    /// YAML for one object of `kind`. An empty `name` becomes suggestedName(); an empty
    /// `ownerName` (for a kind with an owner) becomes "OWNER", which the user must replace.
    static QString yaml(const Kind &kind, const QString &name = {}, const QString &ownerName = {});

    /// "blobcontainer1": a valid name for any built-in kind, to be edited.
    static QString suggestedName(const Kind &kind, int n = 1);

    /// "string, required, immutable", "enum None|Blob|Container, default None", …
    static QString fieldSummary(const FieldSchema &field);

    /// The spec values the schema cannot derive for the built-in kinds (see above); empty for
    /// other kinds.
    static QJsonObject starterSpec(const Kind &kind);
};

} // namespace converge

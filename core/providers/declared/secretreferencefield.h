// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "fieldschema.h"

#include <QString>

namespace converge {

/// The schema of a value given only by reference, `{env: VARIABLE}`, `{keychain: ENTRY}` or
/// `{file: PATH}` (SecretReference): a declared kind's `secretRef` field, a GcpProject's
/// service account key.
struct SecretReferenceField
{
    /// `description` says what the value is; the field's own text says how it is given.
    static FieldSchema make(const QString &name, const QString &description);
};

} // namespace converge

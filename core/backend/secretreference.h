// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "outcome.h"

#include <QJsonObject>
#include <QString>

namespace converge {

class CredentialStore;

/// A value a manifest gives only by reference, as it gives credentials: `{env: VARIABLE}`,
/// `{keychain: ENTRY}` or `{file: PATH}` (the file's whole content; mode 0600 or stricter). A
/// secret's value and a SecureString parameter's are such values: they are read when they are
/// sent, held in memory only, and never reach the workspace, events or logs.
///
/// resolve() may block (the keychain talks D-Bus): call it on worker threads.
class SecretReference final
{
public:
    /// The value `reference` names; `field` (e.g. spec.secretString) is for messages, which
    /// never contain the value.
    static Outcome<QString> resolve(const QJsonObject &reference, CredentialStore *keychain,
                                    const QString &field);
    /// The validation message for a reference that does not name exactly one source; empty
    /// when it does.
    static QString check(const QJsonObject &reference);
    /// How the reference is said: "environment variable X", "keychain entry Y", "file Z".
    static QString describe(const QJsonObject &reference);
};

} // namespace converge

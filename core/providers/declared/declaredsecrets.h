// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "apicaller.h"
#include "kinddeclaration.h"
#include "manager.h"

#include <functional>
#include <optional>

namespace converge {

class CredentialStore;

/// A declared kind's values given only by reference (DeclaredSecret: a secret's secretString),
/// for DeclaredManager: read where a request sends them, and compared in memory with what AWS
/// holds, so that neither value is ever kept.
class DeclaredSecrets final
{
public:
    using Send =
        std::function<Outcome<ApiCaller::Reply>(const DeclaredCall &, const QJsonObject &)>;

    /// `declaration` and `keychain` (may be null) must outlive this; `send` makes a call as the
    /// Manager does.
    DeclaredSecrets(const KindDeclaration &declaration, CredentialStore *keychain, Send send);

    /// `values`, a request's members from `spec`, with each reference the spec gives in a
    /// secret's own field replaced by the value it names (added to `secrets`).
    std::optional<BackendError> resolve(QJsonObject &values, const QJsonObject &spec,
                                        QStringList *secrets) const;
    /// Whether the values `desired` gives by reference are those in AWS: each such field of
    /// `o.spec` becomes the reference when they are, and a marker when not.
    std::optional<BackendError> compare(Observation &o, const QJsonObject &desired) const;

private:
    const KindDeclaration &m_declaration;
    CredentialStore *m_keychain;
    Send m_send;
};

} // namespace converge

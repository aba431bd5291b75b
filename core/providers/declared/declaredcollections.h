// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "apicaller.h"
#include "kinddeclaration.h"
#include "manager.h"

#include <functional>
#include <optional>

namespace converge {

/// A declared kind's collections (DeclaredCollection: an IAM role's attached and inline
/// policies) and documents, for DeclaredManager: read item by item, observed in the spec's own
/// order and spelling where they mean the same, and changed by the calls that add and remove
/// what differs.
class DeclaredCollections final
{
public:
    using Send =
        std::function<Outcome<ApiCaller::Reply>(const DeclaredCall &, const QJsonObject &)>;

    /// `declaration` must outlive this; `send` makes a call as the Manager does.
    DeclaredCollections(const KindDeclaration &declaration, Send send, int maxReadPages);

    /// Every item of `collection`'s field as AWS holds it (a map's values read one by one).
    Outcome<QJsonValue> read(const DeclaredCollection &collection, const QString &name,
                             const QString &id, const QJsonObject &spec);
    /// `o`'s collections and documents, said as `desired` says them where they mean the same
    /// (a set in another order, a document with other spacing).
    std::optional<BackendError> observe(Observation &o, const QString &name,
                                        const QJsonObject &desired);
    /// The calls that make `collection` hold `want` where it holds `have`.
    std::optional<BackendError> change(const DeclaredCollection &collection, const QString &name,
                                       const QString &id, const QJsonObject &spec,
                                       const QJsonValue &have, const QJsonValue &want);

private:
    const KindDeclaration &m_declaration;
    Send m_send;
    int m_maxReadPages;
};

} // namespace converge

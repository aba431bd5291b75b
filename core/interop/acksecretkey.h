// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QString>

namespace converge {

/// A key of a Kubernetes Secret, as ACK names a secret value (`secretString: {name, key,
/// namespace?}`), and the OS keychain entry that stands for it on a desktop: `NAME/KEY`, or
/// `NAMESPACE/NAME/KEY` when the reference names a namespace. Export writes a reference
/// `{keychain: ENTRY}` of that shape as the Secret's key; import keeps ACK's reference as that
/// entry, so that both directions give back what they were given.
struct AckSecretKey
{
    QString ns; ///< empty: the namespace of the resource
    QString name;
    QString key;

    /// ACK's `{name, key, namespace?}`; invalid when the names are not Kubernetes names.
    static AckSecretKey fromAck(const QJsonObject &reference);
    /// A Converge reference `{keychain: [NAMESPACE/]NAME/KEY}`; invalid for any other.
    static AckSecretKey fromReference(const QJsonObject &reference);

    bool isValid() const;
    /// The keychain entry, `[NAMESPACE/]NAME/KEY`.
    QString entry() const;
    /// `[NAMESPACE/]NAME`, for messages.
    QString secretName() const;
    QJsonObject toAck() const;
};

} // namespace converge

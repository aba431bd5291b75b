// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "kind.h"
#include "resource.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>

namespace converge {

/// The one rule for fields that cannot change once the backend resource exists (a container's
/// azureName, a table's key schema): apply, diff, the spec editor and the reconciler all ask it,
/// so a rename is refused where it is made and never turns into a second backend resource.
///
/// A change is judged against what the backend resource was established as: the spec last
/// observed in the backend, else (created, never observed since) the stored spec when the
/// resource has a backend ID. The kind's backend name field (Kind::backendNameField) compares as
/// what it stands for: left out, it means metadata.name.
class ImmutableFields final
{
public:
    struct Change
    {
        QString path;      ///< spec.azureName
        QJsonValue before; ///< the established value
        QJsonValue after;  ///< the desired value
        friend bool operator==(const Change &, const Change &) = default;
    };

    /// What `stored` was established as in the backend, the name field written out where it is
    /// known; nullopt when its backend resource was never made or seen.
    static std::optional<QJsonObject> established(const Kind &kind, const Resource &stored);

    /// The immutable fields of `kind` on which `desired` (the spec of a resource named `name`)
    /// differs from `established`.
    static QList<Change> changed(const Kind &kind, const QString &name, const QJsonObject &desired,
                                 const QJsonObject &established);

    /// changed() for `desired` against what `stored` was established as; empty when the backend
    /// resource was never made.
    static QList<Change> changed(const Kind &kind, const Resource &desired, const Resource &stored);

    /// "cannot change after creation ("customers" → "clients"); …": the sentence after a
    /// field's path (each path in the parentheses when there are several); the next sentence
    /// says how to really rename Table/customers.
    static QString message(const ResourceKey &key, const QList<Change> &changes);
    /// The paths of `changes`, in order.
    static QStringList paths(const QList<Change> &changes);
    /// "spec.azureName: " and message(): the refusal with the fields it names first.
    static QString describe(const ResourceKey &key, const QList<Change> &changes);
};

} // namespace converge

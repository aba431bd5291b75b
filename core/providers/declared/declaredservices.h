// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "servicedeclaration.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace converge {

/// A provider's declared services, read once from a resource folder of declaration files
/// (`:/kinds/aws`, `:/kinds/gcp`) and as constant afterwards as the hand-written kinds: the
/// kinds they declare, and which service declares each.
class DeclaredServices final
{
public:
    /// What a provider adds to a declared kind that no declaration can say (DynamoDB's rules
    /// that tie a table's fields together), given each kind as it is read.
    using Refine = std::function<void(Kind &kind)>;

    /// Reads every declaration in `folder` for kinds of `group`/`version` owned by `ownerKind`.
    /// A file that does not read is the project's bug (tst_declarations reads every one): it is
    /// left out with a warning rather than taking the other kinds down.
    DeclaredServices(const QString &folder, const QString &group, const QString &version,
                     const QString &ownerKind, const Refine &refine = {});

    const QList<ServiceDeclaration> &services() const { return m_services; }
    /// The declaration of `kind`, or nullptr when it is not one of these.
    const KindDeclaration *declaration(const QString &kind) const;
    /// The service that declares `kind`, or nullptr.
    const ServiceDeclaration *serviceOf(const QString &kind) const;
    /// The names of the declared kinds.
    QStringList kindNames() const;

private:
    QList<ServiceDeclaration> m_services;
};

} // namespace converge

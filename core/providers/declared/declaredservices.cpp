// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "declaredservices.h"

#include "declarationreader.h"

#include <QLoggingCategory>

namespace converge {

namespace {
Q_LOGGING_CATEGORY(lcDeclaredServices, "converge.backend.declared")
} // namespace

DeclaredServices::DeclaredServices(const QString &folder, const QString &group,
                                   const QString &version, const QString &ownerKind,
                                   const Refine &refine)
{
    for (const DeclarationReader::Result &result :
         DeclarationReader::readFolder(folder, group, version, ownerKind)) {
        if (!result.errors.isEmpty()) {
            for (const QString &error : result.errors)
                qCWarning(lcDeclaredServices, "%s", qPrintable(error));
            continue;
        }
        m_services << result.service;
        if (!refine)
            continue;
        for (KindDeclaration &declared : m_services.last().kinds)
            refine(declared.kind);
    }
}

const KindDeclaration *DeclaredServices::declaration(const QString &kind) const
{
    for (const ServiceDeclaration &service : m_services) {
        for (const KindDeclaration &declared : service.kinds) {
            if (declared.kind.name == kind)
                return &declared;
        }
    }
    return nullptr;
}

const ServiceDeclaration *DeclaredServices::serviceOf(const QString &kind) const
{
    for (const ServiceDeclaration &service : m_services) {
        for (const KindDeclaration &declared : service.kinds) {
            if (declared.kind.name == kind)
                return &service;
        }
    }
    return nullptr;
}

QStringList DeclaredServices::kindNames() const
{
    QStringList names;
    for (const ServiceDeclaration &service : m_services) {
        for (const KindDeclaration &declared : service.kinds)
            names << declared.kind.name;
    }
    return names;
}

} // namespace converge

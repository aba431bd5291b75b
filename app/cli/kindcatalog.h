// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "kind.h"

#include <QList>
#include <QString>

namespace converge {

class KindRegistry;

/// Every kind a registry holds, grouped by provider and service, as `converge explain` without
/// an argument lists them: a heading per service (Azure Storage, AWS, AWS DynamoDB, AWS SQS, …),
/// then each kind with its apiVersion and the first sentence of its description.
class KindCatalog final
{
public:
    struct Group
    {
        QString provider;          ///< Azure, AWS; a kind of another provider: its API group
        QString service;           ///< Storage, SQS, …; empty for the provider's account kind
        QList<const Kind *> kinds; ///< not owned (the registry's), sorted by name

        QString title() const;
    };

    /// The groups, Azure before AWS, a provider's account kind before its services, services by
    /// name. A declared kind's service is its declaration's title. `registry` must outlive them.
    static QList<Group> groups(const KindRegistry &registry);

    /// The listing: per group its title, then per kind `  NAME  APIVERSION` and an indented
    /// one-line description, in at most KindExplainer::width columns.
    static QString text(const QList<Group> &groups);
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "servicedeclaration.h"

#include <QList>
#include <QPair>
#include <QString>

namespace converge {

/// Whether a declaration binds every operation its kinds call, as its protocol needs: the REST
/// protocols (rest-xml, rest-json: the model's operations and shapes; google-rest: each
/// operation's method and path) have no operation the declaration does not describe, since
/// their clients (AwsRestXml, AwsRestJson, GcpRestClient) build requests from it.
class DeclaredBindings final
{
public:
    /// What is missing: (JSON path, message) pairs; none when the service is bound.
    static QList<QPair<QString, QString>> problems(const ServiceDeclaration &service);
};

} // namespace converge

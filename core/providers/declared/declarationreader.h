// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "servicedeclaration.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace converge {

/// Reads declaration files (the format docs/kinds.md describes) into ServiceDeclarations. A file
/// that does not follow the format is refused whole, with the file and the JSON path of each
/// problem: a declaration is checked in, so any problem is the project's, and a test reads every
/// file.
class DeclarationReader final
{
public:
    struct Result
    {
        ServiceDeclaration service;
        QStringList errors; ///< "logs.json: kinds[0].fields[2].type: …"; empty when it was read
    };

    /// Reads one file's bytes; `source` names it in errors. Kinds get `group`, `version` and
    /// `ownerKind` (the account kind) and an `owner` field first in their spec.
    static Result read(const QByteArray &json, const QString &source, const QString &group,
                       const QString &version, const QString &ownerKind);
    /// Every `*.json` in `folder` (a resource folder such as `:/kinds/aws`), in name order.
    static QList<Result> readFolder(const QString &folder, const QString &group,
                                    const QString &version, const QString &ownerKind);
};

} // namespace converge

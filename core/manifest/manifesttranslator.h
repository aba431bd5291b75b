// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "manifestreader.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>

namespace converge {

/// A document of another tool's schema (an ASO or ACK resource), as ManifestReader found it.
struct ForeignDocument
{
    QJsonObject object;
    SourceLocation location; ///< where the document starts
    /// Where a field of the document stands (its nearest ancestor when it is not there).
    std::function<SourceLocation(const QString &path)> locate;
};

/// Turns documents of another tool's schema into Converge objects for ManifestReader. All the
/// documents of one read come at once, because they refer to each other (an ASO container names
/// its blob service, which names its account). The objects it returns are validated like any
/// other; an error of either kind makes the whole read fail.
class ManifestTranslator
{
public:
    struct Error
    {
        qsizetype document = 0; ///< index into the documents given
        QString path;           ///< the field of that document, e.g. spec.tableClass
        QString message;
    };
    struct Translated
    {
        qsizetype document = 0; ///< the document it comes from, for error locations
        QJsonObject object;     ///< a Converge manifest object
    };
    struct Result
    {
        QList<Translated> objects;
        QList<Error> errors;
        /// What a person must do for an object that was read (give a secret's value by
        /// reference, …): said, not an error; empty whenever errors is not.
        QList<Error> notes;
    };

    virtual ~ManifestTranslator() = default;
    /// Whether `object` (a document with apiVersion and kind) is this translator's to read.
    virtual bool handles(const QJsonObject &object) const = 0;
    virtual Result translate(const QList<ForeignDocument> &documents) const = 0;

protected:
    ManifestTranslator() = default;
    Q_DISABLE_COPY_MOVE(ManifestTranslator)
};

} // namespace converge

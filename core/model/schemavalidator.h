// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resource.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace converge {

class KindRegistry;

/// One thing wrong with an object, named by its path from the object's root
/// (`metadata.name`, `spec.publicAccess`, `spec.tags[2].value`). The manifest reader turns the
/// path into file:line:column.
struct ValidationError
{
    QString path;
    QString message; ///< e.g. `"public" is not one of None, Blob, Container`

    QString toString() const
    {
        return path.isEmpty() ? message : path + QStringLiteral(": ") + message;
    }
    friend bool operator==(const ValidationError &, const ValidationError &) = default;
};

/// Checks whole objects against their kind's schema before anything is stored or sent.
///
/// What it checks: apiVersion and kind are known (with a did-you-mean); only the top-level fields
/// apiVersion, kind, metadata, spec, status exist; metadata fields are known and typed, the name
/// follows the kind's rules; the reserved annotations hold allowed values; the spec has no
/// unknown field (did-you-mean), every value has its field's type, required fields are there,
/// enums, patterns, lengths, ranges and checks hold; secret fields are never given inline. It
/// fills in defaults where a field is absent. It does not look at other objects (owners may be
/// applied later) or at the backend.
///
/// Document order, since QJsonObject does not keep the input's key order: apiVersion, kind,
/// metadata, spec, status, then unknown top-level fields; inside an object its fields in schema
/// order, then its unknown keys sorted; map keys sorted; list items by index. metadata accepts
/// uid, generation, resourceVersion, creationTimestamp, finalizers and deletionTimestamp so that
/// exported objects read back, and drops them: the workspace owns them.
class SchemaValidator final
{
public:
    /// `registry` must outlive the validator.
    explicit SchemaValidator(const KindRegistry &registry);

    struct Result
    {
        Resource resource;             ///< valid only when errors is empty; defaults filled in
        QList<ValidationError> errors; ///< in document order
        bool ok() const { return errors.isEmpty(); }
    };

    /// Validates a document as read from a manifest (the Kubernetes JSON shape). `status` is
    /// kept only when `keepStatus`; otherwise it is ignored.
    Result validate(const QJsonObject &document, bool keepStatus = false) const;

    /// Validates an object built in code (the window's editor, a claim); fills in defaults.
    QList<ValidationError> validate(Resource &resource) const;

private:
    const KindRegistry &m_registry;
};

} // namespace converge

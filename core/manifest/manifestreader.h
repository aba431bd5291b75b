// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resource.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace converge {

class KindRegistry;
class ManifestTranslator;

/// Where something stands in a manifest file; line and column are 1-based, and the column counts
/// characters (code points), not bytes, as editors do.
struct SourceLocation
{
    QString file;
    int line = 0;
    int column = 0;

    QString toString() const; ///< "file:line:column" (or "file" when line is 0)
    friend bool operator==(const SourceLocation &, const SourceLocation &) = default;
};

/// One problem in a manifest: where, which field, what.
struct ManifestError
{
    SourceLocation location;
    QString path; ///< the field, e.g. spec.publicAccess; empty for syntax errors
    QString message;

    /// `invoices.yaml:12:5: spec.publicAccess: "public" is not one of None, Blob, Container`
    QString toString() const;
};

/// An object read from a manifest, validated, with where its document starts.
struct ManifestObject
{
    Resource resource;
    SourceLocation location;
    /// Where a field of the object stands (its key; a field that is not there, its nearest
    /// ancestor's), for checks made after reading (an immutable field changed); may be empty.
    std::function<SourceLocation(const QString &path)> locate;

    /// locate(path), or the object's location when there is no locator.
    SourceLocation locationOf(const QString &path) const
    {
        return locate ? locate(path) : location;
    }
};

/// Reads Kubernetes-style manifests: YAML (several documents separated by ---) and JSON (one
/// object, or a List with items; YAML may hold a List too). Every object is validated against
/// its kind; any error makes the whole read fail, so that bad input never partly lands.
///
/// Errors say `file:line:column: path: message`; a field's error points at its key, a missing
/// field's at its parent, a wrong kind or apiVersion at the value. Scalars are typed by plain
/// rules (see YamlParser). An empty file, or one of comments and empty documents, declares
/// nothing and is not an error. Refused with a message and no objects: files over maxFileBytes
/// (by their size, before reading), text that is not UTF-8 or holds control characters (NUL
/// included), nesting deeper than maxDepth, duplicate keys, tags other than YAML's standard
/// ones, merge keys, excessive alias expansion, and the same kind/name declared twice. A read
/// stops after 100 errors.
class ManifestReader final
{
public:
    struct Options
    {
        bool keepStatus = false;        ///< `status` in input is ignored unless asked for
        qint64 maxFileBytes = 16 << 20; ///< larger files are refused before parsing
        int maxDepth = 64;              ///< deeper nesting is refused
        /// Readers of other tools' documents (ASO, ACK); a document one of them handles is
        /// translated into Converge objects (not owned; they must outlive the reader).
        QList<const ManifestTranslator *> translators;
    };

    struct Result
    {
        QList<ManifestObject> objects; ///< empty whenever errors is not
        QList<ManifestError> errors;
        /// What translators say about objects they read (ManifestTranslator::Result::notes).
        QList<ManifestError> notes;
        bool ok() const { return errors.isEmpty(); }
    };

    /// `registry` must outlive the reader.
    explicit ManifestReader(const KindRegistry &registry);
    ManifestReader(const KindRegistry &registry, const Options &options);

    /// Reads text; `fileName` is used in locations and picks JSON for a ".json" name.
    Result read(const QByteArray &data, const QString &fileName) const;
    /// Reads a file.
    Result readFile(const QString &path) const;
    /// Reads files and folders (*.yaml, *.yml, *.json, sorted, not recursive) and "-" for
    /// standard input ("<stdin>" in locations; JSON when it starts with '{'). The same kind/name
    /// twice, in one file or across them, is an error at the second place that names the first.
    Result readPaths(const QStringList &paths) const;

private:
    const KindRegistry &m_registry;
    Options m_options;
};

} // namespace converge

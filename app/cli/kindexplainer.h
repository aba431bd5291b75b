// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "kind.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace converge {

/// A kind's spec schema as `kubectl explain` prints a resource's: KIND, VERSION, the kind's or
/// a field's DESCRIPTION wrapped at 80 columns, and its FIELDS (each child's name, type,
/// -required-/-immutable-, first sentence and constraints), or with `recursive` the whole tree
/// of names and types. Paths name spec fields (`keySchema.attributeName`); a list's or map's
/// item fields are reached through its name.
class KindExplainer final
{
public:
    static constexpr qsizetype width = 80;

    /// `kind` is not owned and must outlive the explainer.
    explicit KindExplainer(const Kind &kind);

    /// The text for the kind (empty `path`) or the field at `path`; nullopt when a name on the
    /// path does not exist, with `error` saying which and what is near.
    std::optional<QString> explain(const QStringList &path, bool recursive,
                                   QString *error = nullptr) const;

    /// The field at `path` (the spec for an empty one), or nullptr with `error` set as
    /// explain() sets it. `spelled` gets the path as the schema spells it (`keySchema.keyType`
    /// for `spec.keyschema.KeyType`).
    const FieldSchema *find(const QStringList &path, QString *error = nullptr,
                            QString *spelled = nullptr) const;

    /// How a field's type is written: string, integer, boolean, enum, object, []object,
    /// map[string]string, …
    static QString typeName(const FieldSchema &field);
    /// ` -required-`, ` -immutable-`, both or nothing.
    static QString markers(const FieldSchema &field);
    /// The field's checks: enum values, lengths, pattern (its hint when it has one), range,
    /// list size and default; a map's key and value checks, a list's item checks.
    static QStringList constraints(const FieldSchema &field);
    /// The first sentence of `description`, cut at a word with "…" to fit in `columns`.
    static QString summary(const QString &description, qsizetype columns);

private:
    QString header() const;
    static QString fieldsSection(const FieldSchema &parent, bool recursive);
    static void appendTree(QString *text, const FieldSchema &parent, int depth);
    static const FieldSchema *container(const FieldSchema &field);

    const Kind &m_kind;
};

} // namespace converge

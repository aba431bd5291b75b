// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace converge {

/// The schema of one field of a kind's spec, and of its children.
///
/// Paths name fields from the object's root: `spec.publicAccess`, `spec.metadata.team`,
/// `spec.tags[2].value`; a map key that is not an identifier is quoted: `spec.metadata["a.b"]`.
struct FieldSchema
{
    enum class Type { String, Int, Bool, Enum, Map, List, Object };

    QString name;
    Type type = Type::String;
    QString description;
    bool required = false;
    bool immutable = false; ///< a change after creation is ImmutableFieldChanged
    bool secret = false;    ///< never stored, logged or shown; a reference to a secret is not one
    bool compared = true;   ///< part of drift detection (server-defaulted fields are not)
    QJsonValue defaultValue{QJsonValue::Undefined}; ///< Undefined when there is none

    QStringList enumValues; ///< Enum: the allowed spellings, case-sensitive
    /// String: a JSON document (a policy), which a manifest may also give as a YAML or JSON
    /// object or list; validation stores it as compact JSON text.
    bool document = false;
    /// String: an instant (ISO 8601, or a date alone for its midnight UTC); validation stores it
    /// as Instants::canonical spells it, and so are observations read, so that one instant
    /// written two ways is not drift.
    bool timestamp = false;
    /// String: may be given by reference instead, as an object (`{env: VARIABLE}`), which its
    /// `check` judges; for values that are secrets only for some (a function's environment).
    bool orReference = false;

    // String (and Map keys / values through their schemas) checks. On a Map, pattern and lengths
    // apply to its keys; `items` checks its values.
    QString pattern;     ///< anchored regular expression, empty for none
    QString patternHint; ///< said instead of the raw pattern, e.g. "lower-case letters, …"
    int minLength = -1;
    int maxLength = -1;
    // Int checks.
    std::optional<qint64> minimum;
    std::optional<qint64> maximum;
    // List checks.
    int maxItems = -1;

    QList<FieldSchema> fields; ///< Object: its fields, in the order manifests are written
    QList<FieldSchema> items;  ///< List: one schema, for every item; Map: one schema, for values

    /// A further check on a value that passed the type checks; returns an error message or an
    /// empty string. For rules a schema cannot say (e.g. "exactly one of").
    std::function<QString(const QJsonValue &value)> check;

    // Builders, so that kinds read like their documentation.
    static FieldSchema string(const QString &name, const QString &description = {});
    static FieldSchema integer(const QString &name, const QString &description = {});
    static FieldSchema boolean(const QString &name, const QString &description = {});
    static FieldSchema enumeration(const QString &name, const QStringList &values,
                                   const QString &description = {});
    static FieldSchema map(const QString &name, const FieldSchema &values,
                           const QString &description = {});
    static FieldSchema list(const QString &name, const FieldSchema &item,
                            const QString &description = {});
    static FieldSchema object(const QString &name, const QList<FieldSchema> &fields,
                              const QString &description = {});

    FieldSchema &setRequired(bool on = true)
    {
        required = on;
        return *this;
    }
    FieldSchema &setImmutable(bool on = true)
    {
        immutable = on;
        return *this;
    }
    FieldSchema &setSecret(bool on = true)
    {
        secret = on;
        return *this;
    }
    FieldSchema &setCompared(bool on)
    {
        compared = on;
        return *this;
    }
    FieldSchema &setDefault(const QJsonValue &value)
    {
        defaultValue = value;
        return *this;
    }
    FieldSchema &setPattern(const QString &re, const QString &hint = {})
    {
        pattern = re;
        patternHint = hint;
        return *this;
    }
    FieldSchema &setLength(int min, int max)
    {
        minLength = min;
        maxLength = max;
        return *this;
    }
    FieldSchema &setRange(qint64 min, qint64 max)
    {
        minimum = min;
        maximum = max;
        return *this;
    }
    FieldSchema &setCheck(std::function<QString(const QJsonValue &)> f)
    {
        check = std::move(f);
        return *this;
    }

    /// Whether an absent value stands for a default (neither Undefined nor null).
    bool hasDefault() const { return !defaultValue.isUndefined() && !defaultValue.isNull(); }

    /// The child field called `name` of an Object, or nullptr.
    const FieldSchema *field(const QString &name) const;
    static QString typeName(Type type);
    /// What a value is, for messages: "a string", "a number", "null", "an object", …
    static QString describeValue(const QJsonValue &value);
};

} // namespace converge

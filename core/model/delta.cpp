// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "delta.h"

#include "fieldpath.h"

#include <QJsonArray>

#include <algorithm>

namespace converge {

namespace {

bool isWhole(const QJsonValue &v)
{
    return v.toInteger(0) == v.toInteger(1);
}

// JSON numbers arrive as doubles; whole numbers compare exactly as integers.
bool sameScalar(const QJsonValue &a, const QJsonValue &b)
{
    if (a.isDouble() && b.isDouble()) {
        if (isWhole(a) && isWhole(b))
            return a.toInteger() == b.toInteger();
        return a.toDouble() == b.toDouble();
    }
    return a == b;
}

// What an absent observed value of this type compares as when it has no default.
QJsonValue emptyOf(FieldSchema::Type type)
{
    switch (type) {
    case FieldSchema::Type::String:
        return QJsonValue(QJsonValue::String);
    case FieldSchema::Type::Map:
    case FieldSchema::Type::Object:
        return QJsonObject();
    case FieldSchema::Type::List:
        return QJsonArray();
    case FieldSchema::Type::Int:
    case FieldSchema::Type::Bool:
    case FieldSchema::Type::Enum:
        break;
    }
    return QJsonValue(QJsonValue::Undefined);
}

class Comparer final
{
public:
    QStringList paths;
    bool everyField = false; ///< also the fields that are not `compared`

    void field(const FieldSchema &schema, const QString &path, QJsonValue desired,
               QJsonValue observed)
    {
        if (!schema.compared && !everyField)
            return;
        if (desired.isUndefined()) {
            if (!schema.hasDefault())
                return; // not managed
            desired = schema.defaultValue;
        }
        if (observed.isUndefined())
            observed = schema.hasDefault() ? schema.defaultValue : emptyOf(schema.type);
        value(schema, path, desired, observed);
    }

private:
    void add(const QString &path)
    {
        if (!paths.contains(path))
            paths.append(path);
    }

    void value(const FieldSchema &schema, const QString &path, const QJsonValue &desired,
               const QJsonValue &observed)
    {
        switch (schema.type) {
        case FieldSchema::Type::Object:
            if (desired.isObject() && observed.isObject()) {
                const QJsonObject d = desired.toObject();
                const QJsonObject o = observed.toObject();
                for (const FieldSchema &f : schema.fields)
                    field(f, FieldPath::child(path, f.name), d.value(f.name), o.value(f.name));
                return;
            }
            break;
        case FieldSchema::Type::Map:
            if (desired.isObject() && observed.isObject() && !schema.items.isEmpty()) {
                map(schema.items.first(), path, desired.toObject(), observed.toObject());
                return;
            }
            break;
        case FieldSchema::Type::List:
            if (desired.isArray() && observed.isArray() && !schema.items.isEmpty()) {
                list(schema.items.first(), path, desired.toArray(), observed.toArray());
                return;
            }
            break;
        case FieldSchema::Type::String:
        case FieldSchema::Type::Int:
        case FieldSchema::Type::Bool:
        case FieldSchema::Type::Enum:
            break;
        }
        // A scalar, or values whose shapes the schema does not expect.
        if (!sameScalar(desired, observed))
            add(path);
    }

    // The desired map is managed whole: a key on one side only is drift.
    void map(const FieldSchema &item, const QString &path, const QJsonObject &desired,
             const QJsonObject &observed)
    {
        QStringList keys = desired.keys() + observed.keys();
        keys.sort();
        keys.removeDuplicates();
        for (const QString &key : std::as_const(keys)) {
            const QString keyPath = FieldPath::child(path, key);
            if (!desired.contains(key) || !observed.contains(key))
                add(keyPath);
            else
                field(item, keyPath, desired.value(key), observed.value(key));
        }
    }

    void list(const FieldSchema &item, const QString &path, const QJsonArray &desired,
              const QJsonArray &observed)
    {
        if (desired.size() != observed.size()) {
            add(path);
            return;
        }
        for (qsizetype i = 0; i < desired.size(); ++i)
            field(item, FieldPath::index(path, i), desired.at(i), observed.at(i));
    }
};

} // namespace

QStringList Delta::between(const FieldSchema &specSchema, const QJsonObject &desired,
                           const QJsonObject &observed, Fields fields)
{
    Comparer comparer;
    comparer.everyField = fields == Fields::Every;
    comparer.field(specSchema, specSchema.name, desired, observed);
    return comparer.paths;
}

bool Delta::onlyWithin(const QStringList &delta, const QStringList &allowed)
{
    for (const QString &path : delta) {
        const bool covered = std::any_of(allowed.cbegin(), allowed.cend(), [&](const QString &a) {
            return FieldPath::isWithin(path, a);
        });
        if (!covered)
            return false;
    }
    return true;
}

QStringList Delta::immutablePaths(const FieldSchema &specSchema, const QStringList &delta)
{
    QStringList result;
    for (const QString &path : delta) {
        const auto segments = FieldPath::split(path);
        if (!segments || segments->first() != FieldPath::Segment{specSchema.name, -1})
            continue;
        const FieldSchema *schema = &specSchema;
        bool immutable = schema->immutable;
        for (qsizetype i = 1; schema && !immutable && i < segments->size(); ++i) {
            const FieldPath::Segment &s = segments->at(i);
            if (schema->type == FieldSchema::Type::Object && !s.isIndex())
                schema = schema->field(s.key);
            else if ((schema->type == FieldSchema::Type::List && s.isIndex()) ||
                     (schema->type == FieldSchema::Type::Map && !s.isIndex()))
                schema = schema->items.isEmpty() ? nullptr : &schema->items.first();
            else
                schema = nullptr;
            immutable = schema && schema->immutable;
        }
        if (immutable)
            result.append(path);
    }
    return result;
}

} // namespace converge

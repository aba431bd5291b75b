// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "fieldschema.h"

namespace converge {

namespace {

FieldSchema make(const QString &name, FieldSchema::Type type, const QString &description)
{
    FieldSchema f;
    f.name = name;
    f.type = type;
    f.description = description;
    return f;
}

} // namespace

FieldSchema FieldSchema::string(const QString &name, const QString &description)
{
    return make(name, Type::String, description);
}

FieldSchema FieldSchema::integer(const QString &name, const QString &description)
{
    return make(name, Type::Int, description);
}

FieldSchema FieldSchema::boolean(const QString &name, const QString &description)
{
    return make(name, Type::Bool, description);
}

FieldSchema FieldSchema::enumeration(const QString &name, const QStringList &values,
                                     const QString &description)
{
    FieldSchema f = make(name, Type::Enum, description);
    f.enumValues = values;
    return f;
}

FieldSchema FieldSchema::map(const QString &name, const FieldSchema &values,
                             const QString &description)
{
    FieldSchema f = make(name, Type::Map, description);
    f.items = {values};
    return f;
}

FieldSchema FieldSchema::list(const QString &name, const FieldSchema &item,
                              const QString &description)
{
    FieldSchema f = make(name, Type::List, description);
    f.items = {item};
    return f;
}

FieldSchema FieldSchema::object(const QString &name, const QList<FieldSchema> &fields,
                                const QString &description)
{
    FieldSchema f = make(name, Type::Object, description);
    f.fields = fields;
    return f;
}

const FieldSchema *FieldSchema::field(const QString &name) const
{
    if (type != Type::Object)
        return nullptr;
    for (const FieldSchema &f : fields) {
        if (f.name == name)
            return &f;
    }
    return nullptr;
}

QString FieldSchema::typeName(Type type)
{
    switch (type) {
    case Type::String:
        return QStringLiteral("string");
    case Type::Int:
        return QStringLiteral("integer");
    case Type::Bool:
        return QStringLiteral("boolean");
    case Type::Enum:
        return QStringLiteral("enum");
    case Type::Map:
        return QStringLiteral("map");
    case Type::List:
        return QStringLiteral("list");
    case Type::Object:
        break;
    }
    return QStringLiteral("object");
}

QString FieldSchema::describeValue(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean");
    case QJsonValue::Double:
        return QStringLiteral("a number");
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("a list");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "schemavalidator.h"

#include "fieldpath.h"
#include "instants.h"
#include "kindregistry.h"
#include "patterns.h"
#include "suggestions.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace converge {

namespace {

QString expected(FieldSchema::Type type)
{
    switch (type) {
    case FieldSchema::Type::String:
    case FieldSchema::Type::Enum:
        return QStringLiteral("a string");
    case FieldSchema::Type::Int:
        return QStringLiteral("an integer");
    case FieldSchema::Type::Bool:
        return QStringLiteral("a boolean");
    case FieldSchema::Type::Map:
        return QStringLiteral("a map");
    case FieldSchema::Type::List:
        return QStringLiteral("a list");
    case FieldSchema::Type::Object:
        break;
    }
    return QStringLiteral("an object");
}

QString characters(qint64 n)
{
    return n == 1 ? QStringLiteral("1 character") : QStringLiteral("%1 characters").arg(n);
}

QStringList fieldNames(const QList<FieldSchema> &fields)
{
    QStringList names;
    for (const FieldSchema &f : fields)
        names.append(f.name);
    return names;
}

const QStringList &topLevelFields()
{
    static const QStringList names{QStringLiteral("apiVersion"), QStringLiteral("kind"),
                                   QStringLiteral("metadata"), QStringLiteral("spec"),
                                   QStringLiteral("status")};
    return names;
}

// The last six are accepted so that exported objects read back, and dropped: the workspace
// owns them.
const QStringList &metadataFields()
{
    static const QStringList names{QStringLiteral("name"),
                                   QStringLiteral("labels"),
                                   QStringLiteral("annotations"),
                                   QStringLiteral("uid"),
                                   QStringLiteral("generation"),
                                   QStringLiteral("resourceVersion"),
                                   QStringLiteral("creationTimestamp"),
                                   QStringLiteral("finalizers"),
                                   QStringLiteral("deletionTimestamp")};
    return names;
}

// Collects errors while walking one object.
class Checker final
{
public:
    QList<ValidationError> errors;

    void add(const QString &path, const QString &message) { errors.append({path, message}); }

    void typeError(const QString &path, const QString &expectedText, const QJsonValue &value)
    {
        add(path, QStringLiteral("expected %1, got %2")
                      .arg(expectedText, FieldSchema::describeValue(value)));
    }

    void unknownFields(const QString &path, const QJsonObject &object, const QStringList &known)
    {
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            if (!known.contains(it.key()))
                add(FieldPath::child(path, it.key()),
                    QStringLiteral("unknown field") + Suggestions::hint(it.key(), known));
        }
    }

    // Length and pattern rules of a string, or of a map key (`what` is then "key ").
    void text(const FieldSchema &schema, const QString &path, const QString &text,
              const QString &what = {})
    {
        if (schema.minLength >= 0 && text.size() < schema.minLength)
            add(path, QStringLiteral("%1must be at least %2, got %3")
                          .arg(what, characters(schema.minLength), QString::number(text.size())));
        if (schema.maxLength >= 0 && text.size() > schema.maxLength)
            add(path, QStringLiteral("%1must be at most %2, got %3")
                          .arg(what, characters(schema.maxLength), QString::number(text.size())));
        if (schema.pattern.isEmpty())
            return;
        Q_ASSERT_X(Patterns::isValid(schema.pattern), "SchemaValidator",
                   "a kind declares an invalid pattern");
        if (Patterns::matchesWhole(text, schema.pattern))
            return;
        if (schema.patternHint.isEmpty())
            add(path, QStringLiteral("%1\"%2\" does not match %3").arg(what, text, schema.pattern));
        else
            add(path,
                QStringLiteral("%1\"%2\" is not valid (%3)").arg(what, text, schema.patternHint));
    }

    // Checks `value` against `schema` and fills in defaults inside it; true when no error was
    // found in it or under it.
    bool checkValue(const FieldSchema &schema, const QString &path, QJsonValue &value)
    {
        const qsizetype before = errors.size();
        if (schema.secret) {
            add(path, QStringLiteral("is a secret and cannot be given inline; reference it "
                                     "instead (keychain, env or file)"));
            return false;
        }
        switch (schema.type) {
        case FieldSchema::Type::String:
            if (schema.document && (value.isObject() || value.isArray()))
                value = QString::fromUtf8(
                    value.isObject()
                        ? QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact)
                        : QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
            if (schema.orReference && value.isObject())
                break;
            if (!value.isString()) {
                typeError(path, expected(schema.type), value);
                return false;
            }
            if (schema.timestamp) {
                const std::optional<QString> instant = Instants::canonical(value);
                if (!instant) {
                    add(path, QStringLiteral("\"%1\" is not a date or time (ISO 8601, e.g. "
                                             "2027-01-01 or 2027-01-01T12:00:00Z)")
                                  .arg(value.toString()));
                    return false;
                }
                value = *instant;
                break;
            }
            text(schema, path, value.toString());
            break;
        case FieldSchema::Type::Int:
            if (!integer(schema, path, value))
                return false;
            break;
        case FieldSchema::Type::Bool:
            if (!value.isBool()) {
                typeError(path, expected(schema.type), value);
                return false;
            }
            break;
        case FieldSchema::Type::Enum:
            if (!value.isString()) {
                typeError(path, expected(schema.type), value);
                return false;
            }
            if (!schema.enumValues.contains(value.toString()))
                add(path, QStringLiteral("\"%1\" is not one of %2")
                              .arg(value.toString(), schema.enumValues.join(QStringLiteral(", "))));
            break;
        case FieldSchema::Type::Map: {
            if (!value.isObject()) {
                typeError(path, expected(schema.type), value);
                return false;
            }
            QJsonObject map = value.toObject();
            for (auto it = map.begin(); it != map.end(); ++it) {
                const QString itemPath = FieldPath::child(path, it.key());
                text(schema, itemPath, it.key(), QStringLiteral("key "));
                if (schema.items.isEmpty())
                    continue;
                QJsonValue item = it.value();
                checkValue(schema.items.first(), itemPath, item);
                // Writing back an unchanged value still appends to the object's storage, which
                // made a map of 20,000 entries quadratic.
                if (item != it.value())
                    it.value() = item;
            }
            value = map;
            break;
        }
        case FieldSchema::Type::List: {
            if (!value.isArray()) {
                typeError(path, expected(schema.type), value);
                return false;
            }
            QJsonArray list = value.toArray();
            if (schema.maxItems >= 0 && list.size() > schema.maxItems)
                add(path, QStringLiteral("must have at most %1 items, got %2")
                              .arg(schema.maxItems)
                              .arg(list.size()));
            if (!schema.items.isEmpty()) {
                for (qsizetype i = 0; i < list.size(); ++i) {
                    QJsonValue item = list.at(i);
                    checkValue(schema.items.first(), FieldPath::index(path, i), item);
                    if (item != list.at(i))
                        list.replace(i, item);
                }
            }
            value = list;
            break;
        }
        case FieldSchema::Type::Object: {
            if (!value.isObject()) {
                typeError(path, expected(schema.type), value);
                return false;
            }
            QJsonObject object = value.toObject();
            checkFields(schema, path, object);
            value = object;
            break;
        }
        }
        // A check sees a value whose parts are all valid, with its defaults filled in.
        if (errors.size() == before && schema.check) {
            const QString message = schema.check(value);
            if (!message.isEmpty())
                add(path, message);
        }
        return errors.size() == before;
    }

    // An Object's fields in schema order, then its unknown keys (sorted, as QJsonObject is).
    void checkFields(const FieldSchema &schema, const QString &path, QJsonObject &object)
    {
        for (const FieldSchema &f : schema.fields) {
            const QString fieldPath = FieldPath::child(path, f.name);
            const auto it = object.find(f.name);
            if (it != object.end()) {
                QJsonValue v = it.value();
                checkValue(f, fieldPath, v);
                it.value() = v;
            } else if (!f.secret && f.hasDefault()) {
                object.insert(f.name, f.defaultValue);
            } else if (f.required && !f.secret) {
                add(fieldPath, QStringLiteral("is required"));
            }
        }
        unknownFields(path, object, fieldNames(schema.fields));
    }

    // JSON has only doubles: accept one that is a whole number within qint64's range.
    bool integer(const FieldSchema &schema, const QString &path, QJsonValue &value)
    {
        if (!value.isDouble()) {
            typeError(path, expected(schema.type), value);
            return false;
        }
        const qint64 n = value.toInteger(0);
        if (n != value.toInteger(1)) {
            const double d = value.toDouble();
            if (std::isfinite(d) && std::trunc(d) == d)
                add(path, QStringLiteral("%1 is out of range for an integer").arg(d));
            else
                add(path, QStringLiteral("expected an integer, got %1").arg(d));
            return false;
        }
        value = QJsonValue(n);
        if (schema.minimum && n < *schema.minimum)
            add(path, QStringLiteral("must be at least %1, got %2").arg(*schema.minimum).arg(n));
        if (schema.maximum && n > *schema.maximum)
            add(path, QStringLiteral("must be at most %1, got %2").arg(*schema.maximum).arg(n));
        return true;
    }
};

const Kind *checkHeader(Checker &checker, const KindRegistry &registry,
                        const QJsonValue &apiVersion, const QJsonValue &kindName)
{
    const QString apiVersionPath = QStringLiteral("apiVersion");
    const QString kindPath = QStringLiteral("kind");
    const bool apiVersionOk = apiVersion.isString() && !apiVersion.toString().isEmpty();
    const bool kindOk = kindName.isString() && !kindName.toString().isEmpty();
    const Kind *kind = kindOk ? registry.find(kindName.toString()) : nullptr;

    if (apiVersion.isUndefined() || (apiVersion.isString() && !apiVersionOk))
        checker.add(apiVersionPath, QStringLiteral("is required"));
    else if (!apiVersion.isString())
        checker.typeError(apiVersionPath, QStringLiteral("a string"), apiVersion);
    else if (kind && kind->apiVersion() != apiVersion.toString())
        checker.add(apiVersionPath,
                    QStringLiteral("kind %1 has apiVersion %2, not \"%3\"")
                        .arg(kind->name, kind->apiVersion(), apiVersion.toString()));

    if (kindName.isUndefined() || (kindName.isString() && !kindOk))
        checker.add(kindPath, QStringLiteral("is required"));
    else if (!kindName.isString())
        checker.typeError(kindPath, QStringLiteral("a string"), kindName);
    else if (!kind)
        checker.add(kindPath, QStringLiteral("unknown kind \"%1\"").arg(kindName.toString()) +
                                  Suggestions::hint(kindName.toString(), registry.names()));
    return kind;
}

void checkName(Checker &checker, const Kind *kind, const QString &name)
{
    const QString path = QStringLiteral("metadata.name");
    if (name.isEmpty()) {
        checker.add(path, QStringLiteral("is required"));
        return;
    }
    if (!kind)
        return;
    FieldSchema rules = FieldSchema::string(QStringLiteral("name"));
    rules.setPattern(kind->namePattern, kind->namePatternHint).setLength(1, kind->nameMaxLength);
    checker.text(rules, path, name);
}

void checkAnnotations(Checker &checker, const QMap<QString, QString> &annotations)
{
    const QString policy = Annotations::reconcilePolicy();
    const auto it = annotations.constFind(policy);
    if (it != annotations.cend() && !Annotations::policyFromName(it.value()))
        checker.add(FieldPath::child(QStringLiteral("metadata.annotations"), policy),
                    QStringLiteral("\"%1\" is not one of %2")
                        .arg(it.value(), Annotations::policyNames().join(QStringLiteral(", "))));
}

// labels and annotations: a map of strings.
QMap<QString, QString> stringMap(Checker &checker, const QString &path, const QJsonValue &value)
{
    QMap<QString, QString> map;
    if (value.isUndefined())
        return map;
    if (!value.isObject()) {
        checker.typeError(path, QStringLiteral("a map"), value);
        return map;
    }
    const QJsonObject object = value.toObject();
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        if (it.value().isString())
            map.insert(it.key(), it.value().toString());
        else
            checker.typeError(FieldPath::child(path, it.key()), QStringLiteral("a string"),
                              it.value());
    }
    return map;
}

void checkMetadata(Checker &checker, const Kind *kind, const QJsonValue &value, ObjectMeta &meta)
{
    const QString path = QStringLiteral("metadata");
    QJsonObject object;
    if (value.isObject()) {
        object = value.toObject();
    } else if (!value.isUndefined()) {
        checker.typeError(path, QStringLiteral("an object"), value);
        return;
    }

    const QJsonValue name = object.value(QStringLiteral("name"));
    if (name.isString() || name.isUndefined()) {
        meta.name = name.toString();
        checkName(checker, kind, meta.name);
    } else {
        checker.typeError(QStringLiteral("metadata.name"), QStringLiteral("a string"), name);
    }
    meta.labels = stringMap(checker, QStringLiteral("metadata.labels"),
                            object.value(QStringLiteral("labels")));
    meta.annotations = stringMap(checker, QStringLiteral("metadata.annotations"),
                                 object.value(QStringLiteral("annotations")));
    checkAnnotations(checker, meta.annotations);
    checker.unknownFields(path, object, metadataFields());
}

QJsonObject checkSpec(Checker &checker, const Kind *kind, const QJsonValue &value)
{
    const QString path = QStringLiteral("spec");
    if (!value.isObject() && !value.isUndefined()) {
        checker.typeError(path, QStringLiteral("an object"), value);
        return {};
    }
    QJsonValue spec = value.isUndefined() ? QJsonValue(QJsonObject()) : value;
    if (kind)
        checker.checkValue(kind->spec, path, spec);
    return spec.toObject();
}

ResourceStatus checkStatus(Checker &checker, const QJsonValue &value)
{
    const QString path = QStringLiteral("status");
    ResourceStatus status;
    if (value.isUndefined())
        return status;
    if (!value.isObject()) {
        checker.typeError(path, QStringLiteral("an object"), value);
        return status;
    }
    const QJsonObject object = value.toObject();
    const QString conditionsPath = QStringLiteral("status.conditions");
    const QJsonValue conditions = object.value(QStringLiteral("conditions"));
    if (conditions.isArray()) {
        const QJsonArray list = conditions.toArray();
        for (qsizetype i = 0; i < list.size(); ++i) {
            const QString itemPath = FieldPath::index(conditionsPath, i);
            if (!list.at(i).isObject()) {
                checker.typeError(itemPath, QStringLiteral("an object"), list.at(i));
                continue;
            }
            QString error;
            const Condition c = Condition::fromJson(list.at(i).toObject(), &error);
            if (error.isEmpty()) {
                status.conditions.append(c);
                continue;
            }
            // Condition::fromJson says "field: message".
            const qsizetype colon = error.indexOf(QLatin1String(": "));
            if (colon > 0)
                checker.add(FieldPath::child(itemPath, error.left(colon)), error.mid(colon + 2));
            else
                checker.add(itemPath, error);
        }
    } else if (!conditions.isUndefined()) {
        checker.typeError(conditionsPath, QStringLiteral("a list"), conditions);
    }
    const QJsonValue observed = object.value(QStringLiteral("observed"));
    if (observed.isObject())
        status.observed = observed.toObject();
    else if (!observed.isUndefined())
        checker.typeError(QStringLiteral("status.observed"), QStringLiteral("an object"), observed);
    checker.unknownFields(path, object, {QStringLiteral("conditions"), QStringLiteral("observed")});
    return status;
}

} // namespace

SchemaValidator::SchemaValidator(const KindRegistry &registry)
    : m_registry(registry)
{}

SchemaValidator::Result SchemaValidator::validate(const QJsonObject &document,
                                                  bool keepStatus) const
{
    Checker checker;
    Result result;
    Resource &r = result.resource;
    const QJsonValue apiVersion = document.value(QStringLiteral("apiVersion"));
    const QJsonValue kindName = document.value(QStringLiteral("kind"));
    const Kind *kind = checkHeader(checker, m_registry, apiVersion, kindName);
    r.apiVersion = apiVersion.toString();
    r.kind = kindName.toString();
    checkMetadata(checker, kind, document.value(QStringLiteral("metadata")), r.metadata);
    r.spec = checkSpec(checker, kind, document.value(QStringLiteral("spec")));
    if (keepStatus)
        r.status = checkStatus(checker, document.value(QStringLiteral("status")));
    checker.unknownFields({}, document, topLevelFields());
    result.errors = checker.errors;
    return result;
}

QList<ValidationError> SchemaValidator::validate(Resource &resource) const
{
    Checker checker;
    const Kind *kind = checkHeader(checker, m_registry, QJsonValue(resource.apiVersion),
                                   QJsonValue(resource.kind));
    checkName(checker, kind, resource.metadata.name);
    checkAnnotations(checker, resource.metadata.annotations);
    resource.spec = checkSpec(checker, kind, resource.spec);
    return checker.errors;
}

} // namespace converge

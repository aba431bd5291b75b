// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "manifestwriter.h"

#include "fieldschema.h"
#include "kindregistry.h"
#include "yamlparser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QSet>

#include <yaml-cpp/yaml.h>

#include <cmath>

namespace converge {

namespace {

using F = FieldSchema;

// The order of everything around the spec, as a schema, so that one walk orders it all.
FieldSchema documentShape(const Kind *kind)
{
    const F string = F::string(QStringLiteral("value"));
    const F metadata = F::object(
        QStringLiteral("metadata"),
        {F::string(QStringLiteral("name")), F::string(QStringLiteral("namespace")),
         F::map(QStringLiteral("labels"), string), F::map(QStringLiteral("annotations"), string),
         F::string(QStringLiteral("uid")), F::integer(QStringLiteral("generation")),
         F::string(QStringLiteral("resourceVersion")),
         F::string(QStringLiteral("creationTimestamp")),
         F::string(QStringLiteral("deletionTimestamp")),
         F::list(QStringLiteral("finalizers"), string)});
    const F condition = F::object(
        QStringLiteral("condition"),
        {F::string(QStringLiteral("type")), F::string(QStringLiteral("status")),
         F::string(QStringLiteral("severity")), F::string(QStringLiteral("reason")),
         F::string(QStringLiteral("message")), F::integer(QStringLiteral("observedGeneration")),
         F::string(QStringLiteral("lastTransitionTime"))});
    const F status =
        F::object(QStringLiteral("status"), {F::list(QStringLiteral("conditions"), condition)});
    // An unknown kind's spec has no fields: its keys come sorted.
    const F spec = kind ? kind->spec : F::object(QStringLiteral("spec"), {});
    return F::object({}, {F::string(QStringLiteral("apiVersion")),
                          F::string(QStringLiteral("kind")), metadata, spec, status});
}

// An Object's fields in schema order, then any other keys sorted; a map's keys sorted.
QStringList orderedKeys(const QJsonObject &object, const FieldSchema *schema)
{
    if (!schema || schema->type != F::Type::Object || schema->fields.isEmpty())
        return object.keys(); // QJsonObject keeps its keys sorted
    QStringList keys;
    QSet<QString> taken;
    for (const FieldSchema &field : schema->fields) {
        if (object.contains(field.name)) {
            keys.append(field.name);
            taken.insert(field.name);
        }
    }
    for (const QString &key : object.keys()) {
        if (!taken.contains(key))
            keys.append(key);
    }
    return keys;
}

const FieldSchema *childSchema(const FieldSchema *schema, const QString &key)
{
    if (!schema)
        return nullptr;
    switch (schema->type) {
    case F::Type::Object:
        return schema->field(key);
    case F::Type::Map:
    case F::Type::List:
        return schema->items.isEmpty() ? nullptr : &schema->items.first();
    default:
        return nullptr;
    }
}

QJsonObject documentJson(const Resource &resource, const ManifestWriter::Options &options)
{
    QJsonObject json = resource.toJson(options.withStatus);
    if (!options.full) {
        QJsonObject meta = json.value(QStringLiteral("metadata")).toObject();
        for (const char *key : {"uid", "generation", "resourceVersion", "creationTimestamp",
                                "deletionTimestamp", "finalizers"})
            meta.remove(QLatin1String(key));
        json.insert(QStringLiteral("metadata"), meta);
    }
    return json;
}

// A number as the reader reads it back: an integer when it is one, else the shortest form.
std::string numberText(double d)
{
    if (std::trunc(d) == d && std::abs(d) < 9.2e18)
        return std::to_string(qint64(d));
    return QString::number(d, 'g', QLocale::FloatingPointShortest).toStdString();
}

bool isUnprintable(char32_t c)
{
    return (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7F && c <= 0x9F) || c == 0xFEFF ||
           c == 0x2028 || c == 0x2029;
}

// Whether yaml-cpp's literal block (`|`, clip chomping, no indentation indicator) holds `s`
// exactly: one final line break, no invisible trailing blanks, a first line it can indent.
bool fitsLiteral(const QString &s)
{
    if (!s.contains(QLatin1Char('\n')) || !s.endsWith(QLatin1Char('\n')) ||
        s.endsWith(QLatin1String("\n\n")))
        return false;
    for (char32_t c : s.toUcs4()) {
        if (isUnprintable(c) || c == '\r')
            return false;
    }
    const QStringList lines = s.chopped(1).split(QLatin1Char('\n'));
    bool seenText = false;
    for (const QString &line : lines) {
        if (line.isEmpty())
            continue;
        if (line.back().isSpace())
            return false;
        if (!seenText && line.front().isSpace())
            return false;
        seenText = true;
    }
    return seenText; // "\n" alone would read back as ""
}

// Whether a plain scalar would read back as something else, here or in other YAML readers
// (YAML 1.1's yes/no/on/off, octal, sexagesimal, .inf).
bool mustQuote(const QString &s)
{
    if (s.isEmpty() || !YamlParser::plainScalar(s).isString())
        return true;
    if (s.front().isSpace() || s.back().isSpace())
        return true;
    static const QSet<QString> words{
        QStringLiteral("y"),    QStringLiteral("n"),     QStringLiteral("yes"),
        QStringLiteral("no"),   QStringLiteral("on"),    QStringLiteral("off"),
        QStringLiteral("true"), QStringLiteral("false"), QStringLiteral("null"),
        QStringLiteral(".inf"), QStringLiteral("-.inf"), QStringLiteral("+.inf"),
        QStringLiteral(".nan"), QStringLiteral("~"),     QStringLiteral("<<")};
    if (words.contains(s.toLower()))
        return true;
    const QChar first = s.front();
    if (first.isDigit())
        return true;
    if (s.size() > 1 &&
        (first == QLatin1Char('-') || first == QLatin1Char('+') || first == QLatin1Char('.'))) {
        const QChar second = s.at(1);
        if (second.isDigit() || second == QLatin1Char('.'))
            return true;
    }
    for (char32_t c : s.toUcs4()) {
        if (isUnprintable(c) || c == '\n' || c == '\r')
            return true;
    }
    return false;
}

void emitString(YAML::Emitter &out, const QString &s, bool allowLiteral)
{
    if (allowLiteral && fitsLiteral(s))
        out << YAML::Literal;
    else if (mustQuote(s))
        out << YAML::DoubleQuoted;
    out << s.toStdString();
}

void emitValue(YAML::Emitter &out, const QJsonValue &value, const FieldSchema *schema)
{
    switch (value.type()) {
    case QJsonValue::Object: {
        const QJsonObject object = value.toObject();
        out << YAML::BeginMap;
        for (const QString &key : orderedKeys(object, schema)) {
            out << YAML::Key;
            emitString(out, key, false);
            out << YAML::Value;
            emitValue(out, object.value(key), childSchema(schema, key));
        }
        out << YAML::EndMap;
        break;
    }
    case QJsonValue::Array: {
        const FieldSchema *item = childSchema(schema, {});
        out << YAML::BeginSeq;
        for (const QJsonValue &v : value.toArray())
            emitValue(out, v, item);
        out << YAML::EndSeq;
        break;
    }
    case QJsonValue::String:
        emitString(out, value.toString(), true);
        break;
    case QJsonValue::Bool:
        out << value.toBool();
        break;
    case QJsonValue::Double:
        out << numberText(value.toDouble());
        break;
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        out << YAML::Null;
        break;
    }
}

QByteArray jsonScalar(const QJsonValue &value)
{
    // QJsonDocument escapes strings and formats numbers; only arrays and objects are documents.
    QByteArray text = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    // Readers (QJsonDocument among them) drop a U+FEFF that starts a string; escaped, it stays.
    text.replace("\xEF\xBB\xBF", "\\ufeff");
    return text.mid(1, text.size() - 2);
}

void writeJson(QByteArray &out, const QJsonValue &value, const FieldSchema *schema, int depth)
{
    const QByteArray indent(4 * (depth + 1), ' ');
    const QByteArray closing(4 * depth, ' ');
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        const QStringList keys = orderedKeys(object, schema);
        if (keys.isEmpty()) {
            out += "{}";
            return;
        }
        out += "{\n";
        for (qsizetype i = 0; i < keys.size(); ++i) {
            out += indent + jsonScalar(keys.at(i)) + ": ";
            writeJson(out, object.value(keys.at(i)), childSchema(schema, keys.at(i)), depth + 1);
            out += i + 1 < keys.size() ? ",\n" : "\n";
        }
        out += closing + '}';
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        if (array.isEmpty()) {
            out += "[]";
            return;
        }
        const FieldSchema *item = childSchema(schema, {});
        out += "[\n";
        for (qsizetype i = 0; i < array.size(); ++i) {
            out += indent;
            writeJson(out, array.at(i), item, depth + 1);
            out += i + 1 < array.size() ? ",\n" : "\n";
        }
        out += closing + ']';
    } else if (value.isDouble()) {
        out += QByteArray::fromStdString(numberText(value.toDouble()));
    } else {
        out += jsonScalar(value);
    }
}

// Document shapes by kind name, built once per call: a kind's schema is costly to copy.
class Shapes final
{
public:
    explicit Shapes(const KindRegistry &registry)
        : m_registry(registry)
    {}

    const FieldSchema &of(const QString &kind)
    {
        auto it = m_shapes.find(kind);
        if (it == m_shapes.end())
            it = m_shapes.insert(kind, documentShape(m_registry.find(kind)));
        return it.value();
    }

private:
    const KindRegistry &m_registry;
    QMap<QString, FieldSchema> m_shapes; // a QMap: references stay valid as it grows
};

} // namespace

ManifestWriter::ManifestWriter(const KindRegistry &registry)
    : m_registry(registry)
{}

ManifestWriter::ManifestWriter(const KindRegistry &registry, const Options &options)
    : m_registry(registry)
    , m_options(options)
{}

QByteArray ManifestWriter::toYaml(const QList<Resource> &resources) const
{
    QByteArray text;
    Shapes shapes(m_registry);
    for (const Resource &resource : resources) {
        const FieldSchema &shape = shapes.of(resource.kind);
        YAML::Emitter out;
        out.SetIndent(2);
        out.SetOutputCharset(YAML::EmitNonAscii);
        emitValue(out, documentJson(resource, m_options), &shape);
        if (!text.isEmpty())
            text += "---\n";
        text += QByteArray(out.c_str(), qsizetype(out.size())) + '\n';
    }
    return text;
}

QByteArray ManifestWriter::documentsToYaml(const QList<QJsonObject> &documents)
{
    QByteArray text;
    const FieldSchema shape = documentShape(nullptr);
    for (const QJsonObject &document : documents) {
        YAML::Emitter out;
        out.SetIndent(2);
        out.SetOutputCharset(YAML::EmitNonAscii);
        emitValue(out, document, &shape);
        if (!text.isEmpty())
            text += "---\n";
        text += QByteArray(out.c_str(), qsizetype(out.size())) + '\n';
    }
    return text;
}

QByteArray ManifestWriter::documentsToJson(const QList<QJsonObject> &documents)
{
    QByteArray text;
    const FieldSchema shape = documentShape(nullptr);
    if (documents.size() == 1) {
        writeJson(text, documents.first(), &shape, 0);
        return text + '\n';
    }
    text += "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"List\",\n    \"items\": [";
    for (qsizetype i = 0; i < documents.size(); ++i) {
        text += i == 0 ? "\n        " : ",\n        ";
        writeJson(text, documents.at(i), &shape, 2);
    }
    text += documents.isEmpty() ? "]\n}\n" : "\n    ]\n}\n";
    return text;
}

QByteArray ManifestWriter::toJson(const QList<Resource> &resources) const
{
    QByteArray text;
    Shapes shapes(m_registry);
    if (resources.size() == 1) {
        const FieldSchema &shape = shapes.of(resources.first().kind);
        writeJson(text, documentJson(resources.first(), m_options), &shape, 0);
        return text + '\n';
    }
    text += "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"List\",\n    \"items\": [";
    for (qsizetype i = 0; i < resources.size(); ++i) {
        const FieldSchema &shape = shapes.of(resources.at(i).kind);
        text += i == 0 ? "\n        " : ",\n        ";
        writeJson(text, documentJson(resources.at(i), m_options), &shape, 2);
    }
    text += resources.isEmpty() ? "]\n}\n" : "\n    ]\n}\n";
    return text;
}

} // namespace converge

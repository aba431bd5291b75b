// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "kindtemplate.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QStringList>

#include <cmath>

namespace converge {

namespace {

constexpr int summaryMaxLength = 160;

// Plain only when every YAML reader takes it for this very string: no indicators, no words that
// YAML 1.1 reads as booleans or null, nothing that looks like a number.
bool isPlainSafe(const QString &text)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z_][A-Za-z0-9_./-]*$"));
    static const QStringList words = {
        QStringLiteral("true"), QStringLiteral("false"), QStringLiteral("null"),
        QStringLiteral("yes"),  QStringLiteral("no"),    QStringLiteral("on"),
        QStringLiteral("off"),  QStringLiteral("y"),     QStringLiteral("n")};
    return plain.match(text).hasMatch() && !words.contains(text.toLower());
}

QString quoted(const QString &text)
{
    QString out = QStringLiteral("\"");
    for (const QChar c : text) {
        if (c == QLatin1Char('"') || c == QLatin1Char('\\'))
            out += QLatin1Char('\\') + c;
        else if (c == QLatin1Char('\n'))
            out += QStringLiteral("\\n");
        else if (c == QLatin1Char('\t'))
            out += QStringLiteral("\\t");
        else if (c.unicode() < 0x20)
            out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return out + QLatin1Char('"');
}

QString flow(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: {
        const double d = value.toDouble();
        if (std::floor(d) == d && std::abs(d) < 9007199254740992.0)
            return QString::number(qint64(d));
        return QString::number(d, 'g', 17);
    }
    case QJsonValue::String: {
        const QString text = value.toString();
        return isPlainSafe(text) ? text : quoted(text);
    }
    case QJsonValue::Array: {
        QStringList items;
        for (const QJsonValue &item : value.toArray())
            items << flow(item);
        return QLatin1Char('[') + items.join(QStringLiteral(", ")) + QLatin1Char(']');
    }
    case QJsonValue::Object: {
        const QJsonObject object = value.toObject();
        QStringList items;
        for (auto it = object.begin(); it != object.end(); ++it)
            items << flow(it.key()) + QStringLiteral(": ") + flow(it.value());
        return QLatin1Char('{') + items.join(QStringLiteral(", ")) + QLatin1Char('}');
    }
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("null");
}

QString firstSentence(const QString &text)
{
    QString sentence = text.simplified();
    const qsizetype end = sentence.indexOf(QStringLiteral(". "));
    if (end >= 0)
        sentence.truncate(end + 1);
    if (sentence.size() > summaryMaxLength)
        sentence = sentence.left(summaryMaxLength - 1) + QChar(0x2026);
    return sentence;
}

// What a required field holds until the user says otherwise: the first enum value, the lower
// bound, or an empty value of its type.
QJsonValue placeholder(const FieldSchema &field)
{
    switch (field.type) {
    case FieldSchema::Type::String:
        return QString();
    case FieldSchema::Type::Int:
        return double(field.minimum.value_or(0));
    case FieldSchema::Type::Bool:
        return false;
    case FieldSchema::Type::Enum:
        return field.enumValues.isEmpty() ? QString() : field.enumValues.constFirst();
    case FieldSchema::Type::Map:
    case FieldSchema::Type::Object:
        return QJsonObject();
    case FieldSchema::Type::List:
        return QJsonArray();
    }
    return {};
}

void emitFields(QStringList &lines, const FieldSchema &object, const QJsonObject &values,
                int indent)
{
    const QString pad(indent, QLatin1Char(' '));
    for (const FieldSchema &field : object.fields) {
        QString comment = pad + QStringLiteral("# ") + KindTemplate::fieldSummary(field);
        if (const QString about = firstSentence(field.description); !about.isEmpty())
            comment += QStringLiteral(": ") + about;
        lines << comment;

        QJsonValue value = values.value(field.name);
        if (value.isUndefined() && field.hasDefault())
            value = field.defaultValue;
        if (value.isUndefined() && field.required)
            value = placeholder(field);
        if (value.isUndefined()) {
            lines << pad + QStringLiteral("# ") + field.name + QStringLiteral(": ") +
                         flow(placeholder(field));
            continue;
        }
        if (field.type == FieldSchema::Type::Object && value.isObject() &&
            !field.fields.isEmpty()) {
            QStringList children;
            emitFields(children, field, value.toObject(), indent + 2);
            const bool written =
                std::any_of(children.cbegin(), children.cend(), [](const QString &line) {
                    return !line.trimmed().startsWith(QLatin1Char('#'));
                });
            if (written) {
                lines << pad + field.name + QLatin1Char(':');
                lines += children;
                continue;
            }
        }
        if (field.type == FieldSchema::Type::List && value.isArray() &&
            !value.toArray().isEmpty()) {
            lines << pad + field.name + QLatin1Char(':');
            for (const QJsonValue &item : value.toArray())
                lines << pad + QStringLiteral("- ") + flow(item);
            continue;
        }
        lines << pad + field.name + QStringLiteral(": ") + flow(value);
    }
}

} // namespace

QString KindTemplate::fieldSummary(const FieldSchema &field)
{
    QStringList parts;
    switch (field.type) {
    case FieldSchema::Type::Enum:
        parts << QStringLiteral("enum ") + field.enumValues.join(QStringLiteral(" | "));
        break;
    case FieldSchema::Type::List:
    case FieldSchema::Type::Map:
        parts << FieldSchema::typeName(field.type) +
                     (field.items.isEmpty()
                          ? QString()
                          : QStringLiteral(" of ") +
                                FieldSchema::typeName(field.items.constFirst().type));
        break;
    default:
        parts << FieldSchema::typeName(field.type);
        break;
    }
    if (field.required)
        parts << QStringLiteral("required");
    if (field.immutable)
        parts << QStringLiteral("immutable");
    if (field.secret)
        parts << QStringLiteral("secret");
    if (field.hasDefault())
        parts << QStringLiteral("default ") + flow(field.defaultValue);
    return parts.join(QStringLiteral(", "));
}

QString KindTemplate::suggestedName(const Kind &kind, int n)
{
    return kind.name.toLower() + QString::number(n);
}

QJsonObject KindTemplate::starterSpec(const Kind &kind)
{
    // The local emulators' accounts, as in resources/samples/local-emulators: they validate
    // without a secret. The connect dialog is the way to real accounts.
    if (kind.group == QLatin1String("azure.converge.dev")) {
        if (kind.name == QLatin1String("StorageAccount")) {
            return {
                {QStringLiteral("accountName"), QStringLiteral("devstoreaccount1")},
                {QStringLiteral("endpoints"),
                 QJsonObject{{QStringLiteral("blob"),
                              QStringLiteral("http://127.0.0.1:10000/devstoreaccount1")},
                             {QStringLiteral("queue"),
                              QStringLiteral("http://127.0.0.1:10001/devstoreaccount1")},
                             {QStringLiteral("table"),
                              QStringLiteral("http://127.0.0.1:10002/devstoreaccount1")}}},
                {QStringLiteral("credential"), QJsonObject{{QStringLiteral("emulator"), true}}}};
        }
        if (kind.name == QLatin1String("Blob"))
            return {{QStringLiteral("content"), QStringLiteral("Hello from Converge\n")},
                    {QStringLiteral("contentType"), QStringLiteral("text/plain")}};
    }
    if (kind.group == QLatin1String("aws.converge.dev")) {
        if (kind.name == QLatin1String("AwsAccount"))
            return {
                {QStringLiteral("region"), QStringLiteral("us-east-1")},
                {QStringLiteral("endpoint"), QStringLiteral("http://127.0.0.1:8000")},
                {QStringLiteral("credential"), QJsonObject{{QStringLiteral("emulator"), true}}}};
        if (kind.name == QLatin1String("S3Object"))
            return {{QStringLiteral("key"), QStringLiteral("docs/hello.txt")},
                    {QStringLiteral("content"), QStringLiteral("Hello from Converge\n")},
                    {QStringLiteral("contentType"), QStringLiteral("text/plain")}};
        if (kind.name == QLatin1String("DynamoDBTable"))
            return {
                {QStringLiteral("attributeDefinitions"),
                 QJsonArray{QJsonObject{{QStringLiteral("attributeName"), QStringLiteral("id")},
                                        {QStringLiteral("attributeType"), QStringLiteral("S")}}}},
                {QStringLiteral("keySchema"),
                 QJsonArray{QJsonObject{{QStringLiteral("attributeName"), QStringLiteral("id")},
                                        {QStringLiteral("keyType"), QStringLiteral("HASH")}}}}};
        if (kind.name == QLatin1String("SSMParameter"))
            return {{QStringLiteral("type"), QStringLiteral("String")},
                    {QStringLiteral("value"), QStringLiteral("https://example.com")}};
        // IAM's documents: a trust policy a function may assume, a policy that allows little.
        if (kind.name == QLatin1String("IAMRole"))
            return {
                {QStringLiteral("assumeRolePolicyDocument"),
                 QStringLiteral("{\"Version\": \"2012-10-17\", \"Statement\": [{\"Effect\": "
                                "\"Allow\", \"Principal\": {\"Service\": "
                                "\"lambda.amazonaws.com\"}, \"Action\": \"sts:AssumeRole\"}]}")}};
        if (kind.name == QLatin1String("LambdaFunction"))
            return {{QStringLiteral("roleRef"),
                     QJsonObject{{QStringLiteral("name"), QStringLiteral("function-role")}}},
                    {QStringLiteral("runtime"), QStringLiteral("python3.12")},
                    {QStringLiteral("handler"), QStringLiteral("index.handler")},
                    {QStringLiteral("code"),
                     QJsonObject{{QStringLiteral("file"), QStringLiteral("function/")}}}};
        if (kind.name == QLatin1String("IAMPolicy"))
            return {{QStringLiteral("policyDocument"),
                     QStringLiteral("{\"Version\": \"2012-10-17\", \"Statement\": [{\"Effect\": "
                                    "\"Allow\", \"Action\": \"sqs:SendMessage\", \"Resource\": "
                                    "\"*\"}]}")}};
    }
    if (kind.group == QLatin1String("gcp.converge.dev")) {
        if (kind.name == QLatin1String("GcpProject"))
            return {
                {QStringLiteral("projectId"), QStringLiteral("converge-local")},
                {QStringLiteral("endpoints"),
                 QJsonObject{{QStringLiteral("pubsub"), QStringLiteral("http://127.0.0.1:8085")},
                             {QStringLiteral("spanner"), QStringLiteral("http://127.0.0.1:9020")}}},
                {QStringLiteral("credential"), QJsonObject{{QStringLiteral("emulator"), true}}}};
        // The emulator's one configuration; a real project's are regional-…, nam3, …
        if (kind.name == QLatin1String("SpannerInstance"))
            return {{QStringLiteral("config"), QStringLiteral("emulator-config")},
                    {QStringLiteral("displayName"), QStringLiteral("Spanner instance")},
                    {QStringLiteral("numNodes"), 1}};
        if (kind.name == QLatin1String("SpannerDatabase"))
            return {{QStringLiteral("instanceRef"),
                     QJsonObject{{QStringLiteral("name"), QStringLiteral("spannerinstance1")}}},
                    {QStringLiteral("ddl"),
                     QJsonArray{QStringLiteral("CREATE TABLE Singers (SingerId INT64 NOT NULL, "
                                               "Name STRING(MAX)) PRIMARY KEY (SingerId)")}}};
    }
    return {};
}

QString KindTemplate::yaml(const Kind &kind, const QString &name, const QString &ownerName)
{
    QStringList lines;
    QString heading = QStringLiteral("# ") + kind.name + QStringLiteral(" (") + kind.apiVersion() +
                      QLatin1Char(')');
    if (const QString about = firstSentence(kind.description); !about.isEmpty())
        heading += QStringLiteral(": ") + about;
    lines << heading;
    lines << QStringLiteral("apiVersion: ") + flow(kind.apiVersion());
    lines << QStringLiteral("kind: ") + flow(kind.name);
    lines << QStringLiteral("metadata:");
    lines << QStringLiteral("  name: ") + flow(name.isEmpty() ? suggestedName(kind) : name);

    QJsonObject values = starterSpec(kind);
    if (!kind.ownerKind.isEmpty() && kind.spec.field(QStringLiteral("owner"))) {
        values.insert(QStringLiteral("owner"),
                      QJsonObject{{QStringLiteral("name"),
                                   ownerName.isEmpty() ? QStringLiteral("OWNER") : ownerName}});
    }
    // A required reference names a resource of the workspace, as the owner does.
    for (const KindReference &reference : kind.references) {
        if (reference.required && !values.contains(reference.idField))
            values.insert(reference.field,
                          QJsonObject{{QStringLiteral("name"), reference.kind.toLower()}});
    }
    QStringList spec;
    emitFields(spec, kind.spec, values, 2);
    const bool written = std::any_of(spec.cbegin(), spec.cend(), [](const QString &line) {
        return !line.trimmed().startsWith(QLatin1Char('#'));
    });
    lines << (written ? QStringLiteral("spec:") : QStringLiteral("spec: {}"));
    lines += spec;
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace converge

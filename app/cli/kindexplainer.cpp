// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "kindexplainer.h"

#include "suggestions.h"
#include "textwrap.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace converge {

namespace {

const QString indent = QStringLiteral("    ");

// Paragraphs of `text`, each wrapped under `indent`, a blank line between them.
QString paragraphs(const QString &text)
{
    QStringList out;
    for (const QString &paragraph : text.split(QStringLiteral("\n\n"))) {
        const QString wrapped = TextWrap::indented(paragraph, indent, KindExplainer::width);
        if (!wrapped.isEmpty())
            out << wrapped;
    }
    return out.isEmpty() ? indent + QStringLiteral("<empty>\n") : out.join(QLatin1Char('\n'));
}

QString range(qint64 low, qint64 high)
{
    return QString::number(low) + QStringLiteral("..") + QString::number(high);
}

QString jsonText(const QJsonValue &value)
{
    if (value.isString())
        return value.toString().isEmpty() ? QStringLiteral("\"\"") : value.toString();
    // A scalar is wrapped in an array for QJsonDocument, and unwrapped again.
    const QByteArray json = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(json.mid(1, json.size() - 2));
}

// The checks of `field` itself; `of` names what they apply to ("key ", "value ", "item ").
QStringList ownChecks(const FieldSchema &field, const QString &of)
{
    QStringList out;
    if (!field.enumValues.isEmpty())
        out << of + QStringLiteral("enum: ") + field.enumValues.join(QStringLiteral(", "));
    if (field.minLength >= 0 && field.maxLength >= 0)
        out << of + QStringLiteral("length: ") + range(field.minLength, field.maxLength);
    else if (field.minLength >= 0)
        out << of + QStringLiteral("length: at least %1").arg(field.minLength);
    else if (field.maxLength >= 0)
        out << of + QStringLiteral("length: at most %1").arg(field.maxLength);
    if (!field.pattern.isEmpty())
        out << of + QStringLiteral("pattern: ") +
                   (field.patternHint.isEmpty() ? field.pattern : field.patternHint);
    if (field.minimum && field.maximum)
        out << of + QStringLiteral("range: ") + range(*field.minimum, *field.maximum);
    else if (field.minimum)
        out << of + QStringLiteral("minimum: %1").arg(*field.minimum);
    else if (field.maximum)
        out << of + QStringLiteral("maximum: %1").arg(*field.maximum);
    if (field.maxItems >= 0)
        out << QStringLiteral("at most %1 items").arg(field.maxItems);
    if (field.hasDefault())
        out << of + QStringLiteral("default: ") + jsonText(field.defaultValue);
    return out;
}

} // namespace

KindExplainer::KindExplainer(const Kind &kind)
    : m_kind(kind)
{}

QString KindExplainer::typeName(const FieldSchema &field)
{
    const QString item =
        field.items.isEmpty() ? QStringLiteral("string") : typeName(field.items.constFirst());
    switch (field.type) {
    case FieldSchema::Type::List:
        return QStringLiteral("[]") + item;
    case FieldSchema::Type::Map:
        return QStringLiteral("map[string]") + item;
    default:
        return field.timestamp ? QStringLiteral("timestamp") : FieldSchema::typeName(field.type);
    }
}

QString KindExplainer::markers(const FieldSchema &field)
{
    QString out;
    if (field.required)
        out += QStringLiteral(" -required-");
    if (field.immutable)
        out += QStringLiteral(" -immutable-");
    return out;
}

QStringList KindExplainer::constraints(const FieldSchema &field)
{
    // A map's own pattern and lengths are its keys'; its item schema checks the values.
    const bool isMap = field.type == FieldSchema::Type::Map;
    QStringList out = ownChecks(field, isMap ? QStringLiteral("key ") : QString());
    if (!field.items.isEmpty() && field.items.constFirst().type != FieldSchema::Type::Object)
        out << ownChecks(field.items.constFirst(),
                         isMap ? QStringLiteral("value ") : QStringLiteral("item "));
    return out;
}

QString KindExplainer::summary(const QString &description, qsizetype columns)
{
    const QString text = description.simplified();
    qsizetype end = text.size();
    for (qsizetype i = 0; i + 1 < text.size(); ++i) {
        if (text.at(i) != QLatin1Char('.') || text.at(i + 1) != QLatin1Char(' '))
            continue;
        // "e.g. x" and "i.e. x" go on; a sentence ends before a capital, a digit or a quote.
        const QString before = text.mid(std::max<qsizetype>(0, i - 3), 3);
        if (before == QLatin1String("e.g") || before == QLatin1String("i.e"))
            continue;
        const QChar next = i + 2 < text.size() ? text.at(i + 2) : QChar();
        if (next.isUpper() || next.isDigit() || next == QLatin1Char('`') ||
            next == QLatin1Char('"') || next == QLatin1Char('(')) {
            end = i + 1;
            break;
        }
    }
    QString sentence = text.left(end);
    if (sentence.size() <= columns)
        return sentence;
    qsizetype cut = sentence.lastIndexOf(QLatin1Char(' '), columns - 1);
    if (cut <= 0)
        cut = columns - 1;
    return sentence.left(cut) + QStringLiteral("…");
}

const FieldSchema *KindExplainer::container(const FieldSchema &field)
{
    switch (field.type) {
    case FieldSchema::Type::Object:
        return &field;
    case FieldSchema::Type::List:
    case FieldSchema::Type::Map:
        return field.items.isEmpty() ? nullptr : container(field.items.constFirst());
    default:
        return nullptr;
    }
}

const FieldSchema *KindExplainer::find(const QStringList &path, QString *error,
                                       QString *spelled) const
{
    QStringList names = path;
    // `kind.spec.field`, as kubectl users write it, names the same field as `kind.field`.
    if (!names.isEmpty() && names.constFirst() == QLatin1String("spec") &&
        !m_kind.spec.field(QStringLiteral("spec")))
        names.removeFirst();
    const FieldSchema *current = &m_kind.spec;
    QString where = m_kind.name;
    for (const QString &name : std::as_const(names)) {
        const FieldSchema *parent = container(*current);
        if (!parent) {
            if (error)
                *error = QStringLiteral("field \"%1\" does not exist in %2 (%3 has no fields)")
                             .arg(name, where, typeName(*current));
            return nullptr;
        }
        const FieldSchema *next = parent->field(name);
        QStringList known;
        for (const FieldSchema &f : parent->fields) {
            // A field's name in another case is that field: manifests spell it one way only.
            if (!next && f.name.compare(name, Qt::CaseInsensitive) == 0)
                next = &f;
            known << f.name;
        }
        if (!next) {
            if (error)
                *error = QStringLiteral("field \"%1\" does not exist in %2%3")
                             .arg(name, where, Suggestions::hint(name, known));
            return nullptr;
        }
        current = next;
        where += QLatin1Char('.') + next->name;
    }
    if (spelled)
        *spelled = where.mid(m_kind.name.size() + 1);
    return current;
}

QString KindExplainer::header() const
{
    return QStringLiteral("KIND:     %1\nVERSION:  %2\n").arg(m_kind.name, m_kind.apiVersion());
}

std::optional<QString> KindExplainer::explain(const QStringList &path, bool recursive,
                                              QString *error) const
{
    QString spelled;
    const FieldSchema *field = find(path, error, &spelled);
    if (!field)
        return std::nullopt;
    QString text = header();
    if (field == &m_kind.spec) {
        text += QStringLiteral("\nDESCRIPTION:\n") + paragraphs(m_kind.description);
        return text + fieldsSection(m_kind.spec, recursive);
    }
    text += QStringLiteral("\nFIELD: %1 <%2>%3\n").arg(spelled, typeName(*field), markers(*field));
    text += QStringLiteral("\nDESCRIPTION:\n") + paragraphs(field->description);
    const QStringList checks = constraints(*field);
    if (!checks.isEmpty()) {
        text += QStringLiteral("\nCONSTRAINTS:\n");
        for (const QString &check : checks)
            text += TextWrap::indented(check, indent, width);
    }
    if (const FieldSchema *parent = container(*field))
        text += fieldsSection(*parent, recursive);
    return text;
}

QString KindExplainer::fieldsSection(const FieldSchema &parent, bool recursive)
{
    if (parent.fields.isEmpty())
        return {};
    QString text = QStringLiteral("\nFIELDS:\n");
    if (recursive) {
        appendTree(&text, parent, 1);
        return text;
    }
    QStringList entries;
    for (const FieldSchema &f : parent.fields) {
        QString entry = QStringLiteral("  %1\t<%2>%3\n").arg(f.name, typeName(f), markers(f));
        const QString first = summary(f.description, width - indent.size());
        if (!first.isEmpty())
            entry += indent + first + QLatin1Char('\n');
        entry += TextWrap::indented(constraints(f).join(QStringLiteral("; ")), indent, width);
        entries << entry;
    }
    return text + entries.join(QLatin1Char('\n'));
}

void KindExplainer::appendTree(QString *text, const FieldSchema &parent, int depth)
{
    const QString pad(2 * depth, QLatin1Char(' '));
    for (const FieldSchema &f : parent.fields) {
        *text += pad + f.name + QLatin1Char('\t') + QLatin1Char('<') + typeName(f) +
                 QLatin1Char('>') + markers(f) + QLatin1Char('\n');
        if (const FieldSchema *child = container(f))
            appendTree(text, *child, depth + 1);
    }
}

} // namespace converge

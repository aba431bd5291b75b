// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "spannerdatabasehook.h"

#include "apivalues.h"

namespace converge {

namespace {

const QString ddlField = QStringLiteral("ddl");

bool isWordChar(QChar c)
{
    return c.isLetterOrNumber() || c == QLatin1Char('_');
}

} // namespace

QString SpannerDatabaseHook::canonical(const QString &statement)
{
    QString out;
    QChar quote;
    bool space = false;
    for (const QChar c : statement) {
        if (!quote.isNull()) {
            out += c;
            if (c == quote)
                quote = QChar();
            continue;
        }
        if (c.isSpace()) {
            space = true;
            continue;
        }
        if (space && !out.isEmpty() && isWordChar(out.back()) && isWordChar(c))
            out += QLatin1Char(' ');
        space = false;
        if (c == QLatin1Char(')') && out.endsWith(QLatin1Char(',')))
            out.chop(1);
        if (c == QLatin1Char('\'') || c == QLatin1Char('"') || c == QLatin1Char('`'))
            quote = c;
        out += quote.isNull() ? c.toUpper() : c;
    }
    return out;
}

bool SpannerDatabaseHook::begins(const QJsonArray &wanted, const QJsonArray &applied)
{
    if (applied.size() > wanted.size())
        return false;
    for (qsizetype i = 0; i < applied.size(); ++i) {
        if (canonical(applied.at(i).toString()) != canonical(wanted.at(i).toString()))
            return false;
    }
    return true;
}

Outcome<QJsonArray> SpannerDatabaseHook::toAppend(const QString &database, const QJsonArray &wanted,
                                                  const QJsonArray &applied)
{
    if (!begins(wanted, applied)) {
        qsizetype at = 0;
        while (at < applied.size() && at < wanted.size() &&
               canonical(applied.at(at).toString()) == canonical(wanted.at(at).toString()))
            ++at;
        const QString why =
            at < wanted.size() ? QStringLiteral("applied statement %1 is \"%2\", the spec's \"%3\"")
                                     .arg(at + 1)
                                     .arg(applied.at(at).toString().simplified(),
                                          wanted.at(at).toString().simplified())
                               : QStringLiteral("%1 statements were applied, the spec has %2")
                                     .arg(applied.size())
                                     .arg(wanted.size());
        return BackendError::make(
            BackendError::Category::Invalid, QStringLiteral("DdlNotAppendOnly"),
            QStringLiteral("ddl of Spanner database %1 can only grow, and %2: restore the "
                           "statements applied at the start of ddl and add new ones after them, "
                           "or drop the database and create it again")
                .arg(database, why));
    }
    QJsonArray append;
    for (qsizetype i = applied.size(); i < wanted.size(); ++i)
        append.append(wanted.at(i));
    if (append.isEmpty())
        return BackendError::make(
            BackendError::Category::Invalid, QStringLiteral("DdlApplied"),
            QStringLiteral("Spanner database %1 has every statement of ddl applied").arg(database));
    return append;
}

Outcome<QJsonObject> SpannerDatabaseHook::completeInput(const DeclaredCall &call, QJsonObject input,
                                                        const QJsonObject &spec,
                                                        const Observation *latest,
                                                        QStringList *secrets)
{
    Q_UNUSED(secrets)
    if (call.operation == QLatin1String("projects.instances.databases.create")) {
        const QString name = spec.value(QStringLiteral("resourceID")).toString();
        const bool postgres =
            spec.value(QStringLiteral("databaseDialect")).toString() == QLatin1String("POSTGRESQL");
        input.insert(QStringLiteral("createStatement"),
                     postgres ? QStringLiteral("CREATE DATABASE \"%1\"").arg(name)
                              : QStringLiteral("CREATE DATABASE `%1`").arg(name));
        return input;
    }
    if (call.operation != QLatin1String("projects.instances.databases.updateDdl"))
        return input;
    auto append = toAppend(input.value(QStringLiteral("databasesId")).toString(),
                           input.value(QStringLiteral("statements")).toArray(),
                           latest ? latest->spec.value(ddlField).toArray() : QJsonArray());
    if (!append)
        return append.error();
    input.insert(QStringLiteral("statements"), append.value());
    return input;
}

std::optional<BackendError> SpannerDatabaseHook::observe(Observation &o,
                                                         const QJsonObject &resource,
                                                         const QJsonObject &desired,
                                                         const Target &target,
                                                         const QSet<QString> &sent)
{
    Q_UNUSED(resource)
    // What the database's schema is now (an empty one is answered as no statements at all).
    const QJsonArray schema = o.spec.value(ddlField).toArray();
    o.details.insert(QStringLiteral("schema"), schema);
    QJsonArray applied = schema;
    const QJsonObject before =
        target.resource.status.observed.value(QStringLiteral("spec")).toObject();
    if (sent.contains(ddlField) && desired.contains(ddlField))
        applied = desired.value(ddlField).toArray();
    else if (before.contains(ddlField))
        applied = before.value(ddlField).toArray();
    const QJsonArray wanted = desired.value(ddlField).toArray();
    if (desired.contains(ddlField) && applied.size() == wanted.size() && begins(wanted, applied))
        applied = wanted; // the same statements, as the spec spells them
    o.spec.insert(ddlField, applied);
    return std::nullopt;
}

} // namespace converge

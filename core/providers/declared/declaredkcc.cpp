// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "declaredkcc.h"

namespace converge {

namespace {

// Whether the dotted `path` names a field of `spec` (through objects, lists' items and maps'
// values).
bool kccFieldExists(const FieldSchema &spec, const QString &path)
{
    const FieldSchema *at = &spec;
    for (const QString &part : path.split(QLatin1Char('.'))) {
        while (at->type == FieldSchema::Type::List || at->type == FieldSchema::Type::Map)
            at = at->items.isEmpty() ? nullptr : &at->items.constFirst();
        if (!at)
            return false;
        at = at->field(part);
        if (!at)
            return false;
    }
    return true;
}

} // namespace

DeclaredKcc DeclaredKcc::read(const QJsonObject &o, const Kind &kind, const QString &path,
                              QList<QPair<QString, QString>> *problems)
{
    DeclaredKcc kcc;
    if (o.isEmpty())
        return kcc;
    const QStringList keys{QStringLiteral("apiVersion"), QStringLiteral("kind"),
                           QStringLiteral("labels"), QStringLiteral("externalRefs"),
                           QStringLiteral("omit")};
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!keys.contains(it.key()))
            problems->append({path + QLatin1Char('.') + it.key(),
                              QStringLiteral("is not one of %1").arg(keys.join(u", "))});
    }
    kcc.apiVersion = o.value(QStringLiteral("apiVersion")).toString();
    kcc.kind = o.value(QStringLiteral("kind")).toString();
    if (!kcc.apiVersion.contains(QLatin1Char('/')) || kcc.kind.isEmpty())
        problems->append({path, QStringLiteral("needs apiVersion (GROUP/VERSION) and kind")});
    const auto known = [&](const QString &field, const QString &at) {
        if (!kccFieldExists(kind.spec, field))
            problems->append({at, QStringLiteral("names %1, which is not a field").arg(field)});
    };
    kcc.labels = o.value(QStringLiteral("labels")).toString();
    if (!kcc.labels.isEmpty())
        known(kcc.labels, path + QStringLiteral(".labels"));
    const QJsonObject refs = o.value(QStringLiteral("externalRefs")).toObject();
    for (auto it = refs.begin(); it != refs.end(); ++it) {
        known(it.key(), path + QStringLiteral(".externalRefs"));
        // `field: REF`, or `field: {ref: REF, names: FORMAT}`.
        const QJsonObject o2 = it.value().toObject();
        const ExternalRef ref{it.value().isString() ? it.value().toString()
                                                    : o2.value(QStringLiteral("ref")).toString(),
                              o2.value(QStringLiteral("names")).toString()};
        if (ref.ref.isEmpty())
            problems->append({path + QStringLiteral(".externalRefs.") + it.key(),
                              QStringLiteral("needs the KCC reference it maps to")});
        kcc.externalRefs.insert(it.key(), ref);
    }
    for (const QJsonValue &field : o.value(QStringLiteral("omit")).toArray()) {
        known(field.toString(), path + QStringLiteral(".omit"));
        kcc.omit << field.toString();
    }
    return kcc;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "immutablefields.h"

#include "delta.h"
#include "fieldpath.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace converge {

namespace {

QString compact(const QJsonValue &value)
{
    if (value.isUndefined() || value.isNull())
        return QStringLiteral("(none)");
    // QJsonDocument writes arrays and objects only: the value is written as a one-item array.
    const QByteArray json = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(json.mid(1, json.size() - 2));
}

// An observation says nothing of an immutable field it does not hold (a list page that shows
// names only, an older workspace's observation): there, `was` takes the desired value.
void fillUnobserved(const FieldSchema &schema, const QJsonObject &want, QJsonObject &was)
{
    for (const FieldSchema &f : schema.fields) {
        if (!want.contains(f.name))
            continue;
        if (!was.contains(f.name)) {
            if (f.immutable)
                was.insert(f.name, want.value(f.name));
        } else if (f.type == FieldSchema::Type::Object && was.value(f.name).isObject()) {
            QJsonObject inner = was.value(f.name).toObject();
            fillUnobserved(f, want.value(f.name).toObject(), inner);
            was.insert(f.name, inner);
        }
    }
}

} // namespace

std::optional<QJsonObject> ImmutableFields::established(const Kind &kind, const Resource &stored)
{
    const QJsonValue observed = stored.status.observed.value(QStringLiteral("spec"));
    if (observed.isObject()) {
        // An observation names the backend resource it saw: no name is assumed for it.
        return observed.toObject();
    }
    if (!stored.metadata.annotations.contains(Annotations::resourceId()))
        return std::nullopt;
    QJsonObject spec = stored.spec;
    if (!kind.backendNameField.isEmpty() && !spec.contains(kind.backendNameField))
        spec.insert(kind.backendNameField, stored.metadata.name);
    return spec;
}

QList<ImmutableFields::Change> ImmutableFields::changed(const Kind &kind, const QString &name,
                                                        const QJsonObject &desired,
                                                        const QJsonObject &established)
{
    QJsonObject want = desired;
    QJsonObject was = established;
    if (const QString &field = kind.backendNameField; !field.isEmpty()) {
        if (!want.contains(field) || want.value(field).toString().isEmpty())
            want.insert(field, name);
    }
    fillUnobserved(kind.spec, want, was);
    QList<Change> changes;
    // Immutable fields are compared whether or not they are drift (an owner is the engine's
    // business, never drift, but a move to another owner would make a second resource all the
    // same): every field compared, of whose differences only the immutable ones are kept.
    const QStringList delta = Delta::between(kind.spec, want, was, Delta::Fields::Every);
    for (const QString &path : Delta::immutablePaths(kind.spec, delta))
        changes.append({path, FieldPath::valueAt(was, path), FieldPath::valueAt(want, path)});
    return changes;
}

QList<ImmutableFields::Change> ImmutableFields::changed(const Kind &kind, const Resource &desired,
                                                        const Resource &stored)
{
    const std::optional<QJsonObject> was = established(kind, stored);
    if (!was)
        return {};
    return changed(kind, desired.metadata.name, desired.spec, *was);
}

QString ImmutableFields::message(const ResourceKey &key, const QList<Change> &changes)
{
    QStringList parts;
    for (const Change &c : changes) {
        const QString values = compact(c.before) + QStringLiteral(" → ") + compact(c.after);
        parts << (changes.size() == 1 ? values : c.path + QStringLiteral(": ") + values);
    }
    return QStringLiteral("cannot change after creation (%1); nothing was changed. To rename or "
                          "re-create %2, delete it and apply the new spec (the backend resource "
                          "goes), or set converge.dev/reconcile-policy: detach-on-delete, delete "
                          "it and apply the new spec (the backend resource stays, unmanaged); or "
                          "restore the previous value")
        .arg(parts.join(QStringLiteral("; ")), key.toString());
}

QStringList ImmutableFields::paths(const QList<Change> &changes)
{
    QStringList result;
    for (const Change &c : changes)
        result.append(c.path);
    return result;
}

QString ImmutableFields::describe(const ResourceKey &key, const QList<Change> &changes)
{
    return paths(changes).join(QStringLiteral(", ")) + QStringLiteral(": ") + message(key, changes);
}

} // namespace converge

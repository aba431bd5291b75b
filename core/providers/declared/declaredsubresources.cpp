// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "declaredsubresources.h"

#include "apivalues.h"
#include "declaredmanager.h"

#include <QJsonArray>

#include <algorithm>

namespace converge {

std::optional<BackendError> DeclaredSubResources::follow(const KindDeclaration &declaration,
                                                         const Send &send, QJsonObject &resource,
                                                         const QString &name, const QString &id,
                                                         const QJsonObject &spec)
{
    for (const DeclaredCall &follow : declaration.followReads) {
        // A follow read that names fields is made for a spec that gives one of them.
        if (!follow.fields.isEmpty() &&
            std::none_of(follow.fields.begin(), follow.fields.end(),
                         [&spec](const QString &field) { return spec.contains(field); }))
            continue;
        QJsonObject request = DeclaredManager::input(follow, name, id, spec);
        for (auto it = request.begin(); it != request.end(); ++it) {
            if (const QString text = it.value().toString();
                text.startsWith(QLatin1String("$read.")))
                it.value() = ApiValues::at(resource, text.mid(6));
        }
        auto more = send(follow, request);
        if (!more) {
            if (follow.absent.contains(more.error().code))
                continue;
            return more.error();
        }
        const QJsonValue found = ApiValues::at(more.value().body, follow.result);
        if (!follow.into.isEmpty()) {
            resource.insert(follow.into, found);
            continue;
        }
        const QJsonObject members = found.toObject();
        for (auto it = members.begin(); it != members.end(); ++it)
            resource.insert(it.key(), it.value());
    }
    return std::nullopt;
}

bool DeclaredSubResources::isEmpty(const QJsonValue &value)
{
    if (value.isUndefined() || value.isNull())
        return true;
    if (value.isString())
        return value.toString().isEmpty();
    if (value.isArray())
        return value.toArray().isEmpty();
    if (value.isObject()) {
        const QJsonObject o = value.toObject();
        return std::all_of(o.begin(), o.end(), [](const QJsonValue &v) { return isEmpty(v); });
    }
    return false;
}

bool DeclaredSubResources::clears(const DeclaredCall &update, const QJsonObject &desired)
{
    if (update.clear.isEmpty() || update.fields.isEmpty())
        return false;
    return std::all_of(update.fields.begin(), update.fields.end(),
                       [&](const QString &field) { return isEmpty(desired.value(field)); });
}

DeclaredCall DeclaredSubResources::clearCall(const DeclaredCall &update)
{
    DeclaredCall call;
    call.operation = update.clear;
    call.input = update.input;
    return call;
}

namespace {

QJsonValue subResourceAt(const QJsonObject &object, const QStringList &path)
{
    QJsonValue value = object;
    for (const QString &part : path)
        value = value.toObject().value(part);
    return value;
}

void subResourceSet(QJsonObject &object, QStringList path, const QJsonValue &value)
{
    const QString first = path.takeFirst();
    if (path.isEmpty()) {
        object.insert(first, value);
        return;
    }
    QJsonObject inner = object.value(first).toObject();
    subResourceSet(inner, path, value);
    object.insert(first, inner);
}

} // namespace

void DeclaredSubResources::orderAsDesired(QJsonObject &observed, const QJsonObject &desired,
                                          const QStringList &paths)
{
    for (const QString &dotted : paths) {
        const QStringList path = dotted.split(QLatin1Char('.'));
        const QJsonArray have = subResourceAt(observed, path).toArray();
        const QJsonArray want = subResourceAt(desired, path).toArray();
        if (have.size() != want.size() || have.isEmpty())
            continue;
        QJsonArray left = have;
        bool same = true;
        for (const QJsonValue &item : want) {
            const auto found = std::find(left.begin(), left.end(), item);
            if (found == left.end()) {
                same = false;
                break;
            }
            left.erase(found);
        }
        if (same)
            subResourceSet(observed, path, want);
    }
}

} // namespace converge

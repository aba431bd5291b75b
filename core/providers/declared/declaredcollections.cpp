// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "declaredcollections.h"

#include "apivalues.h"
#include "declaredmanager.h"

#include <QJsonArray>
#include <QSet>

namespace converge {

namespace {

// `input` with "$key" values as `key` (a collection's entry).
QJsonObject withKey(QJsonObject input, const QString &key)
{
    for (auto it = input.begin(); it != input.end(); ++it) {
        if (it.value().toString() == QLatin1String("$key"))
            it.value() = key;
    }
    return input;
}

} // namespace

DeclaredCollections::DeclaredCollections(const KindDeclaration &declaration, Send send,
                                         int maxReadPages)
    : m_declaration(declaration)
    , m_send(std::move(send))
    , m_maxReadPages(maxReadPages)
{}

Outcome<QJsonValue> DeclaredCollections::read(const DeclaredCollection &collection,
                                              const QString &name, const QString &id,
                                              const QJsonObject &spec)
{
    const DeclaredCall &read = collection.read;
    QJsonObject request = DeclaredManager::input(read, name, id, spec);
    QStringList items;
    for (int page = 0; page < m_maxReadPages; ++page) {
        auto reply = m_send(read, request);
        if (!reply)
            return reply.error();
        for (const QJsonValue &item : ApiValues::at(reply.value().body, read.result).toArray())
            items << (read.item.isEmpty() ? item.toString() : item[read.item].toString());
        const QString next = ApiValues::nextPageToken(read, reply.value().body);
        if (next.isEmpty())
            break;
        request.insert(read.inputToken, next);
    }
    if (!collection.isMap) {
        items.sort();
        return QJsonValue(QJsonArray::fromStringList(items));
    }
    QJsonObject entries;
    for (const QString &key : std::as_const(items)) {
        auto reply = m_send(collection.value,
                            withKey(DeclaredManager::input(collection.value, name, id, spec), key));
        if (!reply)
            return reply.error();
        entries.insert(key, ApiValues::at(reply.value().body, collection.value.result).toString());
    }
    return QJsonValue(entries);
}

std::optional<BackendError> DeclaredCollections::observe(Observation &o, const QString &name,
                                                         const QJsonObject &desired)
{
    for (const QString &field : m_declaration.documents) {
        if (o.spec.contains(field))
            o.spec.insert(field, ApiValues::documentAsDesired(o.spec.value(field).toString(),
                                                              desired.value(field).toString()));
    }
    for (const DeclaredCollection &collection : m_declaration.collections) {
        Outcome<QJsonValue> seen = read(collection, name, o.resourceId, desired);
        if (!seen)
            return seen.error();
        const QJsonValue want = desired.value(collection.field);
        if (!collection.isMap) {
            // A set: in the order the spec gives it when it holds the same items.
            QStringList have;
            for (const QJsonValue &item : seen.value().toArray())
                have << item.toString();
            QStringList wanted;
            for (const QJsonValue &item : want.toArray())
                wanted << item.toString();
            QStringList sortedWanted = wanted;
            sortedWanted.sort();
            o.spec.insert(collection.field, have == sortedWanted
                                                ? QJsonValue(QJsonArray::fromStringList(wanted))
                                                : seen.value());
            continue;
        }
        QJsonObject entries = seen.value().toObject();
        if (collection.documents) {
            const QJsonObject wanted = want.toObject();
            for (auto it = entries.begin(); it != entries.end(); ++it)
                it.value() = ApiValues::documentAsDesired(it.value().toString(),
                                                          wanted.value(it.key()).toString());
        }
        o.spec.insert(collection.field, entries);
    }
    return std::nullopt;
}

std::optional<BackendError> DeclaredCollections::change(const DeclaredCollection &collection,
                                                        const QString &name, const QString &id,
                                                        const QJsonObject &spec,
                                                        const QJsonValue &have,
                                                        const QJsonValue &want)
{
    const auto call = [&](const DeclaredCall &c, const QString &item,
                          const QString &value) -> std::optional<BackendError> {
        QJsonObject request = DeclaredManager::input(c, name, id, spec);
        if (collection.isMap) {
            request.insert(c.key, item);
            if (!c.value.isEmpty())
                request.insert(c.value, value);
        } else {
            request.insert(c.item, item);
        }
        if (auto reply = m_send(c, request); !reply)
            return reply.error();
        return std::nullopt;
    };
    if (!collection.isMap) {
        QSet<QString> had;
        for (const QJsonValue &item : have.toArray())
            had.insert(item.toString());
        QSet<QString> wanted;
        for (const QJsonValue &item : want.toArray())
            wanted.insert(item.toString());
        for (const QString &item : wanted - had) {
            if (auto failed = call(collection.add, item, QString()))
                return failed;
        }
        for (const QString &item : had - wanted) {
            if (auto failed = call(collection.remove, item, QString()))
                return failed;
        }
        return std::nullopt;
    }
    const QJsonObject had = have.toObject();
    const QJsonObject wanted = want.toObject();
    for (auto it = wanted.begin(); it != wanted.end(); ++it) {
        const QString value = it.value().toString();
        const bool same =
            had.contains(it.key()) &&
            (collection.documents
                 ? ApiValues::document(had.value(it.key()).toString()) == ApiValues::document(value)
                 : had.value(it.key()).toString() == value);
        if (!same) {
            if (auto failed = call(collection.add, it.key(), value))
                return failed;
        }
    }
    for (auto it = had.begin(); it != had.end(); ++it) {
        if (!wanted.contains(it.key())) {
            if (auto failed = call(collection.remove, it.key(), QString()))
                return failed;
        }
    }
    return std::nullopt;
}

} // namespace converge

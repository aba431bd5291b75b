// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "declaredlistings.h"

#include "apivalues.h"

#include <QJsonArray>

namespace converge {

namespace {

// The IDs (last segments) of every parent `within` lists, page after page.
Outcome<QStringList> parentsOf(const DeclaredCall &within, const DeclaredListings::Send &send)
{
    QStringList parents;
    QJsonObject request = within.input;
    const QString idMember = within.match.isEmpty() ? QStringLiteral("name") : within.match;
    for (int page = 0; page < 100; ++page) {
        auto reply = send(within, request);
        if (!reply)
            return reply.error();
        for (const QJsonValue &item : ApiValues::at(reply.value().body, within.result).toArray())
            parents << ApiValues::lastSegment(item[idMember].toString());
        const QString next = ApiValues::nextPageToken(within, reply.value().body);
        if (next.isEmpty())
            break;
        request.insert(within.inputToken, next);
    }
    return parents;
}

} // namespace

Outcome<ListPage> DeclaredListings::within(const KindDeclaration &declaration,
                                           const ListScope &scope, const Send &send,
                                           const ListOne &listOne)
{
    auto parents = parentsOf(declaration.listWithin, send);
    if (!parents)
        return parents.error();
    if (parents.value().isEmpty())
        return ListPage{};
    const qsizetype split = scope.continuation.indexOf(QLatin1Char('\n'));
    QString parent = split < 0 ? QString() : scope.continuation.left(split);
    ListScope one = scope;
    one.continuation = split < 0 ? QString() : scope.continuation.mid(split + 1);
    qsizetype at = parent.isEmpty() ? 0 : parents.value().indexOf(parent);
    if (at < 0) {
        // Gone since the last page: on with the next one in the order listed.
        at = 0;
        while (at < parents.value().size() && parents.value().at(at) < parent)
            ++at;
        one.continuation.clear();
        if (at == parents.value().size())
            return ListPage{};
    }
    parent = parents.value().at(at);
    auto page = listOne(one, QJsonObject{{declaration.listWithinMember, parent}});
    if (!page)
        return page;
    if (!page.value().continuation.isEmpty())
        page.value().continuation = parent + QLatin1Char('\n') + page.value().continuation;
    else if (at + 1 < parents.value().size())
        page.value().continuation = parents.value().at(at + 1) + QLatin1Char('\n');
    return page;
}

Outcome<ApiCaller::Reply> DeclaredListings::read(const KindDeclaration &declaration,
                                                 QJsonObject request, const QJsonObject &listInput,
                                                 const QString &name, const Send &send,
                                                 int maxPages, QJsonObject *resource)
{
    const DeclaredCall &read = declaration.read;
    for (int page = 0; page < maxPages; ++page) {
        auto reply = send(read, request);
        if (!reply && declaration.absentConfirmedByList &&
            reply.error().category == BackendError::Category::Transient) {
            auto held = DeclaredListings::holds(declaration, listInput, name, send, maxPages);
            if (held && !held.value())
                return BackendError::make(
                    BackendError::Category::NotFound, QStringLiteral("NotFound"),
                    QStringLiteral("%1 lists no %2 called %3")
                        .arg(declaration.list.operation, declaration.kind.name, name));
        }
        if (!reply)
            return reply;
        const QJsonValue found = ApiValues::at(reply.value().body, read.result);
        if (found.isObject() && read.match.isEmpty()) {
            *resource = found.toObject();
            return reply;
        }
        for (const QJsonValue &item : found.toArray()) {
            if (item[read.match].toString() == name) {
                *resource = item.toObject();
                return reply;
            }
        }
        const QString next = ApiValues::nextPageToken(read, reply.value().body);
        if (next.isEmpty() || !found.isArray()) {
            BackendError error;
            error.category = BackendError::Category::NotFound;
            error.code = QStringLiteral("NotFound");
            error.message = QStringLiteral("%1 has no %2 called %3")
                                .arg(read.operation, declaration.kind.name, name);
            error.requestId = reply.value().requestId;
            return error;
        }
        request.insert(read.inputToken, next);
    }
    BackendError error;
    error.category = BackendError::Category::Transient;
    error.code = QStringLiteral("TooManyPages");
    error.message =
        QStringLiteral("%1 did not find %2 in %3 pages").arg(read.operation, name).arg(maxPages);
    return error;
}

Outcome<bool> DeclaredListings::holds(const KindDeclaration &declaration, QJsonObject input,
                                      const QString &name, const Send &send, int maxPages)
{
    const DeclaredCall &list = declaration.list;
    for (int page = 0; page < maxPages; ++page) {
        auto reply = send(list, input);
        if (!reply)
            return reply.error();
        for (const QJsonValue &item : ApiValues::at(reply.value().body, list.result).toArray()) {
            const QString id =
                item.isObject() ? item[declaration.idMember].toString() : item.toString();
            if (id == name || ApiValues::lastSegment(id) == name)
                return true;
        }
        const QString next = ApiValues::nextPageToken(list, reply.value().body);
        if (next.isEmpty())
            return false;
        input.insert(list.inputToken, next);
    }
    return false;
}

} // namespace converge

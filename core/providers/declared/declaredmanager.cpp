// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "declaredmanager.h"

#include <QJsonArray>
#include <QSet>

namespace converge {

namespace {

const QString nameToken = QStringLiteral("$name");
const QString idToken = QStringLiteral("$id");

QJsonValue substitute(const QJsonValue &value, const QString &name, const QString &id)
{
    if (value.isString()) {
        if (value.toString() == nameToken)
            return name;
        if (value.toString() == idToken)
            return id;
        return value;
    }
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue &item : value.toArray())
            out.append(substitute(item, name, id));
        return out;
    }
    if (value.isObject()) {
        QJsonObject out;
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            out.insert(it.key(), substitute(it.value(), name, id));
        return out;
    }
    return value;
}

// The value at a dotted member path ("StreamDescriptionSummary.StreamStatus").
QJsonValue at(const QJsonObject &object, const QString &path)
{
    if (path.isEmpty())
        return object;
    QJsonValue v = object;
    for (const QString &part : path.split(QLatin1Char('.')))
        v = v.toObject().value(part);
    return v;
}

// The spec fields a delta's paths lie in: spec.retentionDays, spec.tags.team -> retentionDays,
// tags.
QSet<QString> changedFields(const QStringList &delta)
{
    QSet<QString> fields;
    for (QString path : delta) {
        if (path.startsWith(QLatin1String("spec.")))
            path = path.mid(5);
        qsizetype end = 0;
        while (end < path.size() && path.at(end) != QLatin1Char('.') &&
               path.at(end) != QLatin1Char('['))
            ++end;
        fields.insert(path.left(end));
    }
    return fields;
}

} // namespace

DeclaredManager::DeclaredManager(KindDeclaration declaration, std::shared_ptr<ApiCaller> caller,
                                 Options options)
    : m_declaration(std::move(declaration))
    , m_caller(std::move(caller))
    , m_options(options)
{}

QString DeclaredManager::backendName(const Resource &resource) const
{
    const QString field = m_declaration.kind.backendNameField;
    const QString name = field.isEmpty() ? QString() : resource.spec.value(field).toString();
    return name.isEmpty() ? resource.metadata.name : name;
}

QJsonObject DeclaredManager::input(const DeclaredCall &call, const QString &name, const QString &id)
{
    return substitute(call.input, name, id).toObject();
}

QMap<QString, QString> DeclaredManager::tagMap(const QJsonValue &tags,
                                               const DeclaredTags::Shape &shape)
{
    QMap<QString, QString> out;
    if (!shape.isList) {
        const QJsonObject o = tags.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            out.insert(it.key(), it.value().toString());
        return out;
    }
    for (const QJsonValue &tag : tags.toArray())
        out.insert(tag[shape.key].toString(), tag[shape.value].toString());
    return out;
}

QJsonValue DeclaredManager::tagValue(const QMap<QString, QString> &tags,
                                     const DeclaredTags::Shape &shape)
{
    if (!shape.isList) {
        QJsonObject o;
        for (auto it = tags.begin(); it != tags.end(); ++it)
            o.insert(it.key(), it.value());
        return o;
    }
    QJsonArray list;
    for (auto it = tags.begin(); it != tags.end(); ++it)
        list.append(QJsonObject{{shape.key, it.key()}, {shape.value, it.value()}});
    return list;
}

Outcome<ApiCaller::Reply> DeclaredManager::send(const DeclaredCall &call, const QJsonObject &input)
{
    Outcome<ApiCaller::Reply> reply = m_caller->call(call.operation, input);
    if (!reply) {
        BackendError error = reply.error();
        if (m_declaration.notFound.contains(error.code))
            error.category = BackendError::Category::NotFound;
        else if (m_declaration.alreadyExists.contains(error.code))
            error.category = BackendError::Category::Conflict;
        return error;
    }
    return reply;
}

Outcome<ApiCaller::Reply> DeclaredManager::readResource(const QString &name, QJsonObject *resource)
{
    const DeclaredCall &read = m_declaration.read;
    QJsonObject request = input(read, name, QString());
    for (int page = 0; page < m_options.maxReadPages; ++page) {
        auto reply = send(read, request);
        if (!reply)
            return reply;
        const QJsonValue found = at(reply.value().body, read.result);
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
        const QString next = read.outputToken.isEmpty()
                                 ? QString()
                                 : at(reply.value().body, read.outputToken).toString();
        if (next.isEmpty() || !found.isArray()) {
            BackendError error;
            error.category = BackendError::Category::NotFound;
            error.code = QStringLiteral("NotFound");
            error.message = QStringLiteral("%1 has no %2 called %3")
                                .arg(read.operation, m_declaration.kind.name, name);
            error.requestId = reply.value().requestId;
            return error;
        }
        request.insert(read.inputToken, next);
    }
    BackendError error;
    error.category = BackendError::Category::Transient;
    error.code = QStringLiteral("TooManyPages");
    error.message = QStringLiteral("%1 did not find %2 in %3 pages")
                        .arg(read.operation, name)
                        .arg(m_options.maxReadPages);
    return error;
}

Observation DeclaredManager::observe(const QJsonObject &resource, const QString &requestId) const
{
    Observation o;
    o.spec = ApiField::fromApi(m_declaration.fields, resource);
    o.name = resource.value(m_declaration.nameMember).toString();
    if (!m_declaration.kind.backendNameField.isEmpty() && !o.name.isEmpty())
        o.spec.insert(m_declaration.kind.backendNameField, o.name);
    o.resourceId = at(resource, m_declaration.idMember).toString();
    // What the spec does not hold is there for people to read.
    const QStringList mapped = ApiField::observedMembers(m_declaration.fields);
    for (auto it = resource.begin(); it != resource.end(); ++it) {
        if (!mapped.contains(it.key()))
            o.details.insert(it.key(), it.value());
    }
    o.requestId = requestId;
    return o;
}

std::optional<BackendError> DeclaredManager::applyState(Observation &observation,
                                                        const QJsonObject &resource) const
{
    const DeclaredStates &states = m_declaration.states;
    if (states.member.isEmpty())
        return std::nullopt;
    const QString state = at(resource, states.member).toString();
    if (states.failed.contains(state)) {
        BackendError error;
        error.category = BackendError::Category::Terminal;
        error.code = QStringLiteral("ResourceFailed");
        error.message = QStringLiteral("%1 %2 is %3 (%4)")
                            .arg(m_declaration.kind.name, observation.name, state, states.member);
        error.requestId = observation.requestId;
        return error;
    }
    if (states.progress.contains(state) || states.deleting.contains(state)) {
        observation.inProgress = true;
        observation.progress = QStringLiteral("%1 is %2").arg(states.member, state);
        observation.pollAfter = m_options.pollAfter;
    }
    return std::nullopt;
}

Outcome<Observation> DeclaredManager::get(const Target &target)
{
    const QString name = backendName(target.resource);
    QJsonObject resource;
    auto reply = readResource(name, &resource);
    if (!reply)
        return reply.error();
    Observation o = observe(resource, reply.value().requestId);
    if (o.name.isEmpty())
        o.name = name;
    if (!m_declaration.kind.backendNameField.isEmpty())
        o.spec.insert(m_declaration.kind.backendNameField, o.name);
    if (auto failed = applyState(o, resource))
        return *failed;
    const DeclaredTags &tags = m_declaration.tags;
    if (tags.isDeclared() && !o.inProgress) {
        auto answer = send(tags.read, input(tags.read, name, o.resourceId));
        if (!answer)
            return answer.error();
        o.spec.insert(
            tags.field,
            tagValue(tagMap(at(answer.value().body, tags.readMember), tags.readShape), tags.spec));
    }
    return o;
}

Outcome<Observation> DeclaredManager::create(const Target &target)
{
    const DeclaredCall &create = m_declaration.create;
    if (!create.isDeclared()) {
        BackendError error;
        error.category = BackendError::Category::Invalid;
        error.code = QStringLiteral("NotCreatable");
        error.message = QStringLiteral("%1 cannot be created here; claim an existing one")
                            .arg(m_declaration.kind.name);
        return error;
    }
    const QString name = backendName(target.resource);
    QJsonObject spec = target.resource.spec;
    if (!m_declaration.kind.backendNameField.isEmpty())
        spec.insert(m_declaration.kind.backendNameField, name);
    QJsonObject request = input(create, name, QString());
    const QJsonObject fields = ApiField::toApi(m_declaration.fields, spec, create.fields);
    for (auto it = fields.begin(); it != fields.end(); ++it)
        request.insert(it.key(), it.value());
    auto reply = send(create, request);
    if (!reply) {
        if (reply.error().category != BackendError::Category::Conflict ||
            !m_declaration.alreadyExists.contains(reply.error().code))
            return reply.error();
        Outcome<Observation> found = get(target);
        if (found)
            found.value().existed = true;
        return found;
    }
    return get(target);
}

Outcome<Observation> DeclaredManager::update(const Target &target, const Observation &latest,
                                             const QStringList &delta)
{
    const QString name = backendName(target.resource);
    const QJsonObject &desired = target.resource.spec;
    QSet<QString> changed = changedFields(delta);

    const DeclaredTags &tags = m_declaration.tags;
    if (tags.isDeclared() && changed.remove(tags.field) && desired.contains(tags.field)) {
        const auto want = tagMap(desired.value(tags.field), tags.spec);
        const auto have = tagMap(latest.spec.value(tags.field), tags.spec);
        QMap<QString, QString> set;
        QStringList gone;
        for (auto it = want.begin(); it != want.end(); ++it) {
            if (have.value(it.key(), QString()) != it.value() || !have.contains(it.key()))
                set.insert(it.key(), it.value());
        }
        for (auto it = have.begin(); it != have.end(); ++it) {
            if (!want.contains(it.key()))
                gone << it.key();
        }
        if (!set.isEmpty()) {
            QJsonObject request = input(tags.add, name, latest.resourceId);
            request.insert(tags.addMember, tagValue(set, tags.addShape));
            if (auto reply = send(tags.add, request); !reply)
                return reply.error();
        }
        if (!gone.isEmpty()) {
            QJsonObject request = input(tags.remove, name, latest.resourceId);
            request.insert(tags.removeMember, QJsonArray::fromStringList(gone));
            if (auto reply = send(tags.remove, request); !reply)
                return reply.error();
        }
    }

    QSet<QString> carried;
    for (const DeclaredCall &call : m_declaration.updates) {
        const QSet<QString> fields(call.fields.begin(), call.fields.end());
        if (!fields.intersects(changed))
            continue;
        carried.unite(fields);
        QJsonObject request = input(call, name, latest.resourceId);
        const QJsonObject values = ApiField::toApi(m_declaration.fields, desired, call.fields);
        for (const ApiField &field : m_declaration.fields) {
            const auto value = values.constFind(field.member);
            if (value == values.constEnd())
                continue;
            const QString member = call.members.value(field.field).toString(field.member);
            request.insert(member, *value);
        }
        if (auto reply = send(call, request); !reply)
            return reply.error();
    }
    changed.subtract(carried);
    if (!changed.isEmpty()) {
        QStringList left(changed.begin(), changed.end());
        left.sort();
        BackendError error;
        error.category = BackendError::Category::Invalid;
        error.code = QStringLiteral("UnsupportedChange");
        error.message = QStringLiteral("%1 has no call that changes %2 of an existing resource; "
                                       "restore the previous value, or delete and re-create it")
                            .arg(m_declaration.serviceTitle, left.join(QStringLiteral(", ")));
        error.requestId = latest.requestId;
        return error;
    }
    return get(target);
}

Outcome<std::optional<Observation>> DeclaredManager::deleteResource(const Target &target,
                                                                    const Observation &latest)
{
    const QString name = backendName(target.resource);
    auto reply = send(m_declaration.remove, input(m_declaration.remove, name, latest.resourceId));
    if (!reply) {
        if (reply.error().category == BackendError::Category::NotFound)
            return std::optional<Observation>();
        return reply.error();
    }
    if (m_declaration.states.deleting.isEmpty())
        return std::optional<Observation>();
    auto still = get(target);
    if (!still) {
        if (still.error().category == BackendError::Category::NotFound)
            return std::optional<Observation>();
        return still.error();
    }
    Observation deleting = still.value();
    deleting.inProgress = true;
    if (deleting.progress.isEmpty())
        deleting.progress = QStringLiteral("being deleted");
    deleting.pollAfter = m_options.pollAfter;
    return std::optional<Observation>(deleting);
}

Outcome<ListPage> DeclaredManager::list(const ListScope &scope)
{
    const DeclaredCall &list = m_declaration.list;
    ListPage page;
    if (!list.isDeclared())
        return page;
    QJsonObject request = input(list, QString(), QString());
    if (!scope.continuation.isEmpty())
        request.insert(list.inputToken, scope.continuation);
    const int size = scope.pageSize > 0 ? scope.pageSize : list.limit;
    if (!list.limitKey.isEmpty() && size > 0)
        request.insert(list.limitKey, size);
    auto reply = send(list, request);
    if (!reply)
        return reply.error();
    for (const QJsonValue &item : at(reply.value().body, list.result).toArray()) {
        Observation o;
        if (item.isObject()) {
            o = observe(item.toObject(), reply.value().requestId);
        } else {
            o.name = item.toString();
            o.requestId = reply.value().requestId;
        }
        if (!m_declaration.kind.backendNameField.isEmpty())
            o.spec.insert(m_declaration.kind.backendNameField, o.name);
        page.items.append(o);
    }
    if (!list.outputToken.isEmpty())
        page.continuation = at(reply.value().body, list.outputToken).toString();
    return page;
}

} // namespace converge

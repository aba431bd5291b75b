// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "declaredmanager.h"

#include "annotations.h"
#include "apivalues.h"
#include "declaredlistings.h"
#include "declaredoperations.h"
#include "declaredsubresources.h"
#include "delta.h"
#include "redactor.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QUrl>
#include <QUuid>

#include <algorithm>

namespace converge {

namespace {

const QString nameToken = QStringLiteral("$name");
const QString idToken = QStringLiteral("$id");

const QString specToken = QStringLiteral("$spec.");

QJsonValue substitute(const QJsonValue &value, const QString &name, const QString &id,
                      const QJsonObject &spec)
{
    if (value.isString()) {
        const QString text = value.toString();
        if (text == nameToken)
            return name;
        if (text == idToken)
            return id;
        if (text.startsWith(specToken))
            return spec.value(text.mid(specToken.size()));
        return value;
    }
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue &item : value.toArray())
            out.append(substitute(item, name, id, spec));
        return out;
    }
    if (value.isObject()) {
        QJsonObject out;
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            out.insert(it.key(), substitute(it.value(), name, id, spec));
        return out;
    }
    return value;
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
                                 Options options, CredentialStore *keychain)
    : m_declaration(std::move(declaration))
    , m_caller(std::move(caller))
    , m_options(options)
    , m_keychain(keychain)
    , m_collections(
          m_declaration,
          [this](const DeclaredCall &call, const QJsonObject &input) { return send(call, input); },
          m_options.maxReadPages)
    , m_secrets(
          m_declaration, m_keychain,
          [this](const DeclaredCall &call, const QJsonObject &input) { return send(call, input); })
    , m_hook(DeclaredHook::make(m_declaration.hook, *m_caller, m_keychain))
{}

QString DeclaredManager::backendName(const Resource &resource) const
{
    const QString field = m_declaration.kind.backendNameField;
    const QString name = field.isEmpty() ? QString() : resource.spec.value(field).toString();
    return name.isEmpty() ? resource.metadata.name : name;
}

QJsonObject DeclaredManager::input(const DeclaredCall &call, const QString &name, const QString &id,
                                   const QJsonObject &spec)
{
    return substitute(call.input, name, id, spec).toObject();
}

QJsonObject DeclaredManager::resolvedSpec(const Target &target) const
{
    QJsonObject spec = target.resource.spec;
    for (const KindReference &reference : m_declaration.kind.references) {
        const QString name = Kind::referencedName(reference, spec);
        if (name.isEmpty())
            continue;
        // The engine ran this only once the named resource was Ready with its ID
        // (GenericReconciler::waitForReferences); a listing's probe names none.
        const Resource *referenced = target.referenced(reference.kind, name);
        if (!referenced)
            continue;
        if (reference.from.isEmpty()) {
            spec.insert(reference.idField,
                        referenced->metadata.annotations.value(Annotations::resourceId()));
            continue;
        }
        const QString value = referenced->spec.value(reference.from).toString();
        spec.insert(reference.idField, value.isEmpty() ? referenced->metadata.name : value);
    }
    return spec;
}

Outcome<ApiCaller::Reply> DeclaredManager::send(const DeclaredCall &call, QJsonObject input)
{
    if (!call.idempotencyToken.isEmpty() && !input.contains(call.idempotencyToken))
        input.insert(call.idempotencyToken, QUuid::createUuid().toString(QUuid::WithoutBraces));
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

std::function<Outcome<ApiCaller::Reply>(const DeclaredCall &, const QJsonObject &)>
DeclaredManager::sender()
{
    return [this](const DeclaredCall &call, const QJsonObject &in) { return send(call, in); };
}

Outcome<QString> DeclaredManager::locate(const QString &name, const QString &known,
                                         const QJsonObject &spec)
{
    if (!known.isEmpty() || !m_declaration.locate.isDeclared())
        return known;
    const DeclaredCall &locate = m_declaration.locate;
    QJsonObject request = input(locate, name, QString(), spec);
    const auto matches = [&](const QJsonValue &item) {
        if (locate.matchFields.isEmpty()) {
            const QString id = item[locate.match].toString();
            return id == name || ApiValues::lastSegment(id) == name;
        }
        for (auto it = locate.matchFields.begin(); it != locate.matchFields.end(); ++it) {
            if (item[it.key()].toString() != ApiValues::text(spec.value(it.value().toString())))
                return false;
        }
        return true;
    };
    // The ID is the answer's member, or the item of a listing whose `match` member is the name,
    // or an ID that ends in it (SNS lists topics by ARN only).
    for (int page = 0; page < m_options.maxReadPages; ++page) {
        auto reply = send(locate, request);
        if (!reply)
            return reply.error();
        const QJsonValue found = ApiValues::at(reply.value().body, locate.result);
        if (found.isString() && !found.toString().isEmpty())
            return found.toString();
        for (const QJsonValue &item : found.toArray()) {
            if (matches(item))
                return item[locate.match].toString();
        }
        const QString next = ApiValues::nextPageToken(locate, reply.value().body);
        // A listing with nothing in it may leave its list out (the query protocol's <Topics/>).
        const bool listing = found.isArray() || (found.isUndefined() && !locate.match.isEmpty());
        if (!listing || next.isEmpty()) {
            BackendError error;
            error.category =
                listing ? BackendError::Category::NotFound : BackendError::Category::Transient;
            error.code = listing ? QStringLiteral("NotFound") : QStringLiteral("InvalidResponse");
            error.message = listing ? QStringLiteral("%1 has no %2 called %3")
                                          .arg(locate.operation, m_declaration.kind.name, name)
                                    : QStringLiteral("the answer to %1 has no %2")
                                          .arg(locate.operation, locate.result);
            error.requestId = reply.value().requestId;
            return error;
        }
        request.insert(locate.inputToken, next);
    }
    BackendError error;
    error.category = BackendError::Category::Transient;
    error.code = QStringLiteral("TooManyPages");
    error.message = QStringLiteral("%1 did not find %2 in %3 pages")
                        .arg(locate.operation, name)
                        .arg(m_options.maxReadPages);
    return error;
}

Outcome<QJsonObject> DeclaredManager::request(const DeclaredCall &call, const QJsonObject &spec,
                                              const QString &name, const QString &id,
                                              const Observation *latest, QStringList *secrets) const
{
    QJsonObject out = input(call, name, id, spec);
    // A call carries the fields it names, and none when it names none (a delete).
    if (call.fields.isEmpty())
        return out;
    QJsonObject values = ApiField::toApi(m_declaration.fields, spec, call.fields);
    if (auto failed = m_secrets.resolve(values, spec, secrets))
        return *failed;
    QJsonObject attributes;
    for (const ApiField &field : m_declaration.fields) {
        const auto value = values.constFind(field.member);
        if (value == values.constEnd())
            continue;
        if (m_declaration.attributeMembers.contains(field.member)) {
            attributes.insert(field.member, ApiValues::text(*value));
            continue;
        }
        out.insert(call.members.value(field.field).toString(field.member), *value);
    }
    if (!attributes.isEmpty())
        out.insert(m_declaration.attributesMember, attributes);
    return m_hook->completeInput(call, out, spec, latest, secrets);
}

Outcome<ApiCaller::Reply> DeclaredManager::sendSecretly(const DeclaredCall &call,
                                                        const Outcome<QJsonObject> &input,
                                                        const QStringList &secrets)
{
    if (!input)
        return input.error();
    Outcome<ApiCaller::Reply> reply = send(call, input.value());
    if (reply || secrets.isEmpty())
        return reply;
    Redactor redactor;
    for (const QString &secret : secrets)
        redactor.addSecret(secret);
    BackendError error = reply.error();
    error.message = redactor.redact(error.message);
    return error;
}

Outcome<ApiCaller::Reply> DeclaredManager::readResource(const QString &name, const QString &id,
                                                        const QJsonObject &spec,
                                                        QJsonObject *resource)
{
    return DeclaredListings::read(m_declaration, input(m_declaration.read, name, id, spec),
                                  input(m_declaration.list, name, id, spec), name, sender(),
                                  m_options.maxReadPages, resource);
}

Observation DeclaredManager::observe(QJsonObject resource, const QString &requestId,
                                     const QString &id) const
{
    // Attributes read back as one map: spread out, they are members like any other (as the
    // strings the API keeps them as).
    if (!m_declaration.attributesMember.isEmpty()) {
        const QJsonObject attributes = resource.take(m_declaration.attributesMember).toObject();
        for (auto it = attributes.begin(); it != attributes.end(); ++it)
            resource.insert(it.key(), it.value());
    }
    Observation o;
    o.spec =
        ApiValues::typed(m_declaration.kind.spec, ApiField::fromApi(m_declaration.fields, resource))
            .toObject();
    if (m_declaration.omitsZeroValues) {
        for (const ApiField &api : m_declaration.fields) {
            const FieldSchema *field = m_declaration.kind.spec.field(api.field);
            if (!field || o.spec.contains(api.field) ||
                api.field == m_declaration.kind.backendNameField ||
                m_declaration.writeOnly.contains(api.field))
                continue;
            if (field->type == FieldSchema::Type::Bool)
                o.spec.insert(api.field, false);
            else if (field->type == FieldSchema::Type::Int)
                o.spec.insert(api.field, 0);
            else if (field->type == FieldSchema::Type::String)
                o.spec.insert(api.field, QString());
        }
    }
    for (const QString &field : m_declaration.shortNames) {
        if (o.spec.contains(field))
            o.spec.insert(field, ApiValues::lastSegment(o.spec.value(field).toString()));
    }
    // A value given by reference is never observed as it is (compareSecrets says whether it
    // agrees), nor a plain field that holds a secret (a SecureString's Value: moto answers it
    // with the text inside).
    for (const DeclaredSecret &secret : m_declaration.secrets)
        o.spec.remove(secret.field);
    if (const auto &when = m_declaration.secretWhen;
        !when.field.isEmpty() && o.spec.value(when.field).toString() == when.value)
        o.spec.remove(when.plain);
    o.name = m_declaration.nameMember.isEmpty()
                 ? QString()
                 : resource.value(m_declaration.nameMember).toString();
    o.resourceId = m_declaration.idMember.isEmpty()
                       ? id
                       : ApiValues::at(resource, m_declaration.idMember).toString();
    if (o.resourceId.isEmpty())
        o.resourceId = id;
    // A kind known by its ID alone (an SNS topic's ARN, a Pub/Sub topic's projects/P/topics/T)
    // is named by the ID's last segment.
    if (o.name.isEmpty() && m_declaration.nameMember.isEmpty())
        o.name = ApiValues::lastSegment(o.resourceId);
    if (!m_declaration.kind.backendNameField.isEmpty() && !o.name.isEmpty())
        o.spec.insert(m_declaration.kind.backendNameField, o.name);
    const QStringList segments = o.resourceId.split(QLatin1Char('/'));
    for (auto it = m_declaration.fromId.begin(); it != m_declaration.fromId.end(); ++it) {
        if (const qsizetype at = segments.indexOf(it.value()); at >= 0 && at + 1 < segments.size())
            o.spec.insert(it.key(), segments.at(at + 1));
    }
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
    const QString state = ApiValues::at(resource, states.member).toString();
    if (states.failed.contains(state)) {
        BackendError error;
        error.category = BackendError::Category::Terminal;
        error.code = QStringLiteral("ResourceFailed");
        error.message = QStringLiteral("%1 %2 is %3 (%4)")
                            .arg(m_declaration.kind.name, observation.name, state, states.member);
        if (const QString why = ApiValues::at(resource, states.reason).toString();
            !states.reason.isEmpty() && !why.isEmpty())
            error.message += QStringLiteral(": ") + why;
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

bool DeclaredManager::knownByIdOnly() const
{
    return m_declaration.kind.backendNameField.isEmpty() && m_declaration.nameMember.isEmpty() &&
           !m_declaration.locate.isDeclared();
}

Outcome<Observation> DeclaredManager::get(const Target &target)
{
    // The ID the workspace keeps saves a locate (SQS's GetQueueUrl, SNS's walk of ListTopics);
    // a kind known by its ID alone (a KMS key) has no other way, but for a resource a listing
    // found, which is named by its ID.
    const QString recorded = target.resource.metadata.annotations.value(Annotations::resourceId());
    if (knownByIdOnly())
        return observeTarget(target, recorded.isEmpty() ? backendName(target.resource) : recorded);
    return observeTarget(target, m_declaration.locate.isDeclared() ? recorded : QString());
}

QString DeclaredManager::scheduledForDeletion(const QJsonObject &resource) const
{
    const DeclaredStates &states = m_declaration.states;
    if (const QJsonValue date = ApiValues::at(resource, states.gone);
        !states.gone.isEmpty() && !date.isUndefined() && !date.isNull())
        return states.gone + QLatin1Char(' ') + ApiValues::text(date);
    if (const QString state = ApiValues::at(resource, states.member).toString();
        !states.member.isEmpty() && states.scheduled.contains(state))
        return states.member + QStringLiteral(" is ") + state;
    return {};
}

void DeclaredManager::asTheWorkspaceHasIt(const Target &target, const QJsonObject &spec,
                                          const QString &name, Observation &o) const
{
    if (o.name.isEmpty())
        o.name = name;
    if (m_declaration.idIsName)
        o.resourceId = o.name;
    if (!m_declaration.kind.backendNameField.isEmpty())
        o.spec.insert(m_declaration.kind.backendNameField, o.name);
    // The owner is the workspace's, not the backend's: what was asked is what is.
    if (target.resource.spec.contains(QStringLiteral("owner")))
        o.spec.insert(QStringLiteral("owner"), target.resource.spec.value(QStringLiteral("owner")));
    // What AWS takes but never answers is observed as asked; one that cannot change, as last
    // observed (so a change of it shows, and is refused rather than taken as done).
    const QJsonValue before = target.resource.status.observed.value(QStringLiteral("spec"));
    for (const QString &field : m_declaration.writeOnly) {
        const FieldSchema *schema = m_declaration.kind.spec.field(field);
        const bool fixed = before.isObject() && schema && schema->immutable;
        const QJsonObject &from = fixed ? before.toObject() : target.resource.spec;
        if (from.contains(field) && !o.spec.contains(field))
            o.spec.insert(field, from.value(field));
    }
    // So is a reference, when the ID it stands for is the one observed.
    for (const KindReference &reference : m_declaration.kind.references) {
        const QJsonValue named = target.resource.spec.value(reference.field);
        const QString wanted = spec.value(reference.idField).toString();
        if (named.isObject() && !wanted.isEmpty() &&
            o.spec.value(reference.idField).toString() == wanted)
            o.spec.insert(reference.field, named);
    }
}

Outcome<Observation> DeclaredManager::fromListing(const Target &target, Observation item)
{
    // A listed item as get() would observe it: the owner, the name field, what is observed as
    // asked (write-only fields, references whose ID is the one listed).
    asTheWorkspaceHasIt(target, resolvedSpec(target), backendName(target.resource), item);
    return item;
}

Outcome<Observation> DeclaredManager::observeTarget(const Target &target, const QString &knownId,
                                                    const QSet<QString> &sent)
{
    const QString name = backendName(target.resource);
    const QJsonObject spec = resolvedSpec(target);
    auto id = locate(name, knownId, spec);
    if (!id)
        return id.error();
    QJsonObject resource;
    auto reply = readResource(name, id.value(), spec, &resource);
    if (!reply && knownByIdOnly() && reply.error().category == BackendError::Category::Invalid) {
        // A name that is not an ID (a resource not made yet) is not one AWS has.
        BackendError error = reply.error();
        error.category = BackendError::Category::NotFound;
        reply = error;
    }
    if (!reply && !knownId.isEmpty() && m_declaration.locate.isDeclared() &&
        reply.error().category == BackendError::Category::NotFound) {
        // Gone under the ID it had; one made again since has another (a subscription's).
        id = locate(name, QString(), spec);
        if (!id)
            return id.error();
        reply = readResource(name, id.value(), spec, &resource);
    }
    if (!reply)
        return reply.error();
    if (const QString why = scheduledForDeletion(resource); !why.isEmpty()) {
        BackendError error;
        error.category = BackendError::Category::NotFound;
        error.code = QStringLiteral("ScheduledForDeletion");
        error.message = QStringLiteral("%1 %2 is scheduled for deletion (%3)")
                            .arg(m_declaration.kind.name, name, why);
        error.requestId = reply.value().requestId;
        return error;
    }
    return observed(target, spec, name, id.value(), resource, reply.value().requestId, sent);
}

Outcome<Observation> DeclaredManager::observed(const Target &target, const QJsonObject &spec,
                                               const QString &name, const QString &id,
                                               QJsonObject resource, const QString &requestId,
                                               const QSet<QString> &sent)
{
    if (auto failed =
            DeclaredSubResources::follow(m_declaration, sender(), resource, name, id, spec))
        return *failed;
    Observation o = observe(resource, requestId, id);
    asTheWorkspaceHasIt(target, spec, name, o);
    if (auto failed = applyState(o, resource))
        return *failed;
    if (m_declaration.pending.isDeclared() && !o.inProgress) {
        if (auto failed = DeclaredOperations::follow(m_declaration.pending,
                                                     input(m_declaration.pending, name, id, spec),
                                                     sender(), o, m_options.pollAfter))
            return *failed;
    }
    if (auto failed = m_hook->observe(o, resource, spec, target, sent))
        return *failed;
    if (o.inProgress && !o.pollAfter)
        o.pollAfter = m_options.pollAfter;
    if (!o.inProgress) {
        if (auto failed = m_secrets.compare(o, spec))
            return *failed;
        if (auto failed = m_collections.observe(o, name, spec))
            return *failed;
        DeclaredSubResources::orderAsDesired(o.spec, spec, m_declaration.unordered);
    }
    const DeclaredTags &tags = m_declaration.tags;
    if (tags.isDeclared() && !o.inProgress) {
        auto answer = send(tags.read, input(tags.read, name, o.resourceId));
        if (!answer)
            return answer.error();
        o.spec.insert(tags.field,
                      ApiValues::tagValue(
                          ApiValues::tagMap(ApiValues::at(answer.value().body, tags.readMember),
                                            tags.readShape),
                          tags.spec));
        // A list of tags is read back by key: in the spec's order when it holds the same.
        DeclaredSubResources::orderAsDesired(o.spec, spec, {tags.field});
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
    QJsonObject spec = resolvedSpec(target);
    if (!m_declaration.kind.backendNameField.isEmpty())
        spec.insert(m_declaration.kind.backendNameField, name);
    QStringList secrets;
    auto reply =
        sendSecretly(create, request(create, spec, name, QString(), nullptr, &secrets), secrets);
    if (!reply) {
        if (reply.error().category != BackendError::Category::Conflict ||
            !m_declaration.alreadyExists.contains(reply.error().code))
            return reply.error();
        Outcome<Observation> found = get(target);
        if (found)
            found.value().existed = true;
        return found;
    }
    // What the create call does not carry (a log group's retention), or the backend left out,
    // is set by the update calls at once, as the next reconcile would.
    // The answer's ID, where it has one, saves a locate (a subscription's ARN).
    const QString createdId = create.result.isEmpty()
                                  ? QString()
                                  : ApiValues::at(reply.value().body, create.result).toString();
    const QSet<QString> carried(create.fields.begin(), create.fields.end());
    // A create that answers the resource as a read does (a Pub/Sub topic's PUT) is its own
    // observation: no read after it.
    Outcome<Observation> created =
        m_declaration.createAnswersResource && !reply.value().body.isEmpty()
            ? observed(target, spec, name,
                       ApiValues::at(reply.value().body, m_declaration.idMember).toString(),
                       reply.value().body, reply.value().requestId, carried)
            : observeTarget(target, createdId, carried);
    if (!created || created.value().inProgress)
        return created;
    const QStringList left = Delta::between(m_declaration.kind.spec, spec, created.value().spec);
    if (left.isEmpty())
        return created;
    return update(target, created.value(), left);
}

Outcome<Observation> DeclaredManager::update(const Target &target, const Observation &latest,
                                             const QStringList &delta)
{
    const QString name = backendName(target.resource);
    const QJsonObject desired = resolvedSpec(target);
    QSet<QString> changed = changedFields(delta);
    // A reference that names another resource changes the ID field it stands in for.
    for (const KindReference &reference : m_declaration.kind.references) {
        if (changed.remove(reference.field))
            changed.insert(reference.idField);
    }
    const auto located = locate(name, latest.resourceId, desired);
    if (!located)
        return located.error();
    const QString &id = located.value();

    const DeclaredTags &tags = m_declaration.tags;
    if (tags.isDeclared() && changed.remove(tags.field) && desired.contains(tags.field)) {
        const auto want = ApiValues::tagMap(desired.value(tags.field), tags.spec);
        const auto have = ApiValues::tagMap(latest.spec.value(tags.field), tags.spec);
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
            QJsonObject add = input(tags.add, name, id);
            add.insert(tags.addMember, ApiValues::tagValue(set, tags.addShape));
            if (auto reply = send(tags.add, add); !reply)
                return reply.error();
        }
        if (!gone.isEmpty()) {
            QJsonObject remove = input(tags.remove, name, id);
            remove.insert(tags.removeMember, QJsonArray::fromStringList(gone));
            if (auto reply = send(tags.remove, remove); !reply)
                return reply.error();
        }
    }

    for (const DeclaredCollection &collection : m_declaration.collections) {
        if (!changed.remove(collection.field) || !desired.contains(collection.field))
            continue;
        if (auto failed = m_collections.change(collection, name, id, desired,
                                               latest.spec.value(collection.field),
                                               desired.value(collection.field)))
            return *failed;
    }

    QSet<QString> carried;
    for (const DeclaredCall &call : m_declaration.updates) {
        const QSet<QString> fields(call.fields.begin(), call.fields.end());
        if (!fields.intersects(changed))
            continue;
        carried.unite(fields);
        if (auto failed = m_hook->beforeUpdate(call, id))
            return *failed;
        if (DeclaredSubResources::clears(call, desired)) {
            const DeclaredCall clear = DeclaredSubResources::clearCall(call);
            if (auto reply = send(clear, input(clear, name, id, desired)); !reply)
                return reply.error();
            continue;
        }
        if (call.eachName.isEmpty()) {
            DeclaredCall sent = call;
            if (call.changedOnly)
                sent.fields.removeIf([&changed](const QString &f) { return !changed.contains(f); });
            QStringList secrets;
            if (auto reply = sendSecretly(sent, request(sent, desired, name, id, &latest, &secrets),
                                          secrets);
                !reply)
                return reply.error();
            continue;
        }
        // One attribute a call, and only the changed ones.
        for (const ApiField &field : m_declaration.fields) {
            if (!fields.contains(field.field) || !changed.contains(field.field))
                continue;
            QJsonObject one = input(call, name, id);
            one.insert(call.eachName, field.member);
            one.insert(call.eachValue, ApiValues::text(desired.value(field.field)));
            if (auto reply = send(call, one); !reply)
                return reply.error();
        }
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
    return observeTarget(target, id, carried);
}

Outcome<std::optional<Observation>> DeclaredManager::deleteResource(const Target &target,
                                                                    const Observation &latest)
{
    const QString name = backendName(target.resource);
    const auto id = locate(name, latest.resourceId, resolvedSpec(target));
    if (!id) {
        if (id.error().category == BackendError::Category::NotFound)
            return std::optional<Observation>();
        return id.error();
    }
    // What the resource holds item by item goes first (IAM refuses to delete a role that has
    // policies).
    for (const DeclaredCollection &collection : m_declaration.collections) {
        const QJsonObject spec = resolvedSpec(target);
        Outcome<QJsonValue> held = m_collections.read(collection, name, id.value(), spec);
        if (!held) {
            if (held.error().category == BackendError::Category::NotFound)
                return std::optional<Observation>();
            return held.error();
        }
        if (auto failed = m_collections.change(collection, name, id.value(), spec, held.value(),
                                               collection.isMap ? QJsonValue(QJsonObject())
                                                                : QJsonValue(QJsonArray())))
            return *failed;
    }
    if (auto failed = m_hook->beforeDelete(id.value())) {
        if (failed->category == BackendError::Category::NotFound)
            return std::optional<Observation>();
        return *failed;
    }
    // The delete call carries what its fields say (a secret's recovery window).
    QStringList secrets;
    auto reply = sendSecretly(
        m_declaration.remove,
        request(m_declaration.remove, resolvedSpec(target), name, id.value(), &latest, &secrets),
        secrets);
    if (!reply) {
        if (reply.error().category == BackendError::Category::NotFound)
            return std::optional<Observation>();
        // A resource already scheduled for deletion refuses another (Secrets Manager's
        // InvalidRequestException): it is gone as far as the workspace goes.
        if (m_declaration.states.canBeScheduled()) {
            auto seen = observeTarget(target, id.value());
            if (!seen && seen.error().category == BackendError::Category::NotFound)
                return std::optional<Observation>();
        }
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
    if (m_declaration.listWithin.isDeclared())
        return DeclaredListings::within(
            m_declaration, scope, sender(),
            [this](const ListScope &one, const QJsonObject &parent) { return list(one, parent); });
    return list(scope, {});
}

Outcome<ListPage> DeclaredManager::list(const ListScope &scope, const QJsonObject &extra)
{
    const DeclaredCall &list = m_declaration.list;
    ListPage page;
    if (!list.isDeclared())
        return page;
    QJsonObject request = input(list, QString(), QString());
    for (auto it = extra.begin(); it != extra.end(); ++it)
        request.insert(it.key(), it.value());
    if (!scope.continuation.isEmpty())
        request.insert(list.inputToken, scope.continuation);
    // The engine's page size, but never more than the service serves (ListTables refuses 500).
    const int size = scope.pageSize > 0 && (list.limit <= 0 || scope.pageSize < list.limit)
                         ? scope.pageSize
                         : list.limit;
    if (!list.limitKey.isEmpty() && size > 0)
        request.insert(list.limitKey, size);
    auto reply = send(list, request);
    if (!reply)
        return reply.error();
    const QRegularExpression excluded(
        m_declaration.listExcludePattern.isEmpty()
            ? QString()
            : QRegularExpression::anchoredPattern(m_declaration.listExcludePattern));
    for (const QJsonValue &item : ApiValues::at(reply.value().body, list.result).toArray()) {
        if (!m_declaration.listExcludePattern.isEmpty() &&
            excluded.match(item[m_declaration.listExcludeMember].toString()).hasMatch())
            continue;
        Observation o;
        if (item.isObject()) {
            o = observe(item.toObject(), reply.value().requestId);
            m_hook->listed(o);
        } else if (m_declaration.listItemsAreIds) {
            o.resourceId = item.toString();
            o.name = ApiValues::lastSegment(o.resourceId);
            o.requestId = reply.value().requestId;
        } else {
            o.name = item.toString();
            o.requestId = reply.value().requestId;
        }
        if (!m_declaration.kind.backendNameField.isEmpty())
            o.spec.insert(m_declaration.kind.backendNameField, o.name);
        if (m_declaration.idIsName)
            o.resourceId = o.name;
        page.items.append(o);
    }
    page.continuation = ApiValues::nextPageToken(list, reply.value().body);
    return page;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "declarationreader.h"

#include "declaredbindings.h"
#include "secretreferencefield.h"

#include "declaredhook.h"
#include "oneofcheck.h"
#include "patterns.h"
#include "secretreference.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

namespace converge {

namespace {

using F = FieldSchema;

// Where in the file a value is, for errors, and the errors so far.
class Reading final
{
public:
    explicit Reading(QString source)
        : m_source(std::move(source))
    {}

    void fail(const QString &path, const QString &message)
    {
        m_errors << QStringLiteral("%1: %2: %3").arg(m_source, path, message);
    }
    QStringList errors() const { return m_errors; }

    QString string(const QJsonObject &o, const QString &key, const QString &path,
                   bool required = false)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined()) {
            if (required)
                fail(path + QLatin1Char('.') + key, QStringLiteral("is required"));
            return {};
        }
        if (!v.isString())
            fail(path + QLatin1Char('.') + key, QStringLiteral("must be a string"));
        return v.toString();
    }
    QStringList strings(const QJsonObject &o, const QString &key, const QString &path)
    {
        QStringList out;
        const QJsonValue v = o.value(key);
        if (v.isUndefined())
            return out;
        if (!v.isArray()) {
            fail(path + QLatin1Char('.') + key, QStringLiteral("must be a list of strings"));
            return out;
        }
        for (const QJsonValue &item : v.toArray()) {
            if (!item.isString())
                fail(path + QLatin1Char('.') + key, QStringLiteral("must be a list of strings"));
            out << item.toString();
        }
        return out;
    }
    QJsonObject object(const QJsonObject &o, const QString &key, const QString &path)
    {
        const QJsonValue v = o.value(key);
        if (!v.isUndefined() && !v.isObject())
            fail(path + QLatin1Char('.') + key, QStringLiteral("must be an object"));
        return v.toObject();
    }
    void onlyKeys(const QJsonObject &o, const QStringList &known, const QString &path)
    {
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (!known.contains(it.key()))
                fail(path + QLatin1Char('.') + it.key(), QStringLiteral("is not a known key"));
        }
    }

private:
    QString m_source;
    QStringList m_errors;
};

struct ReadField
{
    FieldSchema schema;
    ApiField api;
};

ReadField readField(Reading &r, const QJsonObject &o, const QString &path)
{
    r.onlyKeys(
        o, {QStringLiteral("name"),      QStringLiteral("member"),    QStringLiteral("observed"),
            QStringLiteral("type"),      QStringLiteral("doc"),       QStringLiteral("required"),
            QStringLiteral("immutable"), QStringLiteral("secret"),    QStringLiteral("compared"),
            QStringLiteral("default"),   QStringLiteral("enum"),      QStringLiteral("pattern"),
            QStringLiteral("minLength"), QStringLiteral("maxLength"), QStringLiteral("minimum"),
            QStringLiteral("maximum"),   QStringLiteral("maxItems"),  QStringLiteral("fields"),
            QStringLiteral("items"),     QStringLiteral("values")},
        path);
    ReadField out;
    const QString name = r.string(o, QStringLiteral("name"), path, true);
    const QString type = r.string(o, QStringLiteral("type"), path, true);
    const QString doc = r.string(o, QStringLiteral("doc"), path);
    out.api.field = name;
    out.api.member = r.string(o, QStringLiteral("member"), path);
    out.api.observed = r.string(o, QStringLiteral("observed"), path);

    auto children = [&](const QString &key) {
        QList<FieldSchema> schemas;
        const QJsonValue v = o.value(key);
        if (!v.isArray()) {
            r.fail(path + QLatin1Char('.') + key, QStringLiteral("must be a list of fields"));
            return schemas;
        }
        const QJsonArray items = v.toArray();
        for (qsizetype i = 0; i < items.size(); ++i) {
            const QString at = QStringLiteral("%1.%2[%3]").arg(path, key).arg(i);
            ReadField child = readField(r, items.at(i).toObject(), at);
            schemas << child.schema;
            out.api.fields << child.api;
        }
        return schemas;
    };

    if (type == QLatin1String("string")) {
        out.schema = F::string(name, doc);
    } else if (type == QLatin1String("timestamp")) {
        out.schema = F::string(name, doc);
        out.schema.timestamp = true;
    } else if (type == QLatin1String("integer")) {
        out.schema = F::integer(name, doc);
    } else if (type == QLatin1String("boolean")) {
        out.schema = F::boolean(name, doc);
    } else if (type == QLatin1String("enum")) {
        out.schema = F::enumeration(name, r.strings(o, QStringLiteral("enum"), path), doc);
        if (out.schema.enumValues.isEmpty())
            r.fail(path + QStringLiteral(".enum"), QStringLiteral("an enum needs its values"));
    } else if (type == QLatin1String("object")) {
        out.schema = F::object(name, children(QStringLiteral("fields")), doc);
    } else if (type == QLatin1String("list")) {
        const QJsonObject item = r.object(o, QStringLiteral("items"), path);
        ReadField itemField = readField(r, item, path + QStringLiteral(".items"));
        out.schema = F::list(name, itemField.schema, doc);
        out.api.fields = itemField.api.fields;
    } else if (type == QLatin1String("secretRef")) {
        out.schema = SecretReferenceField::make(name, doc);
    } else if (type == QLatin1String("textOrSecretRef")) {
        out.schema = F::string(
            name, (doc.isEmpty() ? QString() : doc + QLatin1Char(' ')) +
                      QStringLiteral("Text, or for a secret a reference: {env: VARIABLE}, "
                                     "{keychain: ENTRY} or {file: PATH}, whose value never "
                                     "reaches the workspace, events or logs."));
        out.schema.orReference = true;
        out.schema.setCheck([](const QJsonValue &value) {
            return value.isObject() ? SecretReference::check(value.toObject()) : QString();
        });
    } else if (type == QLatin1String("map")) {
        const QJsonObject values = r.object(o, QStringLiteral("values"), path);
        ReadField valueField = readField(r, values, path + QStringLiteral(".values"));
        out.schema = F::map(name, valueField.schema, doc);
    } else {
        r.fail(path + QStringLiteral(".type"),
               QStringLiteral(
                   "\"%1\" is not one of string, timestamp, integer, boolean, enum, object, "
                   "list, map, secretRef, textOrSecretRef")
                   .arg(type));
    }
    out.schema.required = o.value(QStringLiteral("required")).toBool();
    out.schema.immutable = o.value(QStringLiteral("immutable")).toBool();
    out.schema.secret = o.value(QStringLiteral("secret")).toBool();
    out.schema.compared = o.value(QStringLiteral("compared")).toBool(true);
    if (o.contains(QStringLiteral("default")))
        out.schema.defaultValue = o.value(QStringLiteral("default"));
    const QString pattern = r.string(o, QStringLiteral("pattern"), path);
    if (!pattern.isEmpty()) {
        if (!Patterns::isValid(pattern))
            r.fail(path + QStringLiteral(".pattern"),
                   QStringLiteral("\"%1\" is not a valid regular expression").arg(pattern));
        else
            out.schema.pattern = pattern;
    }
    out.schema.minLength = o.value(QStringLiteral("minLength")).toInt(-1);
    out.schema.maxLength = o.value(QStringLiteral("maxLength")).toInt(-1);
    out.schema.maxItems = o.value(QStringLiteral("maxItems")).toInt(-1);
    if (o.contains(QStringLiteral("minimum")))
        out.schema.minimum = qint64(o.value(QStringLiteral("minimum")).toDouble());
    if (o.contains(QStringLiteral("maximum")))
        out.schema.maximum = qint64(o.value(QStringLiteral("maximum")).toDouble());
    return out;
}

DeclaredCall readCall(Reading &r, const QJsonObject &o, const QString &path)
{
    r.onlyKeys(o, {QStringLiteral("operation"),
                   QStringLiteral("input"),
                   QStringLiteral("result"),
                   QStringLiteral("match"),
                   QStringLiteral("fields"),
                   QStringLiteral("members"),
                   QStringLiteral("inputToken"),
                   QStringLiteral("outputToken"),
                   QStringLiteral("limitKey"),
                   QStringLiteral("limit"),
                   QStringLiteral("member"),
                   QStringLiteral("each"),
                   QStringLiteral("shape"),
                   QStringLiteral("matchFields"),
                   QStringLiteral("idempotencyToken"),
                   QStringLiteral("item"),
                   QStringLiteral("key"),
                   QStringLiteral("value"),
                   QStringLiteral("absent"),
                   QStringLiteral("into"),
                   QStringLiteral("clear"),
                   QStringLiteral("changedOnly")},
               path);
    DeclaredCall call;
    call.operation = r.string(o, QStringLiteral("operation"), path, true);
    call.input = r.object(o, QStringLiteral("input"), path);
    call.result = r.string(o, QStringLiteral("result"), path);
    call.match = r.string(o, QStringLiteral("match"), path);
    call.fields = r.strings(o, QStringLiteral("fields"), path);
    call.members = r.object(o, QStringLiteral("members"), path);
    call.inputToken = r.string(o, QStringLiteral("inputToken"), path);
    call.outputToken = r.string(o, QStringLiteral("outputToken"), path);
    call.limitKey = r.string(o, QStringLiteral("limitKey"), path);
    call.limit = o.value(QStringLiteral("limit")).toInt();
    const QJsonObject each = r.object(o, QStringLiteral("each"), path);
    call.eachName = each.value(QStringLiteral("name")).toString();
    call.eachValue = each.value(QStringLiteral("value")).toString();
    call.matchFields = r.object(o, QStringLiteral("matchFields"), path);
    call.idempotencyToken = r.string(o, QStringLiteral("idempotencyToken"), path);
    call.item = r.string(o, QStringLiteral("item"), path);
    call.key = r.string(o, QStringLiteral("key"), path);
    call.value = r.string(o, QStringLiteral("value"), path);
    call.absent = r.strings(o, QStringLiteral("absent"), path);
    call.into = r.string(o, QStringLiteral("into"), path);
    call.clear = r.string(o, QStringLiteral("clear"), path);
    call.changedOnly = o.value(QStringLiteral("changedOnly")).toBool();
    if (!call.matchFields.isEmpty() && call.match.isEmpty())
        r.fail(path + QStringLiteral(".matchFields"),
               QStringLiteral("needs match, the member that holds the ID"));
    return call;
}

DeclaredTags::Shape readShape(Reading &r, const QJsonValue &v, const QString &path)
{
    DeclaredTags::Shape shape;
    if (v.isString() && v.toString() == QLatin1String("map"))
        return shape;
    const QJsonObject o = v.toObject();
    shape.isList = true;
    shape.key = r.string(o, QStringLiteral("key"), path, true);
    shape.value = r.string(o, QStringLiteral("value"), path, true);
    if (!v.isObject())
        r.fail(path, QStringLiteral("is \"map\" or {key, value}"));
    return shape;
}

DeclaredTags readTags(Reading &r, const QJsonObject &o, const QString &path)
{
    DeclaredTags tags;
    if (o.isEmpty())
        return tags;
    r.onlyKeys(o,
               {QStringLiteral("field"), QStringLiteral("shape"), QStringLiteral("read"),
                QStringLiteral("add"), QStringLiteral("remove")},
               path);
    tags.field = r.string(o, QStringLiteral("field"), path, true);
    tags.spec = readShape(r, o.value(QStringLiteral("shape")), path + QStringLiteral(".shape"));
    const auto part = [&](const QString &key, DeclaredCall &call, QString &member,
                          DeclaredTags::Shape *shape) {
        const QString at = path + QLatin1Char('.') + key;
        const QJsonObject p = r.object(o, key, path);
        call = readCall(r, p, at);
        member = r.string(p, QStringLiteral("member"), at, true);
        if (shape)
            *shape = readShape(r, p.value(QStringLiteral("shape")), at + QStringLiteral(".shape"));
    };
    part(QStringLiteral("read"), tags.read, tags.readMember, &tags.readShape);
    part(QStringLiteral("add"), tags.add, tags.addMember, &tags.addShape);
    part(QStringLiteral("remove"), tags.remove, tags.removeMember, nullptr);
    return tags;
}

// A reference (`topicRef: {name}`) is a field of its own beside the ID field it stands in for
// (`topicARN`), with its immutability; where the ID field is required, one of the two is.
std::function<QString(const QJsonValue &)> readReferences(Reading &r, const QJsonObject &o,
                                                          const QString &path,
                                                          QList<FieldSchema> &schemas, Kind &kind)
{
    const QJsonArray references = o.value(QStringLiteral("references")).toArray();
    QStringList exactlyOne;
    QStringList atMostOne;
    for (qsizetype i = 0; i < references.size(); ++i) {
        const QString at = QStringLiteral("%1.references[%2]").arg(path).arg(i);
        const QJsonObject ref = references.at(i).toObject();
        r.onlyKeys(ref,
                   {QStringLiteral("field"), QStringLiteral("kind"), QStringLiteral("idField"),
                    QStringLiteral("from")},
                   at);
        KindReference reference;
        reference.field = r.string(ref, QStringLiteral("field"), at, true);
        reference.kind = r.string(ref, QStringLiteral("kind"), at, true);
        reference.idField = r.string(ref, QStringLiteral("idField"), at, true);
        reference.from = r.string(ref, QStringLiteral("from"), at);
        const auto idField =
            std::find_if(schemas.begin(), schemas.end(),
                         [&](const FieldSchema &f) { return f.name == reference.idField; });
        if (idField == schemas.end()) {
            r.fail(at + QStringLiteral(".idField"),
                   QStringLiteral("names %1, which is not a field").arg(reference.idField));
            continue;
        }
        FieldSchema field = F::object(
            reference.field,
            {F::string(QStringLiteral("name"),
                       QStringLiteral("The %1's metadata.name.").arg(reference.kind))
                 .setRequired()
                 .setLength(1, 253)},
            QStringLiteral("%3The %1 of this workspace whose %4 is sent as %2, once "
                           "it is Ready; or give %2 itself.")
                .arg(reference.kind, reference.idField,
                     idField->required ? QStringLiteral("One of the two is required. ") : QString(),
                     reference.from.isEmpty() ? QStringLiteral("ID") : reference.from));
        field.immutable = idField->immutable;
        reference.required = idField->required;
        (idField->required ? exactlyOne : atMostOne) << reference.field << reference.idField;
        idField->required = false;
        schemas.insert(std::distance(schemas.begin(), idField) + 1, field);
        kind.references << reference;
    }
    if (exactlyOne.isEmpty() && atMostOne.isEmpty())
        return nullptr;
    return [exactlyOne, atMostOne](const QJsonValue &value) {
        const QJsonObject spec = value.toObject();
        for (qsizetype i = 0; i + 1 < exactlyOne.size(); i += 2) {
            const int given =
                int(spec.contains(exactlyOne[i])) + int(spec.contains(exactlyOne[i + 1]));
            if (given != 1)
                return QStringLiteral("give exactly one of %1 and %2")
                    .arg(exactlyOne[i], exactlyOne[i + 1]);
        }
        for (qsizetype i = 0; i + 1 < atMostOne.size(); i += 2) {
            if (spec.contains(atMostOne[i]) && spec.contains(atMostOne[i + 1]))
                return QStringLiteral("give at most one of %1 and %2")
                    .arg(atMostOne[i], atMostOne[i + 1]);
        }
        return QString();
    };
}

// `oneOf: {code: [file, [s3Bucket, s3Key], imageURI]}`: the object at each dotted path takes
// exactly one of the fields or groups of fields named (a group's go together).
void readOneOf(Reading &r, const QJsonObject &oneOf, const QString &path, FieldSchema &spec)
{
    for (auto it = oneOf.begin(); it != oneOf.end(); ++it) {
        const QString at = path + QStringLiteral(".oneOf.") + it.key();
        FieldSchema *object = &spec;
        for (const QString &part : it.key().split(QLatin1Char('.'))) {
            const auto found = std::find_if(object->fields.begin(), object->fields.end(),
                                            [&](const FieldSchema &f) { return f.name == part; });
            object = found == object->fields.end() ? nullptr : &*found;
            if (!object)
                break;
        }
        if (!object || object->type != FieldSchema::Type::Object) {
            r.fail(at, QStringLiteral("is not an object field"));
            continue;
        }
        QList<QStringList> groups;
        for (const QJsonValue &entry : it.value().toArray()) {
            const QStringList group =
                entry.isArray()
                    ? r.strings(QJsonObject{{QStringLiteral("g"), entry}}, QStringLiteral("g"), at)
                    : QStringList{entry.toString()};
            for (const QString &name : group) {
                if (!object->field(name))
                    r.fail(at, QStringLiteral("names %1, which is not a field").arg(name));
            }
            groups << group;
        }
        if (groups.size() < 2)
            r.fail(at, QStringLiteral("must name at least two fields"));
        else
            object->setCheck(OneOfCheck::make(groups));
    }
}

// The mapping to ACK's counterpart; every field it names must be a spec field.
DeclaredAck readAck(Reading &r, const QJsonObject &o, const QString &path, const Kind &kind)
{
    DeclaredAck ack;
    if (o.isEmpty())
        return ack;
    r.onlyKeys(o,
               {QStringLiteral("apiVersion"), QStringLiteral("kind"), QStringLiteral("fields"),
                QStringLiteral("omit"), QStringLiteral("secretKeyRefs"),
                QStringLiteral("adoptionFields"), QStringLiteral("plainSecrets"),
                QStringLiteral("local"), QStringLiteral("localInstead")},
               path);
    ack.apiVersion = r.string(o, QStringLiteral("apiVersion"), path, true);
    ack.kind = r.string(o, QStringLiteral("kind"), path, true);
    if (!ack.apiVersion.contains(QLatin1Char('/')))
        r.fail(path + QStringLiteral(".apiVersion"), QStringLiteral("must be GROUP/VERSION"));
    const auto known = [&](const QString &field, const QString &at) {
        if (field != QLatin1String("$id") && !kind.spec.field(field))
            r.fail(at, QStringLiteral("names %1, which is not a field").arg(field));
    };
    const QJsonObject fields = r.object(o, QStringLiteral("fields"), path);
    for (auto it = fields.begin(); it != fields.end(); ++it) {
        known(it.key(), path + QStringLiteral(".fields"));
        ack.fields.insert(it.key(), it.value().toString());
    }
    ack.omit = r.strings(o, QStringLiteral("omit"), path);
    ack.local = r.strings(o, QStringLiteral("local"), path);
    ack.localInstead = r.string(o, QStringLiteral("localInstead"), path);
    ack.secretKeyRefs = r.strings(o, QStringLiteral("secretKeyRefs"), path);
    for (const QString &field : std::as_const(ack.omit) + ack.secretKeyRefs)
        known(field, path);
    ack.adoptionFields = r.object(o, QStringLiteral("adoptionFields"), path);
    for (auto it = ack.adoptionFields.begin(); it != ack.adoptionFields.end(); ++it)
        known(it.value().toString(), path + QStringLiteral(".adoptionFields"));
    if (ack.adoptionFields.isEmpty() && !kind.backendNameField.isEmpty())
        ack.adoptionFields.insert(ack.ackField(kind.backendNameField), kind.backendNameField);
    const QJsonArray secrets = o.value(QStringLiteral("plainSecrets")).toArray();
    for (qsizetype i = 0; i < secrets.size(); ++i) {
        const QString at = QStringLiteral("%1.plainSecrets[%2]").arg(path).arg(i);
        const QJsonObject secret = secrets.at(i).toObject();
        r.onlyKeys(secret,
                   {QStringLiteral("field"), QStringLiteral("when"), QStringLiteral("into")}, at);
        DeclaredAck::PlainSecret plain{r.string(secret, QStringLiteral("field"), at, true),
                                       r.object(secret, QStringLiteral("when"), at),
                                       r.string(secret, QStringLiteral("into"), at)};
        known(plain.field, at);
        if (!plain.into.isEmpty())
            known(plain.into, at + QStringLiteral(".into"));
        for (auto it = plain.when.begin(); it != plain.when.end(); ++it)
            known(it.key(), at + QStringLiteral(".when"));
        ack.plainSecrets << plain;
    }
    return ack;
}

KindDeclaration readKind(Reading &r, const QJsonObject &o, const QString &path,
                         const ServiceDeclaration &service, const QString &group,
                         const QString &version, const QString &ownerKind)
{
    r.onlyKeys(o,
               {QStringLiteral("kind"),
                QStringLiteral("description"),
                QStringLiteral("hook"),
                QStringLiteral("nameField"),
                QStringLiteral("nameMember"),
                QStringLiteral("idMember"),
                QStringLiteral("ack"),
                QStringLiteral("kcc"),
                QStringLiteral("fields"),
                QStringLiteral("create"),
                QStringLiteral("alreadyExists"),
                QStringLiteral("read"),
                QStringLiteral("updates"),
                QStringLiteral("delete"),
                QStringLiteral("list"),
                QStringLiteral("listIsComplete"),
                QStringLiteral("tags"),
                QStringLiteral("states"),
                QStringLiteral("oneOf"),
                QStringLiteral("notFound"),
                QStringLiteral("attributes"),
                QStringLiteral("locate"),
                QStringLiteral("listItemsAreIds"),
                QStringLiteral("references"),
                QStringLiteral("secrets"),
                QStringLiteral("collections"),
                QStringLiteral("documents"),
                QStringLiteral("followReads"),
                QStringLiteral("writeOnly"),
                QStringLiteral("createIsIdempotent"),
                QStringLiteral("createAnswersResource"),
                QStringLiteral("secretWhen"),
                QStringLiteral("idIsName"),
                QStringLiteral("unordered"),
                QStringLiteral("listExclude"),
                QStringLiteral("listWithin"),
                QStringLiteral("absentConfirmedByList"),
                QStringLiteral("pending"),
                QStringLiteral("shortNames"),
                QStringLiteral("fromId")},
               path);
    KindDeclaration d;
    d.service = service.name;
    d.serviceTitle = service.title;
    // proto3's JSON leaves out a field at its zero value (false, 0, ""): Google's answers.
    d.omitsZeroValues = service.protocol == QLatin1String("google-rest");
    d.kind.group = group;
    d.kind.version = version;
    d.kind.ownerKind = ownerKind;
    d.kind.service = service.title;
    d.kind.name = r.string(o, QStringLiteral("kind"), path, true);
    d.kind.description = r.string(o, QStringLiteral("description"), path);
    d.kind.backendNameField = r.string(o, QStringLiteral("nameField"), path);
    d.hook = r.string(o, QStringLiteral("hook"), path);
    if (!d.hook.isEmpty() && !DeclaredHook::names().contains(d.hook))
        r.fail(path + QStringLiteral(".hook"),
               QStringLiteral("\"%1\" is not a hook Converge has (%2)")
                   .arg(d.hook, DeclaredHook::names().join(QStringLiteral(", "))));
    d.idIsName = o.value(QStringLiteral("idIsName")).toBool();
    d.nameMember = r.string(o, QStringLiteral("nameMember"), path);
    d.idMember = r.string(o, QStringLiteral("idMember"), path);

    QList<FieldSchema> schemas{
        F::object(
            QStringLiteral("owner"),
            {F::string(QStringLiteral("name"), QStringLiteral("The %1's name.").arg(ownerKind))
                 .setRequired()
                 .setLength(1, 253)},
            QStringLiteral("The %1 the resource lives in.").arg(ownerKind))
            .setRequired()
            .setImmutable()};
    const QJsonArray fields = o.value(QStringLiteral("fields")).toArray();
    for (qsizetype i = 0; i < fields.size(); ++i) {
        ReadField f =
            readField(r, fields.at(i).toObject(), QStringLiteral("%1.fields[%2]").arg(path).arg(i));
        schemas << f.schema;
        d.fields << f.api;
    }
    auto referencesCheck = readReferences(r, o, path, schemas, d.kind);
    // A value that is a secret by another field's value: one of the two fields, as it says.
    const QJsonObject when = r.object(o, QStringLiteral("secretWhen"), path);
    auto &sw = d.secretWhen;
    sw.field = when.value(QStringLiteral("field")).toString();
    sw.value = when.value(QStringLiteral("value")).toString();
    sw.secret = when.value(QStringLiteral("secret")).toString();
    sw.plain = when.value(QStringLiteral("plain")).toString();
    std::function<QString(const QJsonValue &)> secretCheck;
    if (!when.isEmpty()) {
        for (FieldSchema &f : schemas) {
            if (f.name == sw.secret || f.name == sw.plain)
                f.required = false;
        }
        secretCheck = [sw](const QJsonValue &value) {
            const QJsonObject spec = value.toObject();
            const bool secret = spec.value(sw.field).toString() == sw.value;
            if (secret && (spec.contains(sw.plain) || !spec.contains(sw.secret)))
                return QStringLiteral("a %1 %2 takes its value only by reference: give %3 "
                                      "({env: VARIABLE}, {keychain: ENTRY} or {file: PATH}), not "
                                      "%4")
                    .arg(sw.value, sw.field, sw.secret, sw.plain);
            if (!secret && (spec.contains(sw.secret) || !spec.contains(sw.plain)))
                return QStringLiteral("give %1; %2 is for a %3 %4 only")
                    .arg(sw.plain, sw.secret, sw.value, sw.field);
            return QString();
        };
    }
    d.kind.spec = F::object(QStringLiteral("spec"), schemas);
    if (referencesCheck || secretCheck)
        d.kind.spec.check = [referencesCheck, secretCheck](const QJsonValue &value) {
            if (referencesCheck) {
                if (QString problem = referencesCheck(value); !problem.isEmpty())
                    return problem;
            }
            return secretCheck ? secretCheck(value) : QString();
        };
    readOneOf(r, r.object(o, QStringLiteral("oneOf"), path), path, d.kind.spec);
    if (!d.kind.backendNameField.isEmpty() && !d.kind.spec.field(d.kind.backendNameField))
        r.fail(path + QStringLiteral(".nameField"),
               QStringLiteral("names %1, which is not a field").arg(d.kind.backendNameField));
    d.ack =
        readAck(r, r.object(o, QStringLiteral("ack"), path), path + QStringLiteral(".ack"), d.kind);
    QList<QPair<QString, QString>> kccProblems;
    d.kcc = DeclaredKcc::read(r.object(o, QStringLiteral("kcc"), path), d.kind,
                              path + QStringLiteral(".kcc"), &kccProblems);
    for (const auto &[where, problem] : kccProblems)
        r.fail(where, problem);

    const auto call = [&](const QString &key) {
        return o.contains(key) ? readCall(r, r.object(o, key, path), path + QLatin1Char('.') + key)
                               : DeclaredCall{};
    };
    d.create = call(QStringLiteral("create"));
    d.locate = call(QStringLiteral("locate"));
    d.listItemsAreIds = o.value(QStringLiteral("listItemsAreIds")).toBool();
    const QJsonObject attributes = r.object(o, QStringLiteral("attributes"), path);
    d.attributesMember = r.string(attributes, QStringLiteral("member"), path);
    d.attributeMembers =
        r.strings(attributes, QStringLiteral("members"), path + QStringLiteral(".attributes"));
    d.read = call(QStringLiteral("read"));
    d.remove = call(QStringLiteral("delete"));
    d.list = call(QStringLiteral("list"));
    d.listWithin = call(QStringLiteral("listWithin"));
    d.listWithinMember = r.string(r.object(o, QStringLiteral("listWithin"), path),
                                  QStringLiteral("member"), path + QStringLiteral(".listWithin"));
    d.absentConfirmedByList = o.value(QStringLiteral("absentConfirmedByList")).toBool();
    d.pending = call(QStringLiteral("pending"));
    d.shortNames = r.strings(o, QStringLiteral("shortNames"), path);
    const QJsonObject fromId = r.object(o, QStringLiteral("fromId"), path);
    for (auto it = fromId.begin(); it != fromId.end(); ++it)
        d.fromId.insert(it.key(), it.value().toString());
    if (!d.read.isDeclared())
        r.fail(path + QStringLiteral(".read"), QStringLiteral("is required"));
    d.alreadyExists = r.strings(o, QStringLiteral("alreadyExists"), path);
    d.createIsIdempotent = o.value(QStringLiteral("createIsIdempotent")).toBool();
    d.createAnswersResource = o.value(QStringLiteral("createAnswersResource")).toBool();
    d.notFound = r.strings(o, QStringLiteral("notFound"), path);
    d.listIsComplete = o.value(QStringLiteral("listIsComplete")).toBool();
    const QJsonObject exclude = r.object(o, QStringLiteral("listExclude"), path);
    d.listExcludeMember =
        r.string(exclude, QStringLiteral("member"), path + QStringLiteral(".listExclude"));
    d.listExcludePattern =
        r.string(exclude, QStringLiteral("pattern"), path + QStringLiteral(".listExclude"));
    if (!d.listExcludePattern.isEmpty() && !Patterns::isValid(d.listExcludePattern))
        r.fail(
            path + QStringLiteral(".listExclude.pattern"),
            QStringLiteral("\"%1\" is not a valid regular expression").arg(d.listExcludePattern));
    const QJsonArray followReads = o.value(QStringLiteral("followReads")).toArray();
    for (qsizetype i = 0; i < followReads.size(); ++i)
        d.followReads << readCall(r, followReads.at(i).toObject(),
                                  QStringLiteral("%1.followReads[%2]").arg(path).arg(i));
    const QJsonArray updates = o.value(QStringLiteral("updates")).toArray();
    for (qsizetype i = 0; i < updates.size(); ++i)
        d.updates << readCall(r, updates.at(i).toObject(),
                              QStringLiteral("%1.updates[%2]").arg(path).arg(i));
    for (const DeclaredCall &c : std::as_const(d.updates) + QList<DeclaredCall>{d.create}) {
        for (const QString &field : c.fields) {
            if (!d.kind.spec.field(field))
                r.fail(path + QLatin1Char('.') + c.operation,
                       QStringLiteral("carries %1, which is not a field").arg(field));
        }
    }
    d.tags = readTags(r, r.object(o, QStringLiteral("tags"), path), path + QStringLiteral(".tags"));
    if (d.tags.isDeclared() && !d.kind.spec.field(d.tags.field))
        r.fail(path + QStringLiteral(".tags.field"),
               QStringLiteral("names %1, which is not a field").arg(d.tags.field));
    const QJsonArray secrets = o.value(QStringLiteral("secrets")).toArray();
    for (qsizetype i = 0; i < secrets.size(); ++i) {
        const QString at = QStringLiteral("%1.secrets[%2]").arg(path).arg(i);
        const QJsonObject secret = secrets.at(i).toObject();
        r.onlyKeys(secret, {QStringLiteral("field"), QStringLiteral("read")}, at);
        DeclaredSecret declared;
        declared.field = r.string(secret, QStringLiteral("field"), at, true);
        declared.read =
            readCall(r, r.object(secret, QStringLiteral("read"), at), at + QStringLiteral(".read"));
        for (const ApiField &field : std::as_const(d.fields)) {
            if (field.field == declared.field)
                declared.member = field.member;
        }
        if (declared.member.isEmpty())
            r.fail(at + QStringLiteral(".field"),
                   QStringLiteral("names %1, which is not a field").arg(declared.field));
        d.secrets << declared;
    }
    const QJsonArray collections = o.value(QStringLiteral("collections")).toArray();
    for (qsizetype i = 0; i < collections.size(); ++i) {
        const QString at = QStringLiteral("%1.collections[%2]").arg(path).arg(i);
        const QJsonObject c = collections.at(i).toObject();
        r.onlyKeys(c,
                   {QStringLiteral("field"), QStringLiteral("type"), QStringLiteral("read"),
                    QStringLiteral("value"), QStringLiteral("add"), QStringLiteral("remove"),
                    QStringLiteral("documents")},
                   at);
        DeclaredCollection collection;
        collection.field = r.string(c, QStringLiteral("field"), at, true);
        collection.isMap = r.string(c, QStringLiteral("type"), at, true) == QLatin1String("map");
        collection.documents = c.value(QStringLiteral("documents")).toBool();
        const auto part = [&](const QString &key) {
            return c.contains(key) ? readCall(r, r.object(c, key, at), at + QLatin1Char('.') + key)
                                   : DeclaredCall{};
        };
        collection.read = part(QStringLiteral("read"));
        collection.value = part(QStringLiteral("value"));
        collection.add = part(QStringLiteral("add"));
        collection.remove = part(QStringLiteral("remove"));
        if (!d.kind.spec.field(collection.field))
            r.fail(at + QStringLiteral(".field"),
                   QStringLiteral("names %1, which is not a field").arg(collection.field));
        if (!collection.read.isDeclared() || !collection.add.isDeclared() ||
            !collection.remove.isDeclared() || (collection.isMap && !collection.value.isDeclared()))
            r.fail(at, QStringLiteral("needs read, add and remove calls (and value, for a map)"));
        d.collections << collection;
    }
    d.documents = r.strings(o, QStringLiteral("documents"), path);
    d.writeOnly = r.strings(o, QStringLiteral("writeOnly"), path);
    d.unordered = r.strings(o, QStringLiteral("unordered"), path);
    for (const QString &field : std::as_const(d.writeOnly)) {
        if (!d.kind.spec.field(field))
            r.fail(path + QStringLiteral(".writeOnly"),
                   QStringLiteral("names %1, which is not a field").arg(field));
    }
    for (const QString &document : std::as_const(d.documents)) {
        if (!d.kind.spec.field(document))
            r.fail(path + QStringLiteral(".documents"),
                   QStringLiteral("names %1, which is not a field").arg(document));
    }
    // A document may be given as an object too (SchemaValidator stores it as text).
    for (FieldSchema &field : d.kind.spec.fields) {
        if (d.documents.contains(field.name) && field.type == FieldSchema::Type::String)
            field.document = true;
    }
    const QJsonObject states = r.object(o, QStringLiteral("states"), path);
    d.states.gone = states.value(QStringLiteral("gone")).toString();
    d.states.member = states.value(QStringLiteral("member")).toString();
    d.states.reason = states.value(QStringLiteral("reason")).toString();
    d.states.ready = r.strings(states, QStringLiteral("ready"), path + QStringLiteral(".states"));
    d.states.progress =
        r.strings(states, QStringLiteral("progress"), path + QStringLiteral(".states"));
    d.states.deleting =
        r.strings(states, QStringLiteral("deleting"), path + QStringLiteral(".states"));
    d.states.failed = r.strings(states, QStringLiteral("failed"), path + QStringLiteral(".states"));
    d.states.scheduled =
        r.strings(states, QStringLiteral("scheduled"), path + QStringLiteral(".states"));
    return d;
}

} // namespace

DeclarationReader::Result DeclarationReader::read(const QByteArray &json, const QString &source,
                                                  const QString &group, const QString &version,
                                                  const QString &ownerKind)
{
    Result result;
    Reading r(source);
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        r.fail(QStringLiteral("offset %1").arg(parseError.offset),
               parseError.error != QJsonParseError::NoError ? parseError.errorString()
                                                            : QStringLiteral("not an object"));
        result.errors = r.errors();
        return result;
    }
    const QJsonObject root = document.object();
    r.onlyKeys(root,
               {QStringLiteral("format"), QStringLiteral("generated"), QStringLiteral("service"),
                QStringLiteral("kinds"), QStringLiteral("shapes")},
               QStringLiteral("$"));
    if (root.value(QStringLiteral("format")).toInt() != 1)
        r.fail(QStringLiteral("format"), QStringLiteral("must be 1"));
    const QJsonObject s = r.object(root, QStringLiteral("service"), QStringLiteral("$"));
    const QString at = QStringLiteral("service");
    ServiceDeclaration &service = result.service;
    service.name = r.string(s, QStringLiteral("name"), at, true);
    service.title = r.string(s, QStringLiteral("title"), at, true);
    service.protocol = r.string(s, QStringLiteral("protocol"), at, true);
    service.jsonVersion = r.string(s, QStringLiteral("jsonVersion"), at);
    service.targetPrefix = r.string(s, QStringLiteral("targetPrefix"), at);
    service.signingName = r.string(s, QStringLiteral("signingName"), at, true);
    service.endpointPrefix = r.string(s, QStringLiteral("endpointPrefix"), at, true);
    service.apiVersion = r.string(s, QStringLiteral("apiVersion"), at, true);
    if (service.protocol == QLatin1String("json") &&
        (service.jsonVersion.isEmpty() || service.targetPrefix.isEmpty()))
        r.fail(at, QStringLiteral("the json protocol needs jsonVersion and targetPrefix"));
    service.operations = r.object(s, QStringLiteral("operations"), at);
    service.shapes = r.object(root, QStringLiteral("shapes"), QStringLiteral("$"));
    const QJsonArray kinds = root.value(QStringLiteral("kinds")).toArray();
    for (qsizetype i = 0; i < kinds.size(); ++i)
        service.kinds << readKind(r, kinds.at(i).toObject(), QStringLiteral("kinds[%1]").arg(i),
                                  service, group, version, ownerKind);
    for (const auto &[path, problem] : DeclaredBindings::problems(service))
        r.fail(path, problem);
    result.errors = r.errors();
    return result;
}

QList<DeclarationReader::Result> DeclarationReader::readFolder(const QString &folder,
                                                               const QString &group,
                                                               const QString &version,
                                                               const QString &ownerKind)
{
    QList<Result> results;
    const QDir dir(folder);
    for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        QFile file(dir.filePath(name));
        if (!file.open(QIODevice::ReadOnly)) {
            Result failed;
            failed.errors << QStringLiteral("%1: %2").arg(name, file.errorString());
            results << failed;
            continue;
        }
        results << read(file.readAll(), name, group, version, ownerKind);
    }
    return results;
}

} // namespace converge

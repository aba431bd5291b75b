// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "schemavalidator.h"

#include "instants.h"
#include "kindregistry.h"
#include "testkinds.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace converge;

namespace {

// JSON written with single quotes, so that rows stay readable.
QJsonObject json(QByteArray data)
{
    data.replace('\'', '"');
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(data, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        qFatal("bad test JSON: %s", data.constData());
    return doc.object();
}

// A Widget named w1 owned by g1, with `spec` fields merged over the required owner.
QJsonObject widget(const QByteArray &spec = "{}", const QByteArray &metadata = "{'name': 'w1'}")
{
    QJsonObject s{
        {QStringLiteral("owner"), QJsonObject{{QStringLiteral("name"), QStringLiteral("g1")}}}};
    const QJsonObject extra = json(spec);
    for (auto it = extra.constBegin(); it != extra.constEnd(); ++it)
        s.insert(it.key(), it.value());
    return {{QStringLiteral("apiVersion"), QStringLiteral("test.converge.dev/v1")},
            {QStringLiteral("kind"), QStringLiteral("Widget")},
            {QStringLiteral("metadata"), json(metadata)},
            {QStringLiteral("spec"), s}};
}

QJsonObject with(QJsonObject document, const QString &key, const QJsonValue &value)
{
    if (value.isUndefined())
        document.remove(key);
    else
        document.insert(key, value);
    return document;
}

QStringList texts(const QList<ValidationError> &errors)
{
    QStringList list;
    for (const ValidationError &e : errors)
        list.append(e.toString());
    return list;
}

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

const char *const nameHint = "lower-case letters, digits, '-' and '.', starting and ending with a "
                             "letter or digit";

} // namespace

class tst_SchemaValidator final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { test::registerTestKinds(m_registry); }

    void rules_data()
    {
        QTest::addColumn<QJsonObject>("document");
        QTest::addColumn<QStringList>("errors");
        const QJsonValue none(QJsonValue::Undefined);
        const QString secret = s("is a secret and cannot be given inline; reference it instead "
                                 "(keychain, env or file)");

        // Valid documents.
        QTest::newRow("minimal") << widget() << QStringList();
        QTest::newRow("every field") << widget("{'azureName': 'w-1', 'publicAccess': 'Blob', "
                                               "'replicas': 10, 'enabled': false, "
                                               "'metadata': {'team': 'a', 'a.b': ''}, "
                                               "'tags': [{'key': 'k', 'value': 'v'}], "
                                               "'etag': 'x', 'source': {'b': 'y'}}")
                                     << QStringList();
        QTest::newRow("integral double") << widget("{'replicas': 3.0}") << QStringList();
        QTest::newRow("exported metadata accepted")
            << widget("{}", "{'name': 'w1', 'uid': 'u', 'generation': 3, 'resourceVersion': '7', "
                            "'creationTimestamp': '2024-01-01T00:00:00Z', 'finalizers': ['f'], "
                            "'deletionTimestamp': '2024-01-02T00:00:00Z'}")
            << QStringList();
        for (const char *policy : {"manage", "skip", "detach-on-delete"})
            QTest::addRow("policy %s", policy)
                << widget("{}", QByteArray("{'name': 'w1', 'annotations': "
                                           "{'converge.dev/reconcile-policy': '") +
                                    policy + "'}}")
                << QStringList();
        QTest::newRow("status ignored unless kept")
            << with(widget(), s("status"), s("garbage")) << QStringList();

        // apiVersion and kind.
        QTest::newRow("apiVersion missing")
            << with(widget(), s("apiVersion"), none) << QStringList{s("apiVersion: is required")};
        QTest::newRow("apiVersion not a string")
            << with(widget(), s("apiVersion"), 1)
            << QStringList{s("apiVersion: expected a string, got a number")};
        QTest::newRow("apiVersion of another version")
            << with(widget(), s("apiVersion"), s("test.converge.dev/v2"))
            << QStringList{s("apiVersion: kind Widget has apiVersion test.converge.dev/v1, not "
                             "\"test.converge.dev/v2\"")};
        QTest::newRow("kind missing")
            << with(widget(), s("kind"), none) << QStringList{s("kind: is required")};
        QTest::newRow("kind misspelt")
            << with(widget(), s("kind"), s("Widgte"))
            << QStringList{s("kind: unknown kind \"Widgte\"; did you mean \"Widget\"?")};
        QTest::newRow("kind in lower case")
            << with(widget(), s("kind"), s("widget"))
            << QStringList{s("kind: unknown kind \"widget\"; did you mean \"Widget\"?")};
        QTest::newRow("kind unknown, metadata still checked")
            << with(with(widget(), s("kind"), s("Nothing")), s("metadata"), QJsonObject())
            << QStringList{s("kind: unknown kind \"Nothing\" (known: Gadget, Widget)"),
                           s("metadata.name: is required")};

        // Unknown fields, everywhere.
        QTest::newRow("unknown top-level field")
            << with(widget(), s("stauts"), QJsonObject())
            << QStringList{s("stauts: unknown field; did you mean \"status\"?")};
        QTest::newRow("unknown top-level field, nothing near")
            << with(widget(), s("zzzzzz"), 1)
            << QStringList{s("zzzzzz: unknown field (known: apiVersion, kind, metadata, spec, "
                             "status)")};
        QTest::newRow("unknown metadata field")
            << widget("{}", "{'name': 'w1', 'lables': {}}")
            << QStringList{s("metadata.lables: unknown field; did you mean \"labels\"?")};
        QTest::newRow("unknown spec field")
            << widget("{'publicAcess': 'Blob'}")
            << QStringList{s("spec.publicAcess: unknown field; did you mean \"publicAccess\"?")};
        QTest::newRow("unknown spec field, other case")
            << widget("{'azurename': 'abc'}")
            << QStringList{s("spec.azurename: unknown field; did you mean \"azureName\"?")};
        QTest::newRow("unknown field in a list item")
            << widget("{'tags': [{'key': 'k', 'vlaue': 'v'}]}")
            << QStringList{s("spec.tags[0].vlaue: unknown field; did you mean \"value\"?")};
        QTest::newRow("unknown field in an object")
            << widget("{'owner': {'name': 'g1', 'nmae': 'x'}}")
            << QStringList{s("spec.owner.nmae: unknown field; did you mean \"name\"?")};
        QTest::newRow("unknown field with a quoted name")
            << widget("{'source': {'a': 'x', 'x.y': 1}}")
            << QStringList{s("spec.source[\"x.y\"]: unknown field (known: a, b, mode)")};

        // Types.
        QTest::newRow("string got number") << widget("{'azureName': 5}")
                                           << QStringList{s("spec.azureName: expected a string, "
                                                            "got a number")};
        QTest::newRow("string got null")
            << widget("{'azureName': null}")
            << QStringList{s("spec.azureName: expected a string, got null")};
        QTest::newRow("int got string")
            << widget("{'replicas': '3'}")
            << QStringList{s("spec.replicas: expected an integer, got a string")};
        QTest::newRow("int got fraction")
            << widget("{'replicas': 2.5}")
            << QStringList{s("spec.replicas: expected an integer, got 2.5")};
        QTest::newRow("int beyond qint64")
            << widget("{'replicas': 1e20}")
            << QStringList{s("spec.replicas: 1e+20 is out of range for an integer")};
        QTest::newRow("bool got string")
            << widget("{'enabled': 'yes'}")
            << QStringList{s("spec.enabled: expected a boolean, got a string")};
        QTest::newRow("enum got number")
            << widget("{'publicAccess': 1}")
            << QStringList{s("spec.publicAccess: expected a string, got a number")};
        QTest::newRow("map got list")
            << widget("{'metadata': []}")
            << QStringList{s("spec.metadata: expected a map, got a list")};
        QTest::newRow("map value") << widget("{'metadata': {'team': 1}}")
                                   << QStringList{s("spec.metadata.team: expected a string, got "
                                                    "a number")};
        QTest::newRow("map value, quoted key")
            << widget("{'metadata': {'a.b': true}}")
            << QStringList{s("spec.metadata[\"a.b\"]: expected a string, got a boolean")};
        QTest::newRow("list got object") << widget("{'tags': {}}")
                                         << QStringList{s("spec.tags: expected a list, got an "
                                                          "object")};
        QTest::newRow("list item type")
            << widget("{'tags': ['x']}")
            << QStringList{s("spec.tags[0]: expected an object, got a string")};
        QTest::newRow("list item field type")
            << widget("{'tags': [{'key': 'a'}, {'key': 'b'}, {'key': 'c', 'value': 1}]}")
            << QStringList{s("spec.tags[2].value: expected a string, got a number")};
        QTest::newRow("object got string")
            << widget("{'owner': 'g1'}")
            << QStringList{s("spec.owner: expected an object, got a string")};
        QTest::newRow("spec got list") << with(widget(), s("spec"), QJsonArray())
                                       << QStringList{s("spec: expected an object, got a list")};

        // Required.
        QTest::newRow("spec missing")
            << with(widget(), s("spec"), none) << QStringList{s("spec.owner: is required")};
        QTest::newRow("required nested")
            << widget("{'owner': {}}") << QStringList{s("spec.owner.name: is required")};
        QTest::newRow("required in a list item")
            << widget("{'tags': [{'key': 'a'}, {'key': 'b'}, {'value': 'c'}]}")
            << QStringList{s("spec.tags[2].key: is required")};

        // Enum, pattern, length, range, items, check, secret.
        QTest::newRow("enum") << widget("{'publicAccess': 'public'}")
                              << QStringList{s("spec.publicAccess: \"public\" is not one of None, "
                                               "Blob, Container")};
        QTest::newRow("enum is case-sensitive")
            << widget("{'publicAccess': 'blob'}")
            << QStringList{s("spec.publicAccess: \"blob\" is not one of None, Blob, Container")};
        QTest::newRow("pattern with hint")
            << widget("{'azureName': 'Bad_Name'}")
            << QStringList{s("spec.azureName: \"Bad_Name\" is not valid (lower-case letters, "
                             "digits and '-', starting and ending with a letter or digit)")};
        QTest::newRow("pattern without hint")
            << json("{'apiVersion': 'test.converge.dev/v1', 'kind': 'Gadget', "
                    "'metadata': {'name': 'g1'}, 'spec': {'location': 'West US'}}")
            << QStringList{s("spec.location: \"West US\" does not match [a-z]+")};
        QTest::newRow("pattern is anchored")
            << widget("{'metadata': {'ok': 'x', 'a b': 'x'}}")
            << QStringList{s("spec.metadata[\"a b\"]: key \"a b\" is not valid (letters, digits, "
                             "'.', '_' and '-')")};
        QTest::newRow("too short") << widget("{'azureName': 'ab'}")
                                   << QStringList{s("spec.azureName: must be at least 3 "
                                                    "characters, got 2")};
        QTest::newRow("too long") << widget("{'azureName': 'abcdefghijklmnopqrstuvwxy'}")
                                  << QStringList{s("spec.azureName: must be at most 24 "
                                                   "characters, got 25")};
        QTest::newRow("map value too long")
            << widget(QByteArray("{'metadata': {'team': '" + QByteArray(257, 'x') + "'}}"))
            << QStringList{s("spec.metadata.team: must be at most 256 characters, got 257")};
        QTest::newRow("below minimum") << widget("{'replicas': 0}")
                                       << QStringList{s("spec.replicas: must be at least 1, "
                                                        "got 0")};
        QTest::newRow("above maximum") << widget("{'replicas': 11}")
                                       << QStringList{s("spec.replicas: must be at most 10, "
                                                        "got 11")};
        QTest::newRow("too many items")
            << widget("{'tags': [{'key': 'a'}, {'key': 'b'}, {'key': 'c'}, {'key': 'd'}]}")
            << QStringList{s("spec.tags: must have at most 3 items, got 4")};
        QTest::newRow("check: both") << widget("{'source': {'a': 'x', 'b': 'y'}}")
                                     << QStringList{s("spec.source: exactly one of a, b must be "
                                                      "given")};
        QTest::newRow("check: neither") << widget("{'source': {}}")
                                        << QStringList{s("spec.source: exactly one of a, b must "
                                                         "be given")};
        QTest::newRow("check waits for valid parts")
            << widget("{'source': {'a': 1}}")
            << QStringList{s("spec.source.a: expected a string, got a number")};
        QTest::newRow("secret inline")
            << widget("{'accountKey': 'c2VjcmV0'}") << QStringList{s("spec.accountKey: ") + secret};

        // metadata.
        QTest::newRow("metadata missing")
            << with(widget(), s("metadata"), none) << QStringList{s("metadata.name: is required")};
        QTest::newRow("metadata not an object")
            << with(widget(), s("metadata"), s("w1"))
            << QStringList{s("metadata: expected an object, got a string")};
        QTest::newRow("name empty")
            << widget("{}", "{'name': ''}") << QStringList{s("metadata.name: is required")};
        QTest::newRow("name not a string")
            << widget("{}", "{'name': 5}")
            << QStringList{s("metadata.name: expected a string, got a number")};
        QTest::newRow("name rules")
            << widget("{}", "{'name': 'Bad_Name'}")
            << QStringList{s("metadata.name: \"Bad_Name\" is not valid (") + s(nameHint) + s(")")};
        QTest::newRow("name too long")
            << widget("{}", QByteArray("{'name': '" + QByteArray(64, 'a') + "'}"))
            << QStringList{s("metadata.name: must be at most 63 characters, got 64")};
        QTest::newRow("labels not a map")
            << widget("{}", "{'name': 'w1', 'labels': ['a']}")
            << QStringList{s("metadata.labels: expected a map, got a list")};
        QTest::newRow("label not a string")
            << widget("{}", "{'name': 'w1', 'labels': {'team': 1}}")
            << QStringList{s("metadata.labels.team: expected a string, got a number")};
        QTest::newRow("annotation not a string")
            << widget("{}", "{'name': 'w1', 'annotations': {'example.com/x': true}}")
            << QStringList{s("metadata.annotations[\"example.com/x\"]: expected a string, got a "
                             "boolean")};
        QTest::newRow("policy unknown")
            << widget("{}", "{'name': 'w1', 'annotations': "
                            "{'converge.dev/reconcile-policy': 'Manage'}}")
            << QStringList{s("metadata.annotations[\"converge.dev/reconcile-policy\"]: "
                             "\"Manage\" is not one of manage, skip, detach-on-delete")};
        QTest::newRow("policy empty")
            << widget("{}", "{'name': 'w1', 'annotations': {'converge.dev/reconcile-policy': ''}}")
            << QStringList{s("metadata.annotations[\"converge.dev/reconcile-policy\"]: \"\" is "
                             "not one of manage, skip, detach-on-delete")};

        // Order: apiVersion, kind, metadata, spec (schema order, then unknown keys sorted),
        // status, then unknown top-level keys.
        QTest::newRow("document order")
            << with(with(widget("{'zz': 1, 'tags': [{}], 'azureName': 5, 'owner': {}, "
                                "'aa': 2}",
                                "{'name': 'X'}"),
                         s("apiVersion"), s("test.converge.dev/v0")),
                    s("extra"), 1)
            << QStringList{
                   s("apiVersion: kind Widget has apiVersion test.converge.dev/v1, not "
                     "\"test.converge.dev/v0\""),
                   s("metadata.name: \"X\" is not valid (") + s(nameHint) + s(")"),
                   s("spec.owner.name: is required"),
                   s("spec.azureName: expected a string, got a number"),
                   s("spec.tags[0].key: is required"),
                   s("spec.aa: unknown field (known: owner, azureName, publicAccess, replicas, "
                     "enabled, metadata, tags, etag, accountKey, source, peerRef, peerId)"),
                   s("spec.zz: unknown field (known: owner, azureName, publicAccess, replicas, "
                     "enabled, metadata, tags, etag, accountKey, source, peerRef, peerId)"),
                   s("extra: unknown field (known: apiVersion, kind, metadata, spec, status)")};
    }

    void rules()
    {
        QFETCH(QJsonObject, document);
        QFETCH(QStringList, errors);
        const SchemaValidator validator(m_registry);
        const SchemaValidator::Result result = validator.validate(document);
        QCOMPARE(texts(result.errors), errors);
        QCOMPARE(result.ok(), errors.isEmpty());
    }

    void defaults_data()
    {
        QTest::addColumn<QJsonObject>("spec");
        QTest::addColumn<QJsonObject>("expected");
        QTest::newRow("top level")
            << json("{'owner': {'name': 'g1'}}")
            << json("{'owner': {'name': 'g1'}, 'publicAccess': 'None', 'replicas': 1}");
        QTest::newRow("given values stay")
            << json("{'owner': {'name': 'g1'}, 'publicAccess': 'Blob', 'replicas': 2}")
            << json("{'owner': {'name': 'g1'}, 'publicAccess': 'Blob', 'replicas': 2}");
        QTest::newRow("inside a present object")
            << json("{'owner': {'name': 'g1'}, 'source': {'a': 'x'}}")
            << json("{'owner': {'name': 'g1'}, 'publicAccess': 'None', 'replicas': 1, "
                    "'source': {'a': 'x', 'mode': 'copy'}}");
        QTest::newRow("inside list items")
            << json("{'owner': {'name': 'g1'}, 'tags': [{'key': 'a'}, {'key': 'b', "
                    "'propagate': false}]}")
            << json("{'owner': {'name': 'g1'}, 'publicAccess': 'None', 'replicas': 1, "
                    "'tags': [{'key': 'a', 'propagate': true}, {'key': 'b', 'propagate': "
                    "false}]}");
        QTest::newRow("an integral double becomes an integer")
            << json("{'owner': {'name': 'g1'}, 'replicas': 4.0}")
            << json("{'owner': {'name': 'g1'}, 'publicAccess': 'None', 'replicas': 4}");
    }

    void defaults()
    {
        QFETCH(QJsonObject, spec);
        QFETCH(QJsonObject, expected);
        const SchemaValidator validator(m_registry);
        const auto result = validator.validate(with(widget(), s("spec"), spec));
        QVERIFY2(result.ok(), qPrintable(texts(result.errors).join(u'\n')));
        QCOMPARE(result.resource.spec, expected);
        const QJsonValue replicas = result.resource.spec.value(s("replicas"));
        QCOMPARE(replicas.toInteger(-1), replicas.toDouble());
    }

    void instants_data()
    {
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("canonical"); // empty: not an instant
        QTest::newRow("date alone is its midnight UTC")
            << QJsonValue(s("2027-01-01")) << s("2027-01-01T00:00:00Z");
        QTest::newRow("S3's milliseconds")
            << QJsonValue(s("2027-01-01T00:00:00.000Z")) << s("2027-01-01T00:00:00Z");
        QTest::newRow("milliseconds kept when not zero")
            << QJsonValue(s("2027-01-01T10:20:30.250Z")) << s("2027-01-01T10:20:30.250Z");
        QTest::newRow("an offset becomes UTC")
            << QJsonValue(s("2027-01-01T02:00:00+02:00")) << s("2027-01-01T00:00:00Z");
        QTest::newRow("no offset is UTC")
            << QJsonValue(s("2027-01-01T08:00:00")) << s("2027-01-01T08:00:00Z");
        QTest::newRow("epoch seconds (AWS json)")
            << QJsonValue(1798761600.0) << s("2027-01-01T00:00:00Z");
        QTest::newRow("a month 13") << QJsonValue(s("2027-13-01")) << QString();
        QTest::newRow("words") << QJsonValue(s("next year")) << QString();
        QTest::newRow("a boolean") << QJsonValue(true) << QString();
    }

    void instants()
    {
        QFETCH(QJsonValue, value);
        QFETCH(QString, canonical);
        QCOMPARE(Instants::canonical(value).value_or(QString()), canonical);
    }

    // A timestamp field is stored as one spelling, so that the same instant written otherwise is
    // not a change; what is not an instant is refused at its path.
    void timestampFieldsStoreOneSpelling()
    {
        Kind kind = test::widgetKind();
        FieldSchema expires = FieldSchema::string(s("expires"));
        expires.timestamp = true;
        kind.spec.fields.append(
            FieldSchema::list(s("rules"), FieldSchema::object(s("rule"), {expires})));
        KindRegistry registry;
        QVERIFY(registry.add(test::gadgetKind()));
        QVERIFY(registry.add(kind));
        const SchemaValidator validator(registry);
        const auto good =
            validator.validate(widget("{'rules': [{'expires': '2027-01-01'}, {'expires': "
                                      "'2027-01-01T00:00:00.000Z'}]}"));
        QVERIFY2(good.ok(), qPrintable(texts(good.errors).join(u'\n')));
        const QJsonArray rules = good.resource.spec.value(s("rules")).toArray();
        QCOMPARE(rules.at(0)[s("expires")].toString(), s("2027-01-01T00:00:00Z"));
        QCOMPARE(rules.at(1)[s("expires")].toString(), s("2027-01-01T00:00:00Z"));
        const auto bad = validator.validate(widget("{'rules': [{'expires': '2027-02-30'}]}"));
        QCOMPARE(texts(bad.errors),
                 QStringList{s("spec.rules[0].expires: \"2027-02-30\" is not a date or time (ISO "
                               "8601, e.g. 2027-01-01 or 2027-01-01T12:00:00Z)")});
    }

    void resultResource()
    {
        const SchemaValidator validator(m_registry);
        const auto result = validator.validate(
            widget("{}", "{'name': 'w1', 'uid': 'u', 'generation': 3, 'resourceVersion': '7', "
                         "'creationTimestamp': '2024-01-01T00:00:00Z', 'finalizers': ['f'], "
                         "'deletionTimestamp': '2024-01-02T00:00:00Z', 'labels': {'team': "
                         "'a'}, 'annotations': {'converge.dev/reconcile-policy': 'skip'}}"));
        QVERIFY(result.ok());
        const Resource &r = result.resource;
        QCOMPARE(r.apiVersion, s("test.converge.dev/v1"));
        QCOMPARE(r.kind, s("Widget"));
        QCOMPARE(r.metadata.name, s("w1"));
        QCOMPARE(r.metadata.labels.value(s("team")), s("a"));
        QCOMPARE(r.policy(), Annotations::ReconcilePolicy::Skip);
        QCOMPARE(r.ownerName(), s("g1"));
        // The workspace owns these: accepted for round trips, never taken from input.
        QVERIFY(r.metadata.uid.isEmpty());
        QCOMPARE(r.metadata.generation, 0);
        QCOMPARE(r.metadata.resourceVersion, 0);
        QVERIFY(r.metadata.finalizers.isEmpty());
        QVERIFY(!r.metadata.creationTimestamp.isValid());
        QVERIFY(!r.metadata.isBeingDeleted());
        QVERIFY(r.status.conditions.isEmpty());
    }

    void keepStatus_data()
    {
        QTest::addColumn<QJsonObject>("status");
        QTest::addColumn<int>("conditions");
        QTest::addColumn<QStringList>("errors");
        QTest::newRow("kept") << json("{'conditions': [{'type': 'Ready', 'status': 'True', "
                                      "'reason': 'Succeeded', 'observedGeneration': 2}], "
                                      "'observed': {'etag': 'x'}}")
                              << 1 << QStringList();
        QTest::newRow("bad condition status")
            << json("{'conditions': [{'type': 'Ready', 'status': 'Maybe'}]}") << 0
            << QStringList{s("status.conditions[0].status: \"Maybe\" is not one of True, False, "
                             "Unknown")};
        QTest::newRow("conditions not a list")
            << json("{'conditions': {}}") << 0
            << QStringList{s("status.conditions: expected a list, got an object")};
        QTest::newRow("unknown status field")
            << json("{'observd': {}}") << 0
            << QStringList{s("status.observd: unknown field; did you mean \"observed\"?")};
    }

    void keepStatus()
    {
        QFETCH(QJsonObject, status);
        QFETCH(int, conditions);
        QFETCH(QStringList, errors);
        const SchemaValidator validator(m_registry);
        const auto result = validator.validate(with(widget(), s("status"), status), true);
        QCOMPARE(texts(result.errors), errors);
        QCOMPARE(result.resource.status.conditions.size(), conditions);
        if (result.ok()) {
            QCOMPARE(result.resource.status.ready().reason, s("Succeeded"));
            QCOMPARE(result.resource.status.observed, status.value(s("observed")).toObject());
            // Without keepStatus the same document has no status.
            const auto dropped = validator.validate(with(widget(), s("status"), status));
            QVERIFY(dropped.ok());
            QVERIFY(dropped.resource.status.conditions.isEmpty());
        }
    }

    void resourceInCode_data()
    {
        QTest::addColumn<QString>("apiVersion");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("policy");
        QTest::addColumn<QJsonObject>("spec");
        QTest::addColumn<QStringList>("errors");
        const QString api = test::testApiVersion();
        const QJsonObject spec = json("{'owner': {'name': 'g1'}}");
        QTest::newRow("valid") << api << s("Widget") << s("w1") << QString() << spec
                               << QStringList();
        QTest::newRow("no apiVersion") << QString() << s("Widget") << s("w1") << QString() << spec
                                       << QStringList{s("apiVersion: is required")};
        QTest::newRow("unknown kind")
            << api << s("Gadgte") << s("w1") << QString() << spec
            << QStringList{s("kind: unknown kind \"Gadgte\"; did you mean \"Gadget\"?")};
        QTest::newRow("no name") << api << s("Widget") << QString() << QString() << spec
                                 << QStringList{s("metadata.name: is required")};
        QTest::newRow("bad policy")
            << api << s("Widget") << s("w1") << s("delete") << spec
            << QStringList{s("metadata.annotations[\"converge.dev/reconcile-policy\"]: "
                             "\"delete\" is not one of manage, skip, detach-on-delete")};
        QTest::newRow("spec error") << api << s("Widget") << s("w1") << QString() << QJsonObject()
                                    << QStringList{s("spec.owner: is required")};
    }

    void resourceInCode()
    {
        QFETCH(QString, apiVersion);
        QFETCH(QString, kind);
        QFETCH(QString, name);
        QFETCH(QString, policy);
        QFETCH(QJsonObject, spec);
        QFETCH(QStringList, errors);
        Resource r;
        r.apiVersion = apiVersion;
        r.kind = kind;
        r.metadata.name = name;
        if (!policy.isEmpty())
            r.metadata.annotations.insert(Annotations::reconcilePolicy(), policy);
        r.spec = spec;
        const SchemaValidator validator(m_registry);
        QCOMPARE(texts(validator.validate(r)), errors);
        if (errors.isEmpty())
            QCOMPARE(r.spec.value(s("replicas")).toInteger(), 1); // defaults filled in
    }

private:
    KindRegistry m_registry;
};

QTEST_GUILESS_MAIN(tst_SchemaValidator)
#include "tst_schemavalidator.moc"

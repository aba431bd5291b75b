// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "manifestreader.h"

#include "kindregistry.h"
#include "testkinds.h"
#include "textlocator.h"
#include "yamlparser.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

using namespace converge;
using namespace Qt::StringLiterals;

namespace {

QStringList errorTexts(const ManifestReader::Result &result)
{
    QStringList texts;
    for (const ManifestError &e : result.errors)
        texts.append(e.toString());
    return texts;
}

QStringList keys(const ManifestReader::Result &result)
{
    QStringList texts;
    for (const ManifestObject &o : result.objects)
        texts.append(o.resource.key().toString());
    return texts;
}

QStringList locations(const ManifestReader::Result &result)
{
    QStringList texts;
    for (const ManifestObject &o : result.objects)
        texts.append(o.location.toString());
    return texts;
}

// Prints what came out when it is not what was expected: exact messages are long.
bool sameErrors(const ManifestReader::Result &result, const QStringList &expected)
{
    const QStringList actual = errorTexts(result);
    if (actual == expected)
        return true;
    qWarning().noquote() << u"actual errors:\n  "_s + actual.join(QStringLiteral("\n  "));
    return false;
}

const QString gadgetHeader = QStringLiteral("apiVersion: test.converge.dev/v1\nkind: Gadget\n");

} // namespace

class tst_ManifestReader final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void validFiles_data();
    void validFiles();
    void fieldValues();
    void anchorsAndAliases();
    void jsonValues();
    void status();
    void scalars_data();
    void scalars();

    void invalidFiles_data();
    void invalidFiles();
    void invalidText_data();
    void invalidText();
    void emptyText_data();
    void emptyText();
    void deepNesting_data();
    void deepNesting();
    void maxDepthOption();
    void largeFileRefusedBeforeReading();
    void largeTextRefused();
    void tooManyErrors();
    void largeStreamReadsAsOne();
    void largeStreamErrorsAsOne();

    void folder();
    void pathsShareDuplicateCheck();
    void missingPaths();
    void standardInput();

    void locationText_data();
    void locationText();

private:
    KindRegistry m_registry;
};

void tst_ManifestReader::initTestCase()
{
    test::registerTestKinds(m_registry);
    const QString data = qEnvironmentVariable("CONVERGE_TEST_DATA");
    QVERIFY2(!data.isEmpty(), "CONVERGE_TEST_DATA is not set");
    // Relative names keep the expected messages short and free of this machine's paths.
    QVERIFY(QDir::setCurrent(data + QStringLiteral("/manifests")));
}

void tst_ManifestReader::validFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("keys");
    QTest::addColumn<QStringList>("locations");

    QTest::newRow("two documents")
        << u"valid/two-documents.yaml"_s << QStringList{u"Gadget/devbox"_s, u"Widget/invoices"_s}
        << QStringList{u"valid/two-documents.yaml:2:1"_s, u"valid/two-documents.yaml:9:1"_s};
    QTest::newRow("empty file: no objects, no error")
        << "valid/empty.yaml" << QStringList{} << QStringList{};
    QTest::newRow("only comments and ---")
        << u"valid/comments-only.yaml"_s << QStringList{} << QStringList{};
    QTest::newRow("YAML List") << "valid/list.yaml" << QStringList{u"Gadget/one"_s, u"Gadget/two"_s}
                               << QStringList{u"valid/list.yaml:4:5"_s, u"valid/list.yaml:8:5"_s};
    QTest::newRow("JSON List") << "valid/list.json" << QStringList{u"Gadget/one"_s, u"Gadget/two"_s}
                               << QStringList{u"valid/list.json:5:5"_s, u"valid/list.json:7:5"_s};
    QTest::newRow("JSON object") << "valid/object.json" << QStringList{u"Widget/w1"_s}
                                 << QStringList{u"valid/object.json:1:1"_s};
    QTest::newRow("anchors") << "valid/anchors.yaml" << QStringList{u"Widget/anchored"_s}
                             << QStringList{u"valid/anchors.yaml:1:1"_s};
    QTest::newRow("CRLF line ends") << "valid/crlf.yaml" << QStringList{u"Gadget/crlf"_s}
                                    << QStringList{u"valid/crlf.yaml:1:1"_s};
    QTest::newRow("byte order mark")
        << "valid/bom.yaml" << QStringList{u"Gadget/bom"_s} << QStringList{u"valid/bom.yaml:1:1"_s};
}

void tst_ManifestReader::validFiles()
{
    QFETCH(QString, file);
    QFETCH(QStringList, keys);
    QFETCH(QStringList, locations);

    const ManifestReader reader(m_registry);
    const ManifestReader::Result result = reader.readFile(file);
    QVERIFY(sameErrors(result, {}));
    QVERIFY(result.ok());
    QCOMPARE(::keys(result), keys);
    QCOMPARE(::locations(result), locations);
}

void tst_ManifestReader::fieldValues()
{
    const ManifestReader reader(m_registry);
    const ManifestReader::Result result =
        reader.readFile(QStringLiteral("valid/two-documents.yaml"));
    QVERIFY(sameErrors(result, {}));
    QCOMPARE(result.objects.size(), 2);
    const Resource &widget = result.objects.at(1).resource;
    QCOMPARE(widget.apiVersion, QStringLiteral("test.converge.dev/v1"));
    QCOMPARE(widget.metadata.labels, (QMap<QString, QString>{{u"team"_s, u"billing"_s}}));
    QCOMPARE(widget.policy(), Annotations::ReconcilePolicy::Skip);
    QCOMPARE(widget.ownerName(), QStringLiteral("devbox"));

    const QJsonObject spec = widget.spec;
    QCOMPARE(spec.value(u"replicas"_s), QJsonValue(3));
    QVERIFY(spec.value(u"replicas"_s).isDouble());
    QCOMPARE(spec.value(u"enabled"_s), QJsonValue(true));
    QCOMPARE(spec.value(u"publicAccess"_s), QJsonValue(u"Blob"_s));
    QCOMPARE(spec.value(u"azureName"_s), QJsonValue(u"invoices-2024"_s));
    // Quoted, so a string although it looks like a number.
    QCOMPARE(spec.value(u"metadata"_s).toObject().value(u"cost.center"_s), QJsonValue(u"1234"_s));
    const QJsonArray tags = spec.value(u"tags"_s).toArray();
    QCOMPARE(tags.size(), 2);
    QCOMPARE(tags.at(0).toObject().value(u"propagate"_s), QJsonValue(true)); // the default
    QCOMPARE(tags.at(1).toObject().value(u"key"_s), QJsonValue(u"yes"_s));
    QCOMPARE(tags.at(1).toObject().value(u"propagate"_s), QJsonValue(false));
    const QJsonObject source = spec.value(u"source"_s).toObject();
    QCOMPARE(source.value(u"a"_s), QJsonValue(u"line one\nline two\n"_s));
    QCOMPARE(source.value(u"mode"_s), QJsonValue(u"copy"_s)); // the default
}

void tst_ManifestReader::anchorsAndAliases()
{
    const ManifestReader reader(m_registry);
    const ManifestReader::Result result = reader.readFile(QStringLiteral("valid/anchors.yaml"));
    QVERIFY(sameErrors(result, {}));
    const Resource &r = result.objects.first().resource;
    QCOMPARE(r.spec.value(u"metadata"_s).toObject(), (QJsonObject{{u"team"_s, u"billing"_s}}));
    const QJsonArray tags = r.spec.value(u"tags"_s).toArray();
    QCOMPARE(tags.size(), 2);
    QCOMPARE(tags.at(1), tags.at(0));
    QCOMPARE(tags.at(0).toObject().value(u"value"_s), QJsonValue(u"b"_s));
}

void tst_ManifestReader::jsonValues()
{
    const ManifestReader reader(m_registry);
    const ManifestReader::Result result = reader.readFile(QStringLiteral("valid/object.json"));
    QVERIFY(sameErrors(result, {}));
    const Resource &r = result.objects.first().resource;
    QCOMPARE(r.metadata.name, QStringLiteral("w1"));
    QCOMPARE(r.metadata.labels.value(QStringLiteral("a/b")), QStringLiteral("caf\u00e9"));
    QCOMPARE(r.spec.value(u"replicas"_s), QJsonValue(2));
}

void tst_ManifestReader::status()
{
    const QString file = QStringLiteral("valid/status.yaml");
    const ManifestReader ignoring(m_registry);
    const ManifestReader::Result ignored = ignoring.readFile(file);
    QVERIFY(sameErrors(ignored, {}));
    QVERIFY(ignored.objects.first().resource.status.conditions.isEmpty());

    ManifestReader::Options options;
    options.keepStatus = true;
    const ManifestReader keeping(m_registry, options);
    const ManifestReader::Result kept = keeping.readFile(file);
    QVERIFY(sameErrors(kept, {}));
    const ResourceStatus &status = kept.objects.first().resource.status;
    QCOMPARE(status.conditions.size(), 1);
    QVERIFY(status.ready().isReady());
    QCOMPARE(status.ready().reason, QStringLiteral("Succeeded"));
    QCOMPARE(status.ready().observedGeneration, 3);
}

void tst_ManifestReader::scalars_data()
{
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<QJsonValue>("expected");

    QTest::newRow("integer") << QByteArray("12") << QJsonValue(12);
    QTest::newRow("negative") << QByteArray("-7") << QJsonValue(-7);
    QTest::newRow("plus sign") << QByteArray("+3") << QJsonValue(3);
    QTest::newRow("leading zero is decimal") << QByteArray("012") << QJsonValue(12);
    QTest::newRow("large integer")
        << QByteArray("9007199254740993") << QJsonValue(qint64(9007199254740993));
    QTest::newRow("beyond 64 bits") << QByteArray("99999999999999999999") << QJsonValue(1e20);
    QTest::newRow("float") << QByteArray("1.5") << QJsonValue(1.5);
    QTest::newRow("exponent") << QByteArray("2e3") << QJsonValue(2000.0);
    QTest::newRow("true") << QByteArray("true") << QJsonValue(true);
    QTest::newRow("True") << QByteArray("True") << QJsonValue(true);
    QTest::newRow("FALSE") << QByteArray("FALSE") << QJsonValue(false);
    QTest::newRow("yes is a string") << QByteArray("yes") << QJsonValue(u"yes"_s);
    QTest::newRow("on is a string") << QByteArray("on") << QJsonValue(u"on"_s);
    QTest::newRow("null") << QByteArray("null") << QJsonValue(QJsonValue::Null);
    QTest::newRow("tilde") << QByteArray("~") << QJsonValue(QJsonValue::Null);
    QTest::newRow("empty") << QByteArray("") << QJsonValue(QJsonValue::Null);
    QTest::newRow("hex is a string") << QByteArray("0x1F") << QJsonValue(u"0x1F"_s);
    QTest::newRow("underscores are a string") << QByteArray("1_000") << QJsonValue(u"1_000"_s);
    QTest::newRow(".inf is a string") << QByteArray(".inf") << QJsonValue(u".inf"_s);
    QTest::newRow("time is a string") << QByteArray("12:30") << QJsonValue(u"12:30"_s);
    QTest::newRow("double-quoted number") << QByteArray("\"12\"") << QJsonValue(u"12"_s);
    QTest::newRow("single-quoted bool") << QByteArray("'true'") << QJsonValue(u"true"_s);
    QTest::newRow("quoted empty") << QByteArray("''") << QJsonValue(u""_s);
    QTest::newRow("quoted null") << QByteArray("\"null\"") << QJsonValue(u"null"_s);
    QTest::newRow("escapes") << QByteArray("\"tab\\there \\u00e9\"")
                             << QJsonValue(u"tab\there \u00e9"_s);
    QTest::newRow("literal block") << QByteArray("|\n  a\n  b\n") << QJsonValue(u"a\nb\n"_s);
    QTest::newRow("literal strip") << QByteArray("|-\n  a\n") << QJsonValue(u"a"_s);
    QTest::newRow("folded block") << QByteArray(">\n  a\n  b\n") << QJsonValue(u"a b\n"_s);
    QTest::newRow("block with digits") << QByteArray("|\n  12\n") << QJsonValue(u"12\n"_s);
    QTest::newRow("!!str") << QByteArray("!!str 12") << QJsonValue(u"12"_s);
    QTest::newRow("!!int") << QByteArray("!!int \"12\"") << QJsonValue(12);
    QTest::newRow("!!float") << QByteArray("!!float 1") << QJsonValue(1.0);
    QTest::newRow("!!bool") << QByteArray("!!bool 'false'") << QJsonValue(false);
    QTest::newRow("!!null") << QByteArray("!!null ''") << QJsonValue(QJsonValue::Null);
    QTest::newRow("! (non-specific)") << QByteArray("! 12") << QJsonValue(u"12"_s);
    QTest::newRow("flow list") << QByteArray("[1, a, \"2\"]")
                               << QJsonValue(QJsonArray{1, u"a"_s, u"2"_s});
    QTest::newRow("flow map") << QByteArray("{a: 1, b: }")
                              << QJsonValue(QJsonObject{{u"a"_s, 1}, {u"b"_s, QJsonValue::Null}});
    QTest::newRow("!!map") << QByteArray("!!map {a: 1}") << QJsonValue(QJsonObject{{u"a"_s, 1}});
    QTest::newRow("keys are text")
        << QByteArray("{1: a, true: b, '': c}")
        << QJsonValue(QJsonObject{{u"1"_s, u"a"_s}, {u"true"_s, u"b"_s}, {u""_s, u"c"_s}});
}

void tst_ManifestReader::scalars()
{
    QFETCH(QByteArray, yaml);
    QFETCH(QJsonValue, expected);

    const TextLocator text(QByteArray("v: ") + yaml + '\n', QStringLiteral("t.yaml"));
    const ParsedText parsed = YamlParser::parse(text, 64);
    QCOMPARE(parsed.errors.size(), 0);
    QCOMPARE(parsed.documents.size(), 1);
    const QJsonValue actual = parsed.documents.first().root.toObject().value(u"v"_s);
    QCOMPARE(actual.type(), expected.type());
    QCOMPARE(actual, expected);
}

void tst_ManifestReader::invalidFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("errors");

    QTest::newRow("malformed YAML")
        << "invalid/syntax.yaml"
        << QStringList{u"invalid/syntax.yaml:6:1: invalid YAML: end of map flow not found"_s};
    QTest::newRow("bad indentation")
        << "invalid/bad-indent.yaml"
        << QStringList{u"invalid/bad-indent.yaml:5:3: invalid YAML: end of map not found"_s};
    QTest::newRow("malformed JSON")
        << "invalid/syntax.json"
        << QStringList{u"invalid/syntax.json:4:5: invalid JSON: unterminated object"_s};
    QTest::newRow("wrong types")
        << "invalid/wrong-types.yaml"
        << QStringList{
               u"invalid/wrong-types.yaml:6:5: metadata.labels.version: expected a string, got a number"_s,
               u"invalid/wrong-types.yaml:9:3: spec.replicas: expected an integer, got a string"_s,
               u"invalid/wrong-types.yaml:10:3: spec.enabled: expected a boolean, got a string"_s,
               u"invalid/wrong-types.yaml:11:3: spec.metadata: expected a map, got a list"_s,
               u"invalid/wrong-types.yaml:14:7: spec.tags[0].propagate: expected a boolean, got a number"_s};
    QTest::newRow("missing required fields")
        << "invalid/missing-required.yaml"
        << QStringList{u"invalid/missing-required.yaml:5:1: spec.owner: is required"_s,
                       u"invalid/missing-required.yaml:8:7: spec.tags[0].key: is required"_s};
    QTest::newRow("unknown kind")
        << "invalid/unknown-kind.yaml"
        << QStringList{
               u"invalid/unknown-kind.yaml:2:7: kind: unknown kind \"Widgit\"; did you mean \"Widget\"?"_s};
    QTest::newRow("wrong apiVersion")
        << "invalid/wrong-api-version.yaml"
        << QStringList{
               u"invalid/wrong-api-version.yaml:1:13: apiVersion: kind Gadget has apiVersion test.converge.dev/v1, not \"test.converge.dev/v2\""_s};
    QTest::newRow("unknown field")
        << "invalid/unknown-field.yaml"
        << QStringList{
               u"invalid/unknown-field.yaml:7:3: spec.locaton: unknown field; did you mean \"location\"?"_s};
    QTest::newRow("invalid name")
        << "invalid/invalid-name.yaml"
        << QStringList{
               u"invalid/invalid-name.yaml:4:3: metadata.name: \"Not_A_Name\" is not valid (lower-case letters, digits, '-' and '.', starting and ending with a letter or digit)"_s};
    QTest::newRow("object declared twice")
        << "invalid/duplicate-object.yaml"
        << QStringList{
               u"invalid/duplicate-object.yaml:8:1: Gadget/twin is declared twice (first at invalid/duplicate-object.yaml:1:1)"_s};
    QTest::newRow("duplicate key")
        << "invalid/duplicate-key.yaml"
        << QStringList{
               u"invalid/duplicate-key.yaml:7:3: spec.location: duplicate key (first at invalid/duplicate-key.yaml:6:3)"_s};
    QTest::newRow("duplicate JSON key")
        << "invalid/duplicate-key.json"
        << QStringList{
               u"invalid/duplicate-key.json:5:34: spec.location: duplicate key (first at invalid/duplicate-key.json:5:14)"_s};
    QTest::newRow("scalar document")
        << "invalid/scalar-document.yaml"
        << QStringList{
               u"invalid/scalar-document.yaml:1:1: a manifest must be a mapping of fields, not a string"_s};
    QTest::newRow("list document")
        << "invalid/list-document.yaml"
        << QStringList{
               u"invalid/list-document.yaml:1:1: a manifest must be a mapping of fields, not a list"_s};
    QTest::newRow("JSON list")
        << "invalid/list-document.json"
        << QStringList{
               u"invalid/list-document.json:1:1: a manifest must be a mapping of fields, not a list"_s};
    QTest::newRow("JSON scalar")
        << "invalid/scalar-document.json"
        << QStringList{
               u"invalid/scalar-document.json:1:1: a manifest must be a mapping of fields, not a string"_s};
    QTest::newRow("unknown tag")
        << "invalid/tag.yaml"
        << QStringList{
               u"invalid/tag.yaml:6:13: spec.location: tag !vault is not supported on a scalar"_s};
    QTest::newRow("merge key")
        << "invalid/merge-key.yaml"
        << QStringList{u"invalid/merge-key.yaml:8:3: spec: merge keys (<<) are not supported"_s};
    QTest::newRow("non-string key")
        << "invalid/non-string-key.yaml"
        << QStringList{
               u"invalid/non-string-key.yaml:6:7: metadata.labels: a key must be a string, not a list"_s};
    QTest::newRow("alias bomb")
        << "invalid/alias-bomb.yaml"
        << QStringList{
               u"invalid/alias-bomb.yaml:5:36: e[7]: aliases expand to more than 100000 values"_s};
    QTest::newRow("alias inside its anchor")
        << "invalid/alias-cycle.yaml"
        << QStringList{
               u"invalid/alias-cycle.yaml:5:11: metadata.labels: an alias cannot refer to a node that contains it"_s};
    QTest::newRow("undefined alias")
        << "invalid/unknown-alias.yaml"
        << QStringList{
               u"invalid/unknown-alias.yaml:4:9: invalid YAML: the referenced anchor is not defined"_s};
    QTest::newRow("List items")
        << "invalid/list-items.yaml"
        << QStringList{
               u"invalid/list-items.yaml:8:5: items[1]: expected an object, got a string"_s,
               u"invalid/list-items.yaml:12:12: spec.location: \"West\" does not match [a-z]+"_s};
    QTest::newRow("one bad document fails all")
        << "invalid/one-bad-document.yaml"

        << QStringList{
               u"invalid/one-bad-document.yaml:13:3: spec.location: expected a string, got a number"_s};
    QTest::newRow("deep YAML")
        << "invalid/deep.yaml"
        << QStringList{u"invalid/deep.yaml:6:75: nesting is deeper than 64 levels"_s};
    QTest::newRow("deep JSON")
        << "invalid/deep.json"
        << QStringList{u"invalid/deep.json:1:73: nesting is deeper than 64 levels"_s};
    QTest::newRow("invalid UTF-8")
        << "invalid/invalid-utf8.yaml"
        << QStringList{u"invalid/invalid-utf8.yaml:4:14: is not UTF-8 text (byte 0xff)"_s};
    QTest::newRow("NUL byte")
        << "invalid/nul-byte.yaml"
        << QStringList{u"invalid/nul-byte.yaml:2:10: is not UTF-8 text (byte 0x00)"_s};
    QTest::newRow("binary") << "invalid/binary.yaml"
                            << QStringList{
                                   u"invalid/binary.yaml:1:5: is not UTF-8 text (byte 0x02)"_s};
    QTest::newRow("UTF-16") << "invalid/utf16.json"
                            << QStringList{
                                   u"invalid/utf16.json:1:1: is not UTF-8 text (byte 0xff)"_s};
}

void tst_ManifestReader::invalidFiles()
{
    QFETCH(QString, file);
    QFETCH(QStringList, errors);

    const ManifestReader reader(m_registry);
    const ManifestReader::Result result = reader.readFile(file);
    QVERIFY(!result.ok());
    QVERIFY(result.objects.isEmpty());
    QVERIFY(sameErrors(result, errors));
}

void tst_ManifestReader::invalidText_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QStringList>("errors");

    const QByteArray header = gadgetHeader.toUtf8();
    QTest::newRow("null key")
        << "t.yaml" << header + "metadata:\n  name: n\n  labels:\n    null: x\n"
        << QStringList{u"t.yaml:6:5: metadata.labels: a key must be a string, not null"_s};
    QTest::newRow("value not of its tag")
        << "t.yaml" << header + "metadata: {name: n}\nspec:\n  location: !!int abc\n"
        << QStringList{u"t.yaml:5:13: spec.location: \"abc\" is not a valid !!int"_s};
    QTest::newRow("tag on a map")
        << "t.yaml" << header + "metadata: {name: n}\nspec: !thing {location: a}\n"
        << QStringList{u"t.yaml:4:7: spec: tag !thing is not supported on a map"_s};
    QTest::newRow("tag on a key")
        << "t.yaml" << header + "metadata: {name: n}\n!!int 7: x\n"
        << QStringList{u"t.yaml:4:1: [\"7\"]: tag !!int is not supported on a key"_s};
    QTest::newRow("several duplicate keys, each reported")
        << "t.yaml" << header + "kind: Gadget\nmetadata: {name: n, name: m}\n"
        << QStringList{u"t.yaml:3:1: kind: duplicate key (first at t.yaml:2:1)"_s,
                       u"t.yaml:4:21: metadata.name: duplicate key (first at t.yaml:4:12)"_s};
    QTest::newRow("columns count characters, not bytes")
        << "t.yaml"
        << header + "metadata:\n  name: n\n  labels: {\u00e9\u00e9: x, \"\u00fc\": 1}\nspec: "
                    "{location: a}\n"
        << QStringList{
               u"t.yaml:5:19: metadata.labels[\"\u00fc\"]: expected a string, got a number"_s};
    QTest::newRow("tab indentation")
        << "t.yaml" << header + "metadata:\n\tname: n\n"
        << QStringList{u"t.yaml:4:6: invalid YAML: illegal map value"_s};
    QTest::newRow("missing apiVersion, kind and name")
        << "t.yaml" << QByteArray("spec: {}\n")
        << QStringList{u"t.yaml:1:1: apiVersion: is required"_s, u"t.yaml:1:1: kind: is required"_s,
                       u"t.yaml:1:1: metadata.name: is required"_s};
    QTest::newRow("errors in two documents")
        << "t.yaml"
        << header + "metadata: {name: A}\nspec: {location: a}\n---\n" + header +
               "metadata: {name: b}\nspec: {location: 1}\n"
        << QStringList{
               u"t.yaml:3:12: metadata.name: \"A\" is not valid (lower-case letters, digits, "
               u"'-' and '.', starting and ending with a letter or digit)"_s,
               u"t.yaml:9:8: spec.location: expected a string, got a number"_s};
    // yaml-cpp 0.7 alone would loop forever on these.
    QTest::newRow("a lone comma") << "t.yaml" << QByteArray(",")
                                  << QStringList{u"t.yaml:1:1: invalid YAML: unexpected \",\""_s};
    QTest::newRow("a comma after a document")
        << "t.yaml" << header + "metadata: {name: n}\nspec: {location: a}\n---\n  ,\n"
        << QStringList{u"t.yaml:6:3: invalid YAML: unexpected \",\""_s};
    QTest::newRow("List without items") << "t.yaml" << QByteArray("apiVersion: v1\nkind: List\n")
                                        << QStringList{u"t.yaml:1:1: items: is required"_s};
    QTest::newRow("JSON List with an object for items")
        << "t.json" << QByteArray("{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": {}}")
        << QStringList{u"t.json:1:38: items: expected a list, got an object"_s};
    QTest::newRow("JSON trailing comma")
        << "t.json" << QByteArray("{\n  \"kind\": \"Gadget\",\n}\n")
        << QStringList{u"t.json:3:1: invalid JSON: object is missing after a comma"_s};
    QTest::newRow("JSON unterminated string")
        << "t.json" << QByteArray("{\"kind\": \"Gad")
        << QStringList{u"t.json:1:14: invalid JSON: unterminated string"_s};
    QTest::newRow("JSON text after the object")
        << "t.json" << QByteArray("{}\n{}\n")
        << QStringList{u"t.json:2:1: invalid JSON: garbage at the end of the document"_s};
    QTest::newRow("JSON lone surrogate")
        << "t.json"
        << QByteArray("{\"kind\": \"Gadget\",\n \"metadata\": {\"name\": \"a\\ud800\"}}")
        << QStringList{
               u"t.json:2:23: metadata.name: a \\u escape leaves an unpaired UTF-16 surrogate"_s};
    QTest::newRow("JSON escaped duplicate key")
        << "t.json" << QByteArray("{\"kind\": \"Gadget\", \"\\u006bind\": \"Gadget\"}")
        << QStringList{u"t.json:1:20: kind: duplicate key (first at t.json:1:2)"_s};
}

void tst_ManifestReader::invalidText()
{
    QFETCH(QString, file);
    QFETCH(QByteArray, text);
    QFETCH(QStringList, errors);

    const ManifestReader reader(m_registry);
    const ManifestReader::Result result = reader.read(text, file);
    QVERIFY(!result.ok());
    QVERIFY(result.objects.isEmpty());
    QVERIFY(sameErrors(result, errors));
}

void tst_ManifestReader::emptyText_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("text");

    QTest::newRow("empty YAML") << "e.yaml" << QByteArray();
    QTest::newRow("blank YAML") << "e.yaml" << QByteArray("  \n\n");
    QTest::newRow("comment") << "e.yaml" << QByteArray("# later\n");
    QTest::newRow("empty documents") << "e.yaml" << QByteArray("---\n---\n...\n");
    QTest::newRow("null document") << "e.yaml" << QByteArray("~\n");
    QTest::newRow("empty JSON") << "e.json" << QByteArray();
    QTest::newRow("blank JSON") << "e.json" << QByteArray(" \r\n\t");
    QTest::newRow("empty List")
        << "e.json" << QByteArray("{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": []}");
}

// An empty file declares nothing, and that is not an error (an empty folder is the same).
void tst_ManifestReader::emptyText()
{
    QFETCH(QString, file);
    QFETCH(QByteArray, text);

    const ManifestReader::Result result = ManifestReader(m_registry).read(text, file);
    QVERIFY(sameErrors(result, {}));
    QVERIFY(result.objects.isEmpty());
}

void tst_ManifestReader::deepNesting_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("error");

    const int n = 100000;
    QTest::newRow("YAML [") << "d.yaml" << QByteArray(n, '[')
                            << u"d.yaml:1:65: nesting is deeper than 64 levels"_s;
    QTest::newRow("YAML {a: ") << "d.yaml" << QByteArray("{a: ").repeated(n)
                               << u"d.yaml:1:257: nesting is deeper than 64 levels"_s;
    QTest::newRow("YAML block -") << "d.yaml" << QByteArray("- ").repeated(n) + 'x'
                                  << u"d.yaml:1:129: nesting is deeper than 64 levels"_s;
    QTest::newRow("JSON [") << "d.json" << QByteArray(n, '[')
                            << u"d.json:1:65: nesting is deeper than 64 levels"_s;
    QTest::newRow("JSON {\"a\":") << "d.json" << QByteArray("{\"a\":").repeated(n)
                                  << u"d.json:1:321: nesting is deeper than 64 levels"_s;
    // An alias adds the depth of what it names.
    QByteArray alias = "a: &a " + QByteArray(40, '[') + QByteArray(40, ']') +
                       "\nb: " + QByteArray(30, '[') + "*a" + QByteArray(30, ']') + '\n';
    QTest::newRow("YAML alias") << "d.yaml" << alias
                                << u"d.yaml:2:34: nesting is deeper than 64 levels"_s;
}

// Hostile nesting is refused at the limit; 100,000 levels must neither crash nor take long.
void tst_ManifestReader::deepNesting()
{
    QFETCH(QString, file);
    QFETCH(QByteArray, text);
    QFETCH(QString, error);

    const ManifestReader::Result result = ManifestReader(m_registry).read(text, file);
    QVERIFY(sameErrors(result, {error}));
}

void tst_ManifestReader::maxDepthOption()
{
    ManifestReader::Options options;
    options.maxDepth = 2;
    const ManifestReader reader(m_registry, options);
    const QByteArray gadget = gadgetHeader.toUtf8() + "metadata: {name: g}\nspec: {location: a}\n";
    QVERIFY(sameErrors(reader.read(gadget, u"t.yaml"_s), {}));
    const QByteArray widget =
        "apiVersion: test.converge.dev/v1\nkind: Widget\nmetadata:\n  name: w\n"
        "spec:\n  owner: {name: g}\n";
    QVERIFY(sameErrors(reader.read(widget, u"t.yaml"_s),
                       {u"t.yaml:6:10: nesting is deeper than 2 levels"_s}));
    QVERIFY(sameErrors(
        reader.read(
            QJsonDocument(QJsonObject{{u"a"_s, QJsonObject{{u"b"_s, QJsonArray{}}}}}).toJson(),
            u"t.json"_s),
        {u"t.json:3:14: nesting is deeper than 2 levels"_s}));
}

void tst_ManifestReader::largeFileRefusedBeforeReading()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"big.yaml"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    // Sparse: nothing is written, and the size alone must be enough to refuse it.
    QVERIFY(file.resize(qint64(100) << 20));
    file.close();

    const ManifestReader reader(m_registry);
    // "is N bytes" comes only from the size check before opening; reading would say "larger".
    const QString expected =
        path + u": is 104857600 bytes, larger than the limit of 16777216 bytes"_s;
    QVERIFY(sameErrors(reader.readFile(path), {expected}));
    QVERIFY(sameErrors(reader.readPaths({dir.path()}), {expected}));
}

void tst_ManifestReader::largeTextRefused()
{
    ManifestReader::Options options;
    const QByteArray gadget = gadgetHeader.toUtf8() + "metadata: {name: g}\nspec: {location: a}\n";
    options.maxFileBytes = gadget.size();
    QVERIFY(sameErrors(ManifestReader(m_registry, options).read(gadget, u"t.yaml"_s), {}));
    options.maxFileBytes = gadget.size() - 1;
    QVERIFY(
        sameErrors(ManifestReader(m_registry, options).read(gadget, u"t.yaml"_s),
                   {u"t.yaml: is %1 bytes, larger than the limit of %2 bytes"_s.arg(gadget.size())
                        .arg(gadget.size() - 1)}));
}

void tst_ManifestReader::tooManyErrors()
{
    const QByteArray text = QByteArray("kind: Nope\n---\n").repeated(150);
    const ManifestReader::Result result = ManifestReader(m_registry).read(text, u"t.yaml"_s);
    QCOMPARE(result.errors.size(), 101);
    QVERIFY(result.objects.isEmpty());
    QCOMPARE(result.errors.at(0).toString(), u"t.yaml:1:1: apiVersion: is required"_s);
    QCOMPARE(result.errors.last().toString(),
             result.errors.at(99).location.toString() + u": too many errors; stopped after 100"_s);
}

namespace {

/// 600 Widgets (about 130 KB: YamlParser reads it in two pieces at once); `lines` gets the line
/// of each document's first key. `replacements` replace documents by their index.
QByteArray largeStream(QList<int> *lines, const QMap<int, QByteArray> &replacements = {})
{
    QByteArray text = "# many widgets\n";
    int line = 2;
    for (int i = 0; i < 600; ++i) {
        if (i > 0) {
            const QByteArray marker = i % 7 ? "---\n" : "--- # the next one\n";
            text += marker;
            ++line;
        }
        if (lines)
            lines->append(line);
        QByteArray doc = replacements.value(i);
        if (doc.isEmpty()) {
            doc = QByteArray("apiVersion: test.converge.dev/v1\n"
                             "kind: Widget\n"
                             "metadata:\n"
                             "  name: w%1\n"
                             "  labels: &labels {team: billing, n: \"%1\"}\n"
                             "  annotations: *labels\n"
                             "spec:\n"
                             "  owner: {name: devbox}\n"
                             "  source:\n"
                             "    a: |\n"
                             "      first\n"
                             "      --- not a marker\n")
                      .replace("%1", QByteArray::number(i));
        }
        text += doc;
        line += int(doc.count('\n'));
    }
    return text;
}

/// A document whose aliases add 67,885 values (the limit is 100,000 for the whole text).
QByteArray aliasHeavy()
{
    return "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
           "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
           "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
           "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
           "e: [*d, *d, *d, *d, *d]\n";
}

} // namespace

void tst_ManifestReader::largeStreamReadsAsOne()
{
    QList<int> lines;
    const QByteArray text = largeStream(&lines);
    QVERIFY(text.size() > 100 * 1024);
    const ManifestReader::Result result = ManifestReader(m_registry).read(text, u"t.yaml"_s);
    QVERIFY(sameErrors(result, {}));
    QCOMPARE(result.objects.size(), 600);
    for (int i = 0; i < 600; ++i) {
        const ManifestObject &object = result.objects.at(i);
        QCOMPARE(object.resource.metadata.name, u"w%1"_s.arg(i));
        QCOMPARE(object.location.line, lines.at(i));
        QCOMPARE(object.resource.metadata.annotations.value(u"n"_s), QString::number(i));
        QCOMPARE(object.resource.spec.value(u"source"_s).toObject().value(u"a"_s),
                 QJsonValue(u"first\n--- not a marker\n"_s));
    }
}

void tst_ManifestReader::largeStreamErrorsAsOne()
{
    // An error late in the stream: its line counts from the start of the file.
    QList<int> lines;
    const QByteArray broken = "apiVersion: test.converge.dev/v1\nkind: Widget\nkind: Gadget\n";
    const QByteArray text = largeStream(&lines, {{500, broken}});
    ManifestReader::Result result = ManifestReader(m_registry).read(text, u"t.yaml"_s);
    QVERIFY(sameErrors(
        result, {u"t.yaml:%1:1: kind: duplicate key (first at t.yaml:%2:1)"_s.arg(lines.at(500) + 2)
                     .arg(lines.at(500) + 1)}));
    QVERIFY(result.objects.isEmpty());

    // Aliases are counted over the whole text, not per piece: two documents far apart, each
    // under the limit, together over it.
    lines.clear();
    result = ManifestReader(m_registry)
                 .read(largeStream(&lines, {{10, aliasHeavy()}, {590, aliasHeavy()}}), u"t.yaml"_s);
    QCOMPARE(result.errors.size(), 1);
    QVERIFY2(result.errors.first().message == u"aliases expand to more than 100000 values"_s,
             qPrintable(result.errors.first().toString()));
    QCOMPARE(result.errors.first().location.line, lines.at(590) + 4);
}

void tst_ManifestReader::folder()
{
    const ManifestReader reader(m_registry);
    const ManifestReader::Result result = reader.readPaths({u"folder"_s});
    QVERIFY(sameErrors(result, {}));
    // Sorted by name, YAML and JSON alike; notes.txt and sub/ are not read.
    QCOMPARE(keys(result), (QStringList{u"Gadget/a"_s, u"Gadget/b"_s, u"Gadget/c"_s}));
    QCOMPARE(locations(result),
             (QStringList{u"folder/a.json:1:1"_s, u"folder/b.yaml:1:1"_s, u"folder/c.yml:1:1"_s}));

    QTemporaryDir empty;
    QVERIFY(empty.isValid());
    const ManifestReader::Result none = reader.readPaths({empty.path()});
    QVERIFY(sameErrors(none, {}));
    QVERIFY(none.objects.isEmpty());
}

void tst_ManifestReader::pathsShareDuplicateCheck()
{
    const ManifestReader reader(m_registry);
    QVERIFY(sameErrors(reader.readPaths({u"folder/b.yaml"_s, u"invalid/also-b.yaml"_s}),
                       {u"invalid/also-b.yaml:2:1: Gadget/b is declared twice (first at "
                        u"folder/b.yaml:1:1)"_s}));
    QVERIFY(sameErrors(reader.readPaths({u"folder"_s, u"folder/c.yml"_s}),
                       {u"folder/c.yml:1:1: Gadget/c is declared twice (first at "
                        u"folder/c.yml:1:1)"_s}));
    // Separate reads know nothing of each other.
    QVERIFY(reader.readFile(u"folder/b.yaml"_s).ok());
    QVERIFY(reader.readFile(u"invalid/also-b.yaml"_s).ok());
}

void tst_ManifestReader::missingPaths()
{
    const ManifestReader reader(m_registry);
    const ManifestReader::Result result =
        reader.readPaths({u"nope.yaml"_s, u"folder/b.yaml"_s, u"nowhere/"_s});
    QVERIFY(result.objects.isEmpty());
    QVERIFY(sameErrors(
        result, {u"nope.yaml: no such file or folder"_s, u"nowhere/: no such file or folder"_s}));
    QVERIFY(sameErrors(reader.readFile(u"folder"_s), {u"folder: is a folder, not a file"_s}));
}

void tst_ManifestReader::standardInput()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto feed = [&](const QByteArray &text) {
        const QString path = dir.filePath(u"stdin"_s);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
            return false;
        file.close();
        return std::freopen(QFile::encodeName(path).constData(), "rb", stdin) != nullptr;
    };

    const ManifestReader reader(m_registry);
    QVERIFY(feed(gadgetHeader.toUtf8() + "metadata: {name: s}\nspec: {location: a}\n"));
    ManifestReader::Result result = reader.readPaths({u"-"_s, u"folder/b.yaml"_s});
    QVERIFY(sameErrors(result, {}));
    QCOMPARE(keys(result), (QStringList{u"Gadget/s"_s, u"Gadget/b"_s}));
    QCOMPARE(locations(result).first(), u"<stdin>:1:1"_s);

    // No name to go by: what starts with '{' is JSON (and its errors say so).
    QVERIFY(feed("\n  {\"kind\": \"Gadget\" \"x\"}"));
    QVERIFY(sameErrors(reader.readPaths({u"-"_s}),
                       {u"<stdin>:2:21: invalid JSON: unterminated object"_s}));

    QVERIFY(feed(gadgetHeader.toUtf8() + "metadata: {name: S}\nspec: {location: a}\n"));
    QVERIFY(sameErrors(reader.readPaths({u"-"_s}),
                       {u"<stdin>:3:12: metadata.name: \"S\" is not valid (lower-case letters, "
                        u"digits, '-' and '.', starting and ending with a letter or digit)"_s}));

    ManifestReader::Options options;
    options.maxFileBytes = 10;
    QVERIFY(feed(QByteArray(11, '#')));
    QVERIFY(sameErrors(ManifestReader(m_registry, options).readPaths({u"-"_s}),
                       {u"<stdin>: is larger than the limit of 10 bytes"_s}));
}

void tst_ManifestReader::locationText_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("location");
    QTest::addColumn<QString>("error");

    QTest::newRow("full") << "a.yaml" << 12 << 5 << "spec.publicAccess"
                          << "a.yaml:12:5"
                          << "a.yaml:12:5: spec.publicAccess: bad";
    QTest::newRow("no path") << "a.yaml" << 1 << 1 << ""
                             << "a.yaml:1:1"
                             << "a.yaml:1:1: bad";
    QTest::newRow("no column") << "a.yaml" << 3 << 0 << ""
                               << "a.yaml:3"
                               << "a.yaml:3: bad";
    QTest::newRow("file only") << "a.yaml" << 0 << 0 << ""
                               << "a.yaml"
                               << "a.yaml: bad";
    QTest::newRow("stdin") << "<stdin>" << 2 << 7 << "kind"
                           << "<stdin>:2:7"
                           << "<stdin>:2:7: kind: bad";
}

void tst_ManifestReader::locationText()
{
    QFETCH(QString, file);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, path);
    QFETCH(QString, location);
    QFETCH(QString, error);

    const SourceLocation where{file, line, column};
    QCOMPARE(where.toString(), location);
    QCOMPARE((ManifestError{where, path, u"bad"_s}.toString()), error);
}

QTEST_GUILESS_MAIN(tst_ManifestReader)
#include "tst_manifestreader.moc"

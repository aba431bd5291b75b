// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "manifestwriter.h"

#include "kindregistry.h"
#include "manifestreader.h"
#include "schemavalidator.h"
#include "testkinds.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

using namespace converge;
using namespace Qt::StringLiterals;

namespace {

QString apiVersion()
{
    return test::testApiVersion();
}

Resource widget(const QString &name, const QJsonObject &spec)
{
    Resource r;
    r.apiVersion = apiVersion();
    r.kind = QStringLiteral("Widget");
    r.metadata.name = name;
    r.spec = spec;
    return r;
}

// Strings that YAML writers get wrong: they look like other types, hold YAML syntax, quotes,
// line breaks, control characters or non-ASCII text.
const QStringList &awkwardPieces()
{
    static const QStringList pieces{u""_s,
                                    u" "_s,
                                    u"  lead"_s,
                                    u"trail "_s,
                                    u"true"_s,
                                    u"False"_s,
                                    u"null"_s,
                                    u"~"_s,
                                    u"yes"_s,
                                    u"No"_s,
                                    u"on"_s,
                                    u"OFF"_s,
                                    u"y"_s,
                                    u"123"_s,
                                    u"-1"_s,
                                    u"+7"_s,
                                    u"007"_s,
                                    u"1.5"_s,
                                    u"1e3"_s,
                                    u"0x1F"_s,
                                    u"0o17"_s,
                                    u".inf"_s,
                                    u"-.Inf"_s,
                                    u".NaN"_s,
                                    u"12:30"_s,
                                    u"2024-01-02"_s,
                                    u"#hash"_s,
                                    u"a #b"_s,
                                    u"a# b"_s,
                                    u"a: b"_s,
                                    u"key:"_s,
                                    u": x"_s,
                                    u"- dash"_s,
                                    u"-"_s,
                                    u"--- "_s,
                                    u"---"_s,
                                    u"..."_s,
                                    u"'single'"_s,
                                    u"\"double\""_s,
                                    u"it's"_s,
                                    u"back\\slash"_s,
                                    u"tab\tin"_s,
                                    u"\ttab"_s,
                                    u"new\nline"_s,
                                    u"end\n"_s,
                                    u"\n"_s,
                                    u"\nleading"_s,
                                    u"two\n\n"_s,
                                    u"\u00e9t\u00e9 \u65e5\u672c \U0001F642"_s,
                                    u"{braces}"_s,
                                    u"[brackets]"_s,
                                    u"&anchor"_s,
                                    u"*alias"_s,
                                    u"!tag"_s,
                                    u"%percent"_s,
                                    u"@at"_s,
                                    u"`tick"_s,
                                    u"|"_s,
                                    u">"_s,
                                    u"?"_s,
                                    u"? q"_s,
                                    u","_s,
                                    u"a,b"_s,
                                    u"cr\r\nlf"_s,
                                    u"\x01ctrl"_s,
                                    u"\u2028"_s,
                                    u"\u00a0nbsp"_s,
                                    u"\u0085nel"_s,
                                    u"\ufeffbom"_s,
                                    u"<<"_s,
                                    u"="_s,
                                    u"a  b"_s,
                                    u"x\n  indented\n"_s,
                                    u"  \n"_s,
                                    u"line \nspace"_s,
                                    u"\x7f"_s};
    return pieces;
}

class Generator final
{
public:
    explicit Generator(quint32 seed)
        : m_random(seed)
    {}

    int bounded(int n) { return int(m_random.bounded(n)); }
    bool coin() { return bounded(2) == 1; }

    QString awkward()
    {
        const QStringList &pieces = awkwardPieces();
        QString s;
        const int count = 1 + bounded(3);
        for (int i = 0; i < count; ++i)
            s += pieces.at(bounded(int(pieces.size())));
        return s;
    }

    QString mapKey()
    {
        static const QStringList keys{u"a"_s,       u"true"_s, u"123"_s,  u"1.5"_s, u"-x"_s,
                                      u".hidden"_s, u"_u"_s,   u"null"_s, u"yes"_s, u"a.b-c_d"_s,
                                      u"Z9"_s,      u"0"_s,    u"team"_s, u"on"_s,  u"y"_s,
                                      u"--"_s,      u"1e3"_s,  u"x.y.z"_s};
        return keys.at(bounded(int(keys.size())));
    }

    QString dnsName(int i)
    {
        // The first '.' ends the number: names stay unique.
        QString name = QStringLiteral("w%1.").arg(i);
        const int extra = bounded(8);
        for (int k = 0; k < extra; ++k)
            name += QLatin1Char("abcxyz0129-"[bounded(11)]);
        return name + QLatin1Char('z');
    }

    Resource widget(int i)
    {
        QJsonObject spec;
        spec.insert(u"owner"_s, QJsonObject{{u"name"_s, awkwardNonEmpty()}});
        if (coin())
            spec.insert(u"azureName"_s, QStringLiteral("az-%1").arg(i));
        if (coin())
            spec.insert(u"publicAccess"_s,
                        QStringList{u"None"_s, u"Blob"_s, u"Container"_s}.at(bounded(3)));
        if (coin())
            spec.insert(u"replicas"_s, 1 + bounded(10));
        if (coin())
            spec.insert(u"enabled"_s, coin());
        if (coin()) {
            QJsonObject metadata;
            const int n = bounded(5);
            for (int k = 0; k < n; ++k)
                metadata.insert(mapKey(), awkward());
            spec.insert(u"metadata"_s, metadata);
        }
        if (coin()) {
            QJsonArray tags;
            const int n = bounded(4);
            for (int k = 0; k < n; ++k) {
                QJsonObject tag{{u"key"_s, awkward()}};
                if (coin())
                    tag.insert(u"value"_s, awkward());
                if (coin())
                    tag.insert(u"propagate"_s, coin());
                tags.append(tag);
            }
            spec.insert(u"tags"_s, tags);
        }
        if (coin())
            spec.insert(u"etag"_s, awkward());
        if (coin()) {
            QJsonObject source{{coin() ? u"a"_s : u"b"_s, awkward()}};
            if (coin())
                source.insert(u"mode"_s, awkward());
            spec.insert(u"source"_s, source);
        }
        Resource r = ::widget(dnsName(i), spec);
        const int labels = bounded(4);
        for (int k = 0; k < labels; ++k)
            r.metadata.labels.insert(awkward(), awkward());
        if (coin())
            r.metadata.annotations.insert(Annotations::reconcilePolicy(),
                                          Annotations::policyNames().at(bounded(3)));
        if (coin())
            r.metadata.annotations.insert(awkward(), awkward());
        return r;
    }

private:
    QString awkwardNonEmpty()
    {
        QString s = awkward();
        return s.isEmpty() ? QStringLiteral("x") : s;
    }

    QRandomGenerator m_random;
};

} // namespace

class tst_ManifestWriter final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void stableOrder();
    void bookkeepingOnlyWhenFull();
    void statusOnlyWhenAsked();
    void unknownKindSortsKeys();
    void json();
    void emptyAndSeveral();
    void quoting_data();
    void quoting();
    void roundTripFixed();
    void roundTripGenerated_data();
    void roundTripGenerated();

private:
    KindRegistry m_registry;
};

void tst_ManifestWriter::initTestCase()
{
    test::registerTestKinds(m_registry);
}

void tst_ManifestWriter::stableOrder()
{
    // QJsonObject sorts its keys; the writer must not: the schema says the order.
    Resource r = widget(
        u"invoices"_s, QJsonObject{{u"tags"_s, QJsonArray{QJsonObject{{u"value"_s, u"prod"_s},
                                                                      {u"propagate"_s, true},
                                                                      {u"key"_s, u"env"_s}}}},
                                   {u"source"_s, QJsonObject{{u"mode"_s, u"copy"_s},
                                                             {u"a"_s, u"line one\nline two\n"_s}}},
                                   {u"replicas"_s, 3},
                                   {u"publicAccess"_s, u"Blob"_s},
                                   {u"owner"_s, QJsonObject{{u"name"_s, u"devbox"_s}}},
                                   {u"metadata"_s, QJsonObject{{u"b"_s, u"x"_s}, {u"a"_s, u"1"_s}}},
                                   {u"enabled"_s, true},
                                   {u"azureName"_s, u"invoices"_s}});
    r.metadata.labels = {{u"team"_s, u"billing"_s}, {u"app"_s, u"web"_s}};
    r.metadata.annotations = {{Annotations::reconcilePolicy(), u"skip"_s}};

    const QByteArray expected = R"(apiVersion: test.converge.dev/v1
kind: Widget
metadata:
  name: invoices
  labels:
    app: web
    team: billing
  annotations:
    converge.dev/reconcile-policy: skip
spec:
  owner:
    name: devbox
  azureName: invoices
  publicAccess: Blob
  replicas: 3
  enabled: true
  metadata:
    a: "1"
    b: x
  tags:
    - key: env
      value: prod
      propagate: true
  source:
    a: |
      line one
      line two

    mode: copy
)";
    const ManifestWriter writer(m_registry);
    QCOMPARE(writer.toYaml({r}), expected);
}

void tst_ManifestWriter::bookkeepingOnlyWhenFull()
{
    Resource r = widget(u"kept"_s, QJsonObject{{u"owner"_s, QJsonObject{{u"name"_s, u"g"_s}}}});
    r.metadata.uid = u"0b6e3c1a"_s;
    r.metadata.generation = 4;
    r.metadata.resourceVersion = 7;
    r.metadata.finalizers = {Annotations::finalizer()};
    r.metadata.creationTimestamp = QDateTime(QDate(2024, 5, 6), QTime(7, 8, 9), Qt::UTC);
    r.metadata.labels = {{u"a"_s, u"b"_s}};

    const QByteArray lean = R"(apiVersion: test.converge.dev/v1
kind: Widget
metadata:
  name: kept
  labels:
    a: b
spec:
  owner:
    name: g
)";
    QCOMPARE(ManifestWriter(m_registry).toYaml({r}), lean);

    ManifestWriter::Options options;
    options.full = true;
    const QByteArray full = R"(apiVersion: test.converge.dev/v1
kind: Widget
metadata:
  name: kept
  labels:
    a: b
  uid: "0b6e3c1a"
  generation: 4
  resourceVersion: "7"
  creationTimestamp: "2024-05-06T07:08:09.000Z"
  finalizers:
    - converge.dev/finalizer
spec:
  owner:
    name: g
)";
    QCOMPARE(ManifestWriter(m_registry, options).toYaml({r}), full);
}

void tst_ManifestWriter::statusOnlyWhenAsked()
{
    Resource r;
    r.apiVersion = apiVersion();
    r.kind = u"Gadget"_s;
    r.metadata.name = u"g"_s;
    r.spec = QJsonObject{{u"location"_s, u"west"_s}};
    r.status.conditions.append(Condition::notReady(
        Condition::Severity::Warning, u"Throttled"_s, u"slow down: retry in 5s"_s, 2,
        QDateTime(QDate(2024, 1, 2), QTime(3, 4, 5), Qt::UTC)));

    const QByteArray without = R"(apiVersion: test.converge.dev/v1
kind: Gadget
metadata:
  name: g
spec:
  location: west
)";
    QCOMPARE(ManifestWriter(m_registry).toYaml({r}), without);

    ManifestWriter::Options options;
    options.withStatus = true;
    const QByteArray with = R"(apiVersion: test.converge.dev/v1
kind: Gadget
metadata:
  name: g
spec:
  location: west
status:
  conditions:
    - type: Ready
      status: "False"
      severity: Warning
      reason: Throttled
      message: "slow down: retry in 5s"
      observedGeneration: 2
      lastTransitionTime: "2024-01-02T03:04:05.000Z"
)";
    const QByteArray text = ManifestWriter(m_registry, options).toYaml({r});
    QCOMPARE(text, with);

    // …and it reads back when status is kept.
    ManifestReader::Options readOptions;
    readOptions.keepStatus = true;
    const ManifestReader::Result back =
        ManifestReader(m_registry, readOptions).read(text, u"s.yaml"_s);
    QVERIFY2(back.ok(), qPrintable(back.errors.value(0).toString()));
    QCOMPARE(back.objects.first().resource.status, r.status);
}

void tst_ManifestWriter::unknownKindSortsKeys()
{
    Resource r;
    r.apiVersion = u"other.example/v1"_s;
    r.kind = u"Thing"_s;
    r.metadata.name = u"t"_s;
    r.spec =
        QJsonObject{{u"zeta"_s, 1},
                    {u"alpha"_s, QJsonObject{{u"b"_s, 1.5}, {u"a"_s, QJsonArray{true, u"x"_s}}}},
                    {u"mid"_s, QJsonValue::Null}};
    const QByteArray expected = R"(apiVersion: other.example/v1
kind: Thing
metadata:
  name: t
spec:
  alpha:
    a:
      - true
      - x
    b: 1.5
  mid: ~
  zeta: 1
)";
    QCOMPARE(ManifestWriter(m_registry).toYaml({r}), expected);
}

void tst_ManifestWriter::json()
{
    Resource r = widget(u"j"_s, QJsonObject{{u"replicas"_s, 2},
                                            {u"owner"_s, QJsonObject{{u"name"_s, u"g"_s}}},
                                            {u"metadata"_s, QJsonObject{}},
                                            {u"tags"_s, QJsonArray{}},
                                            {u"etag"_s, u"\"q\" \\ \u00e9\n"_s}});
    const QByteArray expected = R"({
    "apiVersion": "test.converge.dev/v1",
    "kind": "Widget",
    "metadata": {
        "name": "j"
    },
    "spec": {
        "owner": {
            "name": "g"
        },
        "replicas": 2,
        "metadata": {},
        "tags": [],
        "etag": "\"q\" \\ é\n"
    }
}
)";
    const ManifestWriter writer(m_registry);
    QCOMPARE(writer.toJson({r}), expected);
    const ManifestReader::Result back = ManifestReader(m_registry).read(expected, u"j.json"_s);
    QVERIFY2(back.ok(), qPrintable(back.errors.value(0).toString()));
    QCOMPARE(back.objects.first().resource.spec.value(u"etag"_s), r.spec.value(u"etag"_s));
}

void tst_ManifestWriter::emptyAndSeveral()
{
    const ManifestWriter writer(m_registry);
    QCOMPARE(writer.toYaml({}), QByteArray());
    QCOMPARE(
        writer.toJson({}),
        QByteArray(
            "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"List\",\n    \"items\": []\n}\n"));

    Resource a;
    a.apiVersion = apiVersion();
    a.kind = u"Gadget"_s;
    a.metadata.name = u"a"_s;
    a.spec = QJsonObject{{u"location"_s, u"west"_s}};
    Resource b = a;
    b.metadata.name = u"b"_s;

    QCOMPARE(writer.toYaml({a, b}), QByteArray(R"(apiVersion: test.converge.dev/v1
kind: Gadget
metadata:
  name: a
spec:
  location: west
---
apiVersion: test.converge.dev/v1
kind: Gadget
metadata:
  name: b
spec:
  location: west
)"));
    QCOMPARE(writer.toJson({a, b}), QByteArray(R"({
    "apiVersion": "v1",
    "kind": "List",
    "items": [
        {
            "apiVersion": "test.converge.dev/v1",
            "kind": "Gadget",
            "metadata": {
                "name": "a"
            },
            "spec": {
                "location": "west"
            }
        },
        {
            "apiVersion": "test.converge.dev/v1",
            "kind": "Gadget",
            "metadata": {
                "name": "b"
            },
            "spec": {
                "location": "west"
            }
        }
    ]
}
)"));
    for (const QString &file : {u"two.yaml"_s, u"two.json"_s}) {
        const QByteArray text =
            file.endsWith(u".json"_s) ? writer.toJson({a, b}) : writer.toYaml({a, b});
        const ManifestReader::Result back = ManifestReader(m_registry).read(text, file);
        QVERIFY(back.ok());
        QCOMPARE(back.objects.size(), 2);
        QCOMPARE(back.objects.at(0).resource, a);
        QCOMPARE(back.objects.at(1).resource, b);
    }
}

void tst_ManifestWriter::quoting_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QByteArray>("line"); // how `etag` is written

    QTest::newRow("plain") << u"plain"_s << QByteArray("etag: plain");
    QTest::newRow("words") << u"two words"_s << QByteArray("etag: two words");
    QTest::newRow("path") << u"converge.dev/x"_s << QByteArray("etag: converge.dev/x");
    QTest::newRow("unicode") << u"\u00e9t\u00e9 \u65e5\u672c"_s
                             << QByteArray("etag: \u00e9t\u00e9 \u65e5\u672c");
    QTest::newRow("apostrophe") << u"it's"_s << QByteArray("etag: it's");
    QTest::newRow("leading dash") << u"-x"_s << QByteArray("etag: -x");
    QTest::newRow("true") << u"true"_s << QByteArray("etag: \"true\"");
    QTest::newRow("True") << u"True"_s << QByteArray("etag: \"True\"");
    QTest::newRow("yes (YAML 1.1)") << u"yes"_s << QByteArray("etag: \"yes\"");
    QTest::newRow("off (YAML 1.1)") << u"off"_s << QByteArray("etag: \"off\"");
    QTest::newRow("null") << u"null"_s << QByteArray("etag: \"null\"");
    QTest::newRow("tilde") << u"~"_s << QByteArray("etag: \"~\"");
    QTest::newRow("empty") << QString() << QByteArray("etag: \"\"");
    QTest::newRow("integer") << u"123"_s << QByteArray("etag: \"123\"");
    QTest::newRow("negative") << u"-5"_s << QByteArray("etag: \"-5\"");
    QTest::newRow("float") << u"1.5"_s << QByteArray("etag: \"1.5\"");
    QTest::newRow("exponent") << u"1e3"_s << QByteArray("etag: \"1e3\"");
    QTest::newRow("hex") << u"0x1F"_s << QByteArray("etag: \"0x1F\"");
    QTest::newRow("sexagesimal") << u"12:30"_s << QByteArray("etag: \"12:30\"");
    QTest::newRow(".inf") << u".inf"_s << QByteArray("etag: \".inf\"");
    QTest::newRow("leading space") << u" lead"_s << QByteArray("etag: \" lead\"");
    QTest::newRow("trailing space") << u"trail "_s << QByteArray("etag: \"trail \"");
    QTest::newRow("colon space") << u"a: b"_s << QByteArray("etag: \"a: b\"");
    QTest::newRow("comment") << u"#x"_s << QByteArray("etag: \"#x\"");
    QTest::newRow("dash space") << u"- x"_s << QByteArray("etag: \"- x\"");
    QTest::newRow("flow") << u"[x]"_s << QByteArray("etag: \"[x]\"");
    QTest::newRow("tab") << u"tab\there"_s << QByteArray("etag: \"tab\\there\"");
    QTest::newRow("no final newline") << u"one\ntwo"_s << QByteArray("etag: \"one\\ntwo\"");
    QTest::newRow("two final newlines") << u"one\n\n"_s << QByteArray("etag: \"one\\n\\n\"");
    QTest::newRow("newline only") << u"\n"_s << QByteArray("etag: \"\\n\"");
    QTest::newRow("indented first line")
        << u"  one\ntwo\n"_s << QByteArray("etag: \"  one\\ntwo\\n\"");
    QTest::newRow("multi-line") << u"one\n  two\n"_s << QByteArray("etag: |\n    one\n      two\n");
}

void tst_ManifestWriter::quoting()
{
    QFETCH(QString, value);
    QFETCH(QByteArray, line);

    const Resource r = widget(
        u"q"_s, QJsonObject{{u"owner"_s, QJsonObject{{u"name"_s, u"g"_s}}}, {u"etag"_s, value}});
    const QByteArray text = ManifestWriter(m_registry).toYaml({r});
    const qsizetype at = text.indexOf("  etag: ");
    QVERIFY(at >= 0);
    QCOMPARE(text.mid(at + 2, line.size()), line);
    const ManifestReader::Result back = ManifestReader(m_registry).read(text, u"q.yaml"_s);
    QVERIFY2(back.ok(), qPrintable(back.errors.value(0).toString()));
    QCOMPARE(back.objects.first().resource.spec.value(u"etag"_s).toString(), value);
}

void tst_ManifestWriter::roundTripFixed()
{
    // Keys that look like other types, and a key longer than YAML's 1024-character simple keys.
    Resource r = widget(u"fixed"_s, QJsonObject{{u"owner"_s, QJsonObject{{u"name"_s, u"g"_s}}}});
    r.metadata.labels = {{u"true"_s, u"1"_s},         {u"123"_s, u"null"_s},
                         {QString(), u"empty key"_s}, {u"a: b"_s, u"#"_s},
                         {u"multi\nline"_s, u"v"_s},  {QString(1100, u'k'), u"long key"_s}};
    const SchemaValidator validator(m_registry);
    QVERIFY(validator.validate(r).isEmpty());
    const ManifestWriter writer(m_registry);
    for (const QString &file : {u"f.yaml"_s, u"f.json"_s}) {
        const bool json = file.endsWith(u".json"_s);
        const QByteArray text = json ? writer.toJson({r}) : writer.toYaml({r});
        const ManifestReader::Result back = ManifestReader(m_registry).read(text, file);
        QVERIFY2(back.ok(),
                 qPrintable(back.errors.value(0).toString() + u"\n"_s + QString::fromUtf8(text)));
        QCOMPARE(back.objects.first().resource, r);
        const Resource again = back.objects.first().resource;
        QCOMPARE(json ? writer.toJson({again}) : writer.toYaml({again}), text);
    }
}

void tst_ManifestWriter::roundTripGenerated_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<quint32>("seed");
    for (quint32 seed : {1u, 2u, 3u}) {
        QTest::addRow("yaml seed %u", seed) << QStringLiteral("yaml") << seed;
        QTest::addRow("json seed %u", seed) << QStringLiteral("json") << seed;
    }
}

// read → write → read → write: the same text, and objects equal to what was generated.
void tst_ManifestWriter::roundTripGenerated()
{
    QFETCH(QString, format);
    QFETCH(quint32, seed);
    const bool yaml = format == QLatin1String("yaml");
    const QString fileName = yaml ? QStringLiteral("gen.yaml") : QStringLiteral("gen.json");

    Generator generator(seed);
    const SchemaValidator validator(m_registry);
    QList<Resource> resources;
    for (int i = 0; i < 100; ++i) {
        Resource r = generator.widget(i);
        const QList<ValidationError> errors = validator.validate(r); // fills in defaults
        QVERIFY2(errors.isEmpty(), qPrintable(errors.value(0).toString()));
        resources.append(r);
    }

    const ManifestWriter writer(m_registry);
    const ManifestReader reader(m_registry);
    // One at a time first, so that a failure names the object and shows its text.
    for (const Resource &r : std::as_const(resources)) {
        const QByteArray text = yaml ? writer.toYaml({r}) : writer.toJson({r});
        const ManifestReader::Result back = reader.read(text, fileName);
        QVERIFY2(back.ok(), qPrintable(back.errors.value(0).toString() + QStringLiteral("\n") +
                                       QString::fromUtf8(text)));
        QCOMPARE(back.objects.size(), 1);
        if (!(back.objects.first().resource == r)) {
            qWarning().noquote() << QString::fromUtf8(text);
            QCOMPARE(back.objects.first().resource.spec, r.spec);
            QCOMPARE(back.objects.first().resource.metadata.labels, r.metadata.labels);
            QCOMPARE(back.objects.first().resource.metadata.annotations, r.metadata.annotations);
            QVERIFY(back.objects.first().resource == r);
        }
    }

    const QByteArray first = yaml ? writer.toYaml(resources) : writer.toJson(resources);
    const ManifestReader::Result read1 = reader.read(first, fileName);
    QVERIFY2(read1.ok(), qPrintable(read1.errors.value(0).toString()));
    QCOMPARE(read1.objects.size(), resources.size());
    QList<Resource> again;
    for (const ManifestObject &o : read1.objects)
        again.append(o.resource);
    QCOMPARE(again, resources);
    const QByteArray second = yaml ? writer.toYaml(again) : writer.toJson(again);
    QCOMPARE(second, first);
    const ManifestReader::Result read2 = reader.read(second, fileName);
    QVERIFY2(read2.ok(), qPrintable(read2.errors.value(0).toString()));
    QCOMPARE(read2.objects.size(), resources.size());
    for (qsizetype i = 0; i < resources.size(); ++i)
        QCOMPARE(read2.objects.at(i).resource, resources.at(i));
}

QTEST_GUILESS_MAIN(tst_ManifestWriter)
#include "tst_manifestwriter.moc"

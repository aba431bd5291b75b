// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "kindexplainer.h"

#include "clirunner.h"

#include "kindregistry.h"
#include "services.h"

#include <QTest>

using namespace converge;
using converge::test::s;

namespace {

using F = FieldSchema;

// A kind with a field of every shape, so that the expected texts below stay short.
Kind widget()
{
    Kind kind;
    kind.group = s("test.converge.dev");
    kind.version = s("v1");
    kind.name = s("Widget");
    kind.description = s("A widget for tests. It has parts.");
    F name = F::string(s("name"), s("The widget's name. Unique in its account."));
    name.setRequired().setImmutable().setLength(3, 63).setPattern(s("[a-z]+"), s("lower-case"));
    F part = F::object(s("part"), {F::string(s("partName"), s("A part's name.")).setRequired(),
                                   F::integer(s("count"))});
    F parts = F::list(s("parts"), part, s("The parts, in the order they are fitted."));
    parts.maxItems = 2;
    F labels = F::map(s("labels"), F::string(s("value")).setLength(-1, 10));
    labels.setPattern(s("[a-z]+"));
    kind.spec = F::object(s("spec"),
                          {name, F::integer(s("size"), s("How big.")).setRange(1, 10).setDefault(3),
                           F::enumeration(s("color"), {s("red"), s("green")}, s("The colour.")),
                           parts, labels});
    return kind;
}

} // namespace

class tst_KindExplainer final : public QObject
{
    Q_OBJECT

private slots:
    void typeName_data()
    {
        QTest::addColumn<F>("field");
        QTest::addColumn<QString>("type");
        QTest::newRow("string") << F::string(s("a")) << s("string");
        QTest::newRow("integer") << F::integer(s("a")) << s("integer");
        QTest::newRow("boolean") << F::boolean(s("a")) << s("boolean");
        QTest::newRow("enum") << F::enumeration(s("a"), {s("x")}) << s("enum");
        QTest::newRow("object") << F::object(s("a"), {}) << s("object");
        QTest::newRow("list of objects") << F::list(s("a"), F::object(s("i"), {})) << s("[]object");
        QTest::newRow("list of strings") << F::list(s("a"), F::string(s("i"))) << s("[]string");
        QTest::newRow("map of strings")
            << F::map(s("a"), F::string(s("v"))) << s("map[string]string");
        QTest::newRow("map of lists")
            << F::map(s("a"), F::list(s("v"), F::integer(s("i")))) << s("map[string][]integer");
    }

    void typeName()
    {
        QFETCH(F, field);
        QFETCH(QString, type);
        QCOMPARE(KindExplainer::typeName(field), type);
    }

    void constraints_data()
    {
        QTest::addColumn<F>("field");
        QTest::addColumn<QStringList>("constraints");
        QTest::newRow("none") << F::string(s("a")) << QStringList{};
        QTest::newRow("enum") << F::enumeration(s("a"), {s("HASH"), s("RANGE")})
                              << QStringList{s("enum: HASH, RANGE")};
        QTest::newRow("lengths, hint over pattern")
            << F::string(s("a")).setLength(3, 63).setPattern(s("[a-z]+"), s("lower-case"))
            << QStringList{s("length: 3..63"), s("pattern: lower-case")};
        QTest::newRow("pattern without hint, at least")
            << F::string(s("a")).setLength(1, -1).setPattern(s("[a-z]+"))
            << QStringList{s("length: at least 1"), s("pattern: [a-z]+")};
        QTest::newRow("at most") << F::string(s("a")).setLength(-1, 80)
                                 << QStringList{s("length: at most 80")};
        QTest::newRow("range and default") << F::integer(s("a")).setRange(-1, 5).setDefault(2)
                                           << QStringList{s("range: -1..5"), s("default: 2")};
        F minimumOnly = F::integer(s("a"));
        minimumOnly.minimum = 1;
        QTest::newRow("minimum") << minimumOnly << QStringList{s("minimum: 1")};
        QTest::newRow("string default") << F::string(s("a")).setDefault(s("PAY_PER_REQUEST"))
                                        << QStringList{s("default: PAY_PER_REQUEST")};
        QTest::newRow("empty string default")
            << F::string(s("a")).setDefault(QString()) << QStringList{s("default: \"\"")};
        QTest::newRow("boolean default")
            << F::boolean(s("a")).setDefault(false) << QStringList{s("default: false")};
        QTest::newRow("null is no default")
            << F::boolean(s("a")).setDefault(QJsonValue::Null) << QStringList{};
        F map = F::map(s("a"), F::string(s("v")).setLength(0, 256));
        map.setLength(1, 128);
        QTest::newRow("map: keys and values")
            << map << QStringList{s("key length: 1..128"), s("value length: 0..256")};
        F list = F::list(s("a"), F::enumeration(s("i"), {s("x"), s("y")}));
        list.maxItems = 2;
        QTest::newRow("list: size and items")
            << list << QStringList{s("at most 2 items"), s("item enum: x, y")};
        QTest::newRow("list of objects: theirs are their fields'")
            << F::list(s("a"), F::object(s("i"), {F::string(s("b")).setLength(1, 2)}))
            << QStringList{};
    }

    void constraints()
    {
        QFETCH(F, field);
        QFETCH(QStringList, constraints);
        QCOMPARE(KindExplainer::constraints(field), constraints);
    }

    void summary_data()
    {
        QTest::addColumn<QString>("description");
        QTest::addColumn<int>("columns");
        QTest::addColumn<QString>("summary");
        QTest::newRow("first sentence") << s("One. Two.") << 76 << s("One.");
        QTest::newRow("no period") << s("One and two") << 76 << s("One and two");
        QTest::newRow("e.g. goes on")
            << s("A name, e.g. Orders. More.") << 76 << s("A name, e.g. Orders.");
        QTest::newRow("a dot in a word goes on")
            << s("Ends in .fifo or not. More.") << 76 << s("Ends in .fifo or not.");
        QTest::newRow("lower case after a period goes on")
            << s("Version 1. of them. Next") << 76 << s("Version 1. of them.");
        QTest::newRow("whitespace collapsed") << s("One\n  two.  Three") << 76 << s("One two.");
        QTest::newRow("cut at a word") << s("aaa bbb ccc ddd. Next.") << 10 << s("aaa bbb…");
        QTest::newRow("empty") << QString() << 76 << QString();
    }

    void summary()
    {
        QFETCH(QString, description);
        QFETCH(int, columns);
        QFETCH(QString, summary);
        const QString got = KindExplainer::summary(description, columns);
        QCOMPARE(got, summary);
        QVERIFY(got.size() <= columns);
    }

    void explain_data()
    {
        QTest::addColumn<QStringList>("path");
        QTest::addColumn<bool>("recursive");
        QTest::addColumn<QString>("text");
        const QString header = s("KIND:     Widget\nVERSION:  test.converge.dev/v1\n");
        const QString kindText = header + s("\n"
                                            "DESCRIPTION:\n"
                                            "    A widget for tests. It has parts.\n"
                                            "\n"
                                            "FIELDS:\n"
                                            "  name\t<string> -required- -immutable-\n"
                                            "    The widget's name.\n"
                                            "    length: 3..63; pattern: lower-case\n"
                                            "\n"
                                            "  size\t<integer>\n"
                                            "    How big.\n"
                                            "    range: 1..10; default: 3\n"
                                            "\n"
                                            "  color\t<enum>\n"
                                            "    The colour.\n"
                                            "    enum: red, green\n"
                                            "\n"
                                            "  parts\t<[]object>\n"
                                            "    The parts, in the order they are fitted.\n"
                                            "    at most 2 items\n"
                                            "\n"
                                            "  labels\t<map[string]string>\n"
                                            "    key pattern: [a-z]+; value length: at most 10\n");
        QTest::newRow("kind") << QStringList{} << false << kindText;
        QTest::newRow("spec is the kind") << QStringList{s("spec")} << false << kindText;
        QTest::newRow("recursive") << QStringList{} << true
                                   << header + s("\n"
                                                 "DESCRIPTION:\n"
                                                 "    A widget for tests. It has parts.\n"
                                                 "\n"
                                                 "FIELDS:\n"
                                                 "  name\t<string> -required- -immutable-\n"
                                                 "  size\t<integer>\n"
                                                 "  color\t<enum>\n"
                                                 "  parts\t<[]object>\n"
                                                 "    partName\t<string> -required-\n"
                                                 "    count\t<integer>\n"
                                                 "  labels\t<map[string]string>\n");
        QTest::newRow("field, in full") << QStringList{s("name")} << false
                                        << header + s("\n"
                                                      "FIELD: name <string> -required- "
                                                      "-immutable-\n"
                                                      "\n"
                                                      "DESCRIPTION:\n"
                                                      "    The widget's name. Unique in its "
                                                      "account.\n"
                                                      "\n"
                                                      "CONSTRAINTS:\n"
                                                      "    length: 3..63\n"
                                                      "    pattern: lower-case\n");
        const QString partsText = header + s("\n"
                                             "FIELD: parts <[]object>\n"
                                             "\n"
                                             "DESCRIPTION:\n"
                                             "    The parts, in the order they are fitted.\n"
                                             "\n"
                                             "CONSTRAINTS:\n"
                                             "    at most 2 items\n"
                                             "\n"
                                             "FIELDS:\n"
                                             "  partName\t<string> -required-\n"
                                             "    A part's name.\n"
                                             "\n"
                                             "  count\t<integer>\n");
        QTest::newRow("a list: its items' fields") << QStringList{s("parts")} << false << partsText;
        QTest::newRow("spec. and any case")
            << QStringList{s("spec"), s("PARTS")} << false << partsText;
        QTest::newRow("a list item's field")
            << QStringList{s("parts"), s("partName")} << false
            << header + s("\n"
                          "FIELD: parts.partName <string> -required-\n"
                          "\n"
                          "DESCRIPTION:\n"
                          "    A part's name.\n");
        QTest::newRow("no description") << QStringList{s("labels")} << false
                                        << header + s("\n"
                                                      "FIELD: labels <map[string]string>\n"
                                                      "\n"
                                                      "DESCRIPTION:\n"
                                                      "    <empty>\n"
                                                      "\n"
                                                      "CONSTRAINTS:\n"
                                                      "    key pattern: [a-z]+\n"
                                                      "    value length: at most 10\n");
    }

    void explain()
    {
        QFETCH(QStringList, path);
        QFETCH(bool, recursive);
        QFETCH(QString, text);
        const Kind kind = widget();
        QString error;
        const std::optional<QString> got = KindExplainer(kind).explain(path, recursive, &error);
        QVERIFY2(got, qPrintable(error));
        QCOMPARE(*got, text);
    }

    void unknownFields_data()
    {
        QTest::addColumn<QStringList>("path");
        QTest::addColumn<QString>("error");
        QTest::newRow("near a field")
            << QStringList{s("colour")}
            << s("field \"colour\" does not exist in Widget; did you mean \"color\"?");
        QTest::newRow("nothing near")
            << QStringList{s("metadata")}
            << s("field \"metadata\" does not exist in Widget (known: name, size, color, parts, "
                 "labels)");
        QTest::newRow("in a list item")
            << QStringList{s("parts"), s("partname"), s("x")}
            << s("field \"x\" does not exist in Widget.parts.partName (string has no fields)");
        QTest::newRow("under a list")
            << QStringList{s("parts"), s("cont")}
            << s("field \"cont\" does not exist in Widget.parts; did you mean \"count\"?");
    }

    void unknownFields()
    {
        QFETCH(QStringList, path);
        QFETCH(QString, error);
        const Kind kind = widget();
        QString why;
        QVERIFY(!KindExplainer(kind).explain(path, false, &why));
        QCOMPARE(why, error);
    }

    // The kinds the program has, declared ones too: the paths people type, and every field of
    // every kind in 80 columns.
    void realKinds_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QStringList>("path");
        QTest::addColumn<QString>("expected");
        QTest::newRow("declared kind")
            << s("SQSQueue") << QStringList{} << s("  queueName\t<string> -immutable-\n");
        QTest::newRow("declared kind's field")
            << s("CloudWatchLogGroup") << QStringList{s("retentionDays")}
            << s("FIELD: retentionDays <integer>\n");
        QTest::newRow("list item's field")
            << s("DynamoDBTable") << QStringList{s("keySchema"), s("attributeName")}
            << s("FIELD: keySchema.attributeName <string> -required-\n");
        QTest::newRow("enum")
            << s("DynamoDBTable") << QStringList{s("billingMode")}
            << s("    enum: PROVISIONED, PAY_PER_REQUEST\n    default: PAY_PER_REQUEST\n");
        QTest::newRow("owner") << s("BlobContainer") << QStringList{s("owner")}
                               << s("FIELD: owner <object> -required- -immutable-\n");
    }

    void realKinds()
    {
        QFETCH(QString, kind);
        QFETCH(QStringList, path);
        QFETCH(QString, expected);
        const Kind *k = m_services.kinds().find(kind);
        QVERIFY(k);
        QString error;
        const std::optional<QString> text = KindExplainer(*k).explain(path, false, &error);
        QVERIFY2(text, qPrintable(error));
        QVERIFY2(text->contains(expected), qPrintable(*text));
    }

    void everyFieldFitsIn80Columns()
    {
        for (const QString &name : m_services.kinds().names()) {
            const Kind *kind = m_services.kinds().find(name);
            QList<QStringList> paths{{}};
            for (qsizetype i = 0; i < paths.size(); ++i) {
                const QStringList path = paths.at(i);
                const KindExplainer explainer(*kind);
                const FieldSchema *field = explainer.find(path);
                QVERIFY(field);
                for (const FieldSchema &child : field->fields)
                    paths << path + QStringList{child.name};
                if (!field->items.isEmpty())
                    for (const FieldSchema &child : field->items.constFirst().fields)
                        paths << path + QStringList{child.name};
                for (const bool recursive : {false, true}) {
                    const std::optional<QString> text = explainer.explain(path, recursive);
                    QVERIFY(text);
                    for (const QString &line : text->split(QLatin1Char('\n'))) {
                        // A word longer than a line (a regular expression) cannot be wrapped,
                        // and a deep field's path is not wrapped either (kubectl does not).
                        const bool oneWord = !line.trimmed().contains(QLatin1Char(' '));
                        const bool header = line.startsWith(QLatin1String("FIELD: "));
                        QVERIFY2(line.size() <= KindExplainer::width || oneWord || header,
                                 qPrintable(name + QLatin1Char('.') + path.join(QLatin1Char('.')) +
                                            QStringLiteral(": ") + line));
                    }
                }
            }
        }
    }

private:
    Services m_services;
};

QTEST_GUILESS_MAIN(tst_KindExplainer)
#include "tst_kindexplainer.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "delta.h"

#include "testkinds.h"

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

QStringList paths(std::initializer_list<const char *> list)
{
    QStringList result;
    for (const char *p : list)
        result.append(QString::fromUtf8(p));
    return result;
}

} // namespace

class tst_Delta final : public QObject
{
    Q_OBJECT

private slots:
    void between_data()
    {
        QTest::addColumn<QJsonObject>("desired");
        QTest::addColumn<QJsonObject>("observed");
        QTest::addColumn<QStringList>("expected");
        const auto row = [](const char *name, const char *desired, const char *observed,
                            const QStringList &expected) {
            QTest::newRow(name) << json(desired) << json(observed) << expected;
        };

        row("identical", "{'azureName': 'abc', 'replicas': 2}",
            "{'azureName': 'abc', 'replicas': 2}", {});
        row("scalar differs", "{'azureName': 'abc'}", "{'azureName': 'abd'}",
            paths({"spec.azureName"}));
        row("nested object", "{'owner': {'name': 'g1'}}", "{'owner': {'name': 'g2'}}",
            paths({"spec.owner.name"}));

        // Missing vs empty vs default.
        row("absent desired is not managed", "{}", "{'azureName': 'abc', 'enabled': true}", {});
        row("absent desired with a default compares as it", "{}", "{'replicas': 3}",
            paths({"spec.replicas"}));
        row("absent on both sides with a default", "{}", "{}", {});
        row("desired default, observed absent", "{'replicas': 1, 'publicAccess': 'None'}", "{}",
            {});
        row("desired non-default, observed absent", "{'replicas': 2}", "{}",
            paths({"spec.replicas"}));
        row("enum default against observed", "{}", "{'publicAccess': 'Blob'}",
            paths({"spec.publicAccess"}));
        row("bool without default, observed absent", "{'enabled': false}", "{}",
            paths({"spec.enabled"}));
        row("empty string, observed absent", "{'azureName': ''}", "{}", {});
        row("empty string, observed set", "{'azureName': ''}", "{'azureName': 'abc'}",
            paths({"spec.azureName"}));
        row("empty map, observed absent", "{'metadata': {}}", "{}", {});
        row("empty map, observed non-empty", "{'metadata': {}}", "{'metadata': {'team': 'a'}}",
            paths({"spec.metadata.team"}));
        row("empty list, observed absent", "{'tags': []}", "{}", {});
        row("empty list, observed non-empty", "{'tags': []}", "{'tags': [{'key': 'a'}]}",
            paths({"spec.tags"}));
        row("object observed absent", "{'source': {'a': 'x'}}", "{}", paths({"spec.source.a"}));
        row("empty object, observed absent (defaults inside)", "{'source': {}}", "{}", {});
        row("type differs", "{'azureName': 'abc'}", "{'azureName': 5}", paths({"spec.azureName"}));
        row("whole double equals integer", "{'replicas': 3}", "{'replicas': 3.0}", {});

        // Maps key by key, keys sorted.
        row("map value differs", "{'metadata': {'team': 'a', 'env': 'x'}}",
            "{'metadata': {'team': 'b', 'env': 'x'}}", paths({"spec.metadata.team"}));
        row("map key missing from observed", "{'metadata': {'team': 'a'}}", "{'metadata': {}}",
            paths({"spec.metadata.team"}));
        row("map key only observed", "{'metadata': {'team': 'a'}}",
            "{'metadata': {'team': 'a', 'env': 'x'}}", paths({"spec.metadata.env"}));
        row("map keys sorted", "{'metadata': {'z': '1', 'a': '1', 'm': '1'}}",
            "{'metadata': {'z': '2', 'a': '2', 'm': '1'}}",
            paths({"spec.metadata.a", "spec.metadata.z"}));
        row("map key quoted", "{'metadata': {'a.b': 'x'}}", "{'metadata': {'a.b': 'y'}}",
            paths({"spec.metadata[\"a.b\"]"}));

        // Lists index by index; a length change names the list.
        row("list item field", "{'tags': [{'key': 'a'}, {'key': 'b'}, {'key': 'c', 'value': 'v'}]}",
            "{'tags': [{'key': 'a'}, {'key': 'b'}, {'key': 'c', 'value': 'w'}]}",
            paths({"spec.tags[2].value"}));
        row("two items, paths do not leak",
            "{'tags': [{'key': 'a'}, {'key': 'b'}, {'key': 'c', 'value': 'v'}]}",
            "{'tags': [{'key': 'x'}, {'key': 'b'}, {'key': 'c', 'value': 'w'}]}",
            paths({"spec.tags[0].key", "spec.tags[2].value"}));
        row("list length change", "{'tags': [{'key': 'a'}, {'key': 'b'}]}",
            "{'tags': [{'key': 'a'}]}", paths({"spec.tags"}));
        row("list item default", "{'tags': [{'key': 'a'}]}",
            "{'tags': [{'key': 'a', 'propagate': true}]}", {});
        row("list item against its default", "{'tags': [{'key': 'a'}]}",
            "{'tags': [{'key': 'a', 'propagate': false}]}", paths({"spec.tags[0].propagate"}));
        row("list item unmanaged field", "{'tags': [{'key': 'a'}]}",
            "{'tags': [{'key': 'a', 'value': 'server'}]}", {});

        // Non-compared fields, order, siblings.
        row("non-compared field", "{'etag': 'a'}", "{'etag': 'b'}", {});
        row("schema order across siblings",
            "{'source': {'a': 'x'}, 'azureName': 'abc', 'owner': {'name': 'g1'}}",
            "{'source': {'a': 'y'}, 'azureName': 'abd', 'owner': {'name': 'g2'}}",
            paths({"spec.owner.name", "spec.azureName", "spec.source.a"}));
    }

    void between()
    {
        QFETCH(QJsonObject, desired);
        QFETCH(QJsonObject, observed);
        QFETCH(QStringList, expected);
        QCOMPARE(Delta::between(test::widgetKind().spec, desired, observed), expected);
    }

    void numbers()
    {
        const FieldSchema spec = test::widgetKind().spec;
        const auto replicas = [](const QJsonValue &v) {
            return QJsonObject{{QStringLiteral("replicas"), v}};
        };
        QCOMPARE(Delta::between(spec, replicas(qint64(3)), replicas(3.0)), QStringList());
        // Beyond 2^53 doubles cannot tell these apart; integers must compare as integers.
        const qint64 big = (qint64(1) << 53) + 1;
        QCOMPARE(Delta::between(spec, replicas(big), replicas(big - 1)), paths({"spec.replicas"}));
        QCOMPARE(Delta::between(spec, replicas(big), replicas(big)), QStringList());
    }

    void nonComparedSubtreeHidden()
    {
        using F = FieldSchema;
        const F spec =
            F::object(QStringLiteral("spec"),
                      {F::object(QStringLiteral("server"),
                                 {F::string(QStringLiteral("etag")),
                                  F::map(QStringLiteral("extra"), F::string(QStringLiteral("v")))})
                           .setCompared(false),
                       F::string(QStringLiteral("name"))});
        const QJsonObject desired =
            json("{'server': {'etag': 'a', 'extra': {'k': 'x'}}, 'name': 'n'}");
        const QJsonObject observed =
            json("{'server': {'etag': 'b', 'extra': {'k': 'y', 'j': 'z'}}, 'name': 'n'}");
        QCOMPARE(Delta::between(spec, desired, observed), QStringList());
        QCOMPARE(Delta::between(spec, desired, json("{'name': 'm'}")), paths({"spec.name"}));
    }

    void onlyWithin_data()
    {
        QTest::addColumn<QStringList>("delta");
        QTest::addColumn<QStringList>("allowed");
        QTest::addColumn<bool>("expected");
        QTest::newRow("empty delta") << QStringList() << paths({"spec.metadata"}) << true;
        QTest::newRow("nothing allowed") << paths({"spec.metadata"}) << QStringList() << false;
        QTest::newRow("exact") << paths({"spec.metadata"}) << paths({"spec.metadata"}) << true;
        QTest::newRow("under") << paths({"spec.metadata.team"}) << paths({"spec.metadata"}) << true;
        QTest::newRow("under, quoted key")
            << paths({"spec.metadata[\"a.b\"]"}) << paths({"spec.metadata"}) << true;
        QTest::newRow("under, index")
            << paths({"spec.tags[2].value"}) << paths({"spec.tags"}) << true;
        QTest::newRow("prefix trap")
            << paths({"spec.metadataX"}) << paths({"spec.metadata"}) << false;
        QTest::newRow("prefix trap under")
            << paths({"spec.metadataX.team"}) << paths({"spec.metadata"}) << false;
        QTest::newRow("parent of allowed")
            << paths({"spec.metadata"}) << paths({"spec.metadata.team"}) << false;
        QTest::newRow("as many paths as allowed, one outside")
            << paths({"spec.metadata.team", "spec.azureName"})
            << paths({"spec.metadata", "spec.tags"}) << false;
        QTest::newRow("more paths than allowed, all inside")
            << paths({"spec.metadata.a", "spec.metadata.b", "spec.metadata.c"})
            << paths({"spec.metadata", "spec.tags"}) << true;
        QTest::newRow("one of several outside")
            << paths({"spec.metadata.a", "spec.tags[0].key", "spec.replicas"})
            << paths({"spec.metadata", "spec.tags"}) << false;
    }

    void onlyWithin()
    {
        QFETCH(QStringList, delta);
        QFETCH(QStringList, allowed);
        QFETCH(bool, expected);
        QCOMPARE(Delta::onlyWithin(delta, allowed), expected);
    }

    void immutablePaths_data()
    {
        QTest::addColumn<QStringList>("delta");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("immutable field") << paths({"spec.azureName"}) << paths({"spec.azureName"});
        QTest::newRow("under an immutable object")
            << paths({"spec.owner.name"}) << paths({"spec.owner.name"});
        QTest::newRow("mutable") << paths({"spec.replicas", "spec.tags[1].key"}) << QStringList();
        QTest::newRow("mixed, order kept")
            << paths({"spec.owner.name", "spec.replicas", "spec.azureName"})
            << paths({"spec.owner.name", "spec.azureName"});
        QTest::newRow("prefix trap") << paths({"spec.azureNameX"}) << QStringList();
        QTest::newRow("not a path") << paths({"spec..azureName", "spec.owner["}) << QStringList();
    }

    void immutablePaths()
    {
        QFETCH(QStringList, delta);
        QFETCH(QStringList, expected);
        QCOMPARE(Delta::immutablePaths(test::widgetKind().spec, delta), expected);
    }

    void immutableInsideCollections()
    {
        using F = FieldSchema;
        const F spec =
            F::object(QStringLiteral("spec"),
                      {F::list(QStringLiteral("keys"),
                               F::object(QStringLiteral("key"),
                                         {F::string(QStringLiteral("id")).setImmutable(),
                                          F::string(QStringLiteral("note"))})),
                       F::map(QStringLiteral("m"), F::string(QStringLiteral("v")).setImmutable())});
        const QStringList delta = paths(
            {"spec.keys[3].id", "spec.keys[3].note", "spec.keys", "spec.m[\"a.b\"]", "spec.m.x"});
        QCOMPARE(Delta::immutablePaths(spec, delta),
                 paths({"spec.keys[3].id", "spec.m[\"a.b\"]", "spec.m.x"}));
    }
};

QTEST_GUILESS_MAIN(tst_Delta)
#include "tst_delta.moc"

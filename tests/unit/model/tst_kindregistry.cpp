// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "kindregistry.h"
#include "suggestions.h"
#include "testkinds.h"

#include <QTest>

using namespace converge;

namespace {

Kind kindNamed(const QString &name)
{
    Kind kind;
    kind.group = QStringLiteral("azure.converge.dev");
    kind.version = QStringLiteral("v1");
    kind.name = name;
    return kind;
}

} // namespace

class tst_KindRegistry final : public QObject
{
    Q_OBJECT

private slots:
    void addAndFind()
    {
        KindRegistry registry;
        test::registerTestKinds(registry);
        const Kind *widget = registry.find(QStringLiteral("Widget"));
        QVERIFY(widget);
        QCOMPARE(widget->apiVersion(), test::testApiVersion());
        QCOMPARE(widget->ownerKind, QStringLiteral("Gadget"));
        QCOMPARE(registry.find(test::testApiVersion(), QStringLiteral("Widget")), widget);
        QCOMPARE(registry.find(QStringLiteral("test.converge.dev/v2"), QStringLiteral("Widget")),
                 nullptr);
        QCOMPARE(registry.find(QStringLiteral("widget")), nullptr); // names are case-sensitive
        QCOMPARE(registry.find(QStringLiteral("Nothing")), nullptr);
        QCOMPARE(registry.names(),
                 (QStringList{QStringLiteral("Gadget"), QStringLiteral("Widget")}));
    }

    void addTwiceChangesNothing()
    {
        KindRegistry registry;
        Kind first = kindNamed(QStringLiteral("Queue"));
        first.description = QStringLiteral("first");
        Kind second = first;
        second.description = QStringLiteral("second");
        QVERIFY(registry.add(first));
        QVERIFY(!registry.add(second));
        QCOMPARE(registry.find(QStringLiteral("Queue"))->description, QStringLiteral("first"));
        QCOMPARE(registry.names().size(), 1);
    }

    void suggestions_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("expected");
        const auto l = [](std::initializer_list<const char *> names) {
            QStringList list;
            for (const char *n : names)
                list.append(QString::fromUtf8(n));
            return list;
        };
        QTest::newRow("case only") << QStringLiteral("blobcontainer") << l({"BlobContainer"});
        QTest::newRow("one deletion") << QStringLiteral("Widgt") << l({"Widget"});
        QTest::newRow("transposition") << QStringLiteral("Tabel") << l({"Table"});
        QTest::newRow("best first") << QStringLiteral("Blobs") << l({"Blob"});
        QTest::newRow("short name, distance 2") << QStringLiteral("Que") << l({"Queue"});
        QTest::newRow("short name, distance 3") << QStringLiteral("Qu") << QStringList();
        QTest::newRow("13 chars allow distance 4")
            << QStringLiteral("StoraXXXcount") << l({"StorageAccount"});
        QTest::newRow("9 chars allow only 3") << QStringLiteral("StorageAc") << QStringList();
        QTest::newRow("nothing near") << QStringLiteral("Xyzzy") << QStringList();
        QTest::newRow("exact first, then near")
            << QStringLiteral("Gadget") << l({"Gadget", "Widget"});
    }

    void suggestions()
    {
        QFETCH(QString, name);
        QFETCH(QStringList, expected);
        KindRegistry registry;
        test::registerTestKinds(registry);
        for (const char *n : {"BlobContainer", "Blob", "Queue", "Table", "StorageAccount"})
            QVERIFY(registry.add(kindNamed(QString::fromUtf8(n))));
        QCOMPARE(registry.suggestions(name), expected);
    }

    void editDistance_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<int>("distance");
        QTest::newRow("classic") << QStringLiteral("kitten") << QStringLiteral("sitting") << 3;
        QTest::newRow("empty") << QString() << QStringLiteral("abc") << 3;
        QTest::newRow("case ignored") << QStringLiteral("ABC") << QStringLiteral("abc") << 0;
        QTest::newRow("both ends") << QStringLiteral("flaw") << QStringLiteral("lawn") << 2;
        QTest::newRow("equal") << QStringLiteral("spec") << QStringLiteral("spec") << 0;
    }

    void editDistance()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(int, distance);
        QCOMPARE(Suggestions::editDistance(a, b), distance);
        QCOMPARE(Suggestions::editDistance(b, a), distance);
    }

    void closestKeepsOrderOnTies()
    {
        const QStringList candidates{QStringLiteral("Tablet"), QStringLiteral("Cable"),
                                     QStringLiteral("Table")};
        QCOMPARE(Suggestions::closest(QStringLiteral("tabl"), candidates),
                 (QStringList{QStringLiteral("Table"), QStringLiteral("Tablet"),
                              QStringLiteral("Cable")}));
    }

    void fieldSchemaBuilders()
    {
        const Kind widget = test::widgetKind();
        const FieldSchema &spec = widget.spec;
        QCOMPARE(spec.type, FieldSchema::Type::Object);
        const FieldSchema *owner = spec.field(QStringLiteral("owner"));
        QVERIFY(owner);
        QVERIFY(owner->required);
        QVERIFY(owner->immutable);
        QVERIFY(owner->field(QStringLiteral("name")));
        QVERIFY(!spec.field(QStringLiteral("nothing")));
        QVERIFY(!owner->field(QStringLiteral("name"))->field(QStringLiteral("name"))); // a string

        const FieldSchema *access = spec.field(QStringLiteral("publicAccess"));
        QCOMPARE(access->type, FieldSchema::Type::Enum);
        QCOMPARE(access->enumValues.size(), 3);
        QCOMPARE(access->defaultValue, QJsonValue(QStringLiteral("None")));

        const FieldSchema *tags = spec.field(QStringLiteral("tags"));
        QCOMPARE(tags->type, FieldSchema::Type::List);
        QCOMPARE(tags->items.size(), 1);
        QCOMPARE(tags->items.first().type, FieldSchema::Type::Object);
        QCOMPARE(spec.field(QStringLiteral("metadata"))->items.first().type,
                 FieldSchema::Type::String);
        QVERIFY(!spec.field(QStringLiteral("etag"))->compared);
        QVERIFY(spec.field(QStringLiteral("accountKey"))->secret);
        QVERIFY(spec.field(QStringLiteral("source"))->check);
        QCOMPARE(spec.field(QStringLiteral("replicas"))->maximum, 10);
        QCOMPARE(FieldSchema::typeName(FieldSchema::Type::Int), QStringLiteral("integer"));
    }
};

QTEST_GUILESS_MAIN(tst_KindRegistry)
#include "tst_kindregistry.moc"

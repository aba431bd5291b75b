// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The one rule for fields that cannot change once the backend resource exists, on the test kind
// Widget (owner and azureName immutable, azureName its backend name field).
#include "immutablefields.h"

#include "testkinds.h"

#include <QJsonDocument>
#include <QTest>

using namespace converge;
using namespace converge::test;

namespace {

QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text).replace('\'', '"')).object();
}

} // namespace

class tst_ImmutableFields final : public QObject
{
    Q_OBJECT

    const Kind m_kind = widgetKind();

private slots:
    void changed_data()
    {
        QTest::addColumn<QJsonObject>("desired");
        QTest::addColumn<QJsonObject>("established");
        QTest::addColumn<QStringList>("paths");

        const QJsonObject g = json("{'owner': {'name': 'g'}, 'azureName': 'first'}");
        QTest::newRow("same") << g << g << QStringList();
        QTest::newRow("a mutable field") << json("{'owner': {'name': 'g'}, 'azureName': 'first', "
                                                 "'replicas': 3}")
                                         << g << QStringList();
        QTest::newRow("renamed") << json("{'owner': {'name': 'g'}, 'azureName': 'second'}") << g
                                 << QStringList{QStringLiteral("spec.azureName")};
        // Left out, the name field means metadata.name ("w"), which is not "first".
        QTest::newRow("name left out") << json("{'owner': {'name': 'g'}}") << g
                                       << QStringList{QStringLiteral("spec.azureName")};
        QTest::newRow("name left out, established as metadata.name")
            << json("{'owner': {'name': 'g'}}")
            << json("{'owner': {'name': 'g'}, 'azureName': 'w'}") << QStringList();
        // An observation without the name field says nothing about the name.
        QTest::newRow("name not observed")
            << json("{'owner': {'name': 'g'}, 'azureName': 'second'}")
            << json("{'owner': {'name': 'g'}}") << QStringList();
        // The owner is never drift (not compared), but moving to another owner is a new resource.
        QTest::newRow("another owner") << json("{'owner': {'name': 'h'}, 'azureName': 'first'}")
                                       << g << QStringList{QStringLiteral("spec.owner.name")};
        QTest::newRow("both") << json("{'owner': {'name': 'h'}, 'azureName': 'second'}") << g
                              << QStringList{QStringLiteral("spec.owner.name"),
                                             QStringLiteral("spec.azureName")};
    }

    void changed()
    {
        QFETCH(QJsonObject, desired);
        QFETCH(QJsonObject, established);
        QFETCH(QStringList, paths);
        const QList<ImmutableFields::Change> changes =
            ImmutableFields::changed(m_kind, QStringLiteral("w"), desired, established);
        QCOMPARE(ImmutableFields::paths(changes), paths);
    }

    void theValuesAreTheEstablishedAndTheDesired()
    {
        const QList<ImmutableFields::Change> changes =
            ImmutableFields::changed(m_kind, QStringLiteral("w"), json("{'owner': {'name': 'g'}}"),
                                     json("{'owner': {'name': 'g'}, 'azureName': 'first'}"));
        QCOMPARE(changes.size(), 1);
        QCOMPARE(changes.first().before, QJsonValue(QStringLiteral("first")));
        QCOMPARE(changes.first().after, QJsonValue(QStringLiteral("w")));
        const QString message =
            ImmutableFields::message({QStringLiteral("Widget"), QStringLiteral("w")}, changes);
        QVERIFY2(
            message.startsWith(QStringLiteral("cannot change after creation (\"first\" → \"w\")")),
            qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("Widget/w")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("detach-on-delete")), qPrintable(message));
    }

    void establishedIsTheObservationElseTheStoredSpecOfACreatedResource()
    {
        Resource stored;
        stored.kind = m_kind.name;
        stored.metadata.name = QStringLiteral("w");
        stored.spec = json("{'owner': {'name': 'g'}}");
        // Never made in the backend: nothing is established, a rename is only an edit.
        QVERIFY(!ImmutableFields::established(m_kind, stored));
        Resource renamed = stored;
        renamed.spec.insert(QStringLiteral("azureName"), QStringLiteral("other"));
        QVERIFY(ImmutableFields::changed(m_kind, renamed, stored).isEmpty());

        // Created (it has a backend ID), not observed since: the stored spec, named.
        stored.metadata.annotations.insert(Annotations::resourceId(), QStringLiteral("fake://w"));
        QCOMPARE(*ImmutableFields::established(m_kind, stored),
                 json("{'owner': {'name': 'g'}, 'azureName': 'w'}"));
        QCOMPARE(ImmutableFields::paths(ImmutableFields::changed(m_kind, renamed, stored)),
                 QStringList{QStringLiteral("spec.azureName")});

        // Observed: what the backend showed wins.
        stored.status.observed = QJsonObject{{QStringLiteral("spec"), renamed.spec}};
        QVERIFY(ImmutableFields::changed(m_kind, renamed, stored).isEmpty());
    }
};

QTEST_GUILESS_MAIN(tst_ImmutableFields)
#include "tst_immutablefields.moc"

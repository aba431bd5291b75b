// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The spannerInstance hook: an instance's capacity, answered as nodes and as processing units,
// observed in the one unit the spec gives (or, for a listing, the one it can be made again with).
#include "spannerinstancehook.h"

#include <QTest>

using namespace converge;

class tst_SpannerInstanceHook final : public QObject
{
    Q_OBJECT

private slots:
    void capacityInOneUnit_data()
    {
        QTest::addColumn<QJsonObject>("desired");
        QTest::addColumn<int>("nodes"); // -1: not observed
        QTest::addColumn<int>("units");
        QTest::addColumn<QJsonObject>("answered");
        const QJsonObject oneNode{{u"numNodes"_qs, 1}, {u"processingUnits"_qs, 1000}};
        const QJsonObject small{{u"processingUnits"_qs, 100}}; // nodeCount 0 left out
        QTest::newRow("spec in nodes") << QJsonObject{{u"numNodes"_qs, 2}} << 1 << -1 << oneNode;
        QTest::newRow("spec in units")
            << QJsonObject{{u"processingUnits"_qs, 2000}} << -1 << 1000 << oneNode;
        QTest::newRow("listed, whole nodes") << QJsonObject() << 1 << -1 << oneNode;
        QTest::newRow("listed, part of a node")
            << QJsonObject() << -1 << 100
            << QJsonObject{{u"numNodes"_qs, 0}, {u"processingUnits"_qs, 100}};
        QTest::newRow("spec in units, small")
            << QJsonObject{{u"processingUnits"_qs, 100}} << -1 << 100 << small;
    }
    void capacityInOneUnit()
    {
        QFETCH(QJsonObject, desired);
        QFETCH(int, nodes);
        QFETCH(int, units);
        QFETCH(QJsonObject, answered);
        Observation o;
        o.spec = answered;
        if (desired.isEmpty())
            SpannerInstanceHook().listed(o);
        else
            QVERIFY(!SpannerInstanceHook().observe(o, {}, desired, Target{}, {}));
        QCOMPARE(o.spec.contains(u"numNodes"_qs), nodes >= 0);
        QCOMPARE(o.spec.contains(u"processingUnits"_qs), units >= 0);
        if (nodes >= 0)
            QCOMPARE(o.spec.value(u"numNodes"_qs).toInt(), nodes);
        if (units >= 0)
            QCOMPARE(o.spec.value(u"processingUnits"_qs).toInt(), units);
    }
};

QTEST_GUILESS_MAIN(tst_SpannerInstanceHook)
#include "tst_spannerinstancehook.moc"

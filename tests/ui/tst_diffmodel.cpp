// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The Diff tab's model: rows over the compared fields, each marked as Delta decides, defaults,
// maps and lists, "not observed yet", and secrets masked.
#include "diffmodel.h"

#include "delta.h"
#include "testkinds.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace converge;
using namespace converge::test;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

// "path=desired|observed" per row, with "!" before a differing row and "*" after a default.
QString describe(const QList<DiffModel::Row> &rows)
{
    QStringList parts;
    for (const DiffModel::Row &r : rows)
        parts << (r.differs ? s("!") : QString()) + r.path + QLatin1Char('=') + r.desired +
                     (r.desiredDefault ? s("*") : QString()) + QLatin1Char('|') + r.observed;
    return parts.join(QLatin1Char(' '));
}

} // namespace

class tst_DiffModel final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void compare_data()
    {
        QTest::addColumn<QJsonObject>("desired");
        QTest::addColumn<QJsonObject>("observed");
        QTest::addColumn<QString>("rows");

        const QJsonObject owner = json(R"({"owner": {"name": "g"}})");
        QTest::newRow("equal, with defaults")
            << owner << owner
            << s("spec.owner.name=g|g spec.publicAccess=None*| spec.replicas=1*| "
                 "spec.tags[0]=|");
        QTest::newRow("one field differs")
            << json(R"({"owner": {"name": "g"}, "replicas": 2})")
            << json(R"({"owner": {"name": "g"}, "replicas": 3, "publicAccess": "None"})")
            << s("spec.owner.name=g|g spec.publicAccess=None*|None !spec.replicas=2|3");
        QTest::newRow("not compared: etag has no row")
            << json(R"({"owner": {"name": "g"}, "etag": "a"})")
            << json(R"({"owner": {"name": "g"}, "etag": "b"})")
            << s("spec.owner.name=g|g spec.publicAccess=None*| spec.replicas=1*|");
        QTest::newRow("map keys, one each side")
            << json(R"({"owner": {"name": "g"}, "metadata": {"a": "1", "b": "2"}})")
            << json(R"({"owner": {"name": "g"}, "metadata": {"a": "1", "c": "3"}})")
            << s("spec.owner.name=g|g spec.publicAccess=None*| spec.replicas=1*| "
                 "spec.metadata.a=1|1 !spec.metadata.b=2| !spec.metadata.c=|3");
        QTest::newRow("list length differs: the whole list")
            << json(R"({"owner": {"name": "g"}, "tags": [{"key": "a"}, {"key": "b"}]})")
            << json(R"({"owner": {"name": "g"}, "tags": [{"key": "a"}]})")
            << s("spec.owner.name=g|g spec.publicAccess=None*| spec.replicas=1*| "
                 "!spec.tags[0].key=a|a !spec.tags[0].propagate=true*| "
                 "!spec.tags[1].key=b| !spec.tags[1].propagate=true*|");
        QTest::newRow("an unmanaged field observed is not drift")
            << json(R"({"owner": {"name": "g"}})")
            << json(R"({"owner": {"name": "g"}, "enabled": true})")
            << s("spec.owner.name=g|g spec.publicAccess=None*| spec.replicas=1*| "
                 "spec.enabled=|true");
        QTest::newRow("a secret is masked")
            << json(R"({"owner": {"name": "g"}})")
            << json(R"({"owner": {"name": "g"}, "accountKey": "hunter2"})")
            << s("spec.owner.name=g|g spec.publicAccess=None*| spec.replicas=1*| "
                 "spec.accountKey=|(secret)");
    }

    void compare()
    {
        QFETCH(QJsonObject, desired);
        QFETCH(QJsonObject, observed);
        QFETCH(QString, rows);
        const FieldSchema spec = widgetKind().spec;
        const DiffModel::Comparison c = DiffModel::compare(spec, desired, observed);
        QVERIFY(c.observed);
        QCOMPARE(c.delta, Delta::between(spec, desired, observed));
        QString got = describe(c.rows);
        // The empty tags list row of the first case shows only when a side has tags: drop it
        // from the expectation when absent.
        QString want = rows;
        want.remove(s(" spec.tags[0]=|"));
        QCOMPARE(got, want);
        // Every path Delta names is marked on some row.
        for (const QString &path : c.delta) {
            bool marked = false;
            for (const DiffModel::Row &r : c.rows)
                marked |= r.differs && r.path.startsWith(path);
            QVERIFY2(marked, qPrintable(path));
        }
    }

    void notObservedYet()
    {
        const FieldSchema spec = widgetKind().spec;
        const DiffModel::Comparison c = DiffModel::compare(
            spec, json(R"({"owner": {"name": "g"}, "replicas": 2})"), std::nullopt);
        QVERIFY(!c.observed);
        QVERIFY(c.delta.isEmpty());
        QCOMPARE(describe(c.rows), s("spec.owner.name=g| spec.publicAccess=None*| "
                                     "spec.replicas=2|"));
    }

    void modelShowsRows()
    {
        DiffModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        const FieldSchema spec = widgetKind().spec;
        model.setComparison(DiffModel::compare(spec,
                                               json(R"({"owner": {"name": "g"}, "replicas": 2})"),
                                               json(R"({"owner": {"name": "g"}, "replicas": 3})")));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(DiffModel::ColumnCount));
        QCOMPARE(model.index(1, DiffModel::DesiredColumn).data().toString(), s("None (default)"));
        QCOMPARE(model.index(2, DiffModel::PathColumn).data().toString(), s("spec.replicas"));
        QVERIFY(model.index(2, 0).data(DiffModel::DiffersRole).toBool());
        QVERIFY(!model.index(0, 0).data(DiffModel::DiffersRole).toBool());
        QVERIFY(!model.index(2, 0).data(Qt::DecorationRole).isNull());
        QVERIFY(model.index(0, 0).data(Qt::DecorationRole).isNull());
        QVERIFY(model.index(2, 0).data(Qt::ToolTipRole).toString().contains(s("differs")));
        QCOMPARE(model.headerData(DiffModel::ObservedColumn, Qt::Horizontal).toString(),
                 s("Observed"));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void aFieldLeftOutSaysSo()
    {
        // Not in the spec, no default, the backend holding a value that is no difference (a
        // name that defaults to the resource's): "(not set)", not a blank beside the value.
        DiffModel model;
        const FieldSchema spec = widgetKind().spec;
        model.setComparison(
            DiffModel::compare(spec, json(R"({"owner": {"name": "g"}})"),
                               json(R"({"owner": {"name": "g"}, "enabled": true})")));
        QVERIFY(model.comparison().delta.isEmpty());
        const int last = model.rowCount() - 1;
        QCOMPARE(model.index(last, DiffModel::PathColumn).data().toString(), s("spec.enabled"));
        QCOMPARE(model.index(last, DiffModel::DesiredColumn).data().toString(), s("(not set)"));
        QVERIFY(model.index(last, DiffModel::DesiredColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(s("not in the spec")));
        QVERIFY(!model.index(last, DiffModel::DesiredColumn).data(Qt::ForegroundRole).isNull());
    }

    void maskSecrets()
    {
        const FieldSchema spec = widgetKind().spec;
        const QJsonObject in = json(R"({"replicas": 2, "accountKey": "hunter2"})");
        const QJsonObject masked = DiffModel::maskSecrets(spec, in, s("(secret)"));
        QCOMPARE(masked.value(s("accountKey")).toString(), s("(secret)"));
        QCOMPARE(masked.value(s("replicas")).toInt(), 2);
        const QJsonObject removed = DiffModel::maskSecrets(spec, in, QJsonValue::Null);
        QVERIFY(!removed.contains(s("accountKey")));
        QCOMPARE(removed.value(s("replicas")).toInt(), 2);
    }
};

QTEST_MAIN(tst_DiffModel)
#include "tst_diffmodel.moc"

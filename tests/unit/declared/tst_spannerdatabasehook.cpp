// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The spannerDatabase hook on its own (the kind runs on the Spanner emulator in
// tst_gcpdeclaredkinds): statements compared as Spanner prints them, a schema that only grows,
// the applied statements kept apart from the schema Spanner answers.
#include "spannerdatabasehook.h"

#include <QJsonArray>
#include <QSet>
#include <QTest>

using namespace converge;

namespace {

const QString table = QStringLiteral("CREATE TABLE Orders (OrderId STRING(36) NOT NULL, Customer "
                                     "STRING(MAX)) PRIMARY KEY (OrderId)");
// The same table as Spanner answers it (the emulator's getDdl, measured).
const QString tableAsPrinted = QStringLiteral(
    "CREATE TABLE Orders (\n  OrderId STRING(36) NOT NULL,\n  Customer STRING(MAX),\n) PRIMARY "
    "KEY(OrderId)");
const QString column = QStringLiteral("ALTER TABLE Orders ADD COLUMN Total NUMERIC");
const QString byCustomer = QStringLiteral("CREATE INDEX OrdersByCustomer ON Orders (Customer)");

QJsonArray list(const QStringList &statements)
{
    return QJsonArray::fromStringList(statements);
}

DeclaredCall callOf(const char *operation)
{
    DeclaredCall call;
    call.operation = QString::fromLatin1(operation);
    return call;
}

} // namespace

class tst_SpannerDatabaseHook final : public QObject
{
    Q_OBJECT

private slots:
    void canonical_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<bool>("same");
        QTest::newRow("as printed") << table << tableAsPrinted << true;
        QTest::newRow("letter case") << QStringLiteral("create index I on T (K)")
                                     << QStringLiteral("CREATE INDEX I ON T(K)") << true;
        QTest::newRow("words kept apart")
            << QStringLiteral("CREATE TABLE AB") << QStringLiteral("CREATE TABLEAB") << false;
        QTest::newRow("a quoted text as it is")
            << QStringLiteral("ALTER TABLE T ALTER COLUMN C SET DEFAULT ('a  b')")
            << QStringLiteral("ALTER TABLE T ALTER COLUMN C SET DEFAULT ('A B')") << false;
        QTest::newRow("another type")
            << QStringLiteral("CREATE TABLE T (K INT64) PRIMARY KEY (K)")
            << QStringLiteral("CREATE TABLE T (K STRING(1)) PRIMARY KEY (K)") << false;
    }
    void canonical()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(bool, same);
        QCOMPARE(SpannerDatabaseHook::canonical(a) == SpannerDatabaseHook::canonical(b), same);
    }

    void appendsWhatFollowsTheApplied()
    {
        const auto append = SpannerDatabaseHook::toAppend(
            QStringLiteral("db"), list({table, column, byCustomer}), list({tableAsPrinted}));
        QVERIFY2(append, qPrintable(append ? QString() : append.error().toString()));
        QCOMPARE(append.value(), list({column, byCustomer}));
    }

    void refusesAChangedOrRemovedStatement_data()
    {
        QTest::addColumn<QJsonArray>("wanted");
        QTest::addColumn<QString>("says");
        QTest::newRow("changed") << list({QString(table).replace(u"MAX"_qs, u"100"_qs), column})
                                 << QStringLiteral("applied statement 1 is");
        QTest::newRow("removed") << list({table})
                                 << QStringLiteral("2 statements were applied, the spec has 1");
        QTest::newRow("put before")
            << list({byCustomer, table, column}) << QStringLiteral("applied statement 1 is");
    }
    void refusesAChangedOrRemovedStatement()
    {
        QFETCH(QJsonArray, wanted);
        QFETCH(QString, says);
        const auto append =
            SpannerDatabaseHook::toAppend(QStringLiteral("db"), wanted, list({table, column}));
        QVERIFY(!append);
        QCOMPARE(append.error().code, QStringLiteral("DdlNotAppendOnly"));
        QCOMPARE(append.error().category, BackendError::Category::Invalid);
        QVERIFY2(append.error().message.contains(says), qPrintable(append.error().message));
    }

    void nothingMoreIsNotAnUpdate()
    {
        const auto append =
            SpannerDatabaseHook::toAppend(QStringLiteral("db"), list({table}), list({table}));
        QVERIFY(!append);
        QCOMPARE(append.error().code, QStringLiteral("DdlApplied"));
    }

    // The update sends only the statements after those last observed applied.
    void anUpdateSendsTheNewStatementsOnly()
    {
        SpannerDatabaseHook hook;
        Observation latest;
        latest.spec.insert(QStringLiteral("ddl"), list({table}));
        const DeclaredCall update = callOf("projects.instances.databases.updateDdl");
        const auto input =
            hook.completeInput(update,
                               QJsonObject{{QStringLiteral("databasesId"), QStringLiteral("db")},
                                           {QStringLiteral("statements"), list({table, column})}},
                               {}, &latest, nullptr);
        QVERIFY(input);
        QCOMPARE(input.value().value(QStringLiteral("statements")).toArray(), list({column}));
    }

    void theCreateNamesTheDatabase_data()
    {
        QTest::addColumn<QString>("dialect");
        QTest::addColumn<QString>("statement");
        QTest::newRow("default") << QString() << QStringLiteral("CREATE DATABASE `orders`");
        QTest::newRow("GoogleSQL")
            << QStringLiteral("GOOGLE_STANDARD_SQL") << QStringLiteral("CREATE DATABASE `orders`");
        QTest::newRow("PostgreSQL")
            << QStringLiteral("POSTGRESQL") << QStringLiteral("CREATE DATABASE \"orders\"");
    }
    void theCreateNamesTheDatabase()
    {
        QFETCH(QString, dialect);
        QFETCH(QString, statement);
        SpannerDatabaseHook hook;
        QJsonObject spec{{QStringLiteral("resourceID"), QStringLiteral("orders")}};
        if (!dialect.isEmpty())
            spec.insert(QStringLiteral("databaseDialect"), dialect);
        const auto input = hook.completeInput(callOf("projects.instances.databases.create"), {},
                                              spec, nullptr, nullptr);
        QVERIFY(input);
        QCOMPARE(input.value().value(QStringLiteral("createStatement")).toString(), statement);
    }

    // ddl is observed as the statements applied; the schema Spanner answers is in the details.
    void observesTheAppliedStatements_data()
    {
        QTest::addColumn<QJsonArray>("recorded"); // the workspace's last observation; [] for none
        QTest::addColumn<bool>("sent");
        QTest::addColumn<QJsonArray>("observed");
        const QJsonArray schema{tableAsPrinted};
        QTest::newRow("never applied here: the schema") << QJsonArray() << false << schema;
        QTest::newRow("as recorded") << list({table, column}) << false << list({table, column});
        QTest::newRow("just sent: as the spec")
            << list({table}) << true << list({table, column, byCustomer});
    }
    void observesTheAppliedStatements()
    {
        QFETCH(QJsonArray, recorded);
        QFETCH(bool, sent);
        QFETCH(QJsonArray, observed);
        SpannerDatabaseHook hook;
        Target target;
        if (!recorded.isEmpty())
            target.resource.status.observed = QJsonObject{
                {QStringLiteral("spec"), QJsonObject{{QStringLiteral("ddl"), recorded}}}};
        Observation o;
        const QJsonArray schema{tableAsPrinted};
        o.spec.insert(QStringLiteral("ddl"), schema);
        const QJsonObject desired{{QStringLiteral("ddl"), list({table, column, byCustomer})}};
        QSet<QString> written;
        if (sent)
            written.insert(QStringLiteral("ddl"));
        QVERIFY(!hook.observe(o, {}, desired, target, written));
        QCOMPARE(o.spec.value(QStringLiteral("ddl")).toArray(), observed);
        QCOMPARE(o.details.value(QStringLiteral("schema")).toArray(), schema);
    }

    // The same statements are observed as the spec spells them: no drift in spaces or case.
    void theSameStatementsAreNoDrift()
    {
        SpannerDatabaseHook hook;
        Observation o;
        o.spec.insert(QStringLiteral("ddl"), list({tableAsPrinted}));
        const QJsonObject desired{{QStringLiteral("ddl"), list({table})}};
        QVERIFY(!hook.observe(o, {}, desired, Target{}, {}));
        QCOMPARE(o.spec.value(QStringLiteral("ddl")).toArray(), list({table}));
    }
};

QTEST_GUILESS_MAIN(tst_SpannerDatabaseHook)
#include "tst_spannerdatabasehook.moc"

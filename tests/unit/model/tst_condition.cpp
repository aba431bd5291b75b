// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "condition.h"

#include "resource.h"

#include <QTest>

using namespace converge;

namespace {

const QDateTime t0 = QDateTime(QDate(2024, 5, 1), QTime(10, 0), Qt::UTC);

Condition trueAt(qint64 generation)
{
    return Condition::ready(generation, t0);
}

Condition falseAt(Condition::Severity severity, qint64 generation,
                  const QString &message = QStringLiteral("m"))
{
    return Condition::notReady(severity, QStringLiteral("Failed"), message, generation, t0);
}

Condition unknownAt(qint64 generation)
{
    return Condition::unknown(QStringLiteral("Pending"), QStringLiteral("m"), generation, t0);
}

} // namespace

class tst_Condition final : public QObject
{
    Q_OBJECT

private slots:
    void shouldOverwrite_data()
    {
        using S = Condition::Severity;
        QTest::addColumn<Condition>("current");
        QTest::addColumn<Condition>("incoming");
        QTest::addColumn<bool>("expected");
        // Generations.
        QTest::newRow("newer generation wins, even Unknown over True")
            << trueAt(1) << unknownAt(2) << true;
        QTest::newRow("older generation never, even True over Unknown")
            << unknownAt(2) << trueAt(1) << false;
        QTest::newRow("older Error never") << falseAt(S::Info, 3) << falseAt(S::Error, 2) << false;
        // Equivalence.
        QTest::newRow("equivalent True") << trueAt(1) << trueAt(1) << false;
        QTest::newRow("equivalent Error") << falseAt(S::Error, 1) << falseAt(S::Error, 1) << false;
        // Priority at one generation.
        QTest::newRow("True over Info") << falseAt(S::Info, 1) << trueAt(1) << true;
        QTest::newRow("Info not over True") << trueAt(1) << falseAt(S::Info, 1) << false;
        QTest::newRow("Error over Info") << falseAt(S::Info, 1) << falseAt(S::Error, 1) << true;
        QTest::newRow("Warning over Info") << falseAt(S::Info, 1) << falseAt(S::Warning, 1) << true;
        QTest::newRow("Info not over Error")
            << falseAt(S::Error, 1) << falseAt(S::Info, 1) << false;
        QTest::newRow("Info not over Warning")
            << falseAt(S::Warning, 1) << falseAt(S::Info, 1) << false;
        QTest::newRow("Info over Unknown") << unknownAt(1) << falseAt(S::Info, 1) << true;
        QTest::newRow("Unknown not over Info") << falseAt(S::Info, 1) << unknownAt(1) << false;
        QTest::newRow("Unknown not over True") << trueAt(1) << unknownAt(1) << false;
        QTest::newRow("True over Unknown") << unknownAt(1) << trueAt(1) << true;
        QTest::newRow("True and Error rank alike: Error over True")
            << trueAt(1) << falseAt(S::Error, 1) << true;
        QTest::newRow("True and Error rank alike: True over Error")
            << falseAt(S::Error, 1) << trueAt(1) << true;
        QTest::newRow("Error over Warning")
            << falseAt(S::Warning, 1) << falseAt(S::Error, 1) << true;
        QTest::newRow("same rank, new message")
            << falseAt(S::Info, 1) << falseAt(S::Info, 1, QStringLiteral("other")) << true;
    }

    void shouldOverwrite()
    {
        QFETCH(Condition, current);
        QFETCH(Condition, incoming);
        QFETCH(bool, expected);
        QCOMPARE(Condition::shouldOverwrite(current, incoming), expected);

        ResourceStatus status;
        status.conditions = {current};
        QCOMPARE(status.setCondition(incoming), expected);
        QCOMPARE(status.conditions.size(), 1);
        QCOMPARE(status.ready(), expected ? incoming : current);
    }

    void equivalentKeepsTransitionTime()
    {
        ResourceStatus status;
        QVERIFY(status.setCondition(trueAt(4)));
        Condition later = trueAt(4);
        later.lastTransitionTime = t0.addSecs(60);
        QVERIFY(status.conditions.first().isEquivalent(later));
        QVERIFY(!status.setCondition(later));
        QCOMPARE(status.ready().lastTransitionTime, t0);
    }

    void flags()
    {
        QVERIFY(trueAt(1).isReady());
        QVERIFY(!trueAt(1).isFatal());
        QVERIFY(falseAt(Condition::Severity::Error, 1).isFatal());
        QVERIFY(!falseAt(Condition::Severity::Warning, 1).isFatal());
        QCOMPARE(ResourceStatus().ready().status, Condition::Status::Unknown);
    }

    void json_data()
    {
        QTest::addColumn<Condition>("condition");
        QTest::newRow("ready") << trueAt(3);
        QTest::newRow("error") << falseAt(Condition::Severity::Error, 2, QStringLiteral("bad"));
        QTest::newRow("warning") << falseAt(Condition::Severity::Warning, 2);
        QTest::newRow("info") << falseAt(Condition::Severity::Info, 7);
        QTest::newRow("unknown") << unknownAt(0);
        Condition untimed = trueAt(1);
        untimed.lastTransitionTime = {};
        QTest::newRow("no time") << untimed;
        Condition millis = trueAt(1);
        millis.lastTransitionTime = t0.addMSecs(123);
        QTest::newRow("milliseconds") << millis;
    }

    void json()
    {
        QFETCH(Condition, condition);
        QString error;
        const QJsonObject json = condition.toJson();
        QCOMPARE(Condition::fromJson(json, &error), condition);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void jsonErrors_data()
    {
        QTest::addColumn<QJsonObject>("json");
        QTest::addColumn<QString>("error");
        QTest::newRow("status") << QJsonObject{{QStringLiteral("status"), QStringLiteral("Maybe")}}
                                << QStringLiteral(
                                       "status: \"Maybe\" is not one of True, False, Unknown");
        QTest::newRow("severity")
            << QJsonObject{{QStringLiteral("status"), QStringLiteral("False")},
                           {QStringLiteral("severity"), QStringLiteral("Fatal")}}
            << QStringLiteral("severity: \"Fatal\" is not one of Info, Warning, Error");
    }

    void jsonErrors()
    {
        QFETCH(QJsonObject, json);
        QFETCH(QString, error);
        QString actual;
        Condition::fromJson(json, &actual);
        QCOMPARE(actual, error);
    }
};

QTEST_GUILESS_MAIN(tst_Condition)
#include "tst_condition.moc"

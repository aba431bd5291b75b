// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "envcredentialstore.h"

#include <QTest>

using namespace converge;

class tst_EnvCredentialStore final : public QObject
{
    Q_OBJECT

private slots:
    void readsAVariable()
    {
        qputenv("CONVERGE_TEST_SECRET", "fakesecret");
        EnvCredentialStore store;
        BackendError error;
        QCOMPARE(store.read(QStringLiteral("CONVERGE_TEST_SECRET"), &error),
                 std::optional<QString>(QStringLiteral("fakesecret")));
        qunsetenv("CONVERGE_TEST_SECRET");
    }

    void missingVariableIsNotFound()
    {
        qunsetenv("CONVERGE_TEST_MISSING");
        EnvCredentialStore store;
        BackendError error;
        QVERIFY(!store.read(QStringLiteral("CONVERGE_TEST_MISSING"), &error).has_value());
        QCOMPARE(error.category, BackendError::Category::NotFound);
        QCOMPARE(error.message,
                 QStringLiteral("the environment variable CONVERGE_TEST_MISSING is not set"));
    }

    void rejectsBadNames()
    {
        EnvCredentialStore store;
        BackendError error;
        QVERIFY(!store.read(QStringLiteral("PATH=evil"), &error).has_value());
        QCOMPARE(error.category, BackendError::Category::Invalid);
        QVERIFY(!store.read(QString(), &error).has_value());
    }

    void isReadOnly()
    {
        EnvCredentialStore store;
        BackendError error;
        QVERIFY(!store.write(QStringLiteral("CONVERGE_TEST_SECRET"), QStringLiteral("x"), &error));
        QCOMPARE(error.code, QStringLiteral("ReadOnlyStore"));
        QVERIFY(qEnvironmentVariableIsEmpty("CONVERGE_TEST_SECRET"));
        QVERIFY(!store.remove(QStringLiteral("HOME"), &error));
        QVERIFY(!qEnvironmentVariableIsEmpty("HOME"));
    }
};

QTEST_GUILESS_MAIN(tst_EnvCredentialStore)
#include "tst_envcredentialstore.moc"

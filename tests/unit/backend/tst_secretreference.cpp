// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Values given by reference (a secret's value): read from where they are named, refused when the
// reference is malformed or the file is readable by others, and never in a message.
#include "envcredentialstore.h"
#include "secretreference.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace converge;

namespace {

const QString field = QStringLiteral("spec.secretString");
const QString value = QStringLiteral("converge-reference-value-0001");

} // namespace

class tst_SecretReference final : public QObject
{
    Q_OBJECT

private slots:
    void checkWantsExactlyOneSource_data()
    {
        QTest::addColumn<QJsonObject>("reference");
        QTest::addColumn<bool>("ok");
        QTest::newRow("env") << QJsonObject{{QStringLiteral("env"), QStringLiteral("X")}} << true;
        QTest::newRow("file") << QJsonObject{{QStringLiteral("file"), QStringLiteral("/x")}}
                              << true;
        QTest::newRow("keychain") << QJsonObject{{QStringLiteral("keychain"), QStringLiteral("x")}}
                                  << true;
        QTest::newRow("none") << QJsonObject{} << false;
        QTest::newRow("two") << QJsonObject{{QStringLiteral("env"), QStringLiteral("X")},
                                            {QStringLiteral("file"), QStringLiteral("/x")}}
                             << false;
        QTest::newRow("empty") << QJsonObject{{QStringLiteral("env"), QString()}} << false;
    }

    void checkWantsExactlyOneSource()
    {
        QFETCH(QJsonObject, reference);
        QFETCH(bool, ok);
        QCOMPARE(SecretReference::check(reference).isEmpty(), ok);
    }

    void readsAnEnvironmentVariable()
    {
        qputenv("CONVERGE_TEST_REFERENCE", value.toUtf8());
        const auto read = SecretReference::resolve(
            QJsonObject{{QStringLiteral("env"), QStringLiteral("CONVERGE_TEST_REFERENCE")}},
            nullptr, field);
        QVERIFY(read);
        QCOMPARE(read.value(), value);
        qunsetenv("CONVERGE_TEST_REFERENCE");
        const auto missing = SecretReference::resolve(
            QJsonObject{{QStringLiteral("env"), QStringLiteral("CONVERGE_TEST_REFERENCE")}},
            nullptr, field);
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, QStringLiteral("SecretNotFound"));
        QVERIFY(missing.error().message.contains(field));
    }

    void readsAPrivateFileWhole()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("value"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(value.toUtf8() + "\n");
        file.close();
        const QJsonObject reference{{QStringLiteral("file"), path}};

        QVERIFY(file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                    QFileDevice::ReadGroup));
        const auto refused = SecretReference::resolve(reference, nullptr, field);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, QStringLiteral("InsecureFile"));
        QVERIFY(refused.error().message.contains(QStringLiteral("chmod 600")));
        QVERIFY(!refused.error().message.contains(value));

        QVERIFY(file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        const auto read = SecretReference::resolve(reference, nullptr, field);
        QVERIFY(read);
        QCOMPARE(read.value(), value + QLatin1Char('\n'));
    }

    void readsAKeychainEntry()
    {
        // Any CredentialStore serves; the environment's stands in for the OS keychain here.
        EnvCredentialStore store;
        qputenv("CONVERGE_TEST_ENTRY", value.toUtf8());
        const QJsonObject reference{
            {QStringLiteral("keychain"), QStringLiteral("CONVERGE_TEST_ENTRY")}};
        const auto read = SecretReference::resolve(reference, &store, field);
        QVERIFY(read);
        QCOMPARE(read.value(), value);
        qunsetenv("CONVERGE_TEST_ENTRY");
        const auto none = SecretReference::resolve(reference, nullptr, field);
        QVERIFY(!none);
        QCOMPARE(none.error().code, QStringLiteral("KeychainUnavailable"));
    }
};

QTEST_GUILESS_MAIN(tst_SecretReference)
#include "tst_secretreference.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The build machines are headless, so usually no keychain answers and the store must say so
// clearly. Where a Secret Service does work (a desktop, or dbus-run-session with an unlocked
// gnome-keyring), the same test checks a real write, read and delete instead.
#include "keychaincredentialstore.h"

#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

using namespace converge;
using namespace std::chrono_literals;

class tst_KeychainCredentialStore final : public QObject
{
    Q_OBJECT

private:
    /// Whether any file under `dir` contains `needle`.
    static bool anyFileContains(const QString &dir, const QByteArray &needle)
    {
        QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile file(it.next());
            if (file.open(QIODevice::ReadOnly) && file.readAll().contains(needle))
                return true;
        }
        return false;
    }

    QTemporaryDir m_home;

private slots:
    void initTestCase()
    {
        // A plaintext fallback would land in the settings folder: point it somewhere we can see.
        QVERIFY(m_home.isValid());
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_home.filePath(QStringLiteral("config"))));
        qputenv("XDG_DATA_HOME", QFile::encodeName(m_home.filePath(QStringLiteral("data"))));
    }

    void roundTripOrClearError()
    {
        KeychainCredentialStore store(20s);
        const QString name =
            QStringLiteral("converge-test-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
        const QString secret = QStringLiteral("fakesecret-") + QUuid::createUuid().toString();
        BackendError error;
        if (store.write(name, secret, &error)) {
            qInfo("a keychain is reachable here: checking a real round trip");
            QCOMPARE(store.read(name, &error), std::optional<QString>(secret));
            QVERIFY(store.remove(name, &error));
            QVERIFY(!store.read(name, &error).has_value());
            QCOMPARE(error.category, BackendError::Category::NotFound);
            QVERIFY(store.remove(name, &error)); // removing a missing entry succeeds
            return;
        }
        qInfo("no keychain here: %s", qPrintable(error.message));
        QCOMPARE(error.category, BackendError::Category::Terminal);
        QVERIFY2(error.code == QLatin1String("KeychainUnavailable") ||
                     error.code == QLatin1String("KeychainTimeout"),
                 qPrintable(error.code));
        QVERIFY2(error.message.contains(KeychainCredentialStore::unavailableMessage()),
                 qPrintable(error.message));
        QVERIFY(error.message.contains(QStringLiteral("credential: {env: VARIABLE}")));
        QVERIFY(error.message.contains(QStringLiteral("credential: {file: PATH}")));
        QVERIFY(!error.message.contains(secret));

        // Reading fails the same clear way, not as a missing entry.
        BackendError readError;
        QVERIFY(!store.read(name, &readError).has_value());
        QCOMPARE(readError.category, BackendError::Category::Terminal);

        // And nothing was written in plaintext behind our back.
        QVERIFY(!anyFileContains(m_home.path(), secret.toUtf8()));
    }
};

QTEST_GUILESS_MAIN(tst_KeychainCredentialStore)
#include "tst_keychaincredentialstore.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// The scanner behind secrets.scan finds each secret in each form it claims, and nothing in
// text that only looks like one.

#include "secretscanner.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using converge::test::SecretScanner;

namespace {
const QByteArray azuriteKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/"
                              "K1SZFPTOtr/KBHBeksoGMGw==";
}

class tst_SecretScanner final : public QObject
{
    Q_OBJECT

private slots:
    void scan_data();
    void scan();
    void shortSecretsRefused();
    void files();
};

void tst_SecretScanner::scan_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QString>("finding"); // empty: nothing found

    const QByteArray key = azuriteKey;
    QTest::newRow("raw key in a log") << "account key: " + key + "\n"
                                      << "Azurite account key (raw)";
    QTest::newRow("base64 of the key") << "x=" + key.toBase64() << "Azurite account key (base64)";
    QTest::newRow("percent-encoded key")
        << "AccountKey%3D" + QUrl::toPercentEncoding(QString::fromLatin1(key))
        << "Azurite account key (percent-encoded)";
    QTest::newRow("decoded key bytes")
        << QByteArray("\x01\x02") + QByteArray::fromBase64(key) + QByteArray("\x00", 1)
        << "Azurite account key (decoded)";
    QTest::newRow("AWS secret in JSON")
        << QByteArray(R"({"aws_secret_access_key": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"})")
        << "AWS example secret access key (raw)";
    QTest::newRow("SAS signature in a URL")
        << QByteArray("GET /c?sv=2021-12-02&sig=4bM5rXhH4Pe0Dq9xj%2BmJ0dd3Lyl8sX0%2FyHOhC1Ogr0A%3D "
                      "HTTP/1.1")
        << "SAS signature (sig=)";
    QTest::newRow("SAS signature, encoded separator")
        << QByteArray("sv%3D2021%26sig%3D4bM5rXhH4Pe0Dq9xjmJ0dd3Lyl8sX0yHOhC1Ogr0AAA%3D")
        << "SAS signature (sig=)";
    QTest::newRow("redacted signature")
        << QByteArray("GET /c?sv=2021-12-02&sig=*** HTTP/1.1") << QString();
    QTest::newRow("bearer token in a header")
        << QByteArray("Authorization: Bearer eyJhbGciOiJSUzI1NiJ9.eyJhdWQiOiJodHRwczovL3N0b3Jh"
                      "Z2UuYXp1cmUuY29tIn0.c2ln\r\n")
        << "bearer token (JWT)";
    QTest::newRow("redacted bearer token") << QByteArray("Authorization: Bearer ***") << QString();
    QTest::newRow("redacted key") << QByteArray("AccountKey=***;AccountName=devstoreaccount1")
                                  << QString();
    QTest::newRow("a key that differs in one character")
        << QByteArray("Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/"
                      "K1SZFPTOtr/KBHBeksoGMGX==")
        << QString();
}

void tst_SecretScanner::scan()
{
    QFETCH(QByteArray, data);
    QFETCH(QString, finding);

    SecretScanner scanner;
    scanner.addTestSecrets();
    const QList<SecretScanner::Finding> findings = scanner.scan(data, QStringLiteral("f"));
    if (finding.isEmpty()) {
        QVERIFY2(findings.isEmpty(), qPrintable(findings.value(0).toString()));
        return;
    }
    QVERIFY(!findings.isEmpty());
    QCOMPARE(findings.first().secret + QStringLiteral(" (") + findings.first().form +
                 QLatin1Char(')'),
             finding);
    // The finding names the secret, never its value.
    QVERIFY(!findings.first().toString().toLatin1().contains(azuriteKey));
}

void tst_SecretScanner::shortSecretsRefused()
{
    SecretScanner scanner;
    QVERIFY(!scanner.addSecret(QStringLiteral("short"), "hunter2"));
    QVERIFY(scanner.scan("hunter2", QStringLiteral("f")).isEmpty());
}

void tst_SecretScanner::files()
{
    // Beside the executable, not in TMPDIR: secrets.scan must not find these planted keys.
    QTemporaryDir dir(QCoreApplication::applicationDirPath() + QStringLiteral("/scan-XXXXXX"));
    QVERIFY(dir.isValid());
    auto write = [&](const QString &name, const QByteArray &data, QFile::Permissions perms) {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(data);
        f.close();
        QVERIFY(f.setPermissions(perms));
    };
    const QFile::Permissions owner = QFile::ReadOwner | QFile::WriteOwner;
    const QFile::Permissions shared = owner | QFile::ReadGroup | QFile::ReadOther;
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("a/b")));
    write(QStringLiteral("a/b/events.log"), "x " + azuriteKey, shared);
    // A workspace is scanned whatever its mode.
    write(QStringLiteral("w.converge"), QByteArray("SQLite format 3\0", 16) + azuriteKey, owner);
    // A 0600 credential file made on purpose is the secret's source, not a leak.
    write(QStringLiteral("keys"), "devstoreaccount1=" + azuriteKey, owner);
    write(QStringLiteral("clean.txt"), "nothing here", shared);
    // Allowed by name: a test's input that must be readable by others.
    write(QStringLiteral("a/b/1-refused.credentials"), "k=" + azuriteKey, shared);

    SecretScanner scanner;
    scanner.addTestSecrets();
    scanner.addAllowed(QStringLiteral("a/b/*.credentials"));
    const QList<SecretScanner::Finding> findings = scanner.scanPath(dir.path());
    QStringList files;
    for (const SecretScanner::Finding &f : findings)
        files.append(QFileInfo(f.file).fileName());
    files.sort();
    QCOMPARE(files, (QStringList{QStringLiteral("events.log"), QStringLiteral("w.converge")}));
    QCOMPARE(scanner.filesScanned(), 3);
}

QTEST_GUILESS_MAIN(tst_SecretScanner)
#include "tst_secretscanner.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Token commands: the Azure CLI's command line, both expiry forms it prints (expires_on in Unix
// seconds, expiresOn in local time), refusals that never show the token, and the cache that
// reuses a token until 5 minutes before it expires and holds a failure back.
#include "azuretokencommand.h"
#include "tokencommandcache.h"

#include <QTemporaryDir>
#include <QTest>

using namespace converge;

class tst_AzureTokenCommand final : public QObject
{
    Q_OBJECT

private:
    /// A shell one-liner as a token command that counts its runs in `counter`.
    static TokenCommand script(const QString &counter, const QString &body)
    {
        return AzureTokenCommand::custom(
            {QStringLiteral("/bin/sh"), QStringLiteral("-c"),
             QStringLiteral("echo run >> '%1'; %2").arg(counter, body)});
    }
    static int lines(const QString &path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? int(file.readAll().count('\n')) : 0;
    }

private slots:
    void azureCliArguments()
    {
        const TokenCommand plain = AzureTokenCommand::azureCli({}, {});
        QCOMPARE(plain.argv.join(u' '), QStringLiteral("az account get-access-token --resource "
                                                       "https://storage.azure.com/ -o json"));
        const TokenCommand both =
            AzureTokenCommand::azureCli(QStringLiteral("contoso"), QStringLiteral("dev"));
        QVERIFY(
            both.argv.join(u' ').endsWith(QLatin1String("--tenant contoso --subscription dev")));
        QVERIFY(both.remedy.contains(QLatin1String("az login --tenant contoso")));
    }

    void parse_data()
    {
        QTest::addColumn<QByteArray>("output");
        QTest::addColumn<QDateTime>("expires"); // invalid: refused

        const QDateTime at = QDateTime::fromSecsSinceEpoch(1796140000, Qt::UTC);
        QTest::newRow("expires_on number")
            << QByteArray(R"({"accessToken":"abc","expires_on":1796140000})") << at;
        QTest::newRow("expires_on string")
            << QByteArray(R"({"accessToken":"abc","expires_on":"1796140000","expiresOn":"x"})")
            << at;
        QTest::newRow("expiresOn ISO")
            << QByteArray(R"({"accessToken":"abc","expiresOn":"2026-12-01T15:04:05Z"})")
            << QDateTime(QDate(2026, 12, 1), QTime(15, 4, 5), Qt::UTC);
        QTest::newRow("expiresOn local, as azure-cli 2.45")
            << QByteArray(R"({"accessToken":"abc","expiresOn":"2026-12-01 15:04:05.123456"})")
            << QDateTime(QDate(2026, 12, 1), QTime(15, 4, 5), Qt::LocalTime).toUTC();
        QTest::newRow("no token") << QByteArray(R"({"expires_on":1796140000})") << QDateTime();
        QTest::newRow("no expiry") << QByteArray(R"({"accessToken":"abc"})") << QDateTime();
        QTest::newRow("not JSON") << QByteArray("Please run 'az login'") << QDateTime();
    }

    void parse()
    {
        QFETCH(QByteArray, output);
        QFETCH(QDateTime, expires);
        const Outcome<AccessToken> token = parseAzureTokenOutput(output);
        if (!expires.isValid()) {
            QVERIFY(!token);
            QVERIFY(!token.error().message.contains(QLatin1String("abc")));
            return;
        }
        QVERIFY2(token, qPrintable(token ? QString() : token.error().message));
        QCOMPARE(token.value().accessToken, QStringLiteral("abc"));
        QCOMPARE(token.value().expiresOn, expires);
    }

    void cacheReusesUntilTheMargin()
    {
        QTemporaryDir dir;
        const QString counter = dir.filePath(QStringLiteral("runs"));
        const auto printing = [&](int lifetime) {
            return script(counter, QStringLiteral("printf '{\"accessToken\":\"tok\",\"expires_on\":"
                                                  "%d}' $(( $(date +%s) + %1 ))")
                                       .arg(lifetime));
        };
        TokenCommandCache cache;
        const TokenCommand hour = printing(3600);
        QVERIFY(cache.token(hour));
        QVERIFY(cache.token(hour));
        QCOMPARE(lines(counter), 1);
        // Inside the 5-minute margin: asked again every time.
        const TokenCommand soon = printing(120);
        QVERIFY(cache.token(soon));
        QVERIFY(cache.token(soon));
        QCOMPARE(lines(counter), 3);
        // Already expired: refused.
        const Outcome<AccessToken> expired = cache.token(printing(-10));
        QVERIFY(!expired);
        QVERIFY2(expired.error().message.contains(QLatin1String("expired")),
                 qPrintable(expired.error().message));
    }

    void failureIsHeldBackThenRunAgain()
    {
        QTemporaryDir dir;
        const QString counter = dir.filePath(QStringLiteral("runs"));
        TokenCommandCache::Options options;
        options.failureHold = std::chrono::seconds(1);
        TokenCommandCache cache(options);
        const TokenCommand failing =
            script(counter, QStringLiteral("echo \"ERROR: Please run 'az login'\" >&2; exit 1"));
        const Outcome<AccessToken> first = cache.token(failing);
        QVERIFY(!first);
        QCOMPARE(first.error().category, BackendError::Category::Terminal);
        QCOMPARE(first.error().code, QStringLiteral("TokenCommandFailed"));
        QVERIFY2(first.error().message.contains(QLatin1String("exit 1")),
                 qPrintable(first.error().message));
        QVERIFY2(first.error().message.contains(QLatin1String("Please run 'az login'")),
                 qPrintable(first.error().message));
        QVERIFY(!cache.token(failing));
        QCOMPARE(lines(counter), 1);
        QTest::qWait(1100);
        QVERIFY(!cache.token(failing));
        QCOMPARE(lines(counter), 2);
    }

    void missingProgram()
    {
        TokenCommandCache cache;
        const Outcome<AccessToken> token = cache.token(
            AzureTokenCommand::custom({QStringLiteral("/nonexistent/converge-token-command")}));
        QVERIFY(!token);
        QVERIFY2(token.error().message.contains(QLatin1String("could not be started")),
                 qPrintable(token.error().message));
    }
};

QTEST_GUILESS_MAIN(tst_AzureTokenCommand)
#include "tst_azuretokencommand.moc"

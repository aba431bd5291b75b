// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "sastoken.h"

#include "redactor.h"

#include <QTest>
#include <QTimeZone>

using namespace converge;

namespace {

const QString accountSas =
    QStringLiteral("sv=2021-12-02&ss=bfqt&srt=sco&sp=rwdlacupiytfx&se=2026-12-01T08:00:00Z&"
                   "st=2026-11-30T00:00:00Z&spr=https&sig=Hw4%2BnZ%2F1x3Tq0Q%3D%3D");

QDateTime utc(int y, int m, int d, int h = 0, int min = 0, int s = 0)
{
    return QDateTime(QDate(y, m, d), QTime(h, min, s), QTimeZone::utc());
}

} // namespace

class tst_SasToken final : public QObject
{
    Q_OBJECT

private slots:
    void parsesAccountSas()
    {
        QString error;
        const auto token = SasToken::parse(QLatin1Char('?') + accountSas, &error);
        QVERIFY2(token.has_value(), qPrintable(error));
        QCOMPARE(token->version(), QStringLiteral("2021-12-02"));
        QCOMPARE(token->permissions(), QStringLiteral("rwdlacupiytfx"));
        QCOMPARE(token->expiry(), utc(2026, 12, 1, 8));
        QCOMPARE(token->start(), utc(2026, 11, 30));
        QVERIFY(!token->isExpired(utc(2026, 12, 1, 7, 59, 59)));
        QVERIFY(token->isExpired(utc(2026, 12, 1, 8)));
        QCOMPARE(token->toString(), accountSas);
        QCOMPARE(token->redacted(),
                 QString(accountSas)
                     .replace(QStringLiteral("Hw4%2BnZ%2F1x3Tq0Q%3D%3D"), Redactor::mask()));
    }

    void invalid_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");
        QTest::newRow("no sig") << QStringLiteral("sv=2021-12-02&se=2026-12-01")
                                << QStringLiteral("the SAS token has no signature (sig=...)");
        QTest::newRow("sig not base64") << QStringLiteral("sv=2021-12-02&se=2026-12-01&sig=a*b")
                                        << QStringLiteral("the SAS token's signature (sig) is not "
                                                          "base64");
        QTest::newRow("no version") << QStringLiteral("se=2026-12-01&sig=abcd")
                                    << QStringLiteral("the SAS token has no valid service version "
                                                      "(sv=YYYY-MM-DD)");
        QTest::newRow("no expiry") << QStringLiteral("sv=2021-12-02&sig=abcd")
                                   << QStringLiteral("the SAS token has no expiry (se=...)");
        QTest::newRow("bad expiry") << QStringLiteral("sv=2021-12-02&se=tomorrow&sig=abcd")
                                    << QStringLiteral("the SAS token's se is not an ISO 8601 UTC "
                                                      "time: \"tomorrow\"");
        QTest::newRow("twice") << QStringLiteral("sv=2021-12-02&sv=2020-02-10&se=2026-12-01&sig=ab")
                               << QStringLiteral("the SAS token has the parameter \"sv\" twice");
        QTest::newRow("http only")
            << QStringLiteral("sv=2021-12-02&se=2026-12-01&spr=http&sig=abcd")
            << QStringLiteral("the SAS token's protocol (spr) must be https or https,http");
        QTest::newRow("no value") << QStringLiteral("sv=2021-12-02&=x&sig=abcd")
                                  << QStringLiteral("the SAS token has a parameter without a "
                                                    "value: \"\"");
    }

    void invalid()
    {
        QFETCH(QString, text);
        QFETCH(QString, error);
        QString actual;
        QVERIFY(!SasToken::parse(text, &actual).has_value());
        QCOMPARE(actual, error);
    }

    void storedPolicyNeedsNoExpiry()
    {
        const auto token =
            SasToken::parse(QStringLiteral("sv=2021-12-02&si=readers&sr=c&sig=abcd"));
        QVERIFY(token.has_value());
        QVERIFY(!token->expiry().isValid());
        QVERIFY(!token->isExpired(utc(2100, 1, 1)));
    }

    void appendsToUrls()
    {
        const auto token = SasToken::parse(accountSas);
        QVERIFY(token.has_value());
        const QUrl plain(QStringLiteral("https://acme.blob.core.windows.net/c"));
        QCOMPARE(token->appendTo(plain).toString(QUrl::FullyEncoded),
                 QStringLiteral("https://acme.blob.core.windows.net/c?") + accountSas);
        const QUrl withQuery(QStringLiteral(
            "https://acme.blob.core.windows.net/c?restype=container&comp=list&sv=1"));
        QCOMPARE(
            token->appendTo(withQuery).toString(QUrl::FullyEncoded),
            QStringLiteral("https://acme.blob.core.windows.net/c?restype=container&comp=list&") +
                accountSas);
    }
};

QTEST_GUILESS_MAIN(tst_SasToken)
#include "tst_sastoken.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "redactor.h"

#include <QTest>
#include <QUrl>

using namespace converge;

namespace {

const QString devKey = QStringLiteral(
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==");

} // namespace

class tst_Redactor final : public QObject
{
    Q_OBJECT

private slots:
    void redact_data()
    {
        QTest::addColumn<QStringList>("secrets");
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected");

        const QString r = Redactor::mask();
        QTest::newRow("SharedKey header")
            << QStringList()
            << QStringLiteral(
                   "GET / HTTP/1.1\r\nAuthorization: SharedKey acct:c2lnbmF0dXJl\r\nx-ms-date: x")
            << QStringLiteral("GET / HTTP/1.1\r\nAuthorization: %1\r\nx-ms-date: x").arg(r);
        QTest::newRow("SigV4 header, any case")
            << QStringList()
            << QStringLiteral("authorization: AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1/"
                              "dynamodb/aws4_request, SignedHeaders=host, Signature=6db0")
            << QStringLiteral("authorization: %1").arg(r);
        QTest::newRow("JSON header")
            << QStringList() << QStringLiteral(R"({"Authorization": "Bearer eyJ0", "a": 1})")
            << QStringLiteral(R"({"Authorization": "%1", "a": 1})").arg(r);
        QTest::newRow("connection string")
            << QStringList()
            << QStringLiteral("DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=") +
                   devKey + QStringLiteral(";EndpointSuffix=core.windows.net")
            << QStringLiteral("DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=%1;"
                              "EndpointSuffix=core.windows.net")
                   .arg(r);
        QTest::newRow("SAS in a URL")
            << QStringList()
            << QStringLiteral("https://acme.blob.core.windows.net/c?sv=2021-12-02&sp=rl&"
                              "sig=abc%2Bdef%3D&se=2026-12-01")
            << QStringLiteral("https://acme.blob.core.windows.net/c?sv=2021-12-02&sp=rl&sig=%1&"
                              "se=2026-12-01")
                   .arg(r);
        QTest::newRow("SAS token alone") << QStringList() << QStringLiteral("sig=abc&sv=2021-12-02")
                                         << QStringLiteral("sig=%1&sv=2021-12-02").arg(r);
        QTest::newRow("sig inside a word is kept")
            << QStringList() << QStringLiteral("config=sig=1 design=x")
            << QStringLiteral("config=sig=1 design=x");
        QTest::newRow("presigned AWS URL")
            << QStringList()
            << QStringLiteral("https://b.s3.amazonaws.com/k?X-Amz-Credential=AKID%2F2026&"
                              "X-Amz-Signature=0f1e2d&X-Amz-Security-Token=FQoG")
            << QStringLiteral("https://b.s3.amazonaws.com/k?X-Amz-Credential=AKID%2F2026&"
                              "X-Amz-Signature=%1&X-Amz-Security-Token=%1")
                   .arg(r);
        QTest::newRow("registered AWS secret")
            << QStringList{QStringLiteral("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")}
            << QStringLiteral("secret is wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY, really")
            << QStringLiteral("secret is %1, really").arg(r);
        QTest::newRow("registered secret, base64 spelling")
            << QStringList{QStringLiteral("fakesecret")}
            << QStringLiteral("basic ") + QString::fromLatin1(QByteArray("fakesecret").toBase64())
            << QStringLiteral("basic %1").arg(r);
        QTest::newRow("registered secret, percent-encoded in a URL")
            << QStringList{devKey}
            << QStringLiteral("key=") + QString::fromLatin1(QUrl::toPercentEncoding(devKey))
            << QStringLiteral("key=%1").arg(r);
        QTest::newRow("too short to register")
            << QStringList{QStringLiteral("abc")} << QStringLiteral("abc abc")
            << QStringLiteral("abc abc");
        QTest::newRow("nothing secret")
            << QStringList{QStringLiteral("fakesecret")} << QStringLiteral("ListTables took 12 ms")
            << QStringLiteral("ListTables took 12 ms");
    }

    void redact()
    {
        QFETCH(QStringList, secrets);
        QFETCH(QString, input);
        QFETCH(QString, expected);
        Redactor redactor;
        for (const QString &secret : secrets)
            redactor.addSecret(secret);
        QCOMPARE(redactor.redact(input), expected);
        // Idempotent: redacting twice changes nothing more.
        QCOMPARE(redactor.redact(expected), expected);
    }

    void longestSecretFirst()
    {
        Redactor redactor;
        redactor.addSecret(QStringLiteral("abcd"));
        redactor.addSecret(QStringLiteral("abcdefgh"));
        QCOMPARE(redactor.redact(QStringLiteral("x abcdefgh y")),
                 QStringLiteral("x %1 y").arg(Redactor::mask()));
        QCOMPARE(redactor.secrets().size(), 2);
    }
};

QTEST_GUILESS_MAIN(tst_Redactor)
#include "tst_redactor.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "credentials.h"

#include "redactor.h"

#include <QDebug>
#include <QTest>

using namespace converge;

class tst_Credentials final : public QObject
{
    Q_OBJECT

private slots:
    void kinds()
    {
        QVERIFY(Credentials().isEmpty());
        const Credentials key =
            Credentials::azureSharedKey(QStringLiteral("acme"), QStringLiteral("a2V5a2V5"));
        QCOMPARE(key.kind(), Credentials::Kind::AzureSharedKey);
        QCOMPARE(key.azureSharedKeyValue()->account, QStringLiteral("acme"));
        QVERIFY(!key.awsValue());
        const Credentials sas = Credentials::azureSas(QStringLiteral("?sv=1&sig=c2ln"));
        QCOMPARE(sas.kind(), Credentials::Kind::AzureSas);
        QCOMPARE(sas.azureSasValue()->token, QStringLiteral("sv=1&sig=c2ln"));
        const Credentials aws = Credentials::aws(QStringLiteral("AKID"), QStringLiteral("s3cr3t!"),
                                                 QStringLiteral("t0ken"));
        QCOMPARE(aws.kind(), Credentials::Kind::Aws);
        QCOMPARE(aws.awsValue()->sessionToken, QStringLiteral("t0ken"));
        QVERIFY(aws != key);
        QCOMPARE(aws, Credentials::aws(QStringLiteral("AKID"), QStringLiteral("s3cr3t!"),
                                       QStringLiteral("t0ken")));
    }

    void neverPrintsSecrets_data()
    {
        QTest::addColumn<Credentials>("credentials");
        QTest::addColumn<QString>("description");
        QTest::addColumn<QStringList>("secrets");
        const QString r = Redactor::mask();
        QTest::newRow("shared key")
            << Credentials::azureSharedKey(QStringLiteral("acme"), QStringLiteral("a2V5a2V5"))
            << QStringLiteral("azureSharedKey{account=acme, key=%1}").arg(r)
            << QStringList{QStringLiteral("a2V5a2V5")};
        QTest::newRow("sas") << Credentials::azureSas(QStringLiteral("sv=1&sig=c2ln"))
                             << QStringLiteral("azureSas{token=%1}").arg(r)
                             << QStringList{QStringLiteral("sv=1&sig=c2ln")};
        QTest::newRow("aws") << Credentials::aws(QStringLiteral("AKID"), QStringLiteral("s3cr3t!"))
                             << QStringLiteral("aws{accessKeyId=AKID, secretAccessKey=%1}").arg(r)
                             << QStringList{QStringLiteral("s3cr3t!")};
        QTest::newRow("aws session")
            << Credentials::aws(QStringLiteral("ASIA"), QStringLiteral("s3cr3t!"),
                                QStringLiteral("t0ken"))
            << QStringLiteral("aws{accessKeyId=ASIA, secretAccessKey=%1, sessionToken=%1}").arg(r)
            << QStringList{QStringLiteral("s3cr3t!"), QStringLiteral("t0ken")};
        QTest::newRow("none") << Credentials() << QStringLiteral("none") << QStringList();
    }

    void neverPrintsSecrets()
    {
        QFETCH(Credentials, credentials);
        QFETCH(QString, description);
        QFETCH(QStringList, secrets);
        QCOMPARE(credentials.redactedDescription(), description);
        QCOMPARE(credentials.secrets(), secrets);
        QString debugText;
        QDebug(&debugText) << credentials;
        QCOMPARE(debugText.trimmed(), QStringLiteral("Credentials(%1)").arg(description));
        for (const QString &secret : secrets)
            QVERIFY(!debugText.contains(secret));
    }
};

QTEST_GUILESS_MAIN(tst_Credentials)
#include "tst_credentials.moc"

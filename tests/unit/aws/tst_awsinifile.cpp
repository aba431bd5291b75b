// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awsinifile.h"

#include <QTest>

using namespace converge;

class tst_AwsIniFile final : public QObject
{
    Q_OBJECT

private slots:
    void parses_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("section");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");

        QTest::newRow("plain") << QByteArray("[default]\nregion = eu-west-1\n")
                               << QStringLiteral("default") << QStringLiteral("region")
                               << QStringLiteral("eu-west-1");
        QTest::newRow("colon separator")
            << QByteArray("[default]\nregion: eu-west-1\n") << QStringLiteral("default")
            << QStringLiteral("region") << QStringLiteral("eu-west-1");
        QTest::newRow("blanks around everything")
            << QByteArray("  [ profile dev ]  \n\t region \t=\t us-east-2 \t\n")
            << QStringLiteral("profile dev") << QStringLiteral("region")
            << QStringLiteral("us-east-2");
        QTest::newRow("CRLF") << QByteArray("[a]\r\nregion=x\r\n") << QStringLiteral("a")
                              << QStringLiteral("region") << QStringLiteral("x");
        QTest::newRow("keys are lower-cased")
            << QByteArray("[a]\nAWS_Access_Key_ID = AKIA1\n") << QStringLiteral("a")
            << QStringLiteral("aws_access_key_id") << QStringLiteral("AKIA1");
        QTest::newRow("hash and semicolon comments")
            << QByteArray("# top\n; also\n[a]\n# inside\n  ; indented\nregion = r\n")
            << QStringLiteral("a") << QStringLiteral("region") << QStringLiteral("r");
        QTest::newRow("a hash inside a value stays")
            << QByteArray("[a]\ncredential_process = tool --tag #1 ;x\n") << QStringLiteral("a")
            << QStringLiteral("credential_process") << QStringLiteral("tool --tag #1 ;x");
        QTest::newRow("equals inside a value")
            << QByteArray("[a]\ncredential_process = tool --opt=a:b\n") << QStringLiteral("a")
            << QStringLiteral("credential_process") << QStringLiteral("tool --opt=a:b");
        QTest::newRow("slash and space in a section name")
            << QByteArray("[profile team/dev one]\nregion = r\n")
            << QStringLiteral("profile team/dev one") << QStringLiteral("region")
            << QStringLiteral("r");
        QTest::newRow("nested block continues the value")
            << QByteArray("[a]\ns3 =\n  max_concurrent_requests = 10\nregion = r\n")
            << QStringLiteral("a") << QStringLiteral("s3")
            << QStringLiteral("max_concurrent_requests = 10");
        QTest::newRow("key after a nested block")
            << QByteArray("[a]\ns3 =\n  x = 1\nregion = r\n") << QStringLiteral("a")
            << QStringLiteral("region") << QStringLiteral("r");
        QTest::newRow("empty value") << QByteArray("[a]\nregion =\n") << QStringLiteral("a")
                                     << QStringLiteral("region") << QString();
        QTest::newRow("percent and commas stay")
            << QByteArray("[a]\ncredential_process = tool %41 a,b\n") << QStringLiteral("a")
            << QStringLiteral("credential_process") << QStringLiteral("tool %41 a,b");
    }

    void parses()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, section);
        QFETCH(QString, key);
        QFETCH(QString, value);
        AwsIniFile ini;
        QString error;
        QVERIFY2(ini.parse(content, &error), qPrintable(error));
        const AwsIniFile::Section *found = ini.section(section);
        QVERIFY(found);
        QVERIFY(found->values.contains(key));
        QCOMPARE(found->values.value(key), value);
    }

    void refuses_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("error");

        QTest::newRow("duplicate key") << QByteArray("[a]\nregion = x\nREGION = y\n")
                                       << QStringLiteral("line 3: region is given twice in [a]");
        QTest::newRow("duplicate section")
            << QByteArray("[a]\nregion = x\n\n[a]\n")
            << QStringLiteral("line 4: section [a] again (first at line 1)");
        QTest::newRow("key before any section")
            << QByteArray("# c\nregion = x\n")
            << QStringLiteral("line 2: a key before the first [section]");
        QTest::newRow("unclosed header")
            << QByteArray("[a\n") << QStringLiteral("line 1: a section header without ']'");
        QTest::newRow("empty header")
            << QByteArray("[ ]\n") << QStringLiteral("line 1: a section header without a name");
        QTest::newRow("not a key")
            << QByteArray("[a]\nAKIASECRETLOOKING\n")
            << QStringLiteral("line 2: neither a [section], a key = value nor a comment");
    }

    void refuses()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, error);
        AwsIniFile ini;
        QString message;
        QVERIFY(!ini.parse(content, &message));
        QCOMPARE(message, error);
    }

    void missingSectionIsNull()
    {
        AwsIniFile ini;
        QVERIFY(ini.parse("[profile dev]\nregion = r\n"));
        QVERIFY(!ini.section(QStringLiteral("dev")));
        QVERIFY(!ini.section(QStringLiteral("profile")));
        QVERIFY(ini.section(QStringLiteral("profile dev")));
        QCOMPARE(ini.sections().size(), 1);
        QVERIFY(ini.parse(QByteArray()));
        QVERIFY(ini.sections().isEmpty());
    }
};

QTEST_GUILESS_MAIN(tst_AwsIniFile)
#include "tst_awsinifile.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "textwrap.h"

#include <QTest>

using namespace converge;

class tst_TextWrap final : public QObject
{
    Q_OBJECT

private slots:
    void lines_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("width");
        QTest::addColumn<QStringList>("lines");
        QTest::newRow("fits") << QStringLiteral("a b c") << 5
                              << QStringList{QStringLiteral("a b c")};
        QTest::newRow("breaks at a word")
            << QStringLiteral("aa bb cc") << 5
            << QStringList{QStringLiteral("aa bb"), QStringLiteral("cc")};
        QTest::newRow("whitespace collapsed")
            << QStringLiteral("  aa\n bb\tcc ") << 80 << QStringList{QStringLiteral("aa bb cc")};
        QTest::newRow("a long word has its own line")
            << QStringLiteral("a abcdefgh b") << 4
            << QStringList{QStringLiteral("a"), QStringLiteral("abcdefgh"), QStringLiteral("b")};
        QTest::newRow("blank") << QStringLiteral("  ") << 10 << QStringList{};
    }

    void lines()
    {
        QFETCH(QString, text);
        QFETCH(int, width);
        QFETCH(QStringList, lines);
        QCOMPARE(TextWrap::lines(text, width), lines);
    }

    void indented()
    {
        QCOMPARE(TextWrap::indented(QStringLiteral("aa bb cc"), QStringLiteral("  "), 7),
                 QStringLiteral("  aa bb\n  cc\n"));
        QCOMPARE(TextWrap::indented(QString(), QStringLiteral("  "), 7), QString());
    }
};

QTEST_GUILESS_MAIN(tst_TextWrap)
#include "tst_textwrap.moc"

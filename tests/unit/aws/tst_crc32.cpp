// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "crc32.h"

#include <QTest>

using namespace converge;

class tst_Crc32 final : public QObject
{
    Q_OBJECT

private slots:
    void knownValues_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<quint32>("crc");
        QTest::newRow("empty") << QByteArray() << quint32(0);
        QTest::newRow("check value") << QByteArray("123456789") << quint32(3421780262u);
        QTest::newRow("a") << QByteArray("a") << quint32(0xE8B7BE43u);
        QTest::newRow("fox") << QByteArray("The quick brown fox jumps over the lazy dog")
                             << quint32(0x414FA339u);
        QTest::newRow("zero byte") << QByteArray(1, '\0') << quint32(0xD202EF8Du);
        QTest::newRow("high bytes") << QByteArray("\xff\xfe\x80", 3) << quint32(0x265EA2ECu);
        // A body dynalite sent with x-amz-crc32: 1315925753.
        QTest::newRow("dynamodb body") << QByteArray("{\"TableNames\":[]}") << quint32(1315925753u);
    }
    void knownValues()
    {
        QFETCH(QByteArray, data);
        QFETCH(quint32, crc);
        QCOMPARE(Crc32::of(data), crc);
    }

    void incrementalEqualsOneShot()
    {
        const QByteArray data("The quick brown fox jumps over the lazy dog");
        for (qsizetype split = 0; split <= data.size(); ++split) {
            Crc32 crc;
            crc.add(QByteArrayView(data).first(split)).add(QByteArrayView(data).sliced(split));
            QCOMPARE(crc.value(), Crc32::of(data));
        }
    }
};

QTEST_GUILESS_MAIN(tst_Crc32)
#include "tst_crc32.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "shardedhash.h"

#include <QTest>

using namespace converge;

class tst_ShardedHash final : public QObject
{
    Q_OBJECT

private slots:
    void insertFindRemoveAndCount()
    {
        // The explorer's ids: tens of thousands that share a long prefix.
        constexpr int count = 20000;
        std::vector<int> values(count);
        ShardedHash<int> hash;
        QVERIFY(hash.isEmpty());
        const auto id = [](int i) {
            return QStringLiteral("acct|BlobContainer|explorer-%1").arg(i);
        };
        for (int i = 0; i < count; ++i) {
            values[size_t(i)] = i;
            hash.insert(id(i), &values[size_t(i)]);
        }
        QCOMPARE(hash.size(), count);
        hash.insert(id(7), &values[8]); // replaces, does not add
        QCOMPARE(hash.size(), count);
        QCOMPARE(hash.value(id(7)), &values[8]);
        QCOMPARE(hash.value(id(19999)), &values[19999]);
        QVERIFY(hash.contains(id(0)));
        QVERIFY(!hash.contains(id(count)));
        QCOMPARE(hash.value(id(count)), nullptr);

        for (int i = 0; i < count; i += 2)
            hash.remove(id(i));
        hash.remove(id(0)); // gone already: no change
        QCOMPARE(hash.size(), count / 2);
        QVERIFY(!hash.contains(id(2)));
        QVERIFY(hash.contains(id(3)));

        qint64 sum = 0;
        int seen = 0;
        hash.forEach([&](const int *v) {
            sum += *v;
            ++seen;
        });
        QCOMPARE(seen, count / 2);
        qint64 odd = 0;
        for (int i = 1; i < count; i += 2)
            odd += i == 7 ? 8 : i;
        QCOMPARE(sum, odd);
    }

    void spreadsOverItsShards()
    {
        // No shard holds more than a few times its share: the high bits of qHash() are used.
        ShardedHash<int> hash;
        int value = 0;
        for (int i = 0; i < 6400; ++i)
            hash.insert(QStringLiteral("owner|Kind|name-%1").arg(i), &value);
        QCOMPARE(hash.size(), 6400);
        QVERIFY(hash.largestShard() < 3 * 100);
    }
};

QTEST_APPLESS_MAIN(tst_ShardedHash)
#include "tst_shardedhash.moc"

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "kindresolver.h"

#include "services.h"

#include <QTest>

using namespace converge;

class tst_KindResolver final : public QObject
{
    Q_OBJECT

private slots:
    void resolve_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("kind"); // empty: unknown
        QTest::addColumn<QString>("error");
        QTest::newRow("canonical")
            << QStringLiteral("BlobContainer") << QStringLiteral("BlobContainer") << QString();
        QTest::newRow("lower case")
            << QStringLiteral("blobcontainer") << QStringLiteral("BlobContainer") << QString();
        QTest::newRow("plural") << QStringLiteral("blobcontainers")
                                << QStringLiteral("BlobContainer") << QString();
        QTest::newRow("upper case plural")
            << QStringLiteral("BLOBCONTAINERS") << QStringLiteral("BlobContainer") << QString();
        QTest::newRow("queues") << QStringLiteral("queues") << QStringLiteral("Queue") << QString();
        QTest::newRow("blob is not blobcontainer")
            << QStringLiteral("blobs") << QStringLiteral("Blob") << QString();
        QTest::newRow("aws") << QStringLiteral("dynamodbtables") << QStringLiteral("DynamoDBTable")
                             << QString();
        QTest::newRow("with group")
            << QStringLiteral("tables.azure.converge.dev") << QStringLiteral("Table") << QString();
        QTest::newRow("wrong group") << QStringLiteral("tables.aws.converge.dev") << QString()
                                     << QStringLiteral("unknown kind \"tables.aws.converge.dev\"");
        QTest::newRow("typo") << QStringLiteral("blobcontaner") << QString()
                              << QStringLiteral("unknown kind \"blobcontaner\"; did you mean "
                                                "\"BlobContainer\"?");
        QTest::newRow("typo, plural") << QStringLiteral("storageacounts") << QString()
                                      << QStringLiteral("did you mean \"StorageAccount\"?");
        QTest::newRow("nothing near")
            << QStringLiteral("pod") << QString()
            << QStringLiteral("unknown kind \"pod\" (known kinds: AwsAccount, Blob, "
                              "BlobContainer, CloudWatchLogGroup, DynamoDBTable,");
        // Declared kinds resolve as the hand-written ones do.
        QTest::newRow("declared, plural")
            << QStringLiteral("sqsqueues") << QStringLiteral("SQSQueue") << QString();
        QTest::newRow("declared, any case") << QStringLiteral("cloudwatchloggroup")
                                            << QStringLiteral("CloudWatchLogGroup") << QString();
        QTest::newRow("empty") << QString() << QString() << QStringLiteral("unknown kind");
    }

    void resolve()
    {
        QFETCH(QString, text);
        QFETCH(QString, kind);
        QFETCH(QString, error);
        const KindResolver resolver(m_services.kinds());
        QString why;
        const std::optional<QString> got = resolver.resolve(text, &why);
        QCOMPARE(got.value_or(QString()), kind);
        if (kind.isEmpty())
            QVERIFY2(why.contains(error), qPrintable(why));
        else
            QVERIFY(why.isEmpty());
    }

    void resolveKey_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("key"); // empty: invalid
        QTest::newRow("lower case")
            << QStringLiteral("blobcontainer/invoices") << QStringLiteral("BlobContainer/invoices");
        QTest::newRow("plural") << QStringLiteral("queues/events")
                                << QStringLiteral("Queue/events");
        QTest::newRow("name with dots")
            << QStringLiteral("blob/a.b.txt") << QStringLiteral("Blob/a.b.txt");
        QTest::newRow("no name") << QStringLiteral("queue/") << QString();
        QTest::newRow("no slash") << QStringLiteral("queue") << QString();
        QTest::newRow("unknown kind") << QStringLiteral("pods/x") << QString();
    }

    void resolveKey()
    {
        QFETCH(QString, text);
        QFETCH(QString, key);
        const KindResolver resolver(m_services.kinds());
        QString why;
        const std::optional<ResourceKey> got = resolver.resolveKey(text, &why);
        QCOMPARE(got ? got->toString() : QString(), key);
        QCOMPARE(why.isEmpty(), !key.isEmpty());
    }

    void displayReadsBack()
    {
        const KindResolver resolver(m_services.kinds());
        const ResourceKey key{QStringLiteral("DynamoDBTable"), QStringLiteral("orders")};
        QCOMPARE(KindResolver::display(key), QStringLiteral("dynamodbtable/orders"));
        QCOMPARE(resolver.resolveKey(KindResolver::display(key)), key);
    }

private:
    Services m_services;
};

QTEST_GUILESS_MAIN(tst_KindResolver)
#include "tst_kindresolver.moc"

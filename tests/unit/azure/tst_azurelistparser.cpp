// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Azure's XML listings: containers, blobs and queues, continuation markers, and garbage.
#include "azurelistparser.h"

#include <QTest>

using namespace converge;

class tst_AzureListParser final : public QObject
{
    Q_OBJECT

private slots:
    void containers()
    {
        const QByteArray body = QByteArrayLiteral(
            "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"utf-8\"?>"
            "<EnumerationResults ServiceEndpoint=\"http://127.0.0.1:10000/devstoreaccount1\">"
            "<Prefix>inv</Prefix><MaxResults>2</MaxResults>"
            "<Containers>"
            "<Container><Name>invoices</Name><Properties><Last-Modified>Mon, 30 Nov 2026 "
            "12:00:00 GMT</Last-Modified><Etag>\"0x1\"</Etag><PublicAccess>container"
            "</PublicAccess></Properties><Metadata><team>billing</team><Owner>Ann</Owner>"
            "</Metadata></Container>"
            "<Container><Name>inventory</Name><Properties><Etag>\"0x2\"</Etag></Properties>"
            "</Container>"
            "</Containers><NextMarker>/devstoreaccount1/inw</NextMarker></EnumerationResults>");
        AzureListParser::Page page;
        QString error;
        QVERIFY2(AzureListParser::parse(body, QStringLiteral("Container"), &page, &error),
                 qPrintable(error));
        QCOMPARE(page.items.size(), 2);
        QCOMPARE(page.items[0].name, QStringLiteral("invoices"));
        QCOMPARE(page.items[0].properties.value(QStringLiteral("PublicAccess")),
                 QStringLiteral("container"));
        QCOMPARE(page.items[0].metadata.value(QStringLiteral("team")).toString(),
                 QStringLiteral("billing"));
        QCOMPARE(page.items[0].metadata.value(QStringLiteral("Owner")).toString(),
                 QStringLiteral("Ann"));
        QVERIFY(page.items[1].metadata.isEmpty());
        QCOMPARE(page.nextMarker, QStringLiteral("/devstoreaccount1/inw"));
    }

    void blobsKeepPrefixesApartAndSkipNesting()
    {
        const QByteArray body = QByteArrayLiteral(
            "<EnumerationResults><Blobs><BlobPrefix><Name>dir/</Name></BlobPrefix>"
            "<Blob><Name>dir/a&amp;b.txt</Name><Properties><Content-MD5>XrY7u+Ae7tCTyyK7j1rNww=="
            "</Content-MD5><Content-Type>text/plain</Content-Type></Properties>"
            "<Tags><TagSet><Tag><Key>k</Key></Tag></TagSet></Tags></Blob></Blobs>"
            "<NextMarker/></EnumerationResults>");
        AzureListParser::Page page;
        QString error;
        QVERIFY2(AzureListParser::parse(body, QStringLiteral("Blob"), &page, &error),
                 qPrintable(error));
        QCOMPARE(page.items.size(), 1);
        QCOMPARE(page.items[0].name, QStringLiteral("dir/a&b.txt"));
        QCOMPARE(page.items[0].properties.value(QStringLiteral("Content-Type")),
                 QStringLiteral("text/plain"));
        QCOMPARE(page.prefixes, QStringList{QStringLiteral("dir/")});
        QVERIFY(page.nextMarker.isEmpty());
    }

    void aPrefixWithoutANameIsRefused()
    {
        AzureListParser::Page page;
        QString error;
        QVERIFY(!AzureListParser::parse("<EnumerationResults><Blobs><BlobPrefix/></Blobs>"
                                        "</EnumerationResults>",
                                        QStringLiteral("Blob"), &page, &error));
        QVERIFY2(error.contains(QLatin1String("BlobPrefix")), qPrintable(error));
    }

    void emptyListing()
    {
        AzureListParser::Page page;
        QString error;
        QVERIFY(AzureListParser::parse("<EnumerationResults><Queues /><NextMarker />"
                                       "</EnumerationResults>",
                                       QStringLiteral("Queue"), &page, &error));
        QVERIFY(page.items.isEmpty());
        QVERIFY(page.nextMarker.isEmpty());
    }

    void garbage_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("not XML") << QByteArray("{\"value\": []}");
        QTest::newRow("other root") << QByteArray("<Error><Code>X</Code></Error>");
        QTest::newRow("cut off") << QByteArray("<EnumerationResults><Containers><Container><Name>a"
                                               "</Name></Container><Container><Na");
        QTest::newRow("item without name")
            << QByteArray("<EnumerationResults><Containers><Container><Properties/></Container>"
                          "</Containers></EnumerationResults>");
        QTest::newRow("binary") << QByteArray("\x00\x01<\xff", 4);
        QTest::newRow("mismatched tags")
            << QByteArray("<EnumerationResults><Containers></Blobs></EnumerationResults>");
    }

    void garbage()
    {
        QFETCH(QByteArray, body);
        AzureListParser::Page page;
        page.items.append(AzureListParser::Item{});
        QString error;
        QVERIFY(!AzureListParser::parse(body, QStringLiteral("Container"), &page, &error));
        QVERIFY(error.startsWith(QLatin1String("the listing could not be read")));
    }
};

QTEST_GUILESS_MAIN(tst_AzureListParser)
#include "tst_azurelistparser.moc"

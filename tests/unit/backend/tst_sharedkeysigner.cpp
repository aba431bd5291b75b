// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Vectors, with where each comes from:
// - "docs ..." rows: string-to-sign examples published in Microsoft Learn, "Authorize with Shared
//   Key" (learn.microsoft.com/rest/api/storageservices/authorize-with-shared-key): the Get
//   Container Metadata and Create Container examples and the List Blobs canonical resource with a
//   repeated `include`. Microsoft publishes no signature for them; the signatures below were
//   computed independently with Node's crypto (HMAC-SHA256 with the Azurite key).
// - "sdk-cpp ..." rows: the Table SharedKeyLite string-to-sign of azure-sdk-for-cpp's
//   sdk/tables/azure-data-tables/test/ut/shared_key_lite_policy_test.cpp (account "account-name",
//   key base64("account-key")); signatures computed with Node's crypto.
// - "azurite ..." rows: path-style emulator requests; string-to-sign written by hand from the
//   rules and signed with Node's crypto. The integration test tst_backendemulators checks that
//   Azurite accepts such signatures.
#include "sharedkeysigner.h"

#include <QTest>
#include <QTimeZone>

using namespace converge;

namespace {

const QString devAccount = QStringLiteral("devstoreaccount1");
const QString devKey = QStringLiteral(
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==");
const QByteArray date = "Mon, 30 Nov 2026 03:48:11 GMT";

HttpRequest::Headers headersFrom(const QByteArray &lines)
{
    HttpRequest::Headers headers;
    for (const QByteArray &line : lines.split('\n')) {
        const qsizetype colon = line.indexOf(':');
        if (colon > 0)
            headers.append({line.left(colon), line.mid(colon + 1).trimmed()});
    }
    return headers;
}

} // namespace

class tst_SharedKeySigner final : public QObject
{
    Q_OBJECT

private slots:
    void vectors_data()
    {
        QTest::addColumn<int>("scheme");
        QTest::addColumn<QString>("account");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("url");
        QTest::addColumn<QByteArray>("headers");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("stringToSign");
        QTest::addColumn<QByteArray>("signature");

        const int blob = int(SharedKeySigner::Scheme::BlobQueue);
        const int table = int(SharedKeySigner::Scheme::Table);
        const int lite = int(SharedKeySigner::Scheme::TableLite);
        const QString sdkKey = QString::fromLatin1(QByteArray("account-key").toBase64());

        QTest::newRow("docs: Get Container Metadata")
            << blob << QStringLiteral("myaccount") << devKey << QByteArray("GET")
            << QStringLiteral("https://myaccount.blob.core.windows.net/mycontainer"
                              "?restype=container&comp=metadata&timeout=20")
            << QByteArray("x-ms-date: Fri, 26 Jun 2015 23:39:12 GMT\nx-ms-version: 2015-02-21")
            << QByteArray()
            << QByteArray("GET\n\n\n\n\n\n\n\n\n\n\n\nx-ms-date:Fri, 26 Jun 2015 23:39:12 GMT\n"
                          "x-ms-version:2015-02-21\n/myaccount/mycontainer\ncomp:metadata\n"
                          "restype:container\ntimeout:20")
            << QByteArray("1u9lui2jDxj0+fpbHjQ5m5NnastJRSYM+PSmfi8TXx4=");
        QTest::newRow("docs: Create Container, empty body")
            << blob << QStringLiteral("myaccount") << devKey << QByteArray("PUT")
            << QStringLiteral("https://myaccount.blob.core.windows.net/mycontainer"
                              "?restype=container&timeout=30")
            << QByteArray("x-ms-version: 2015-02-21\nx-ms-date: Fri, 26 Jun 2015 23:39:12 GMT")
            << QByteArray()
            << QByteArray("PUT\n\n\n\n\n\n\n\n\n\n\n\nx-ms-date:Fri, 26 Jun 2015 23:39:12 GMT\n"
                          "x-ms-version:2015-02-21\n/myaccount/mycontainer\nrestype:container\n"
                          "timeout:30")
            << QByteArray("xGXG0xDZ4LffNUrgvdRqISw8BZe4MJz8EbGZmcCE038=");
        QTest::newRow("docs: List Blobs, repeated include sorted and joined")
            << blob << QStringLiteral("myaccount") << devKey << QByteArray("GET")
            << QStringLiteral("https://myaccount.blob.core.windows.net/mycontainer?restype="
                              "container&comp=list&include=snapshots&include=metadata&include="
                              "uncommittedblobs")
            << (QByteArray("x-ms-date: ") + date + "\nx-ms-version: 2021-12-02") << QByteArray()
            << (QByteArray("GET\n\n\n\n\n\n\n\n\n\n\n\nx-ms-date:") + date +
                "\nx-ms-version:2021-12-02\n/myaccount/mycontainer\ncomp:list\n"
                "include:metadata,snapshots,uncommittedblobs\nrestype:container")
            << QByteArray("c+RfwJhEslCp6BUk/baJH+m2NDq2YZAGZvQGme71k5w=");
        QTest::newRow("azurite: List Containers, path-style")
            << blob << devAccount << devKey << QByteArray("GET")
            << QStringLiteral("http://127.0.0.1:10000/devstoreaccount1?comp=list")
            << (QByteArray("x-ms-version: 2021-12-02\nx-ms-date: ") + date) << QByteArray()
            << (QByteArray("GET\n\n\n\n\n\n\n\n\n\n\n\nx-ms-date:") + date +
                "\nx-ms-version:2021-12-02\n/devstoreaccount1/devstoreaccount1\ncomp:list")
            << QByteArray("ttXLseSYhvUS0/l+3su4+UvM8IECSPwpaWRDQj3nITs=");
        QTest::newRow("azurite: Create Container, x-ms- headers sorted, other headers ignored")
            << blob << devAccount << devKey << QByteArray("PUT")
            << QStringLiteral("http://127.0.0.1:10000/devstoreaccount1/invoices?restype=container")
            << (QByteArray("X-MS-Meta-Team:  billing \nx-ms-version: 2021-12-02\n"
                           "User-Agent: Converge/0.1.0\nx-ms-client-request-id: "
                           "0f5a2c9e-8a47-4a8e-9d0b-3c1e2f4a5b6c\nx-ms-date: ") +
                date)
            << QByteArray()
            << (QByteArray("PUT\n\n\n\n\n\n\n\n\n\n\n\nx-ms-client-request-id:"
                           "0f5a2c9e-8a47-4a8e-9d0b-3c1e2f4a5b6c\nx-ms-date:") +
                date +
                "\nx-ms-meta-team:billing\nx-ms-version:2021-12-02\n"
                "/devstoreaccount1/devstoreaccount1/invoices\nrestype:container")
            << QByteArray("r1rwl5fuP++szBPWqm7XfWQpPOKMVjPkc6sOysVSldI=");
        QTest::newRow("azurite: Put Blob, length and type, encoded path")
            << blob << devAccount << devKey << QByteArray("PUT")
            << QStringLiteral("http://127.0.0.1:10000/devstoreaccount1/invoices/a%20b.txt")
            << (QByteArray("Content-Type: text/plain\nx-ms-blob-type: BlockBlob\n"
                           "x-ms-version: 2021-12-02\nx-ms-date: ") +
                date)
            << QByteArray("hello world")
            << (QByteArray("PUT\n\n\n11\n\ntext/plain\n\n\n\n\n\n\nx-ms-blob-type:BlockBlob\n"
                           "x-ms-date:") +
                date +
                "\nx-ms-version:2021-12-02\n/devstoreaccount1/devstoreaccount1/invoices/"
                "a%20b.txt")
            << QByteArray("eKsuSzXP8kYb3vC1+ZPTQtRYdHD/oBIRdnGu//nMjbo=");
        QTest::newRow("azurite table: Query Tables")
            << table << devAccount << devKey << QByteArray("GET")
            << QStringLiteral("http://127.0.0.1:10002/devstoreaccount1/Tables")
            << (QByteArray("Accept: application/json;odata=nometadata\n"
                           "x-ms-version: 2021-12-02\nx-ms-date: ") +
                date)
            << QByteArray()
            << (QByteArray("GET\n\n\n") + date + "\n/devstoreaccount1/devstoreaccount1/Tables")
            << QByteArray("SJBZzfj0dKCFv1qY5lIHWFFti2nZxIy7R+9gQ5JHIyA=");
        QTest::newRow("azurite table: Create Table")
            << table << devAccount << devKey << QByteArray("POST")
            << QStringLiteral("http://127.0.0.1:10002/devstoreaccount1/Tables")
            << (QByteArray("Content-Type: application/json\nx-ms-date: ") + date)
            << QByteArray("{\"TableName\":\"t\"}")
            << (QByteArray("POST\n\napplication/json\n") + date +
                "\n/devstoreaccount1/devstoreaccount1/Tables")
            << QByteArray("EWnBDhAmd/oHqRcpLduhVqt+D8RNGC52mCO5HwdmWF4=");
        QTest::newRow("table: only comp is kept")
            << table << devAccount << devKey << QByteArray("GET")
            << QStringLiteral("http://127.0.0.1:10002/devstoreaccount1/?restype=service&"
                              "comp=properties")
            << (QByteArray("x-ms-date: ") + date) << QByteArray()
            << (QByteArray("GET\n\n\n") + date +
                "\n/devstoreaccount1/devstoreaccount1/"
                "?comp=properties")
            << QByteArray();
        QTest::newRow("sdk-cpp: Table SharedKeyLite with comp")
            << lite << QStringLiteral("account-name") << sdkKey << QByteArray("GET")
            << QStringLiteral(
                   "https://goqu.table.core.windows.net/?restype=service&comp=properties")
            << QByteArray("x-ms-date: Thu, 23 Apr 2020 09:43:37 GMT") << QByteArray()
            << QByteArray("Thu, 23 Apr 2020 09:43:37 GMT\n/account-name/?comp=properties")
            << QByteArray("tW8SGePdivpFOEJfTxikbSwjdDWkpxSTfFtqUMED3v8=");
        QTest::newRow("sdk-cpp: Table SharedKeyLite without query")
            << lite << QStringLiteral("account-name") << sdkKey << QByteArray("GET")
            << QStringLiteral("https://goqu.table.core.windows.net")
            << QByteArray("x-ms-date: Thu, 23 Apr 2020 09:43:37 GMT") << QByteArray()
            << QByteArray("Thu, 23 Apr 2020 09:43:37 GMT\n/account-name/")
            << QByteArray("NA09pT0WJ/MYPJdfa2OFRAEgPAneu1jTv8fXVpiQVxE=");
        QTest::newRow("query: names lower-cased, values decoded")
            << blob << devAccount << devKey << QByteArray("GET")
            << QStringLiteral("http://127.0.0.1:10000/devstoreaccount1/c?COMP=list&prefix=a%20b%2Fc"
                              "&restype=container")
            << QByteArray() << QByteArray()
            << QByteArray("GET\n\n\n\n\n\n\n\n\n\n\n\n/devstoreaccount1/devstoreaccount1/c\n"
                          "comp:list\nprefix:a b/c\nrestype:container")
            << QByteArray();
    }

    void vectors()
    {
        QFETCH(int, scheme);
        QFETCH(QString, account);
        QFETCH(QString, key);
        QFETCH(QByteArray, method);
        QFETCH(QString, url);
        QFETCH(QByteArray, headers);
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, stringToSign);
        QFETCH(QByteArray, signature);

        const SharedKeySigner signer(account, key, SharedKeySigner::Scheme(scheme));
        QVERIFY2(signer.isValid(), qPrintable(signer.error()));
        HttpRequest request;
        request.method = method;
        request.url = QUrl(url);
        request.headers = headersFrom(headers);
        request.body = body;
        QCOMPARE(signer.stringToSign(request), stringToSign);
        if (!signature.isEmpty())
            QCOMPARE(signer.signature(stringToSign), signature);
    }

    void httpDateIsRfc1123()
    {
        QCOMPARE(SharedKeySigner::httpDate(
                     QDateTime(QDate(2026, 11, 30), QTime(3, 48, 11), QTimeZone::utc())),
                 QByteArray("Mon, 30 Nov 2026 03:48:11 GMT"));
        // Converted to UTC, and English whatever the locale.
        const QLocale previous;
        QLocale::setDefault(QLocale(QLocale::German));
        QCOMPARE(SharedKeySigner::httpDate(
                     QDateTime(QDate(2026, 1, 4), QTime(23, 5, 9), QTimeZone(3600))),
                 QByteArray("Sun, 04 Jan 2026 22:05:09 GMT"));
        QLocale::setDefault(previous);
    }

    void signSetsDateVersionAndAuthorization()
    {
        const SharedKeySigner signer(devAccount, devKey, SharedKeySigner::Scheme::BlobQueue);
        HttpRequest request;
        request.url = QUrl(QStringLiteral("http://127.0.0.1:10000/devstoreaccount1?comp=list"));
        signer.sign(request, QDateTime(QDate(2026, 11, 30), QTime(3, 48, 11), QTimeZone::utc()));
        QCOMPARE(request.header("x-ms-date"), date);
        QCOMPARE(request.header("x-ms-version"), QByteArray("2021-12-02"));
        QCOMPARE(
            request.header("Authorization"),
            QByteArray("SharedKey devstoreaccount1:ttXLseSYhvUS0/l+3su4+UvM8IECSPwpaWRDQj3nITs="));

        const SharedKeySigner lite(devAccount, devKey, SharedKeySigner::Scheme::TableLite);
        HttpRequest tables;
        tables.url = QUrl(QStringLiteral("http://127.0.0.1:10002/devstoreaccount1/Tables"));
        lite.sign(tables, QDateTime::currentDateTimeUtc());
        QVERIFY(tables.header("Authorization").startsWith("SharedKeyLite devstoreaccount1:"));
    }

    void signerSignsEachAttemptAnew()
    {
        const Signer sign =
            SharedKeySigner(devAccount, devKey, SharedKeySigner::Scheme::BlobQueue).signer();
        HttpRequest request;
        request.url = QUrl(QStringLiteral("http://127.0.0.1:10000/devstoreaccount1?comp=list"));
        sign(request);
        sign(request); // re-signing replaces, never duplicates
        int authorizations = 0;
        for (const auto &[name, value] : std::as_const(request.headers))
            authorizations += name.compare("authorization", Qt::CaseInsensitive) == 0;
        QCOMPARE(authorizations, 1);
    }

    void invalidKeys_data()
    {
        QTest::addColumn<QString>("account");
        QTest::addColumn<QString>("key");
        QTest::newRow("not base64") << devAccount << QStringLiteral("not*base64!");
        QTest::newRow("empty key") << devAccount << QString();
        QTest::newRow("no account") << QString() << devKey;
    }

    void invalidKeys()
    {
        QFETCH(QString, account);
        QFETCH(QString, key);
        const SharedKeySigner signer(account, key, SharedKeySigner::Scheme::BlobQueue);
        QVERIFY(!signer.isValid());
        QVERIFY(!signer.error().isEmpty());
        if (!key.isEmpty())
            QVERIFY(!signer.error().contains(key));
    }
};

QTEST_GUILESS_MAIN(tst_SharedKeySigner)
#include "tst_sharedkeysigner.moc"

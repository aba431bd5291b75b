// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Open by name reads what a person types: Kind/name, a backend name, a URL or an ARN.
#include "namequery.h"

#include <QTest>

using namespace converge;

class tst_NameQuery final : public QObject
{
    Q_OBJECT

private slots:
    void kindAndName()
    {
        const NameQuery q(QStringLiteral("BlobContainer/invoices"));
        QCOMPARE(q.score(QStringLiteral("BlobContainer"), QStringLiteral("invoices"),
                         QStringLiteral("inv-2026"), {}),
                 100);
        // The kind must match; the backend name may stand for the name.
        QCOMPARE(q.score(QStringLiteral("Queue"), QStringLiteral("invoices"), {}, {}), 0);
        QVERIFY(q.score(QStringLiteral("BlobContainer"), QStringLiteral("x"),
                        QStringLiteral("invoices"), {}) > 0);
    }

    void aBackendNameAlone()
    {
        const NameQuery q(QStringLiteral("inv-2026"));
        const int byBackend = q.score(QStringLiteral("BlobContainer"), QStringLiteral("invoices"),
                                      QStringLiteral("inv-2026"), {});
        const int byName = q.score(QStringLiteral("BlobContainer"), QStringLiteral("inv-2026"),
                                   QStringLiteral("other"), {});
        QVERIFY(byBackend > byName);
        QVERIFY(byName > 0);
        QCOMPARE(q.score(QStringLiteral("Queue"), QStringLiteral("a"), QStringLiteral("b"), {}), 0);
    }

    void urls()
    {
        const QString id = QStringLiteral("http://127.0.0.1:10000/devstoreaccount1/invoices");
        // Exact, with a trailing slash or a SAS query: the same resource.
        const QStringList typings{id, id + QLatin1Char('/'), id + QStringLiteral("?sv=x&sig=y")};
        for (const QString &typed : typings)
            QCOMPARE(NameQuery(typed).score(QStringLiteral("BlobContainer"), QStringLiteral("c"),
                                            QStringLiteral("invoices"), id),
                     100);
        // Not recorded yet: the emulator URL names the container after the account.
        QCOMPARE(NameQuery(id).score(QStringLiteral("BlobContainer"), QStringLiteral("c"),
                                     QStringLiteral("invoices"), {}),
                 60);
        // Azure's own host names the container first; a blob by the rest of the path.
        const NameQuery blob(
            QStringLiteral("https://acme.blob.core.windows.net/invoices/2026/jan.pdf"));
        QCOMPARE(blob.score(QStringLiteral("Blob"), QStringLiteral("jan"),
                            QStringLiteral("2026/jan.pdf"), {}),
                 60);
        QCOMPARE(blob.score(QStringLiteral("BlobContainer"), QStringLiteral("invoices"),
                            QStringLiteral("invoices"), {}),
                 0);
        // A blob's path, and the container's URL that holds it (Open by name lists down to it).
        QCOMPARE(blob.path(), QStringLiteral("2026/jan.pdf"));
        QCOMPARE(blob.containerText(),
                 QStringLiteral("https://acme.blob.core.windows.net/invoices"));
        const NameQuery local(id + QStringLiteral("/logs/a%20b.txt?sv=1"));
        QCOMPARE(local.path(), QStringLiteral("logs/a b.txt"));
        QCOMPARE(local.containerText(), id);
        QVERIFY(NameQuery(id).path().isEmpty());
        QVERIFY(NameQuery(id).containerText().isEmpty());
    }

    void arns()
    {
        const QString arn = QStringLiteral("arn:aws:dynamodb:eu-west-1:000000000000:table/orders");
        QCOMPARE(NameQuery(arn).score(QStringLiteral("DynamoDBTable"), QStringLiteral("o"),
                                      QStringLiteral("orders"), arn),
                 100);
        QCOMPARE(NameQuery(arn).score(QStringLiteral("DynamoDBTable"), QStringLiteral("o"),
                                      QStringLiteral("orders"), {}),
                 60);
        QCOMPARE(NameQuery(arn).score(QStringLiteral("DynamoDBTable"), QStringLiteral("o"),
                                      QStringLiteral("users"), {}),
                 0);
    }

    // S3's spellings: s3://, the object's ARN, and AWS's URLs of either addressing style. A
    // bucket is found as S3Bucket/NAME; an object by its recorded ARN, else listed down to.
    void s3()
    {
        const QString arn = QStringLiteral("arn:aws:s3:::order-invoices/2026/01/inv-1.pdf");
        for (const QString &typed :
             {QStringLiteral("s3://order-invoices/2026/01/inv-1.pdf"), arn,
              QStringLiteral("https://order-invoices.s3.eu-west-1.amazonaws.com/2026/01/inv-1.pdf"),
              QStringLiteral(
                  "https://s3.eu-west-1.amazonaws.com/order-invoices/2026/01/inv-1.pdf")}) {
            const NameQuery q(typed);
            QCOMPARE(q.path(), QStringLiteral("2026/01/inv-1.pdf"));
            QCOMPARE(q.containerText(), QStringLiteral("S3Bucket/order-invoices"));
            QCOMPARE(q.score(QStringLiteral("S3Object"), QStringLiteral("inv"),
                             QStringLiteral("2026/01/inv-1.pdf"), arn),
                     100);
            QVERIFY(q.lookupName().isEmpty());
        }
        // The container text finds the bucket by its name.
        const NameQuery bucket(QStringLiteral("S3Bucket/order-invoices"));
        QCOMPARE(bucket.score(QStringLiteral("S3Bucket"), QStringLiteral("order-invoices"),
                              QStringLiteral("order-invoices"), QStringLiteral("order-invoices")),
                 100);
        for (const QString &typed :
             {QStringLiteral("s3://order-invoices"), QStringLiteral("s3://order-invoices/"),
              QStringLiteral("arn:aws:s3:::order-invoices"),
              QStringLiteral("https://order-invoices.s3.amazonaws.com/")}) {
            const NameQuery q(typed);
            QCOMPARE(q.kind(), QStringLiteral("S3Bucket"));
            QCOMPARE(q.lookupName(), QStringLiteral("order-invoices"));
            QVERIFY(q.path().isEmpty());
        }
    }

    void whatIsLookedUpWhenNothingMatches()
    {
        // A get under the accounts, by the backend name; blobs (paths) are browsed instead.
        QCOMPARE(NameQuery(QStringLiteral("BlobContainer/invoices")).lookupName(),
                 QStringLiteral("invoices"));
        QCOMPARE(NameQuery(QStringLiteral("BlobContainer/invoices")).kind(),
                 QStringLiteral("BlobContainer"));
        QCOMPARE(NameQuery(QStringLiteral("Orders")).lookupName(), QStringLiteral("Orders"));
        QVERIFY(NameQuery(QStringLiteral("Orders")).kind().isEmpty());
        QCOMPARE(NameQuery(QStringLiteral("http://127.0.0.1:10000/devstoreaccount1/invoices?sv=1"))
                     .lookupName(),
                 QStringLiteral("invoices"));
        QCOMPARE(NameQuery(QStringLiteral("arn:aws:dynamodb:eu-west-1:123456789012:table/Orders"))
                     .lookupName(),
                 QStringLiteral("Orders"));
        QVERIFY(NameQuery(QStringLiteral("https://acct.blob.core.windows.net/invoices/2026/a.pdf"))
                    .lookupName()
                    .isEmpty());
    }

    void emptyMatchesNothing()
    {
        QVERIFY(NameQuery(QStringLiteral("  ")).isEmpty());
        QCOMPARE(NameQuery({}).score(QStringLiteral("Queue"), {}, {}, {}), 0);
    }
};

QTEST_MAIN(tst_NameQuery)
#include "tst_namequery.moc"

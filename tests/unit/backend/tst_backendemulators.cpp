// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The signers and HttpClient against the real emulators: Azurite verifies SharedKey signatures
// (a wrong one gets 403 AuthorizationFailure), dynalite checks the shape of SigV4.
#include "emulators.h"
#include "httpclient.h"
#include "sharedkeysigner.h"
#include "sigv4signer.h"

#include <QTest>
#include <QUuid>

using namespace converge;
using namespace converge::test;

class tst_BackendEmulators final : public QObject
{
    Q_OBJECT

private:
    static QUrl withQuery(QUrl url, const QString &query)
    {
        url.setQuery(query);
        return url;
    }

    static QUrl withPath(QUrl url, const QString &suffix)
    {
        url.setPath(url.path() + suffix);
        return url;
    }

    HttpResponse send(const QByteArray &method, const QUrl &url, const SharedKeySigner &signer,
                      const QByteArray &body = {}, const HttpRequest::Headers &headers = {})
    {
        HttpRequest request;
        request.method = method;
        request.url = url;
        request.headers = headers;
        request.body = body;
        request.clientRequestId = HttpRequest::ClientRequestId::Azure;
        return m_client->send(request, signer.signer());
    }

    static QByteArray describe(const HttpResponse &response)
    {
        return response.toError().toString().toUtf8() + ' ' + response.body.left(400);
    }

    Emulators m_emulators;
    std::unique_ptr<HttpClient> m_client;

private slots:
    void initTestCase()
    {
        m_emulators = Emulators::fromEnvironment();
        QVERIFY2(m_emulators.isValid(), qPrintable(m_emulators.error));
        HttpClient::Options options;
        options.retry.baseDelay = std::chrono::milliseconds(10);
        m_client = std::make_unique<HttpClient>(options);
    }

    void listContainersAndQueues_data()
    {
        QTest::addColumn<QUrl>("endpoint");
        QTest::newRow("blob") << m_emulators.blobEndpoint();
        QTest::newRow("queue") << m_emulators.queueEndpoint();
    }

    void listContainersAndQueues()
    {
        QFETCH(QUrl, endpoint);
        const SharedKeySigner signer(devAccountName(), devAccountKey(),
                                     SharedKeySigner::Scheme::BlobQueue);
        const HttpResponse response =
            send("GET", withQuery(endpoint, QStringLiteral("comp=list")), signer);
        QVERIFY2(response.status == 200, describe(response).constData());
        QVERIFY(!response.requestId.isEmpty());
        QCOMPARE(response.header("x-ms-client-request-id"), response.clientRequestId.toLatin1());
        QVERIFY(response.body.contains("<EnumerationResults"));
    }

    void queryTables_data()
    {
        QTest::addColumn<int>("scheme");
        QTest::newRow("SharedKey") << int(SharedKeySigner::Scheme::Table);
        QTest::newRow("SharedKeyLite") << int(SharedKeySigner::Scheme::TableLite);
    }

    void queryTables()
    {
        QFETCH(int, scheme);
        const SharedKeySigner signer(devAccountName(), devAccountKey(),
                                     SharedKeySigner::Scheme(scheme));
        const HttpResponse response =
            send("GET", withPath(m_emulators.tableEndpoint(), QStringLiteral("/Tables")), signer,
                 {}, {{"Accept", "application/json;odata=nometadata"}});
        QVERIFY2(response.status == 200, describe(response).constData());
        QVERIFY(response.body.contains("\"value\""));
    }

    void wrongKeyIsRefused_data()
    {
        QTest::addColumn<QUrl>("url");
        QTest::addColumn<int>("scheme");
        QTest::addColumn<QByteArray>("code"); // as Azurite 3.35 answers
        QTest::newRow("blob") << withQuery(m_emulators.blobEndpoint(), QStringLiteral("comp=list"))
                              << int(SharedKeySigner::Scheme::BlobQueue)
                              << QByteArray("AuthorizationFailure");
        QTest::newRow("queue") << withQuery(m_emulators.queueEndpoint(),
                                            QStringLiteral("comp=list"))
                               << int(SharedKeySigner::Scheme::BlobQueue)
                               << QByteArray("AuthenticationFailed");
        QTest::newRow("table") << withPath(m_emulators.tableEndpoint(), QStringLiteral("/Tables"))
                               << int(SharedKeySigner::Scheme::Table)
                               << QByteArray("AuthorizationFailure");
    }

    void wrongKeyIsRefused()
    {
        QFETCH(QUrl, url);
        QFETCH(int, scheme);
        QFETCH(QByteArray, code);
        const QString wrongKey = QString::fromLatin1(QByteArray(64, 'k').toBase64());
        const SharedKeySigner signer(devAccountName(), wrongKey, SharedKeySigner::Scheme(scheme));
        const HttpResponse response =
            send("GET", url, signer, {}, {{"Accept", "application/json;odata=nometadata"}});
        QCOMPARE(response.status, 403);
        QCOMPARE(response.attempts, 1); // not retried
        QCOMPARE(response.toError().category, BackendError::Category::Unauthorized);
        // Blob and queue name the code in x-ms-error-code; tables in their JSON body.
        QVERIFY2(response.header("x-ms-error-code") == code || response.body.contains(code),
                 describe(response).constData());
    }

    void containerLifecycleSignsBodiesAndEmptyPuts()
    {
        const SharedKeySigner signer(devAccountName(), devAccountKey(),
                                     SharedKeySigner::Scheme::BlobQueue);
        const QString name =
            QStringLiteral("c") + QUuid::createUuid().toString(QUuid::Id128).left(20);
        const QUrl container = withPath(m_emulators.blobEndpoint(), QLatin1Char('/') + name);
        const QUrl create = withQuery(container, QStringLiteral("restype=container"));

        HttpResponse response = send("PUT", create, signer, {}, {{"x-ms-meta-team", "billing"}});
        QVERIFY2(response.status == 201, describe(response).constData());
        response = send("PUT", create, signer);
        QCOMPARE(response.status, 409);
        QCOMPARE(response.toError().code, QStringLiteral("ContainerAlreadyExists"));
        QCOMPARE(response.toError().category, BackendError::Category::Conflict);

        response =
            send("PUT", withPath(container, QStringLiteral("/a b.txt")), signer, "hello world",
                 {{"x-ms-blob-type", "BlockBlob"}, {"Content-Type", "text/plain"}});
        QVERIFY2(response.status == 201, describe(response).constData());

        response = send("DELETE", create, signer);
        QVERIFY2(response.status == 202, describe(response).constData());
        response = send("DELETE", create, signer);
        QCOMPARE(response.status, 404);
        QCOMPARE(response.toError().code, QStringLiteral("ContainerNotFound"));
    }

    void dynaliteListTables()
    {
        const SigV4Signer signer(QStringLiteral("AKIDCONVERGE"), QStringLiteral("fakesecret"),
                                 QStringLiteral("us-east-1"), QStringLiteral("dynamodb"));
        HttpRequest request;
        request.method = "POST";
        request.url = m_emulators.dynamoEndpoint();
        request.headers = {{"Content-Type", "application/x-amz-json-1.0"},
                           {"X-Amz-Target", "DynamoDB_20120810.ListTables"}};
        request.body = "{}";
        request.clientRequestId = HttpRequest::ClientRequestId::Aws;
        const HttpResponse response = m_client->send(request, signer.signer());
        QVERIFY2(response.status == 200, describe(response).constData());
        QVERIFY(response.body.contains("\"TableNames\""));
        QVERIFY(!response.requestId.isEmpty());

        request.setHeader("X-Amz-Target", "DynamoDB_20120810.DescribeTable");
        request.body = R"({"TableName":"converge-missing-table"})";
        const HttpResponse missing = m_client->send(request, signer.signer());
        QCOMPARE(missing.status, 400);
        QCOMPARE(missing.toError().code, QStringLiteral("ResourceNotFoundException"));
    }
};

QTEST_GUILESS_MAIN(tst_BackendEmulators)
#include "tst_backendemulators.moc"

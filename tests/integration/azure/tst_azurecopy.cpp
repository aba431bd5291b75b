// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// A Copy Blob that is still pending, across a restart of the engine.
//
// Azurite cannot show this: it copies only from its own instance (an external source is
// refused with CannotVerifyCopySource) and finishes every copy inside the Copy Blob request
// (x-ms-copy-status: success in the 202 answer). So this test serves the Blob endpoint from a
// small in-test HTTP server that answers as Azure does while a copy runs (x-ms-copy-status
// pending, x-ms-copy-progress 123/456) and then as Azure does once it succeeded or failed. The
// Manager, the engine and the workspace are the real ones.
#include "azureintegration.h"

#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>

using namespace converge;
using namespace converge::test;

namespace {

/// Answers the few Blob service requests of this story, like Azure would.
class FakeBlobService final : public QObject
{
public:
    enum class Copy { Absent, Pending, Success, Failed };

    FakeBlobService()
    {
        QObject::connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                socket->setParent(this);
                QObject::connect(socket, &QTcpSocket::readyRead, this,
                                 [this, socket] { serve(socket); });
            }
        });
        m_server.listen(QHostAddress::LocalHost, 0);
    }

    QUrl endpoint() const
    {
        return QUrl(
            QStringLiteral("http://127.0.0.1:%1/devstoreaccount1").arg(m_server.serverPort()));
    }

    Copy state = Copy::Absent;
    int copyRequests = 0;
    int heads = 0;
    QByteArray copySource;

private:
    void serve(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        for (;;) {
            const qsizetype end = buffer.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            const QList<QByteArray> lines = buffer.left(end).split('\n');
            QHash<QByteArray, QByteArray> headers;
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const qsizetype colon = lines[i].indexOf(':');
                if (colon > 0)
                    headers.insert(lines[i].left(colon).trimmed().toLower(),
                                   lines[i].mid(colon + 1).trimmed());
            }
            const qint64 length = headers.value("content-length").toLongLong();
            if (buffer.size() < end + 4 + length)
                return;
            const QList<QByteArray> requestLine = lines.first().trimmed().split(' ');
            buffer.remove(0, end + 4 + length);
            respond(socket, requestLine.value(0), requestLine.value(1), headers);
        }
    }

    void respond(QTcpSocket *socket, const QByteArray &method, const QByteArray &target,
                 const QHash<QByteArray, QByteArray> &headers)
    {
        int status = 200;
        QList<QPair<QByteArray, QByteArray>> out;
        QByteArray body;
        const auto add = [&out](const QByteArray &name, const QByteArray &value) {
            out.append(qMakePair(name, value));
        };
        const bool isBlob = target.startsWith("/devstoreaccount1/cc1/b1");
        if (target.contains("restype=service")) {
            body = "<?xml version=\"1.0\" encoding=\"utf-8\"?><StorageServiceProperties/>";
            add("Content-Type", "application/xml");
        } else if (target.contains("restype=container")) {
            status = method == "PUT" ? 201 : 200;
            add("ETag", "\"0x1\"");
        } else if (isBlob && method == "PUT" && headers.contains("x-ms-copy-source")) {
            ++copyRequests;
            copySource = headers.value("x-ms-copy-source");
            state = Copy::Pending;
            status = 202;
            add("x-ms-copy-id", "copy-1");
            add("x-ms-copy-status", "pending");
        } else if (isBlob && method == "HEAD") {
            ++heads;
            if (state == Copy::Absent) {
                status = 404;
                add("x-ms-error-code", "BlobNotFound");
            } else {
                add("Content-Type", "text/plain");
                add("x-ms-blob-type", "BlockBlob");
                add("x-ms-copy-id", "copy-1");
                add("x-ms-copy-source", copySource);
                switch (state) {
                case Copy::Pending:
                    add("x-ms-copy-status", "pending");
                    add("x-ms-copy-progress", "123/456");
                    break;
                case Copy::Success:
                    add("x-ms-copy-status", "success");
                    add("x-ms-copy-progress", "456/456");
                    add("Content-MD5", "XrY7u+Ae7tCTyyK7j1rNww==");
                    break;
                case Copy::Failed:
                    add("x-ms-copy-status", "failed");
                    add("x-ms-copy-progress", "200/456");
                    add("x-ms-copy-status-description", "500 InternalError Copy failed.");
                    break;
                case Copy::Absent:
                    break;
                }
            }
        } else if (isBlob && method == "DELETE") {
            state = Copy::Absent;
            status = 202;
        } else {
            status = 400;
            add("x-ms-error-code", "UnsupportedHttpVerb");
        }
        QByteArray response = "HTTP/1.1 " + QByteArray::number(status) + " X\r\n";
        add("x-ms-request-id", "fake-" + QByteArray::number(++m_requests));
        add("Content-Length", QByteArray::number(method == "HEAD" ? 0 : body.size()));
        for (const auto &[name, value] : out)
            response += name + ": " + value + "\r\n";
        response += "\r\n";
        if (method != "HEAD")
            response += body;
        socket->write(response);
    }

    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    int m_requests = 0;
};

Resource fakeAccount(const QUrl &endpoint)
{
    return azureResource(
        AzureKinds::storageAccount(), QStringLiteral("fake"),
        {{QStringLiteral("accountName"), devAccountName()},
         {QStringLiteral("endpoints"), QJsonObject{{QStringLiteral("blob"), endpoint.toString()},
                                                   {QStringLiteral("queue"), endpoint.toString()},
                                                   {QStringLiteral("table"), endpoint.toString()}}},
         {QStringLiteral("credential"), QJsonObject{{QStringLiteral("emulator"), true}}}});
}

const QString source = QStringLiteral("https://elsewhere.blob.core.windows.net/pub/big.iso");

} // namespace

class tst_AzureCopy final : public QObject
{
    Q_OBJECT

private slots:
    void pendingCopySurvivesARestart()
    {
        FakeBlobService service;
        const Resource account = fakeAccount(service.endpoint());
        const Resource container = azureResource(AzureKinds::blobContainer(), QStringLiteral("cc1"),
                                                 ownedBy(QStringLiteral("fake")));
        const Resource blob =
            azureResource(AzureKinds::blob(), QStringLiteral("b1"),
                          ownedBy(QStringLiteral("cc1"),
                                  {{QStringLiteral("copySource"), source},
                                   {QStringLiteral("contentType"), QStringLiteral("text/plain")}}));
        AzureEngine engine;
        QVERIFY(engine.apply({account, container, blob}));
        QVERIFY(engine.start());
        QTRY_VERIFY2_WITH_TIMEOUT(engine.ready(blob).message == QLatin1String("copy 123/456 bytes"),
                                  qPrintable(engine.describe()), 10000);
        QCOMPARE(engine.ready(blob).severity, Condition::Severity::Info);
        QCOMPARE(engine.ready(blob).reason, QStringLiteral("Reconciling"));
        QCOMPARE(service.copyRequests, 1);
        QCOMPARE(service.copySource, source.toUtf8());
        const int heads = service.heads;
        QTRY_VERIFY(service.heads > heads); // it keeps looking while the copy runs
        engine.stop();

        // The copy finishes while no engine runs; the next one observes it, copying nothing.
        service.state = FakeBlobService::Copy::Success;
        QVERIFY(engine.start());
        QTRY_VERIFY2_WITH_TIMEOUT(engine.isReady(blob), qPrintable(engine.describe()), 10000);
        QCOMPARE(service.copyRequests, 1);
        QCOMPARE(engine.get(blob)->status.observed.value(QStringLiteral("copyStatus")).toString(),
                 QStringLiteral("success"));
    }

    void managerReportsPendingAndFailedCopies()
    {
        FakeBlobService service;
        DirectAccess direct(Emulators{}, {}, fakeAccount(service.endpoint()));
        const Resource container = azureResource(AzureKinds::blobContainer(), QStringLiteral("cc1"),
                                                 ownedBy(QStringLiteral("fake")));
        const Target t = direct.target(
            azureResource(AzureKinds::blob(), QStringLiteral("b1"),
                          ownedBy(QStringLiteral("cc1"), {{QStringLiteral("copySource"), source}})),
            {direct.account, container});
        auto m = direct.manager(AzureKinds::blob());
        Outcome<Observation> seen = m->create(t);
        QVERIFY2(seen, qPrintable(seen ? QString() : seen.error().toString()));
        QVERIFY(seen.value().inProgress);
        QCOMPARE(seen.value().progress, QStringLiteral("copy 123/456 bytes"));
        QVERIFY(seen.value().requestId.startsWith(QLatin1String("fake-")));

        service.state = FakeBlobService::Copy::Failed;
        seen = m->get(t);
        QVERIFY(!seen);
        QCOMPARE(seen.error().category, BackendError::Category::Terminal);
        QCOMPARE(seen.error().code, QStringLiteral("CopyFailed"));
        QVERIFY2(seen.error().message.contains(QLatin1String("500 InternalError Copy failed.")),
                 qPrintable(seen.error().message));
        QVERIFY(seen.error().requestId.startsWith(QLatin1String("fake-")));

        // Deleting a blob whose copy failed must stay possible.
        Target deleting = t;
        deleting.resource.metadata.deletionTimestamp = QDateTime::currentDateTimeUtc();
        seen = m->get(deleting);
        QVERIFY(seen);
        QVERIFY(m->deleteResource(deleting, seen.value()));
        QCOMPARE(m->get(t).error().category, BackendError::Category::NotFound);
    }
};

QTEST_GUILESS_MAIN(tst_AzureCopy)
#include "tst_azurecopy.moc"

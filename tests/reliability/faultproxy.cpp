// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "faultproxy.h"

#include "crc32.h"

#include <QDateTime>
#include <QLocale>
#include <QMetaEnum>
#include <QTcpSocket>
#include <QTimer>
#include <QUuid>

#include <sys/socket.h>

namespace converge::test {

struct FaultProxy::Connection
{
    qint64 id = 0;
    QTcpSocket *client = nullptr; // owned by the proxy (deleteLater), parent of `upstream`
    QByteArray buffer;            // bytes of requests not handled yet
    bool busy = false;            // a request is being handled; the next waits
    bool closed = false;
    std::optional<Fault> connectionFault; // Scope::Connection
    qsizetype record = -1;                // index of the current request's Record
    Fault fault = Fault::None;
    QByteArray forwarded; // the current request as sent upstream
    QTcpSocket *upstream = nullptr;
    QByteArray response;
};

namespace {

/// The end of an HTTP header block, or -1.
qsizetype headerEnd(const QByteArray &bytes)
{
    return bytes.indexOf("\r\n\r\n");
}

QByteArray headerValue(const QList<QByteArray> &lines, QByteArrayView name)
{
    for (const QByteArray &line : lines) {
        const qsizetype colon = line.indexOf(':');
        if (colon > 0 && name.compare(line.left(colon).trimmed(), Qt::CaseInsensitive) == 0)
            return line.mid(colon + 1).trimmed();
    }
    return {};
}

bool isHopHeader(const QByteArray &line)
{
    const QByteArray name = line.left(line.indexOf(':')).trimmed().toLower();
    return name == "connection" || name == "keep-alive";
}

QByteArray httpDate()
{
    return QLocale::c()
               .toString(QDateTime::currentDateTimeUtc(),
                         QStringLiteral("ddd, dd MMM yyyy HH:mm:ss"))
               .toLatin1() +
           " GMT";
}

} // namespace

FaultProxy::FaultProxy(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_random(m_options.seed)
{
    m_clock.start();
    connect(&m_server, &QTcpServer::newConnection, this, &FaultProxy::onNewConnection);
}

FaultProxy::~FaultProxy()
{
    m_server.close();
    const QList<QTcpSocket *> sockets = m_connections.keys();
    for (QTcpSocket *socket : sockets)
        delete socket; // its destroyed() handler deletes the Connection
}

bool FaultProxy::listen()
{
    return m_server.listen(QHostAddress::LocalHost, 0);
}

quint16 FaultProxy::port() const
{
    return m_server.serverPort();
}

QString FaultProxy::url(const QString &path) const
{
    return QStringLiteral("http://127.0.0.1:%1%2").arg(port()).arg(path);
}

void FaultProxy::setProbability(double probability)
{
    m_options.probability = probability;
}

void FaultProxy::setFaults(const QList<Fault> &faults)
{
    m_options.faults = faults;
}

int FaultProxy::openRequests() const
{
    int open = 0;
    for (const Record &r : m_records)
        open += r.finished < 0 ? 1 : 0;
    return open;
}

QString FaultProxy::faultName(Fault fault)
{
    return QString::fromLatin1(QMetaEnum::fromType<Fault>().valueToKey(int(fault)));
}

QList<FaultProxy::Fault> FaultProxy::allFaults(Flavour flavour)
{
    const auto isDynamoDbReply = [](Fault f) {
        return f == Fault::Throttling || f == Fault::ProvisionedThroughputExceeded ||
               f == Fault::InternalServerError || f == Fault::ServiceUnavailable;
    };
    const auto isAzureReply = [](Fault f) {
        return f >= Fault::ServerBusy && f <= Fault::TooManyRequests;
    };
    QList<Fault> all;
    const QMetaEnum meta = QMetaEnum::fromType<Fault>();
    for (int i = 0; i < meta.keyCount(); ++i) {
        const auto fault = Fault(meta.value(i));
        const bool foreign =
            flavour == Flavour::AzureStorage ? isDynamoDbReply(fault) : isAzureReply(fault);
        if (fault != Fault::None && !foreign)
            all.append(fault);
    }
    return all;
}

bool FaultProxy::isDynamoDbThrottle(Fault fault)
{
    return fault == Fault::Throttling || fault == Fault::ProvisionedThroughputExceeded;
}

FaultProxy::Fault FaultProxy::draw()
{
    if (m_random.generateDouble() >= m_options.probability)
        return Fault::None;
    const QList<Fault> faults =
        m_options.faults.isEmpty() ? allFaults(m_options.flavour) : m_options.faults;
    return faults.at(int(m_random.bounded(quint32(faults.size()))));
}

void FaultProxy::onNewConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        auto *c = new Connection;
        c->id = m_nextConnection++;
        c->client = socket;
        if (m_options.scope == Scope::Connection)
            c->connectionFault = draw();
        m_connections.insert(socket, c);
        connect(socket, &QObject::destroyed, this, [this, socket, c] {
            // An upstream socket still connected is deleted after this, as the client's child,
            // and says disconnected() on the way: it must not reach the deleted Connection.
            if (c->upstream)
                QObject::disconnect(c->upstream, nullptr, this, nullptr);
            m_connections.remove(socket);
            delete c;
        });
        connect(socket, &QTcpSocket::readyRead, this, [this, c] { onClientData(c); });
        connect(socket, &QTcpSocket::disconnected, this, [this, c] {
            if (c->closed)
                return;
            c->closed = true;
            finishRecord(c); // the client gave up (a silenced request timed out)
            c->client->deleteLater();
        });
    }
}

void FaultProxy::onClientData(Connection *c)
{
    c->buffer += c->client->readAll();
    startNext(c);
}

void FaultProxy::startNext(Connection *c)
{
    if (c->busy || c->closed)
        return;
    const qsizetype end = headerEnd(c->buffer);
    if (end < 0)
        return;
    QList<QByteArray> lines = c->buffer.left(end).split('\n');
    for (QByteArray &line : lines)
        line = line.trimmed();
    const qint64 length = headerValue(lines, "content-length").toLongLong();
    const qsizetype total = end + 4 + length;
    if (c->buffer.size() < total)
        return;
    const QByteArray body = c->buffer.mid(end + 4, length);
    c->buffer.remove(0, total);

    const QList<QByteArray> requestLine = lines.value(0).split(' ');
    Record record;
    record.connection = c->id;
    record.received = m_clock.elapsed();
    record.method = requestLine.value(0);
    const QByteArray target = requestLine.value(1);
    const qsizetype question = target.indexOf('?');
    record.path = QString::fromUtf8(question < 0 ? target : target.left(question));
    record.query = question < 0 ? QString() : QString::fromUtf8(target.mid(question + 1));
    record.hadAuthorization = !headerValue(lines, "authorization").isEmpty();
    record.target = headerValue(lines, "x-amz-target");
    record.body = body.left(4096);
    if (c->connectionFault)
        c->fault = *c->connectionFault;
    else
        c->fault = !m_options.faultable || m_options.faultable(record) ? draw() : Fault::None;
    record.fault = c->fault;
    m_records.append(record);
    c->record = m_records.size() - 1;
    c->busy = true;

    // Upstream gets one connection per request, closed by it after the reply: the reply's end
    // is then the end of the stream, whatever its framing.
    QByteArray forwarded = lines.value(0) + "\r\n";
    for (qsizetype i = 1; i < lines.size(); ++i) {
        if (!lines.at(i).isEmpty() && !isHopHeader(lines.at(i)))
            forwarded += lines.at(i) + "\r\n";
    }
    forwarded += "Connection: close\r\n\r\n" + body;
    c->forwarded = forwarded;
    applyFault(c);
}

void FaultProxy::applyFault(Connection *c)
{
    const auto ms = [](int value) {
        return QList<QPair<QByteArray, QByteArray>>{
            {QByteArrayLiteral("x-ms-retry-after-ms"), QByteArray::number(value)}};
    };
    const auto seconds = [](int value) {
        return QList<QPair<QByteArray, QByteArray>>{
            {QByteArrayLiteral("Retry-After"), QByteArray::number(value)}};
    };
    const QByteArray busy = "The server is busy.";
    const QByteArray timedOut = "The operation could not be completed within the permitted time.";
    switch (c->fault) {
    case Fault::None:
    case Fault::CloseAfterForward:
    case Fault::HalfReply:
        forward(c);
        return;
    case Fault::Latency: {
        const qint64 low = m_options.latencyMin.count();
        const auto high = std::max(low + 1, qint64(m_options.latencyMax.count()));
        const int delay = int(low + qint64(m_random.bounded(quint32(high - low))));
        QTimer::singleShot(delay, c->client, [this, c] {
            if (!c->closed)
                forward(c);
        });
        return;
    }
    case Fault::CloseBeforeForward:
        closeClient(c, false);
        return;
    case Fault::Reset:
        closeClient(c, true);
        return;
    case Fault::Silence:
        return; // until the client gives up
    case Fault::ServerBusy:
        synthesize(c, 503, "ServerBusy", busy, {});
        return;
    case Fault::ServerBusyRetryAfterMs:
        synthesize(c, 503, "ServerBusy", busy, ms(m_options.retryAfterMs));
        return;
    case Fault::ServerBusyRetryAfter:
        synthesize(c, 503, "ServerBusy", busy, seconds(m_options.retryAfterSeconds));
        return;
    case Fault::OperationTimedOut:
        synthesize(c, 500, "OperationTimedOut", timedOut, {});
        return;
    case Fault::OperationTimedOutRetryAfterMs:
        synthesize(c, 500, "OperationTimedOut", timedOut, ms(m_options.retryAfterMs));
        return;
    case Fault::TooManyRequests:
        synthesize(c, 429, "TooManyRequests", "Too many requests.",
                   seconds(m_options.retryAfterSeconds));
        return;
    case Fault::Throttling:
        synthesizeDynamoDb(c, 400, "ThrottlingException",
                           "Rate of requests exceeds the allowed throughput.");
        return;
    case Fault::ProvisionedThroughputExceeded:
        synthesizeDynamoDb(c, 400, "ProvisionedThroughputExceededException",
                           "The level of configured provisioned throughput for the table was "
                           "exceeded. Consider increasing your provisioning level with the "
                           "UpdateTable API.");
        return;
    case Fault::InternalServerError:
        synthesizeDynamoDb(c, 500, "InternalServerError", "Internal server error");
        return;
    case Fault::ServiceUnavailable:
        synthesizeDynamoDb(c, 503, "ServiceUnavailable", "Service Unavailable");
        return;
    }
}

void FaultProxy::forward(Connection *c)
{
    c->response.clear();
    c->upstream = new QTcpSocket(c->client);
    QTcpSocket *up = c->upstream;
    connect(up, &QTcpSocket::connected, this, [c, up] { up->write(c->forwarded); });
    connect(up, &QTcpSocket::readyRead, this, [c, up] { c->response += up->readAll(); });
    connect(up, &QTcpSocket::disconnected, this, [this, c, up] {
        c->response += up->readAll();
        if (c->upstream == up)
            onUpstreamDone(c);
    });
    connect(up, &QTcpSocket::errorOccurred, this, [this, c, up](QAbstractSocket::SocketError e) {
        if (e == QAbstractSocket::RemoteHostClosedError || c->upstream != up)
            return; // disconnected() follows
        // An upstream that cannot be reached looks like a dead server to the client.
        c->upstream = nullptr;
        up->deleteLater();
        closeClient(c, false);
    });
    up->connectToHost(m_options.upstreamHost, m_options.upstreamPort);
}

void FaultProxy::onUpstreamDone(Connection *c)
{
    QTcpSocket *up = std::exchange(c->upstream, nullptr);
    up->deleteLater();
    QByteArray response = std::exchange(c->response, {});
    const qsizetype end = headerEnd(response);
    QList<QByteArray> lines = response.left(std::max<qsizetype>(end, 0)).split('\n');
    for (QByteArray &line : lines)
        line = line.trimmed();
    const int status = end < 0 ? 0 : lines.value(0).split(' ').value(1).toInt();
    // What upstream did is recorded even when the client is gone: the backend acted on it.
    m_records[c->record].upstreamStatus = status;
    if (c->closed)
        return;
    if (end < 0) {
        closeClient(c, false);
        return;
    }
    if (c->fault == Fault::CloseAfterForward) {
        closeClient(c, false);
        return;
    }
    if (c->fault == Fault::HalfReply) {
        c->client->write(response.left(response.size() / 2));
        closeClient(c, false);
        return;
    }
    // Keep the client's connection alive when the reply says where it ends.
    const bool framed = !headerValue(lines, "content-length").isEmpty() ||
                        headerValue(lines, "transfer-encoding").contains("chunked");
    QByteArray head = lines.value(0) + "\r\n";
    for (qsizetype i = 1; i < lines.size(); ++i) {
        if (!lines.at(i).isEmpty() && !(framed && isHopHeader(lines.at(i))))
            head += lines.at(i) + "\r\n";
    }
    reply(c, head + "\r\n" + response.mid(end + 4), status, !framed);
}

void FaultProxy::synthesize(Connection *c, int status, const QByteArray &code,
                            const QByteArray &message,
                            const QList<QPair<QByteArray, QByteArray>> &hint)
{
    // Shaped like Azure Storage's error replies: an XML body with Code and Message, the code in
    // x-ms-error-code as well, a request id and the API version.
    const QByteArray requestId = QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
    const QByteArray body = "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>" +
                            code + "</Code><Message>" + message + "\nRequestId:" + requestId +
                            "\nTime:" + httpDate() + "</Message></Error>";
    QByteArray bytes = "HTTP/1.1 " + QByteArray::number(status) + ' ' + message + "\r\n";
    bytes += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    bytes += "Content-Type: application/xml\r\n";
    bytes += "Server: Windows-Azure-Blob/1.0 Microsoft-HTTPAPI/2.0\r\n";
    bytes += "x-ms-request-id: " + requestId + "\r\n";
    bytes += "x-ms-version: 2021-12-02\r\n";
    bytes += "x-ms-error-code: " + code + "\r\n";
    bytes += "Date: " + httpDate() + "\r\n";
    Record &record = m_records[c->record];
    for (const auto &[name, value] : hint) {
        bytes += name + ": " + value + "\r\n";
        const qint64 n = value.toLongLong();
        record.retryAfter = std::chrono::milliseconds(name == "Retry-After" ? n * 1000 : n);
    }
    reply(c, bytes + "\r\n" + body, status, false);
}

void FaultProxy::synthesizeDynamoDb(Connection *c, int status, const QByteArray &code,
                                    const QByteArray &message)
{
    // Shaped like DynamoDB's (AWS JSON 1.0) error answers: the code after the '#' of __type, a
    // 52-character request id, and the body's CRC-32, which clients check.
    static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    QByteArray requestId(52, 'A');
    for (char &ch : requestId)
        ch = alphabet[QRandomGenerator::global()->bounded(36)];
    const QByteArray body = "{\"__type\":\"com.amazonaws.dynamodb.v20120810#" + code +
                            "\",\"message\":\"" + message + "\"}";
    const QByteArray reason = status == 400   ? "Bad Request"
                              : status == 500 ? "Internal Server Error"
                                              : "Service Unavailable";
    QByteArray bytes = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reason + "\r\n";
    bytes += "Server: Server\r\n";
    bytes += "Date: " + httpDate() + "\r\n";
    bytes += "Content-Type: application/x-amz-json-1.0\r\n";
    bytes += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    bytes += "x-amzn-RequestId: " + requestId + "\r\n";
    bytes += "x-amz-crc32: " + QByteArray::number(Crc32::of(body)) + "\r\n";
    reply(c, bytes + "\r\n" + body, status, false);
}

void FaultProxy::reply(Connection *c, const QByteArray &bytes, int status, bool close)
{
    m_records[c->record].status = status;
    c->client->write(bytes);
    if (close) {
        closeClient(c, false);
        return;
    }
    finishRecord(c);
    c->busy = false;
    startNext(c);
}

void FaultProxy::closeClient(Connection *c, bool reset)
{
    if (c->closed)
        return;
    c->closed = true;
    finishRecord(c);
    if (reset) {
        // SO_LINGER with a zero timeout turns close() into a reset.
        const linger hard{1, 0};
        ::setsockopt(int(c->client->socketDescriptor()), SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
        c->client->abort();
        c->client->deleteLater();
        return;
    }
    // A socket deleted while it still writes is aborted, and the client loses the reply it was
    // sent (an unframed 204 came out as "connection closed"): delete it once it is closed.
    QTcpSocket *client = c->client;
    client->disconnectFromHost();
    if (client->state() == QAbstractSocket::UnconnectedState)
        client->deleteLater();
    else
        connect(client, &QAbstractSocket::disconnected, client, &QObject::deleteLater);
}

void FaultProxy::finishRecord(Connection *c)
{
    if (c->record >= 0 && m_records[c->record].finished < 0)
        m_records[c->record].finished = m_clock.elapsed();
}

} // namespace converge::test

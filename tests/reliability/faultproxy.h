// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QRandomGenerator>
#include <QString>
#include <QTcpServer>

#include <chrono>
#include <functional>
#include <optional>

class QTcpSocket;

namespace converge::test {

/// A fault-injecting HTTP/1.1 proxy for the reliability tests: it listens on 127.0.0.1:0 and
/// forwards each request to one upstream (an emulator's port), or, chosen by a seeded random
/// generator, does something unkind instead: waits, drops the connection before or after
/// forwarding, resets it, cuts the reply in half, never answers, or answers like a busy Azure
/// Storage front end (503 ServerBusy, 500 OperationTimedOut, 429, with and without a wait hint)
/// or a busy DynamoDB endpoint (400 ThrottlingException and ProvisionedThroughputExceeded-
/// Exception, 500 InternalServerError, 503 ServiceUnavailable, in the AWS JSON 1.0 shape).
///
/// Every request is recorded (arrival, end, method, path, fault, the hint given), so that tests
/// can check how the client retried. Lives on the thread that created it; that thread must run
/// its event loop (QTRY_*, QSignalSpy::wait) for the proxy to work.
class FaultProxy final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FaultProxy)

public:
    enum class Fault {
        None,
        Latency,                ///< forwarded after a random delay
        CloseBeforeForward,     ///< the connection is closed; upstream never sees the request
        CloseAfterForward,      ///< upstream handles it, the client gets no reply (closed)
        Reset,                  ///< the connection is aborted with a TCP RST
        HalfReply,              ///< upstream handles it, the client gets half the reply, then EOF
        Silence,                ///< nothing is forwarded or answered; the connection stays open
        ServerBusy,             ///< 503 ServerBusy, no hint
        ServerBusyRetryAfterMs, ///< 503 ServerBusy with x-ms-retry-after-ms
        ServerBusyRetryAfter,   ///< 503 ServerBusy with Retry-After (seconds)
        OperationTimedOut,      ///< 500 OperationTimedOut, no hint
        OperationTimedOutRetryAfterMs, ///< 500 OperationTimedOut with x-ms-retry-after-ms
        TooManyRequests,               ///< 429 with Retry-After (seconds)
        // DynamoDB's answers (no wait hints: DynamoDB sends none).
        Throttling,                    ///< 400 ThrottlingException
        ProvisionedThroughputExceeded, ///< 400 ProvisionedThroughputExceededException
        InternalServerError,           ///< 500 InternalServerError
        ServiceUnavailable,            ///< 503 ServiceUnavailable
    };
    Q_ENUM(Fault)

    /// Which service's error answers an empty Options::faults draws from (the connection-level
    /// faults are drawn for both).
    enum class Flavour { AzureStorage, DynamoDb };

    /// Whether a fault is drawn for each request or once for each client connection.
    enum class Scope { Request, Connection };

    /// One request as the proxy saw it. Times are milliseconds since the proxy was made.
    struct Record
    {
        qint64 connection = 0;
        qint64 received = 0;  ///< the whole request had arrived
        qint64 finished = -1; ///< reply written, connection closed or reset; -1 while open
        QByteArray method;
        QString path; ///< without the query
        QString query;
        QByteArray target; ///< X-Amz-Target (DynamoDB's operation), empty for other services
        QByteArray body;   ///< the request body's first 4 KiB
        Fault fault = Fault::None;
        int status = 0;         ///< what the client was sent (0: nothing, or a cut reply)
        int upstreamStatus = 0; ///< what upstream answered (0: not forwarded or no answer)
        std::optional<std::chrono::milliseconds> retryAfter; ///< the hint in a synthesized reply
        bool hadAuthorization = false;
    };

    struct Options
    {
        QString upstreamHost = QStringLiteral("127.0.0.1");
        quint16 upstreamPort = 0;
        double probability = 0.0; ///< of a fault, per request or connection
        QList<Fault> faults;      ///< drawn uniformly when faulting; empty: every fault
        Scope scope = Scope::Request;
        Flavour flavour = Flavour::AzureStorage;
        quint32 seed = 1;
        /// Requests it returns false for are forwarded untouched, without a draw (Scope::Request
        /// only); empty: any request may be faulted.
        std::function<bool(const Record &)> faultable;
        std::chrono::milliseconds latencyMin{50};
        std::chrono::milliseconds latencyMax{400};
        int retryAfterMs = 400;    ///< x-ms-retry-after-ms
        int retryAfterSeconds = 1; ///< Retry-After
    };

    explicit FaultProxy(Options options, QObject *parent = nullptr);
    ~FaultProxy() override;

    /// Listens on 127.0.0.1 on a free port; false when that fails.
    bool listen();
    quint16 port() const;
    /// http://127.0.0.1:PORT + `path`.
    QString url(const QString &path = {}) const;

    /// Changes what happens to requests from now on (requests in progress keep theirs).
    void setProbability(double probability);
    void setFaults(const QList<Fault> &faults);

    QList<Record> records() const { return m_records; }
    qint64 elapsed() const { return m_clock.elapsed(); }
    /// Requests still without an end (silenced ones the client has not given up on yet).
    int openRequests() const;

    static QString faultName(Fault fault);
    /// The connection-level faults and the flavour's error answers.
    static QList<Fault> allFaults(Flavour flavour = Flavour::AzureStorage);
    /// 400 ThrottlingException or ProvisionedThroughputExceededException.
    static bool isDynamoDbThrottle(Fault fault);

private:
    struct Connection;
    void onNewConnection();
    void onClientData(Connection *c);
    void startNext(Connection *c);
    void applyFault(Connection *c);
    void forward(Connection *c);
    void onUpstreamDone(Connection *c);
    void reply(Connection *c, const QByteArray &bytes, int status, bool close);
    void synthesize(Connection *c, int status, const QByteArray &code, const QByteArray &message,
                    const QList<QPair<QByteArray, QByteArray>> &hint);
    void synthesizeDynamoDb(Connection *c, int status, const QByteArray &code,
                            const QByteArray &message);
    void closeClient(Connection *c, bool reset);
    void finishRecord(Connection *c);
    Fault draw();

    Options m_options;
    QTcpServer m_server;
    QRandomGenerator m_random;
    QElapsedTimer m_clock;
    QList<Record> m_records;
    QHash<QTcpSocket *, Connection *> m_connections; // owned; deleted with their sockets
    qint64 m_nextConnection = 1;
};

} // namespace converge::test

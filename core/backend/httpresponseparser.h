// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace converge {

/// Reads one HTTP/1.1 answer from the bytes of a connection, as they arrive (RFC 9112): the
/// status line, the header fields, and a body delimited by Content-Length, by chunked
/// transfer coding, or by the end of the connection. Interim 1xx answers are skipped.
///
/// It reads exactly one answer: bytes after it are left in leftover() (a server that sends
/// them broke the exchange, and the connection must not be used again). Limits keep a hostile
/// server from growing memory: the header section is at most 256 KiB, the body at most the
/// `maxBodyBytes` given (larger is tooLarge(), reported as soon as it is known).
class HttpResponseParser final
{
public:
    using Headers = QList<QPair<QByteArray, QByteArray>>;

    enum class State {
        Incomplete, ///< more bytes are needed
        Complete,   ///< status(), headers() and body() hold the answer
        Failed,     ///< not HTTP, or beyond a limit: errorString() says which
    };

    /// `headRequest`: the answer has no body whatever its headers say (RFC 9110, 9.3.2).
    HttpResponseParser(bool headRequest, qint64 maxBodyBytes);

    /// Appends bytes read from the connection and parses as far as they go.
    State feed(QByteArrayView bytes);
    /// The connection ended: completes an answer whose body runs to the end of the connection,
    /// else Failed (the answer was cut).
    State finish();

    State state() const { return m_state; }
    /// True once any byte of the answer arrived.
    bool started() const { return m_started; }
    /// True once the status line and header fields of the final answer are read.
    bool hasHeaders() const { return m_phase > Phase::Headers; }
    int status() const { return m_status; }
    const Headers &headers() const { return m_headers; }
    const QByteArray &body() const { return m_body; }
    QByteArray takeBody() { return std::move(m_body); }
    /// The connection may carry another request after this answer.
    bool keepAlive() const { return m_keepAlive && m_leftover.isEmpty(); }
    bool tooLarge() const { return m_tooLarge; }
    QString errorString() const { return m_error; }
    const QByteArray &leftover() const { return m_leftover; }

    static constexpr qsizetype maxHeaderBytes = 256 * 1024;

private:
    enum class Phase {
        StatusLine,
        Headers,
        Body,
        UntilClose,
        ChunkSize,
        ChunkData,
        ChunkEnd,
        Trailers,
        Done
    };

    State parse();
    /// The next CRLF- (or LF-) terminated line of m_buffer from m_pos, or false if incomplete.
    bool takeLine(QByteArrayView &line);
    bool startBody();
    /// Moves up to m_remaining buffered bytes into the body; true when none remain.
    bool takeRemaining();
    State fail(const QString &message);
    bool appendBody(QByteArrayView bytes);

    const bool m_headRequest;
    const qint64 m_maxBodyBytes;
    QByteArray m_buffer;
    qsizetype m_pos = 0;
    qsizetype m_headerBytes = 0;
    Phase m_phase = Phase::StatusLine;
    State m_state = State::Incomplete;
    bool m_started = false;
    int m_status = 0;
    bool m_http10 = false;
    bool m_keepAlive = true;
    bool m_tooLarge = false;
    qint64 m_remaining = 0; ///< of the Content-Length body or the current chunk
    Headers m_headers;
    QByteArray m_body;
    QByteArray m_leftover;
    QString m_error;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "httpresponseparser.h"

#include <algorithm>

namespace converge {

namespace {

bool isTokenListMember(QByteArrayView list, QByteArrayView token)
{
    for (QByteArrayView part : QByteArray(list.toByteArray()).split(',')) {
        if (part.trimmed().compare(token, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

QString printable(QByteArrayView bytes)
{
    QString text = QString::fromLatin1(bytes.first(std::min<qsizetype>(bytes.size(), 40)));
    for (QChar &c : text) {
        if (c.unicode() < 0x20 || c.unicode() > 0x7e)
            c = QLatin1Char('?');
    }
    return text;
}

} // namespace

HttpResponseParser::HttpResponseParser(bool headRequest, qint64 maxBodyBytes)
    : m_headRequest(headRequest)
    , m_maxBodyBytes(maxBodyBytes)
{}

HttpResponseParser::State HttpResponseParser::feed(QByteArrayView bytes)
{
    if (m_state != State::Incomplete)
        return m_state;
    if (bytes.isEmpty())
        return m_state;
    m_started = true;
    if (m_phase == Phase::UntilClose) {
        appendBody(bytes);
        return m_state;
    }
    m_buffer.append(bytes);
    return parse();
}

HttpResponseParser::State HttpResponseParser::finish()
{
    if (m_state != State::Incomplete)
        return m_state;
    if (m_phase == Phase::UntilClose) {
        m_phase = Phase::Done;
        m_keepAlive = false;
        return m_state = State::Complete;
    }
    if (!m_started)
        return fail(QStringLiteral("the connection closed before any answer"));
    return fail(hasHeaders()
                    ? QStringLiteral("the connection closed in the middle of the body")
                    : QStringLiteral("the connection closed in the middle of the headers"));
}

HttpResponseParser::State HttpResponseParser::fail(const QString &message)
{
    m_error = message;
    m_keepAlive = false;
    return m_state = State::Failed;
}

bool HttpResponseParser::takeLine(QByteArrayView &line)
{
    const qsizetype end = m_buffer.indexOf('\n', m_pos);
    if (end < 0)
        return false;
    qsizetype length = end - m_pos;
    if (length > 0 && m_buffer.at(end - 1) == '\r')
        --length;
    line = QByteArrayView(m_buffer).sliced(m_pos, length);
    m_headerBytes += end + 1 - m_pos;
    m_pos = end + 1;
    return true;
}

bool HttpResponseParser::appendBody(QByteArrayView bytes)
{
    if (m_body.size() + bytes.size() > m_maxBodyBytes) {
        m_tooLarge = true;
        fail(QStringLiteral("the body is larger than %1 bytes").arg(m_maxBodyBytes));
        return false;
    }
    m_body.append(bytes);
    return true;
}

bool HttpResponseParser::takeRemaining()
{
    const qint64 take = std::min<qint64>(m_remaining, m_buffer.size() - m_pos);
    if (take > 0) {
        m_body.append(QByteArrayView(m_buffer).sliced(m_pos, take));
        m_pos += take;
        m_remaining -= take;
    }
    return m_remaining == 0;
}

bool HttpResponseParser::startBody()
{
    if (m_headRequest || m_status == 204 || m_status == 304) {
        m_phase = Phase::Done;
        return true;
    }
    QByteArray transferEncoding;
    QByteArray contentLength;
    for (const auto &[name, value] : std::as_const(m_headers)) {
        if (name.compare("Transfer-Encoding", Qt::CaseInsensitive) == 0) {
            transferEncoding += (transferEncoding.isEmpty() ? "" : ",") + value;
        } else if (name.compare("Content-Length", Qt::CaseInsensitive) == 0) {
            if (!contentLength.isEmpty() && contentLength != value.trimmed()) {
                fail(QStringLiteral("conflicting Content-Length values"));
                return false;
            }
            contentLength = value.trimmed();
        }
    }
    if (!transferEncoding.isEmpty()) {
        const QList<QByteArray> codings = transferEncoding.split(',');
        if (codings.last().trimmed().compare("chunked", Qt::CaseInsensitive) == 0) {
            m_phase = Phase::ChunkSize;
        } else {
            m_phase = Phase::UntilClose;
            m_keepAlive = false;
        }
        return true;
    }
    if (!contentLength.isEmpty()) {
        bool ok = false;
        const qint64 length = contentLength.toLongLong(&ok);
        if (!ok || length < 0 || contentLength.front() == '+') {
            fail(QStringLiteral("invalid Content-Length \"%1\"").arg(printable(contentLength)));
            return false;
        }
        if (length > m_maxBodyBytes) {
            m_tooLarge = true;
            fail(QStringLiteral("the body is larger than %1 bytes").arg(m_maxBodyBytes));
            return false;
        }
        m_remaining = length;
        m_phase = length == 0 ? Phase::Done : Phase::Body;
        return true;
    }
    m_phase = Phase::UntilClose;
    m_keepAlive = false;
    return true;
}

HttpResponseParser::State HttpResponseParser::parse()
{
    QByteArrayView line;
    while (m_state == State::Incomplete) {
        switch (m_phase) {
        case Phase::StatusLine: {
            if (!takeLine(line)) {
                if (m_buffer.size() - m_pos > maxHeaderBytes)
                    return fail(QStringLiteral("the status line is too long"));
                break;
            }
            if (line.isEmpty() && m_headerBytes <= 2)
                continue; // RFC 9112, 2.2: a client may ignore a leading empty line
            // HTTP/1.x SP 3DIGIT [SP reason]
            if (line.size() < 12 || !line.startsWith("HTTP/1.") || line.at(8) != ' ' ||
                (line.size() > 12 && line.at(12) != ' ')) {
                return fail(QStringLiteral("not an HTTP/1.x answer: \"%1\"").arg(printable(line)));
            }
            bool ok = false;
            const int status = line.sliced(9, 3).toInt(&ok);
            if (!ok || status < 100 || status > 999)
                return fail(QStringLiteral("invalid status \"%1\"").arg(printable(line)));
            m_status = status;
            m_http10 = line.at(7) == '0';
            m_keepAlive = !m_http10;
            m_headers.clear();
            m_phase = Phase::Headers;
            continue;
        }
        case Phase::Headers:
        case Phase::Trailers: {
            if (!takeLine(line)) {
                if (m_headerBytes + (m_buffer.size() - m_pos) > maxHeaderBytes)
                    return fail(QStringLiteral("the header section is larger than %1 bytes")
                                    .arg(maxHeaderBytes));
                break;
            }
            if (m_headerBytes > maxHeaderBytes)
                return fail(QStringLiteral("the header section is larger than %1 bytes")
                                .arg(maxHeaderBytes));
            if (m_phase == Phase::Trailers) {
                if (line.isEmpty())
                    m_phase = Phase::Done;
                continue;
            }
            if (!line.isEmpty()) {
                if (line.front() == ' ' || line.front() == '\t') { // obsolete line folding
                    if (m_headers.isEmpty())
                        return fail(QStringLiteral("a folded line before any header field"));
                    m_headers.last().second += ' ' + line.trimmed().toByteArray();
                    continue;
                }
                const qsizetype colon = line.indexOf(':');
                if (colon <= 0 || line.first(colon).contains(' ') ||
                    line.first(colon).contains('\t')) {
                    return fail(QStringLiteral("invalid header field \"%1\"").arg(printable(line)));
                }
                m_headers.append({line.first(colon).toByteArray(),
                                  line.sliced(colon + 1).trimmed().toByteArray()});
                continue;
            }
            // The end of the header section.
            if (m_status == 101)
                return fail(QStringLiteral("the server switched protocols"));
            if (m_status < 200) { // interim answer: the final one follows
                m_phase = Phase::StatusLine;
                m_headerBytes = 0;
                continue;
            }
            for (const auto &[name, value] : std::as_const(m_headers)) {
                if (name.compare("Connection", Qt::CaseInsensitive) != 0)
                    continue;
                if (isTokenListMember(value, "close"))
                    m_keepAlive = false;
                else if (m_http10 && isTokenListMember(value, "keep-alive"))
                    m_keepAlive = true;
            }
            if (!startBody())
                return m_state;
            continue;
        }
        case Phase::Body:
            if (!takeRemaining())
                break;
            m_phase = Phase::Done;
            continue;
        case Phase::UntilClose:
            if (m_pos < m_buffer.size() && !appendBody(QByteArrayView(m_buffer).sliced(m_pos)))
                return m_state;
            m_pos = m_buffer.size();
            break;
        case Phase::ChunkSize: {
            if (!takeLine(line)) {
                if (m_buffer.size() - m_pos > 1024)
                    return fail(QStringLiteral("a chunk size line is too long"));
                break;
            }
            const qsizetype semicolon = line.indexOf(';');
            const QByteArrayView digits = (semicolon < 0 ? line : line.first(semicolon)).trimmed();
            bool ok = !digits.isEmpty() && digits.size() <= 15;
            qint64 size = 0;
            for (char c : digits) {
                const int digit = c >= '0' && c <= '9'   ? c - '0'
                                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                         : -1;
                if (digit < 0) {
                    ok = false;
                    break;
                }
                size = size * 16 + digit;
            }
            if (!ok)
                return fail(QStringLiteral("invalid chunk size \"%1\"").arg(printable(line)));
            if (size == 0) {
                m_phase = Phase::Trailers;
                m_headerBytes = 0;
                continue;
            }
            if (m_body.size() + size > m_maxBodyBytes) {
                m_tooLarge = true;
                return fail(QStringLiteral("the body is larger than %1 bytes").arg(m_maxBodyBytes));
            }
            m_remaining = size;
            m_phase = Phase::ChunkData;
            continue;
        }
        case Phase::ChunkData:
            if (!takeRemaining())
                break;
            m_phase = Phase::ChunkEnd;
            continue;
        case Phase::ChunkEnd:
            if (!takeLine(line)) {
                if (m_buffer.size() - m_pos > 2)
                    return fail(QStringLiteral("a chunk does not end where its size says"));
                break;
            }
            if (!line.isEmpty())
                return fail(QStringLiteral("a chunk does not end where its size says"));
            m_phase = Phase::ChunkSize;
            continue;
        case Phase::Done:
            m_leftover = m_buffer.mid(m_pos);
            m_buffer.clear();
            m_pos = 0;
            return m_state = State::Complete;
        }
        break; // waiting for more bytes
    }
    if (m_pos > 0) {
        m_buffer.remove(0, m_pos);
        m_pos = 0;
    }
    return m_state;
}

} // namespace converge

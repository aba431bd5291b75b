// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "textlocator.h"

namespace converge {

namespace {

bool isContinuation(uchar c)
{
    return (c & 0xC0) == 0x80;
}

} // namespace

TextLocator::TextLocator(const QByteArray &text, const QString &fileName)
    : m_text(text)
    , m_fileName(fileName)
{}

SourceLocation TextLocator::location(const TextPos &pos) const
{
    if (!pos.isValid())
        return fileLocation();
    const qsizetype end = qBound(qsizetype(0), pos.offset, m_text.size());
    const qsizetype lineStart = qBound(qsizetype(0), end - pos.byteColumn, end);
    qsizetype from = lineStart;
    int column = 1;
    if (lineStart == m_lastLineStart && end >= m_lastOffset) {
        from = m_lastOffset;
        column = m_lastColumn;
    }
    for (qsizetype i = from; i < end; ++i) {
        if (!isContinuation(uchar(m_text.at(i))))
            ++column;
    }
    m_lastLineStart = lineStart;
    m_lastOffset = end;
    m_lastColumn = column;
    return {m_fileName, pos.line + 1, column};
}

TextPos TextLocator::position(qsizetype offset) const
{
    const qsizetype end = qBound(qsizetype(0), offset, m_text.size());
    int line = 0;
    qsizetype lineStart = 0;
    for (qsizetype i = 0; i < end; ++i) {
        if (m_text.at(i) == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    return TextPos{line, int(end - lineStart), end};
}

qsizetype TextLocator::firstBadByte(const QByteArray &text)
{
    const auto *data = reinterpret_cast<const uchar *>(text.constData());
    const qsizetype size = text.size();
    qsizetype i = 0;
    while (i < size) {
        const uchar c = data[i];
        if (c < 0x80) {
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
                return i;
            ++i;
            continue;
        }
        int length = 0;
        char32_t codePoint = 0;
        char32_t minimum = 0;
        if ((c & 0xE0) == 0xC0) {
            length = 2;
            codePoint = c & 0x1F;
            minimum = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            length = 3;
            codePoint = c & 0x0F;
            minimum = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            length = 4;
            codePoint = c & 0x07;
            minimum = 0x10000;
        } else {
            return i;
        }
        if (i + length > size)
            return i;
        for (int k = 1; k < length; ++k) {
            if (!isContinuation(data[i + k]))
                return i;
            codePoint = (codePoint << 6) | (data[i + k] & 0x3F);
        }
        if (codePoint < minimum || codePoint > 0x10FFFF ||
            (codePoint >= 0xD800 && codePoint <= 0xDFFF))
            return i;
        i += length;
    }
    return -1;
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "manifestreader.h"

#include <QByteArray>
#include <QString>

namespace converge {

/// A place in a text as parsers see it: 0-based line, byte column and byte offset.
struct TextPos
{
    int line = -1;
    int byteColumn = 0;
    qsizetype offset = -1;

    bool isValid() const { return line >= 0; }
};

/// Turns byte positions in one manifest text into SourceLocations (1-based line, and a column
/// that counts characters, not bytes, so that it matches what an editor shows), and checks that
/// the text is text at all. Not thread-safe: it remembers the last column it counted, so that
/// many places on one long line (a one-line JSON file) cost one pass, not one each.
class TextLocator final
{
public:
    TextLocator(const QByteArray &text, const QString &fileName);

    const QByteArray &text() const { return m_text; }
    const QString &fileName() const { return m_fileName; }

    /// The location of a position a parser reported; the file alone when `pos` is not valid.
    SourceLocation location(const TextPos &pos) const;
    /// The location of a byte offset (scans from the start: for the odd error, not per node).
    SourceLocation location(qsizetype offset) const { return location(position(offset)); }
    /// The position of a byte offset (scans from the start, too).
    TextPos position(qsizetype offset) const;
    /// The location of the whole file (no line).
    SourceLocation fileLocation() const { return {m_fileName, 0, 0}; }

    /// The offset of the first byte that makes `text` not UTF-8 text — a malformed, overlong
    /// or surrogate sequence, or a control character other than tab, line feed and carriage
    /// return (NUL bytes included) — or -1 when there is none.
    static qsizetype firstBadByte(const QByteArray &text);

private:
    QByteArray m_text;
    QString m_fileName;
    mutable qsizetype m_lastOffset = -1; ///< the last position counted, and its column
    mutable qsizetype m_lastLineStart = -1;
    mutable int m_lastColumn = 0;
};

} // namespace converge

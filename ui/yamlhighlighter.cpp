// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "yamlhighlighter.h"

#include "yamlparser.h"

#include <QEvent>
#include <QGuiApplication>
#include <QPalette>
#include <QWidget>

namespace converge {

namespace {

using Token = YamlHighlighter::Token;
using Span = YamlHighlighter::Span;

class LineScanner final
{
public:
    LineScanner(const QString &line, int state)
        : m_line(line)
        , m_state(state)
    {}

    QList<Span> spans;

    int run()
    {
        if (m_state >= 0) {
            if (isBlank())
                return m_state;
            const int indent = indentation();
            const bool marker = indent == 0 && isDocumentMarker();
            if (indent >= m_state && !marker) {
                add(indent, int(m_line.size()), Token::String);
                return m_state;
            }
            m_state = -1;
        }
        if (isDocumentMarker()) {
            add(0, 3, Token::DocumentMarker);
            m_pos = 3;
            // A root value may follow "---"; its block scalar content may start at column 0.
            value(-1);
            return m_state;
        }
        node();
        return m_state;
    }

private:
    bool atEnd() const { return m_pos >= m_line.size(); }
    QChar at(qsizetype i) const { return i < m_line.size() ? m_line.at(i) : QChar(); }
    bool isSpace(qsizetype i) const { return i >= m_line.size() || m_line.at(i).isSpace(); }
    void skipSpaces()
    {
        while (!atEnd() && m_line.at(m_pos).isSpace())
            ++m_pos;
    }
    bool isBlank() const { return m_line.trimmed().isEmpty(); }
    int indentation() const
    {
        int i = 0;
        while (i < m_line.size() && m_line.at(i) == QLatin1Char(' '))
            ++i;
        return i;
    }
    bool isDocumentMarker() const
    {
        return (m_line.startsWith(QLatin1String("---")) ||
                m_line.startsWith(QLatin1String("..."))) &&
               isSpace(3);
    }
    bool commentHere() const
    {
        return at(m_pos) == QLatin1Char('#') && (m_pos == 0 || m_line.at(m_pos - 1).isSpace());
    }
    void add(qsizetype start, qsizetype end, Token token)
    {
        if (end > start)
            spans.append({int(start), int(end - start), token});
    }
    // Trailing blanks are not part of a plain scalar.
    qsizetype trimmedEnd(qsizetype start, qsizetype end) const
    {
        while (end > start && m_line.at(end - 1).isSpace())
            --end;
        return end;
    }
    static Token plainToken(const QString &text)
    {
        const QJsonValue v = YamlParser::plainScalar(text);
        if (v.isNull() || v.isBool())
            return Token::Keyword;
        return v.isDouble() ? Token::Number : Token::String;
    }

    // The end (one past the closing quote) of the quoted scalar at `start`; the line's end when
    // it continues on the next line.
    qsizetype quotedEnd(qsizetype start) const
    {
        const QChar quote = m_line.at(start);
        for (qsizetype i = start + 1; i < m_line.size(); ++i) {
            const QChar c = m_line.at(i);
            if (quote == QLatin1Char('"') && c == QLatin1Char('\\')) {
                ++i;
            } else if (c == quote) {
                if (quote == QLatin1Char('\'') && at(i + 1) == QLatin1Char('\'')) {
                    ++i;
                    continue;
                }
                return i + 1;
            }
        }
        return m_line.size();
    }

    // The position of the ':' that ends a plain key starting at m_pos, or -1.
    qsizetype plainKeyColon() const
    {
        for (qsizetype i = m_pos; i < m_line.size(); ++i) {
            const QChar c = m_line.at(i);
            if (c == QLatin1Char('#') && i > m_pos && m_line.at(i - 1).isSpace())
                return -1;
            if (c == QLatin1Char(':') && isSpace(i + 1))
                return i;
        }
        return -1;
    }

    void node()
    {
        skipSpaces();
        int parent = int(m_pos);
        // Sequence entries: "- ", possibly nested ("- - a").
        while (at(m_pos) == QLatin1Char('-') && isSpace(m_pos + 1)) {
            parent = int(m_pos);
            ++m_pos;
            skipSpaces();
        }
        if (atEnd())
            return;
        if (commentHere()) {
            add(m_pos, m_line.size(), Token::Comment);
            return;
        }
        const qsizetype keyStart = m_pos;
        const QChar first = m_line.at(m_pos);
        if (first == QLatin1Char('"') || first == QLatin1Char('\'')) {
            const qsizetype end = quotedEnd(m_pos);
            qsizetype after = end;
            while (after < m_line.size() && m_line.at(after) == QLatin1Char(' '))
                ++after;
            if (at(after) == QLatin1Char(':') && isSpace(after + 1)) {
                add(keyStart, end, Token::Key);
                m_pos = after + 1;
                value(int(keyStart));
                return;
            }
            value(parent);
            return;
        }
        if (first != QLatin1Char('{') && first != QLatin1Char('[')) {
            const qsizetype colon = plainKeyColon();
            if (colon >= 0) {
                add(keyStart, trimmedEnd(keyStart, colon), Token::Key);
                m_pos = colon + 1;
                value(int(keyStart));
                return;
            }
        }
        value(parent);
    }

    // A value after a key, a sequence dash or a document marker; `parent` is the column its
    // block scalar content must exceed.
    void value(int parent)
    {
        skipSpaces();
        // Anchors, aliases and tags.
        while (!atEnd() && (at(m_pos) == QLatin1Char('&') || at(m_pos) == QLatin1Char('*') ||
                            at(m_pos) == QLatin1Char('!'))) {
            const qsizetype start = m_pos;
            while (!atEnd() && !m_line.at(m_pos).isSpace())
                ++m_pos;
            add(start, m_pos, Token::Keyword);
            skipSpaces();
        }
        if (atEnd())
            return;
        if (commentHere()) {
            add(m_pos, m_line.size(), Token::Comment);
            return;
        }
        const QChar c = m_line.at(m_pos);
        if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            const qsizetype end = quotedEnd(m_pos);
            add(m_pos, end, Token::String);
            m_pos = end;
        } else if (c == QLatin1Char('|') || c == QLatin1Char('>')) {
            const qsizetype start = m_pos++;
            while (!atEnd() && (m_line.at(m_pos).isDigit() || at(m_pos) == QLatin1Char('+') ||
                                at(m_pos) == QLatin1Char('-')))
                ++m_pos;
            add(start, m_pos, Token::Keyword);
            m_state = parent + 1;
        } else if (c == QLatin1Char('{') || c == QLatin1Char('[')) {
            flow();
        } else {
            const qsizetype start = m_pos;
            while (!atEnd() && !commentHere())
                ++m_pos;
            const qsizetype end = trimmedEnd(start, m_pos);
            add(start, end, plainToken(m_line.mid(start, end - start)));
        }
        skipSpaces();
        if (commentHere())
            add(m_pos, m_line.size(), Token::Comment);
    }

    // A flow collection ({a: 1, b: [x, y]}) on one line: keys, then scalars by their type.
    void flow()
    {
        static const QString indicators = QStringLiteral("{}[],");
        while (!atEnd()) {
            const QChar c = m_line.at(m_pos);
            if (commentHere()) {
                add(m_pos, m_line.size(), Token::Comment);
                return;
            }
            if (c.isSpace() || indicators.contains(c) || c == QLatin1Char(':')) {
                ++m_pos;
                continue;
            }
            const qsizetype start = m_pos;
            Token token = Token::String;
            qsizetype end = 0;
            if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
                end = quotedEnd(m_pos);
                m_pos = end;
            } else {
                while (!atEnd() && !indicators.contains(m_line.at(m_pos)) && !commentHere() &&
                       !(m_line.at(m_pos) == QLatin1Char(':') &&
                         (isSpace(m_pos + 1) || indicators.contains(at(m_pos + 1)))))
                    ++m_pos;
                end = trimmedEnd(start, m_pos);
                token = plainToken(m_line.mid(start, end - start));
            }
            qsizetype after = m_pos;
            while (after < m_line.size() && m_line.at(after) == QLatin1Char(' '))
                ++after;
            if (at(after) == QLatin1Char(':'))
                token = Token::Key;
            add(start, end, token);
        }
    }

    const QString &m_line;
    qsizetype m_pos = 0;
    int m_state = -1;
};

QTextCharFormat colour(const QColor &color, bool bold = false, bool italic = false)
{
    QTextCharFormat f;
    f.setForeground(color);
    if (bold)
        f.setFontWeight(QFont::DemiBold);
    f.setFontItalic(italic);
    return f;
}

} // namespace

QList<YamlHighlighter::Span> YamlHighlighter::scan(const QString &line, int *state)
{
    LineScanner scanner(line, state ? *state : -1);
    const int next = scanner.run();
    if (state)
        *state = next;
    return scanner.spans;
}

YamlHighlighter::YamlHighlighter(QTextDocument *document, QWidget *view)
    : QSyntaxHighlighter(document)
{
    chooseColours(view ? view->palette().color(QPalette::Base)
                       : QGuiApplication::palette().color(QPalette::Base));
    if (view)
        view->installEventFilter(this);
}

bool YamlHighlighter::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        if (auto *view = qobject_cast<QWidget *>(watched)) {
            chooseColours(view->palette().color(QPalette::Base));
            rehighlight();
        }
    }
    return QSyntaxHighlighter::eventFilter(watched, event);
}

void YamlHighlighter::chooseColours(const QColor &base)
{
    const bool dark = base.lightness() < 128;
    m_formats[size_t(Token::Key)] =
        colour(dark ? QColor(0x7c, 0xb7, 0xff) : QColor(0x1a, 0x4f, 0xa0), true);
    m_formats[size_t(Token::String)] =
        colour(dark ? QColor(0x9c, 0xd6, 0x8a) : QColor(0x2e, 0x7d, 0x32));
    m_formats[size_t(Token::Number)] =
        colour(dark ? QColor(0xf0, 0xb0, 0x70) : QColor(0xb3, 0x5c, 0x00));
    m_formats[size_t(Token::Keyword)] =
        colour(dark ? QColor(0xd6, 0x9c, 0xf0) : QColor(0x8e, 0x24, 0xaa), true);
    m_formats[size_t(Token::Comment)] =
        colour(dark ? QColor(0x90, 0x90, 0x90) : QColor(0x75, 0x75, 0x75), false, true);
    m_formats[size_t(Token::DocumentMarker)] =
        colour(dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xc6, 0x28, 0x28), true);
}

YamlHighlighter::~YamlHighlighter() = default;

void YamlHighlighter::highlightBlock(const QString &text)
{
    int state = previousBlockState();
    for (const Span &span : scan(text, &state))
        setFormat(span.start, span.length, m_formats.at(size_t(span.token)));
    setCurrentBlockState(state);
}

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

#include <array>

namespace converge {

/// Colours YAML as the manifest reader reads it: keys, quoted and block strings, numbers,
/// booleans and null (typed by YamlParser::plainScalar, so the colour never disagrees with the
/// parser), comments and document markers (--- and ...).
///
/// A line scanner, not a parser: each block is scanned once, with the block state carrying a
/// literal or folded block scalar (`|`, `>`) into the lines below it, so that typing in a large
/// text only rescans the edited line.
class YamlHighlighter final : public QSyntaxHighlighter
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(YamlHighlighter)

public:
    enum class Token { Key, String, Number, Keyword, Comment, DocumentMarker, Count };

    /// A run of characters of one token within a line.
    struct Span
    {
        int start = 0;
        int length = 0;
        Token token = Token::String;
        friend bool operator==(const Span &, const Span &) = default;
    };

    /// Scans one line. `state` is the previous line's state on input and this line's on output:
    /// -1 outside a block scalar, else the least indentation of its content.
    static QList<Span> scan(const QString &line, int *state);

    /// Colours `document` for the palette of `view` (its editor), again whenever that palette
    /// changes (a theme chosen in Settings, the desktop's light or dark mode); without a view,
    /// for the application's palette when made.
    explicit YamlHighlighter(QTextDocument *document, QWidget *view = nullptr);
    ~YamlHighlighter() override;

    QTextCharFormat format(Token token) const { return m_formats.at(size_t(token)); }

protected:
    void highlightBlock(const QString &text) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// Colours that read on `base`: light ones on a dark base, dark ones on a light base.
    void chooseColours(const QColor &base);

    std::array<QTextCharFormat, size_t(Token::Count)> m_formats;
};

} // namespace converge

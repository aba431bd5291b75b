// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "specedit.h"

#include "yamlhighlighter.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>

#include <utility>

namespace converge {

namespace {

constexpr int indentWidth = 2;
const QColor errorColor(0xd3, 0x2f, 0x2f);

} // namespace

/// The line numbers beside the text; painted by the editor, which knows the block geometry.
class SpecEdit::Gutter final : public QWidget
{
public:
    explicit Gutter(SpecEdit *editor)
        : QWidget(editor)
        , m_editor(editor)
    {
        setObjectName(QStringLiteral("specGutter"));
    }

    QSize sizeHint() const override { return {m_editor->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent *event) override { m_editor->paintGutter(event); }

    bool event(QEvent *event) override
    {
        if (event->type() == QEvent::ToolTip) {
            auto *help = static_cast<QHelpEvent *>(event);
            const QTextCursor cursor = m_editor->cursorForPosition(QPoint(0, help->pos().y()));
            if (m_editor->m_diagnosticLine > 0 &&
                cursor.blockNumber() + 1 == m_editor->m_diagnosticLine)
                QToolTip::showText(help->globalPos(), m_editor->m_diagnosticMessage, this);
            else
                QToolTip::hideText();
            return true;
        }
        return QWidget::event(event);
    }

private:
    SpecEdit *m_editor; // not owned: the parent
};

SpecEdit::SpecEdit(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_gutter(new Gutter(this))
    , m_highlighter(new YamlHighlighter(document(), this))
{
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setTabChangesFocus(false);
    connect(this, &QPlainTextEdit::blockCountChanged, this, &SpecEdit::updateGutterWidth);
    connect(this, &QPlainTextEdit::updateRequest, this, &SpecEdit::updateGutter);
    updateGutterWidth();
}

SpecEdit::~SpecEdit() = default;

int SpecEdit::gutterWidth() const
{
    int digits = 1;
    for (int n = std::max(1, blockCount()); n >= 10; n /= 10)
        ++digits;
    // Room for the numbers and, left of them, the diagnostic marker.
    const int marker = fontMetrics().height();
    return marker + 4 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits + 6;
}

void SpecEdit::setDiagnostic(int line, int column, const QString &message)
{
    m_diagnosticLine = std::max(0, line);
    m_diagnosticColumn = std::max(0, column);
    m_diagnosticMessage = message;
    updateSelections();
    m_gutter->update();
}

void SpecEdit::clearDiagnostic()
{
    setDiagnostic(0, 0, QString());
}

void SpecEdit::goTo(int line, int column)
{
    const QTextBlock block =
        document()->findBlockByNumber(std::clamp(line, 1, std::max(1, blockCount())) - 1);
    QTextCursor cursor(block);
    cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor,
                        std::clamp(column - 1, 0, std::max(0, block.length() - 1)));
    setTextCursor(cursor);
    ensureCursorVisible();
    setFocus(Qt::OtherFocusReason);
}

void SpecEdit::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Tab && event->modifiers() == Qt::NoModifier && !isReadOnly()) {
        QTextCursor cursor = textCursor();
        const int column = cursor.positionInBlock();
        cursor.insertText(QString(indentWidth - column % indentWidth, QLatin1Char(' ')));
        return;
    }
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) &&
        event->modifiers() == Qt::NoModifier && !isReadOnly()) {
        QTextCursor cursor = textCursor();
        const QString line = cursor.block().text();
        qsizetype indent = 0;
        while (indent < line.size() && line.at(indent) == QLatin1Char(' '))
            ++indent;
        indent = std::min<qsizetype>(indent, cursor.positionInBlock());
        cursor.insertText(QLatin1Char('\n') + QString(indent, QLatin1Char(' ')));
        ensureCursorVisible();
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}

void SpecEdit::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    const QRect r = contentsRect();
    m_gutter->setGeometry(QRect(r.left(), r.top(), gutterWidth(), r.height()));
}

void SpecEdit::updateGutterWidth()
{
    setViewportMargins(gutterWidth(), 0, 0, 0);
    // The marked line may have gone with the text; the selection follows the new blocks, but
    // not from here. The document emits blockCountChanged() from inside QTextDocument::clear(),
    // while it keeps its cursors aside; replacing the extra selections then frees cursors that
    // clear() puts back afterwards, and the next edit writes into freed memory (the window's
    // heap corruption, in the text documents' formats and far beyond).
    scheduleSelections();
}

void SpecEdit::scheduleSelections()
{
    if (std::exchange(m_selectionsScheduled, true))
        return;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_selectionsScheduled = false;
            updateSelections();
        },
        Qt::QueuedConnection);
}

void SpecEdit::updateGutter(const QRect &rect, int dy)
{
    if (dy != 0)
        m_gutter->scroll(0, dy);
    else
        m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
}

void SpecEdit::updateSelections()
{
    QList<QTextEdit::ExtraSelection> selections;
    const QTextBlock block =
        m_diagnosticLine > 0 ? document()->findBlockByNumber(m_diagnosticLine - 1) : QTextBlock();
    if (block.isValid()) {
        QTextEdit::ExtraSelection line;
        QColor tint = errorColor;
        tint.setAlpha(28);
        line.format.setBackground(tint);
        line.format.setProperty(QTextFormat::FullWidthSelection, true);
        line.cursor = QTextCursor(block);
        selections.append(line);

        // The wavy underline from the error's column to the end of the line, or under the whole
        // line when the column lies beyond its text.
        const int length = block.length() - 1;
        int from = std::clamp(m_diagnosticColumn - 1, 0, length);
        if (from >= length)
            from = 0;
        if (length > 0) {
            QTextEdit::ExtraSelection wave;
            wave.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
            wave.format.setUnderlineColor(errorColor);
            wave.cursor = QTextCursor(block);
            wave.cursor.setPosition(block.position() + from);
            wave.cursor.setPosition(block.position() + length, QTextCursor::KeepAnchor);
            selections.append(wave);
        }
    }
    setExtraSelections(selections);
}

void SpecEdit::paintGutter(QPaintEvent *event)
{
    QPainter painter(m_gutter);
    painter.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    const int marker = fontMetrics().height();
    QTextBlock block = firstVisibleBlock();
    int number = block.blockNumber() + 1;
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    int bottom = top + qRound(blockBoundingRect(block).height());
    const QColor numberColor = palette().color(QPalette::PlaceholderText);
    while (block.isValid() && top <= event->rect().bottom()) {
        if (block.isVisible() && bottom >= event->rect().top()) {
            if (number == m_diagnosticLine) {
                painter.setRenderHint(QPainter::Antialiasing);
                painter.setPen(Qt::NoPen);
                painter.setBrush(errorColor);
                const int d = marker * 2 / 3;
                painter.drawEllipse(QRect(2 + (marker - d) / 2, top + (marker - d) / 2, d, d));
                painter.setPen(errorColor);
            } else {
                painter.setPen(numberColor);
            }
            painter.drawText(QRect(marker + 4, top, m_gutter->width() - marker - 8, marker),
                             Qt::AlignRight | Qt::AlignVCenter, QString::number(number));
        }
        block = block.next();
        top = bottom;
        bottom = top + qRound(blockBoundingRect(block).height());
        ++number;
    }
}

} // namespace converge

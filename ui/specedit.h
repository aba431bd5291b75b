// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QPlainTextEdit>

namespace converge {

class YamlHighlighter;

/// A YAML editor for one manifest: line numbers in a gutter, syntax colours, and one diagnostic
/// shown at its line (a wavy underline from its column and a marker in the gutter).
///
/// Tab inserts spaces (YAML forbids tabs in indentation) and Return keeps the line's indentation.
class SpecEdit final : public QPlainTextEdit
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SpecEdit)

public:
    explicit SpecEdit(QWidget *parent = nullptr);
    ~SpecEdit() override;

    /// Marks `line` (1-based) from `column` (1-based; 0 for the whole line); `message` becomes
    /// the line's tool tip in the gutter.
    void setDiagnostic(int line, int column, const QString &message);
    void clearDiagnostic();
    /// The marked line, or 0.
    int diagnosticLine() const { return m_diagnosticLine; }
    QString diagnosticMessage() const { return m_diagnosticMessage; }

    /// Moves the cursor to `line`:`column` (1-based, clamped to the text) and focuses the editor.
    void goTo(int line, int column);

    YamlHighlighter *highlighter() const { return m_highlighter; }
    /// The gutter's width for the current number of lines.
    int gutterWidth() const;

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    class Gutter;
    friend class Gutter;

    void paintGutter(QPaintEvent *event);
    void updateGutterWidth();
    void updateGutter(const QRect &rect, int dy);
    void updateSelections();
    /// updateSelections() once control is back in the event loop (see updateGutterWidth()).
    void scheduleSelections();

    Gutter *m_gutter = nullptr;               // a child widget: owned by Qt
    YamlHighlighter *m_highlighter = nullptr; // owned by the document
    int m_diagnosticLine = 0;
    int m_diagnosticColumn = 0;
    QString m_diagnosticMessage;
    bool m_selectionsScheduled = false;
};

} // namespace converge

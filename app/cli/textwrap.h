// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

/// Words in lines of a given width, for help and explain texts.
namespace converge::TextWrap {

/// The words of `text` (whitespace collapsed) in lines of at most `width` characters; a word
/// longer than `width` gets a line of its own. No lines for a blank text.
QStringList lines(const QString &text, qsizetype width);

/// `text` wrapped so that, with `indent` before each line, no line is longer than `width`;
/// each line ends with '\n'. Empty for a blank text.
QString indented(const QString &text, const QString &indent, qsizetype width);

} // namespace converge::TextWrap

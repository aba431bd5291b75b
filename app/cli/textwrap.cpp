// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "textwrap.h"

namespace converge::TextWrap {

QStringList lines(const QString &text, qsizetype width)
{
    QStringList out;
    QString line;
    for (const QString &word : text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!line.isEmpty() && line.size() + 1 + word.size() > width) {
            out << line;
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
    }
    if (!line.isEmpty())
        out << line;
    return out;
}

QString indented(const QString &text, const QString &indent, qsizetype width)
{
    QString out;
    for (const QString &line : lines(text, std::max<qsizetype>(1, width - indent.size())))
        out += indent + line + QLatin1Char('\n');
    return out;
}

} // namespace converge::TextWrap

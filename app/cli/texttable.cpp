// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "texttable.h"

namespace converge {

TextTable::TextTable(const QStringList &headers)
    : m_headers(headers)
{}

void TextTable::addRow(const QStringList &cells, const QList<Console::Color> &colors)
{
    Row row{cells, colors};
    // One line per row: a message with line breaks would break the columns.
    for (QString &cell : row.cells)
        cell.replace(QLatin1Char('\n'), QLatin1Char(' '));
    while (row.cells.size() < m_headers.size())
        row.cells.append(QString());
    m_rows.append(row);
}

QString TextTable::render(const Console *console) const
{
    const qsizetype columns = m_headers.size();
    QList<qsizetype> widths(columns, 0);
    for (qsizetype c = 0; c < columns; ++c) {
        widths[c] = m_headers.at(c).size();
        for (const Row &row : m_rows)
            widths[c] = std::max(widths[c], row.cells.at(c).size());
    }
    auto line = [&](const QStringList &cells, const QList<Console::Color> &colors) -> QString {
        QString text;
        for (qsizetype c = 0; c < columns; ++c) {
            const QString &cell = cells.at(c);
            const bool last = c + 1 == columns;
            const Console::Color color = c < colors.size() ? colors.at(c) : Console::Color::None;
            text += console ? console->paint(cell, color) : cell;
            if (!last)
                text += QString(widths.at(c) - cell.size() + 3, QLatin1Char(' '));
        }
        while (text.endsWith(QLatin1Char(' ')))
            text.chop(1);
        return text + QLatin1Char('\n');
    };
    QString text = line(m_headers, {});
    for (const Row &row : m_rows)
        text += line(row.cells, row.colors);
    return text;
}

} // namespace converge

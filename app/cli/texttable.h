// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "console.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace converge {

/// A plain-text table as kubectl prints it: upper-case headers, columns left-aligned and
/// separated by three spaces, the last column not padded. Colour never changes the alignment.
class TextTable final
{
public:
    explicit TextTable(const QStringList &headers);

    /// Missing cells are empty; `colors` (optional) colours cells by column.
    void addRow(const QStringList &cells, const QList<Console::Color> &colors = {});
    qsizetype rowCount() const { return m_rows.size(); }

    /// The table, one line per row after the header, each ending with '\n'. `console` paints
    /// coloured cells (when its colour is on); null for none.
    QString render(const Console *console = nullptr) const;

private:
    struct Row
    {
        QStringList cells;
        QList<Console::Color> colors;
    };
    QStringList m_headers;
    QList<Row> m_rows;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awsinifile.h"

#include <QStringList>

namespace converge {

namespace {

bool failAt(QString *error, int line, const QString &what)
{
    if (error)
        *error = QStringLiteral("line %1: %2").arg(line).arg(what);
    return false;
}

} // namespace

bool AwsIniFile::parse(const QByteArray &content, QString *error)
{
    m_sections.clear();
    QString lastKey; // the key an indented line continues
    const QStringList lines = QString::fromUtf8(content).split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        const int number = i + 1;
        QString line = lines.at(i);
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        const QString trimmed = line.trimmed();
        if (trimmed.isEmpty()) {
            lastKey.clear();
            continue;
        }
        if (trimmed.startsWith(QLatin1Char('#')) || trimmed.startsWith(QLatin1Char(';')))
            continue;
        const bool indented = line.at(0).isSpace();
        if (indented && !lastKey.isEmpty() && !m_sections.isEmpty()) {
            QString &value = m_sections.last().values[lastKey];
            value += (value.isEmpty() ? QString() : QStringLiteral("\n")) + trimmed;
            continue;
        }
        if (trimmed.startsWith(QLatin1Char('['))) {
            if (!trimmed.endsWith(QLatin1Char(']')))
                return failAt(error, number, QStringLiteral("a section header without ']'"));
            const QString name = trimmed.mid(1, trimmed.size() - 2).trimmed();
            if (name.isEmpty())
                return failAt(error, number, QStringLiteral("a section header without a name"));
            if (const Section *earlier = section(name))
                return failAt(error, number,
                              QStringLiteral("section [%1] again (first at line %2)")
                                  .arg(name)
                                  .arg(earlier->line));
            m_sections.append(Section{name, {}, number});
            lastKey.clear();
            continue;
        }
        const qsizetype equals = trimmed.indexOf(QLatin1Char('='));
        const qsizetype colon = trimmed.indexOf(QLatin1Char(':'));
        const qsizetype at = equals < 0 ? colon : (colon < 0 ? equals : qMin(equals, colon));
        if (at <= 0)
            return failAt(error, number,
                          QStringLiteral("neither a [section], a key = value nor "
                                         "a comment"));
        if (m_sections.isEmpty())
            return failAt(error, number, QStringLiteral("a key before the first [section]"));
        const QString key = trimmed.left(at).trimmed().toLower();
        Section &current = m_sections.last();
        if (current.values.contains(key))
            return failAt(error, number,
                          QStringLiteral("%1 is given twice in [%2]").arg(key, current.name));
        current.values.insert(key, trimmed.mid(at + 1).trimmed());
        lastKey = key;
    }
    return true;
}

const AwsIniFile::Section *AwsIniFile::section(const QString &name) const
{
    for (const Section &s : m_sections) {
        if (s.name == name)
            return &s;
    }
    return nullptr;
}

} // namespace converge

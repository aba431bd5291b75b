// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "console.h"

#ifdef Q_OS_WIN
#include <io.h>
#else
#include <unistd.h>
#endif

namespace converge {

Console::Console(FILE *out, FILE *err)
    : m_out(out)
    , m_err(err)
{
    // https://no-color.org: any value, even empty, turns colour off.
    m_color = isTerminal(out) && !qEnvironmentVariableIsSet("NO_COLOR");
    m_errTerminal = isTerminal(err);
}

bool Console::isTerminal(FILE *stream)
{
#ifdef Q_OS_WIN
    return _isatty(_fileno(stream)) != 0;
#else
    return isatty(fileno(stream)) != 0;
#endif
}

void Console::write(FILE *stream, const QByteArray &bytes)
{
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
    std::fflush(stream);
}

void Console::out(const QByteArray &text)
{
    write(m_out, text);
}

void Console::info(const QString &line)
{
    if (!m_quiet)
        write(m_out, line.toUtf8() + '\n');
}

void Console::error(const QString &message)
{
    write(m_err, QByteArrayLiteral("error: ") + message.toUtf8() + '\n');
}

void Console::warning(const QString &message)
{
    if (!m_quiet)
        write(m_err, QByteArrayLiteral("warning: ") + message.toUtf8() + '\n');
}

void Console::progress(const QString &line)
{
    if (!m_quiet && (m_errTerminal || m_verbose))
        write(m_err, line.toUtf8() + '\n');
}

void Console::verbose(const QString &line)
{
    if (m_verbose && !m_quiet)
        write(m_err, line.toUtf8() + '\n');
}

void Console::err(const QString &text)
{
    write(m_err, text.toUtf8());
}

QString Console::paint(const QString &text, Color color) const
{
    if (!m_color || color == Color::None || text.isEmpty())
        return text;
    const char *code = "";
    switch (color) {
    case Color::Green:
        code = "32";
        break;
    case Color::Yellow:
        code = "33";
        break;
    case Color::Red:
        code = "31";
        break;
    case Color::Bold:
        code = "1";
        break;
    case Color::Dim:
        code = "2";
        break;
    case Color::None:
        break;
    }
    return QStringLiteral("\x1b[%1m").arg(QLatin1String(code)) + text + QStringLiteral("\x1b[0m");
}

} // namespace converge

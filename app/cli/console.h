// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>
#include <QtGlobal>

#include <cstdio>

namespace converge {

/// Where the CLI writes: data on standard output, errors and progress on standard error.
///
/// Colour only when standard output is a terminal and NO_COLOR is unset; progress only when
/// standard error is a terminal or with --verbose, and never with --quiet.
class Console final
{
public:
    enum class Color { None, Green, Yellow, Red, Bold, Dim };

    /// Looks at the terminals and the environment; `out` and `err` are not owned (tests pass
    /// temporary files).
    explicit Console(FILE *out = stdout, FILE *err = stderr);
    Q_DISABLE_COPY_MOVE(Console)

    void setQuiet(bool on) { m_quiet = on; }
    void setVerbose(bool on) { m_verbose = on; }
    bool isQuiet() const { return m_quiet; }
    bool isVerbose() const { return m_verbose; }
    bool hasColor() const { return m_color; }
    void setColor(bool on) { m_color = on; }

    /// Data: always written.
    void out(const QByteArray &text);
    void out(const QString &text) { out(text.toUtf8()); }
    /// A line of data that --quiet suppresses (e.g. `blobcontainer/x created`).
    void info(const QString &line);
    /// `error: <message>` on standard error.
    void error(const QString &message);
    /// `warning: <message>` on standard error, unless --quiet.
    void warning(const QString &message);
    /// Progress on standard error: when it is a terminal or with --verbose; never with --quiet.
    void progress(const QString &line);
    /// Details with --verbose only.
    void verbose(const QString &line);
    /// Raw text on standard error (help for a wrong invocation).
    void err(const QString &text);

    /// `text` wrapped in the colour's escape codes when colour is on.
    QString paint(const QString &text, Color color) const;

    /// Whether `stream` is a terminal.
    static bool isTerminal(FILE *stream);

private:
    void write(FILE *stream, const QByteArray &bytes);

    FILE *m_out;
    FILE *m_err;
    bool m_color = false;
    bool m_errTerminal = false;
    bool m_quiet = false;
    bool m_verbose = false;
};

} // namespace converge

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

// Runs the real `converge` executable (CONVERGE_EXECUTABLE, set by CMake) as a child process
// on a temporary workspace, the way a person or a script does.

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTest>

#include <memory>

namespace converge::test {

/// Text for the commands' arguments and expected output: shorter to read than QStringLiteral.
inline QString s(const char *text)
{
    return QString::fromUtf8(text);
}

/// What one run of `converge` gave.
struct CliResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    bool finished = false;

    QString outText() const { return QString::fromUtf8(out); }
    QString errText() const { return QString::fromUtf8(err); }
    /// For QVERIFY2 messages.
    QByteArray describe() const
    {
        return "exit " + QByteArray::number(exitCode) + "\n--- stdout:\n" + out +
               "\n--- stderr:\n" + err;
    }
};

/// Runs `converge` with `--workspace` set to one workspace file.
class CliRunner final
{
public:
    explicit CliRunner(const QString &workspace)
        : m_workspace(workspace)
    {
        m_env = QProcessEnvironment::systemEnvironment();
        m_env.remove(QStringLiteral("CONVERGE_WORKSPACE"));
        // Tests read plain text: no colour, whatever the terminal.
        m_env.insert(QStringLiteral("NO_COLOR"), QStringLiteral("1"));
        // No display: a command that made a QApplication would abort on this platform name.
        m_env.remove(QStringLiteral("DISPLAY"));
        m_env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        m_env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("no-display-for-the-cli"));
    }

    static QString program() { return QString::fromUtf8(CONVERGE_EXECUTABLE); }
    /// Whether `--workspace W` is appended (on by default).
    void setPassWorkspace(bool on) { m_passWorkspace = on; }
    QString workspace() const { return m_workspace; }
    QProcessEnvironment &environment() { return m_env; }

    /// Runs `converge ARGS --workspace W` to the end (at most `timeoutMs`).
    CliResult run(const QStringList &args, const QByteArray &input = {},
                  int timeoutMs = 60000) const
    {
        QProcess p;
        start(p, args);
        if (!p.waitForStarted(10000))
            return {};
        if (!input.isEmpty())
            p.write(input);
        p.closeWriteChannel();
        CliResult r;
        r.finished = p.waitForFinished(timeoutMs);
        if (!r.finished) {
            p.kill();
            p.waitForFinished(5000);
        }
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        return r;
    }

    /// Starts `converge ARGS --workspace W` and leaves it running (e.g. `converge run`).
    std::unique_ptr<QProcess> spawn(const QStringList &args) const
    {
        auto p = std::make_unique<QProcess>();
        start(*p, args);
        p->waitForStarted(10000);
        return p;
    }

private:
    void start(QProcess &p, const QStringList &args) const
    {
        p.setProcessEnvironment(m_env);
        p.setProgram(program());
        p.setArguments(m_passWorkspace
                           ? args + QStringList{QStringLiteral("--workspace"), m_workspace}
                           : args);
        p.start();
    }

    QString m_workspace;
    QProcessEnvironment m_env;
    bool m_passWorkspace = true;
};

} // namespace converge::test

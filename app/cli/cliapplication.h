// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace converge {

class Command;
class Console;
class Services;

/// The command-line front end: `converge COMMAND [options]`, kubectl-like, on the same engine
/// as the window. Finds the command, parses its options and the global ones (--workspace,
/// --quiet, --verbose, --help; before or after the command), resolves the workspace and runs it.
class CliApplication final
{
public:
    /// Neither reference is owned; both must outlive the application.
    CliApplication(Services &services, Console &console);
    ~CliApplication();
    Q_DISABLE_COPY_MOVE(CliApplication)

    /// The command names, for main() to tell the CLI from the window.
    static QStringList commandNames();
    /// Whether `arguments` (argv, program first) ask for the CLI rather than the window's
    /// `converge [WORKSPACE]`: a command, `help`, --help, --version, a global CLI option, or a
    /// bare word that is no file (a mistyped command, answered with a did-you-mean). Qt's own
    /// options (`-platform offscreen`) mean the window.
    static bool wantsCli(const QStringList &arguments);

    /// Runs the command `arguments` (argv, program first) name; returns the exit code.
    int run(const QStringList &arguments);

private:
    Command *find(const QString &name) const;
    QString generalHelp() const;
    QString commandHelp(const Command &command) const;

    Services &m_services;
    Console &m_console;
    std::vector<std::unique_ptr<Command>> m_commands;
};

} // namespace converge

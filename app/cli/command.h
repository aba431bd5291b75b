// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QCommandLineOption>
#include <QList>
#include <QString>

#include <chrono>
#include <optional>

class QCommandLineParser;

namespace converge {

class CommandContext;

/// The CLI's exit codes (docs/cli.md).
enum ExitCode : int {
    ExitSuccess = 0, ///< done
    ExitFailed = 1,  ///< a resource failed (Ready False, Error), a wait timed out, or an error
    ExitUsage = 2,   ///< a wrong invocation or an invalid manifest: nothing was changed
};

/// One subcommand of `converge`: its options, its help and what it does.
class Command
{
public:
    virtual ~Command() = default;

    virtual QString name() const = 0;
    /// One line for `converge --help`.
    virtual QString summary() const = 0;
    /// What follows `converge NAME` in the usage line, e.g. `-f PATH… [--wait[=DURATION]]`.
    virtual QString synopsis() const = 0;
    /// Paragraphs for `converge NAME --help`, after the usage line.
    virtual QString description() const = 0;
    /// Example invocations, one per line, each with a `# comment` line before it.
    virtual QString examples() const = 0;
    /// The command's own options (the global ones are added by CliApplication).
    virtual QList<QCommandLineOption> options() const { return {}; }

    /// Runs with parsed arguments; returns an ExitCode.
    virtual int run(CommandContext &ctx, const QCommandLineParser &parser) = 0;

protected:
    Command() = default;
    Q_DISABLE_COPY_MOVE(Command)

    /// --wait and --timeout DURATION (`--wait=DURATION` is rewritten to both).
    static QList<QCommandLineOption> waitOptions(const QString &waitsFor);
    /// The timeout when --wait is set: --timeout's value or 5 minutes; nullopt without --wait.
    /// A bad duration prints an error and sets `exitCode` to ExitUsage.
    static std::optional<std::chrono::milliseconds>
    waitTimeout(CommandContext &ctx, const QCommandLineParser &parser, int *exitCode);
    /// -o/--output with the allowed `formats`; the first is the default.
    static QCommandLineOption outputOption(const QStringList &formats);
};

} // namespace converge

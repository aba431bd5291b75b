// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "cliapplication.h"

#include "actioncommand.h"
#include "applycommand.h"
#include "buildinfo.h"
#include "commandcontext.h"
#include "console.h"
#include "deletecommand.h"
#include "describecommand.h"
#include "diffcommand.h"
#include "eventscommand.h"
#include "explaincommand.h"
#include "exportcommand.h"
#include "getcommand.h"
#include "runcommand.h"
#include "services.h"
#include "suggestions.h"
#include "textwrap.h"

#include <QCommandLineParser>
#include <QFileInfo>

namespace converge {

namespace {

QList<QCommandLineOption> globalOptions()
{
    return {QCommandLineOption(QStringLiteral("workspace"),
                               QStringLiteral("The workspace file (default: $CONVERGE_WORKSPACE, "
                                              "else default.converge in the application data "
                                              "folder)."),
                               QStringLiteral("FILE")),
            QCommandLineOption({QStringLiteral("q"), QStringLiteral("quiet")},
                               QStringLiteral("Print only data and errors: no progress, no "
                                              "per-object lines.")),
            QCommandLineOption(QStringLiteral("verbose"),
                               QStringLiteral("Print progress and what the controller does.")),
            QCommandLineOption({QStringLiteral("h"), QStringLiteral("help")},
                               QStringLiteral("Show this help."))};
}

// `--wait=30s` is `--wait --timeout 30s`: QCommandLineParser has no optional values.
QStringList expandWait(const QStringList &arguments)
{
    QStringList out;
    for (const QString &a : arguments) {
        if (a.startsWith(QLatin1String("--wait="))) {
            out << QStringLiteral("--wait") << QStringLiteral("--timeout") << a.mid(7);
        } else {
            out << a;
        }
    }
    return out;
}

QString optionLines(const QList<QCommandLineOption> &options)
{
    QList<QPair<QString, QString>> rows;
    qsizetype width = 0;
    for (const QCommandLineOption &o : options) {
        QStringList names;
        for (const QString &n : o.names())
            names << (n.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + n;
        QString left = names.join(QStringLiteral(", "));
        if (!o.valueName().isEmpty())
            left += QLatin1Char(' ') + o.valueName();
        width = std::max(width, left.size());
        rows.append({left, o.description()});
    }
    QString text;
    const QString hanging(width + 4, QLatin1Char(' '));
    for (const auto &[left, description] : rows) {
        const QStringList lines =
            TextWrap::lines(description, std::max<qsizetype>(40, 98 - hanging.size()));
        text += QStringLiteral("  ") + left.leftJustified(width + 2) +
                lines.join(QLatin1Char('\n') + hanging) + QLatin1Char('\n');
    }
    return text;
}

// Paragraphs wrapped at 100 columns, for help text.
QString wrapped(const QString &text)
{
    QString out;
    for (const QString &paragraph : text.split(QStringLiteral("\n\n")))
        out += TextWrap::lines(paragraph, 98).join(QLatin1Char('\n')) + QStringLiteral("\n\n");
    return out;
}

} // namespace

CliApplication::CliApplication(Services &services, Console &console)
    : m_services(services)
    , m_console(console)
{
    m_commands.push_back(std::make_unique<ApplyCommand>());
    m_commands.push_back(std::make_unique<GetCommand>());
    m_commands.push_back(std::make_unique<DescribeCommand>());
    m_commands.push_back(std::make_unique<ExplainCommand>());
    m_commands.push_back(std::make_unique<DiffCommand>());
    m_commands.push_back(std::make_unique<DeleteCommand>());
    m_commands.push_back(std::make_unique<ActionCommand>(ActionCommand::Action::Claim));
    m_commands.push_back(std::make_unique<ActionCommand>(ActionCommand::Action::Reconcile));
    m_commands.push_back(std::make_unique<ActionCommand>(ActionCommand::Action::Refresh));
    m_commands.push_back(std::make_unique<EventsCommand>());
    m_commands.push_back(std::make_unique<ExportCommand>());
    m_commands.push_back(std::make_unique<RunCommand>());
}

CliApplication::~CliApplication() = default;

QStringList CliApplication::commandNames()
{
    return {QStringLiteral("apply"),    QStringLiteral("diff"),      QStringLiteral("get"),
            QStringLiteral("describe"), QStringLiteral("explain"),   QStringLiteral("delete"),
            QStringLiteral("claim"),    QStringLiteral("reconcile"), QStringLiteral("refresh"),
            QStringLiteral("events"),   QStringLiteral("export"),    QStringLiteral("run"),
            QStringLiteral("help")};
}

bool CliApplication::wantsCli(const QStringList &arguments)
{
    bool helpOrVersion = false;
    bool cliOption = false;
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString &a = arguments.at(i);
        if (a == QLatin1String("--workspace")) {
            cliOption = true;
            ++i;
            continue;
        }
        if (a == QLatin1String("--help") || a == QLatin1String("-h") ||
            a == QLatin1String("--version") || a == QLatin1String("-v")) {
            helpOrVersion = true;
            continue;
        }
        // Qt's own options (-platform, -style, …) are the window's.
        if (a.size() > 2 && a.at(0) == QLatin1Char('-') && a.at(1) != QLatin1Char('-'))
            return false;
        if (a.startsWith(QLatin1Char('-')) && a.size() > 1) {
            // The CLI's global options without a command: the CLI says what is missing.
            cliOption = cliOption || a == QLatin1String("-q") || a == QLatin1String("--quiet") ||
                        a == QLatin1String("--verbose") ||
                        a.startsWith(QLatin1String("--workspace"));
            continue;
        }
        if (commandNames().contains(a))
            return true;
        // `converge aply` is a typo, not a new workspace called "aply".
        const bool bareWord = !a.contains(QLatin1Char('/')) && !a.contains(QLatin1Char('.'));
        return bareWord && !QFileInfo::exists(a);
    }
    return helpOrVersion || cliOption;
}

Command *CliApplication::find(const QString &name) const
{
    for (const auto &c : m_commands) {
        if (c->name() == name)
            return c.get();
    }
    return nullptr;
}

QString CliApplication::generalHelp() const
{
    QString text = QStringLiteral("Converge %1: declarative cloud resources, reconciled.\n\n"
                                  "Usage:\n"
                                  "  converge [WORKSPACE]              open the window\n"
                                  "  converge COMMAND [options]        the command line\n\n"
                                  "Commands:\n")
                       .arg(BuildInfo::version());
    for (const auto &c : m_commands)
        text +=
            QStringLiteral("  ") + c->name().leftJustified(12) + c->summary() + QLatin1Char('\n');
    text += QStringLiteral("\nGlobal options (before or after the command):\n") +
            optionLines(globalOptions() +
                        QList<QCommandLineOption>{QCommandLineOption(
                            QStringLiteral("version"), QStringLiteral("Show the version."))}) +
            QStringLiteral("\nExit codes: 0 success; 1 a resource failed, a wait timed out or an "
                           "error; 2 a wrong\ninvocation or an invalid manifest (nothing was "
                           "changed).\n\n"
                           "Run `converge COMMAND --help` for a command's options and examples.\n");
    return text;
}

QString CliApplication::commandHelp(const Command &command) const
{
    QString text = QStringLiteral("Usage: converge %1 %2\n\n%3\n")
                       .arg(command.name(), command.synopsis(), command.summary());
    text += QLatin1Char('\n') + wrapped(command.description());
    const QList<QCommandLineOption> own = command.options();
    if (!own.isEmpty())
        text += QStringLiteral("Options:\n") + optionLines(own) + QLatin1Char('\n');
    text += QStringLiteral("Global options:\n") + optionLines(globalOptions()) + QLatin1Char('\n');
    text += QStringLiteral("Examples:\n");
    for (const QString &line : command.examples().split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        text += QStringLiteral("  ") + line + QLatin1Char('\n');
    return text;
}

int CliApplication::run(const QStringList &arguments)
{
    // The command is the first argument that is neither an option nor a global option's value.
    QStringList rest = arguments.mid(1);
    qsizetype commandAt = -1;
    for (qsizetype i = 0; i < rest.size(); ++i) {
        const QString &a = rest.at(i);
        if (a == QLatin1String("--workspace")) {
            ++i;
            continue;
        }
        if (a.startsWith(QLatin1Char('-')) && a.size() > 1)
            continue;
        commandAt = i;
        break;
    }

    if (commandAt < 0) {
        if (rest.contains(QLatin1String("--version")) || rest.contains(QLatin1String("-v"))) {
            m_console.out(QStringLiteral("converge %1\n").arg(BuildInfo::version()));
            return ExitSuccess;
        }
        if (rest.contains(QLatin1String("--help")) || rest.contains(QLatin1String("-h"))) {
            m_console.out(generalHelp());
            return ExitSuccess;
        }
        m_console.err(generalHelp());
        return ExitUsage;
    }

    const QString name = rest.takeAt(commandAt);
    if (name == QLatin1String("help")) {
        const QString topic = rest.value(commandAt);
        if (topic.isEmpty()) {
            m_console.out(generalHelp());
            return ExitSuccess;
        }
        if (const Command *c = find(topic)) {
            m_console.out(commandHelp(*c));
            return ExitSuccess;
        }
        m_console.error(QStringLiteral("unknown command \"%1\"%2")
                            .arg(topic, Suggestions::hint(topic, commandNames())));
        return ExitUsage;
    }
    Command *command = find(name);
    if (!command) {
        m_console.error(QStringLiteral("unknown command \"%1\"%2 (see converge --help; to open a "
                                       "new workspace file in the window, name it with a path "
                                       "such as ./%1)")
                            .arg(name, Suggestions::hint(name, commandNames())));
        return ExitUsage;
    }

    QCommandLineParser parser;
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsOptions);
    parser.addOptions(globalOptions());
    parser.addOptions(command->options());
    if (!parser.parse(QStringList{arguments.constFirst()} + expandWait(rest))) {
        m_console.error(parser.errorText() +
                        QStringLiteral(" (see converge %1 --help)").arg(command->name()));
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        m_console.out(commandHelp(*command));
        return ExitSuccess;
    }
    m_console.setQuiet(parser.isSet(QStringLiteral("quiet")));
    m_console.setVerbose(parser.isSet(QStringLiteral("verbose")));

    CommandContext ctx(m_services, m_console,
                       Services::workspacePath(parser.value(QStringLiteral("workspace"))));
    return command->run(ctx, parser);
}

} // namespace converge

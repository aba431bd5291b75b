// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "runcommand.h"

#include "commandcontext.h"
#include "console.h"
#include "controller.h"
#include "controllerlock.h"
#include "outputformatter.h"
#include "services.h"
#include "signalwatcher.h"
#include "workspace.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>

namespace converge {

QString RunCommand::summary() const
{
    return QStringLiteral("Run the controller headless until Ctrl-C or SIGTERM");
}

QString RunCommand::synopsis() const
{
    return QStringLiteral("[--workers N]");
}

QString RunCommand::description() const
{
    return QStringLiteral(
        "Runs the reconcile loop of the workspace without a window: every resource is "
        "reconciled, changes made by `converge apply` (from any process) are picked up within a "
        "second, and failed resources are retried with backoff. Events are printed as they are "
        "recorded (not with --quiet).\n\n"
        "SIGINT (Ctrl-C) or SIGTERM stops it cleanly: in-flight work is cancelled, the threads "
        "are joined, and it exits 0.\n\n"
        "Only one process runs the controller of a workspace (the lock file WORKSPACE.lock). "
        "When the window or another `converge run` already does, this command refuses (exit "
        "2); other commands then leave the reconciling to that process.");
}

QString RunCommand::examples() const
{
    return QStringLiteral("# Keep a workspace reconciled in a terminal or a service\n"
                          "converge run --workspace ~/infra/dev.converge\n");
}

QList<QCommandLineOption> RunCommand::options() const
{
    return {QCommandLineOption(QStringLiteral("workers"),
                               QStringLiteral("Worker threads, 1-64 (default 8)."),
                               QStringLiteral("N"))};
}

int RunCommand::run(CommandContext &ctx, const QCommandLineParser &parser)
{
    Console &console = ctx.console();
    if (!parser.positionalArguments().isEmpty()) {
        console.error(QStringLiteral("run takes no arguments (see converge run --help)"));
        return ExitUsage;
    }
    Controller::Options options = ctx.services().controllerOptions();
    if (parser.isSet(QStringLiteral("workers"))) {
        bool ok = false;
        const int workers = parser.value(QStringLiteral("workers")).toInt(&ok);
        if (!ok || workers < 1 || workers > 64) {
            console.error(QStringLiteral("--workers needs a number from 1 to 64"));
            return ExitUsage;
        }
        options.workers = workers;
        ctx.services().setControllerOptions(options);
    }
    int code = ExitSuccess;
    if (!ctx.openWorkspace(&code)) // creates it, and says why it cannot be opened
        return code;

    ControllerLock lock(ctx.workspacePath());
    if (!lock.tryLock()) {
        console.error(QStringLiteral("the controller of %1 already runs elsewhere (%2); only one "
                                     "process may run it")
                          .arg(ctx.workspacePath(), lock.errorString()));
        return ExitUsage;
    }

    std::unique_ptr<Controller> controller = ctx.services().makeController(ctx.workspacePath());
    const OutputFormatter formatter(ctx.services().kinds(), OutputFormatter::Format::Table,
                                    ctx.now(), &console);
    QObject::connect(controller.get(), &Controller::eventsRecorded, controller.get(),
                     [&](const QList<Event> &events) {
                         if (console.isQuiet())
                             return;
                         for (const Event &e : events)
                             console.out(formatter.eventLine(e) + QLatin1Char('\n'));
                     });
    QObject::connect(controller.get(), &Controller::storeFailed, controller.get(),
                     [&](const QString &message) { console.error(message); });

    QEventLoop loop;
    SignalWatcher signalWatcher;
    if (!signalWatcher.isValid())
        console.warning(QStringLiteral("cannot watch for SIGINT and SIGTERM"));
    int signalNumber = 0;
    QObject::connect(&signalWatcher, &SignalWatcher::signalled, &loop, [&](int signal) {
        signalNumber = signal;
        loop.quit();
    });

    StoreError error;
    if (!controller->start(&error)) {
        console.error(QStringLiteral("cannot start the controller: %1").arg(error.message));
        return ExitFailed;
    }
    console.progress(QStringLiteral("controller running on %1 (process %2, %3 workers); stop "
                                    "with Ctrl-C")
                         .arg(ctx.workspacePath())
                         .arg(QCoreApplication::applicationPid())
                         .arg(options.workers));
    loop.exec();

    console.progress(QStringLiteral("stopping (signal %1)…").arg(signalNumber));
    controller->stop();
    const Controller::Stats stats = controller->stats();
    console.verbose(QStringLiteral("controller: stopped after %1 reconciles, %2 backend writes, "
                                   "%3 failures")
                        .arg(stats.reconciles)
                        .arg(stats.backendWrites)
                        .arg(stats.failures));
    return ExitSuccess;
}

} // namespace converge

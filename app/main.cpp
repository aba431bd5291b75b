// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "buildinfo.h"
#include "cliapplication.h"
#include "console.h"
#include "controller.h"
#include "controllerlock.h"
#include "mainwindow.h"
#include "services.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QIcon>

using namespace converge;

namespace {

// `converge COMMAND …`: no QApplication, so that it runs without a display. The names are the
// window's, so that both find the same default workspace.
int runCli(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("converge"));
    QCoreApplication::setApplicationVersion(BuildInfo::version());
    QCoreApplication::setOrganizationDomain(QStringLiteral("converge.dev"));
    Services services;
    Console console;
    CliApplication cli(services, console);
    return cli.run(QCoreApplication::arguments());
}

} // namespace

int main(int argc, char *argv[])
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    if (CliApplication::wantsCli(arguments))
        return runCli(argc, argv);

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("converge"));
    QApplication::setApplicationDisplayName(QStringLiteral("Converge"));
    QApplication::setApplicationVersion(BuildInfo::version());
    QApplication::setOrganizationDomain(QStringLiteral("converge.dev"));
    QGuiApplication::setDesktopFileName(BuildInfo::applicationId());

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "Declarative cloud resources, reconciled."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("workspace"),
                                 QCoreApplication::translate("main", "The workspace file to open."),
                                 QStringLiteral("[WORKSPACE]"));
    parser.process(app);

    const QString given =
        parser.positionalArguments().isEmpty() ? QString() : parser.positionalArguments().first();
    const QString path = Services::workspacePath(given);

    // One process runs the controller of a workspace. When another one does (`converge run`,
    // another window), this window shows the workspace and follows what that process writes.
    Services services;
    ControllerLock lock(path);
    std::unique_ptr<Controller> controller;
    if (lock.tryLock()) {
        controller = services.makeController(path);
        StoreError error;
        if (!controller->start(&error)) {
            qWarning().noquote() << "converge: cannot run the controller:" << error.message;
            controller.reset();
        }
    }

    // Declared after the controller: the window goes first.
    MainWindow window(WindowServices{services.kinds(), path, controller.get(), nullptr});
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/converge.svg")));
    window.show();
    return QApplication::exec();
}

// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "buildinfo.h"
#include "cliapplication.h"
#include "console.h"
#include "controller.h"
#include "controllerlock.h"
#include "crashreporter.h"
#include "logfile.h"
#include "mainwindow.h"
#include "recentworkspaces.h"
#include "services.h"
#include "windowsettings.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QPlainTextEdit>
#include <QSettings>
#include <QTabWidget>
#include <QTimer>
#include <QTranslator>

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

// The window in the system's language: our strings from the translations compiled into the
// executable (resources/translations), Qt's own (standard dialog buttons) from the system's Qt
// translations when they are installed. Missing translations leave the English text.
void installTranslators(QApplication &app)
{
    const auto install = [&app](const QString &name, const QString &directory) {
        auto *translator = new QTranslator(&app);
        if (translator->load(QLocale(), name, QStringLiteral("_"), directory))
            QCoreApplication::installTranslator(translator);
        else
            delete translator;
    };
    install(QStringLiteral("qtbase"), QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    install(QStringLiteral("converge"), QStringLiteral(":/i18n"));
}

// CONVERGE_SCREENSHOT=PATH, for scripts/screenshots.sh: show the window at a fixed size
// (CONVERGE_SCREENSHOT_SIZE, default 1280x800), save a picture of it to PATH after
// CONVERGE_SCREENSHOT_DELAY seconds (default 5) and quit; exit 1 when it cannot be saved.
// CONVERGE_SCREENSHOT_OPEN=TEXT opens a resource by name (and so expands it) two seconds in,
// and CONVERGE_SCREENSHOT_TAB=TITLE shows the details tab of that title (e.g. Timeline);
// CONVERGE_SCREENSHOT_EDIT=LINE then types LINE at the end of its spec (an unsaved edit).
void scheduleScreenshot(MainWindow &window)
{
    const QString path = qEnvironmentVariable("CONVERGE_SCREENSHOT");
    if (path.isEmpty())
        return;
    const QStringList size =
        qEnvironmentVariable("CONVERGE_SCREENSHOT_SIZE", QStringLiteral("1280x800"))
            .split(QLatin1Char('x'));
    window.resize(size.value(0).toInt(), size.value(1).toInt());
    const QString open = qEnvironmentVariable("CONVERGE_SCREENSHOT_OPEN");
    const QString tab = qEnvironmentVariable("CONVERGE_SCREENSHOT_TAB");
    const QString edit = qEnvironmentVariable("CONVERGE_SCREENSHOT_EDIT");
    if (!open.isEmpty())
        QTimer::singleShot(std::chrono::seconds(2), &window, [&window, open, tab, edit] {
            window.openByName(open);
            if (!edit.isEmpty())
                QTimer::singleShot(std::chrono::seconds(1), &window, [&window, edit] {
                    if (auto *spec =
                            window.findChild<QPlainTextEdit *>(QStringLiteral("specView"))) {
                        spec->moveCursor(QTextCursor::End);
                        spec->insertPlainText(QLatin1Char('\n') + edit);
                    }
                });
            if (tab.isEmpty())
                return;
            for (QTabWidget *tabs : window.findChildren<QTabWidget *>()) {
                for (int i = 0; i < tabs->count(); ++i) {
                    if (tabs->tabText(i).remove(QLatin1Char('&')) == tab)
                        tabs->setCurrentIndex(i);
                }
            }
        });
    bool ok = false;
    const int seconds = qEnvironmentVariableIntValue("CONVERGE_SCREENSHOT_DELAY", &ok);
    QTimer::singleShot(std::chrono::seconds(ok ? seconds : 5), &window, [&window, path] {
        const bool saved = window.grab().save(path);
        if (!saved)
            qWarning().noquote() << "converge: cannot save the screenshot to" << path;
        QCoreApplication::exit(saved ? 0 : 1);
    });
}

} // namespace

int main(int argc, char *argv[])
{
    // Before anything else, so that a crash anywhere leaves a report; a report left by an
    // earlier run is told once, on stderr.
    CrashReporter crashes(CrashReporter::defaultStateDir());
    // Qt's messages also go to a bounded log file beside the crash reports.
    const LogFile log(
        QDir(CrashReporter::defaultStateDir()).filePath(QStringLiteral("converge.log")));
    QStringList crashNotices;
    for (const QString &report : crashes.takeUnannouncedReports()) {
        crashNotices.append(CrashReporter::describe(report));
        qWarning().noquote() << "converge:" << crashNotices.constLast();
    }

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
    installTranslators(app);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "Declarative cloud resources, reconciled."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("workspace"),
                                 QCoreApplication::translate("main", "The workspace file to open."),
                                 QStringLiteral("[WORKSPACE]"));
    parser.process(app);

    QString given =
        parser.positionalArguments().isEmpty() ? QString() : parser.positionalArguments().first();
    if (given.isEmpty() && qEnvironmentVariableIsEmpty("CONVERGE_WORKSPACE")) {
        // The window reopens the last workspace (missing files are not offered).
        QSettings settings;
        given = RecentWorkspaces(settings).paths().value(0);
    }
    const QString path = Services::workspacePath(given);

    // The settings dialog's preferences: the engine's take effect here, at start.
    const WindowSettings preferences = WindowSettings::load(QSettings());
    WindowSettings::applyTheme(preferences.theme);

    // One process runs the controller of a workspace. When another one does (`converge run`,
    // another window), this window shows the workspace and follows what that process writes.
    Services services;
    Controller::Options options = services.controllerOptions();
    options.workers = preferences.workers;
    options.resyncPeriod = std::chrono::minutes(preferences.resyncMinutes);
    options.background = true; // the window's GUI thread comes first
    services.setControllerOptions(options);
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
    MainWindow window(
        WindowServices{services.kinds(), path, controller.get(), nullptr, services.keychain()});
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/converge.svg")));
    for (const QString &notice : std::as_const(crashNotices))
        window.showNotice(notice);
    scheduleScreenshot(window);
    window.show();
    return QApplication::exec();
}

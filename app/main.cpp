// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "buildinfo.h"
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QIcon>
#include <QStandardPaths>

using namespace converge;

namespace {

QString defaultWorkspacePath()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return QDir(dir).filePath(QStringLiteral("default.converge"));
}

} // namespace

int main(int argc, char *argv[])
{
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

    QString workspace = qEnvironmentVariable("CONVERGE_WORKSPACE");
    if (!parser.positionalArguments().isEmpty())
        workspace = parser.positionalArguments().constFirst();
    if (workspace.isEmpty())
        workspace = defaultWorkspacePath();

    MainWindow window(QDir::current().absoluteFilePath(workspace));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/converge.svg")));
    window.show();
    return QApplication::exec();
}

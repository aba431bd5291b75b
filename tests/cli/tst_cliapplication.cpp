// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "cliapplication.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace converge;

/// Which invocations are the command line and which open the window.
class tst_CliApplication final : public QObject
{
    Q_OBJECT

private slots:
    void wantsCli_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("cli");
        const auto row = [](const char *name, const QStringList &args, bool cli) {
            QTest::newRow(name) << (QStringList{QStringLiteral("converge")} + args) << cli;
        };
        const QString s = QStringLiteral("get");
        row("nothing: the window", {}, false);
        row("a workspace file", {QStringLiteral("dev.converge")}, false);
        row("a path", {QStringLiteral("./work")}, false);
        row("Qt's options", {QStringLiteral("-platform"), QStringLiteral("offscreen")}, false);
        row("Qt's options and a workspace",
            {QStringLiteral("-style"), QStringLiteral("fusion"), QStringLiteral("a.converge")},
            false);
        row("a command", {s}, true);
        row("a command after the workspace option",
            {QStringLiteral("--workspace"), QStringLiteral("get.converge"), s}, true);
        row("a command after a flag", {QStringLiteral("-q"), QStringLiteral("apply")}, true);
        row("help", {QStringLiteral("help")}, true);
        row("--help", {QStringLiteral("--help")}, true);
        row("--version", {QStringLiteral("--version")}, true);
        row("a global option alone", {QStringLiteral("--verbose")}, true);
        row("a mistyped command", {QStringLiteral("aply")}, true);
        row("explain with a dotted field path",
            {QStringLiteral("explain"), QStringLiteral("CloudWatchLogGroup.retentionDays")}, true);
    }

    void wantsCli()
    {
        QFETCH(QStringList, args);
        QFETCH(bool, cli);
        QCOMPARE(CliApplication::wantsCli(args), cli);
    }

    void anExistingFileIsAWorkspaceWhateverItsName()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir::setCurrent(dir.path()));
        QFile file(QStringLiteral("work"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        QVERIFY(!CliApplication::wantsCli({QStringLiteral("converge"), QStringLiteral("work")}));
        QVERIFY(CliApplication::wantsCli({QStringLiteral("converge"), QStringLiteral("wrok")}));
    }
};

QTEST_GUILESS_MAIN(tst_CliApplication)
#include "tst_cliapplication.moc"

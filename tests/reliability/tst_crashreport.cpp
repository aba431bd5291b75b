// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// A crash leaves a trace: the real `converge run`, killed with SIGSEGV, writes crash-PID.txt in
// its state folder (time, version, signal, the crashing thread's backtrace, every thread's from
// gdb when it is installed), and the next start says once, on stderr, where it is.
#include "workspace.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace converge;

namespace {

QProcessEnvironment environment(const QString &stateHome)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_STATE_HOME"), stateHome);
    env.remove(QStringLiteral("CONVERGE_WORKSPACE"));
    return env;
}

QByteArray runCommand(const QString &stateHome, const QStringList &arguments)
{
    QProcess p;
    p.setProcessEnvironment(environment(stateHome));
    p.start(QString::fromUtf8(CONVERGE_EXECUTABLE), arguments);
    p.waitForFinished(60000);
    return p.readAllStandardError();
}

} // namespace

class tst_CrashReport final : public QObject
{
    Q_OBJECT

private slots:
    void aFatalSignalLeavesAReportToldOnce()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString workspace = dir.filePath(QStringLiteral("w.converge"));
        QVERIFY(Workspace::open(workspace, nullptr));
        const QString stateHome = dir.filePath(QStringLiteral("state"));
        const QString reports = QDir(stateHome).filePath(QStringLiteral("converge"));

        QProcess run;
        run.setProcessEnvironment(environment(stateHome));
        run.start(QString::fromUtf8(CONVERGE_EXECUTABLE),
                  {QStringLiteral("run"), QStringLiteral("--workspace"), workspace});
        QVERIFY(run.waitForStarted(10000));
        // Running once it holds the controller lock.
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(workspace + QStringLiteral(".lock")), 30000);
        const qint64 pid = run.processId();
        ::kill(pid_t(pid), SIGSEGV);
        QVERIFY(run.waitForFinished(120000)); // gdb takes a few seconds
        QCOMPARE(run.exitStatus(), QProcess::CrashExit);

        const QString report = QDir(reports).filePath(QStringLiteral("crash-%1.txt").arg(pid));
        QFile file(report);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(report));
        const QByteArray text = file.readAll();
        QVERIFY2(text.startsWith("Converge "), text.left(200).constData());
        QVERIFY2(text.contains("\nsignal: 11 (SIGSEGV)"), text.left(400).constData());
        QVERIFY(text.contains("\ntime: "));
        QVERIFY(text.contains("== the crashing thread =="));
        QVERIFY2(text.contains("converge"), "the backtrace names the executable");
        if (!QStandardPaths::findExecutable(QStringLiteral("gdb")).isEmpty())
            QVERIFY2(text.contains("Thread 1"), "gdb's backtrace of every thread");
        QCOMPARE(QFileInfo(report).permissions() &
                     (QFileDevice::ReadOther | QFileDevice::ReadGroup),
                 QFileDevice::Permissions());

        // The next start says so once, and where; the one after says nothing.
        const QByteArray first = runCommand(
            stateHome, {QStringLiteral("get"), QStringLiteral("--workspace"), workspace});
        QVERIFY2(first.contains("Converge crashed on "), first.constData());
        QVERIFY2(first.contains("(signal 11 (SIGSEGV))"), first.constData());
        QVERIFY2(first.contains(QFile::encodeName(
                     QDir(reports).filePath(QStringLiteral("crash-%1.reported.txt").arg(pid)))),
                 first.constData());
        const QByteArray second = runCommand(
            stateHome, {QStringLiteral("get"), QStringLiteral("--workspace"), workspace});
        QVERIFY2(!second.contains("crashed"), second.constData());
    }
};

QTEST_MAIN(tst_CrashReport)
#include "tst_crashreport.moc"

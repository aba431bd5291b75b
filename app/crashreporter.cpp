// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "crashreporter.h"

#include "buildinfo.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <atomic>
#include <csignal>
#include <cstring>
#include <ctime>
#include <exception>

#include <execinfo.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace converge {

namespace {

// Everything the handlers touch: prepared by the constructor, read-only afterwards.
char g_reportPath[4096];
char g_version[64];
char g_reason[1024];
bool g_installed = false;
std::atomic_flag g_reporting = ATOMIC_FLAG_INIT;
QtMessageHandler g_previousHandler = nullptr;
std::terminate_handler g_previousTerminate = nullptr;

constexpr int fatalSignals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
struct sigaction g_previousActions[std::size(fatalSignals)];

const char *signalName(int sig)
{
    switch (sig) {
    case SIGSEGV:
        return "SIGSEGV";
    case SIGBUS:
        return "SIGBUS";
    case SIGABRT:
        return "SIGABRT";
    case SIGFPE:
        return "SIGFPE";
    case SIGILL:
        return "SIGILL";
    default:
        return "?";
    }
}

// Async-signal-safe output: write(2) only, no allocation.
void writeAll(int fd, const char *text, size_t length)
{
    while (length > 0) {
        const ssize_t written = ::write(fd, text, length);
        if (written <= 0)
            return;
        text += written;
        length -= size_t(written);
    }
}

void writeText(int fd, const char *text)
{
    writeAll(fd, text, std::strlen(text));
}

void writeNumber(int fd, long long value)
{
    char digits[32];
    int i = int(sizeof digits) - 1;
    digits[i] = '\0';
    const bool negative = value < 0;
    unsigned long long rest = negative ? 0ULL - static_cast<unsigned long long>(value)
                                       : static_cast<unsigned long long>(value);
    do {
        digits[--i] = char('0' + rest % 10);
        rest /= 10;
    } while (rest > 0 && i > 1);
    if (negative)
        digits[--i] = '-';
    writeText(fd, digits + i);
}

// Every thread's stack from gdb, when it is installed; bounded so that a stuck gdb cannot
// keep a dead process alive.
void appendAllThreads(int fd)
{
    char pid[32];
    {
        int i = int(sizeof pid) - 1;
        pid[i] = '\0';
        for (long long rest = ::getpid(); rest > 0 && i > 0; rest /= 10)
            pid[--i] = char('0' + rest % 10);
        std::memmove(pid, pid + i, sizeof pid - size_t(i));
    }
    ::prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0); // Yama: let the child attach
    const pid_t child = ::fork();
    if (child == 0) {
        ::dup2(fd, STDOUT_FILENO);
        ::dup2(fd, STDERR_FILENO);
        ::execlp("gdb", "gdb", "-nx", "-batch", "-p", pid, "-ex", "set pagination off", "-ex",
                 "thread apply all bt", static_cast<char *>(nullptr));
        ::_exit(127);
    }
    if (child < 0)
        return;
    for (int waited = 0; waited < 600; ++waited) { // 60 s
        int status = 0;
        if (::waitpid(child, &status, WNOHANG) == child)
            return;
        const timespec tick{0, 100 * 1000 * 1000};
        ::nanosleep(&tick, nullptr);
    }
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
}

void writeReport(int sig, const char *reason)
{
    if (g_reporting.test_and_set())
        return; // a second failure while reporting the first: the first report stands
    const int fd = ::open(g_reportPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    writeText(fd, "Converge ");
    writeText(fd, g_version);
    writeText(fd, " crashed\ntime: ");
    writeNumber(fd, static_cast<long long>(std::time(nullptr)));
    writeText(fd, "\npid: ");
    writeNumber(fd, ::getpid());
    if (sig != 0) {
        writeText(fd, "\nsignal: ");
        writeNumber(fd, sig);
        writeText(fd, " (");
        writeText(fd, signalName(sig));
        writeText(fd, ")");
    }
    if (reason && *reason) {
        writeText(fd, "\nreason: ");
        writeText(fd, reason);
    }
    writeText(fd, "\n\n== the crashing thread ==\n");
    void *frames[128];
    const int count = ::backtrace(frames, int(std::size(frames)));
    ::backtrace_symbols_fd(frames, count, fd);
    writeText(fd, "\n== every thread (gdb) ==\n");
    appendAllThreads(fd);
    ::close(fd);
}

void onFatalSignal(int sig)
{
    writeReport(sig, g_reason);
    // Die of the same signal, as the shell and a core dump expect.
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

void copyReason(const char *prefix, const char *text)
{
    std::snprintf(g_reason, sizeof g_reason, "%s%s", prefix, text ? text : "");
}

void onMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtFatalMsg)
        copyReason("qFatal: ", message.toLocal8Bit().constData()); // abort() reports it
    if (g_previousHandler)
        g_previousHandler(type, context, message);
}

void onTerminate()
{
    const char *what = "no exception";
    if (const std::exception_ptr current = std::current_exception()) {
        try {
            std::rethrow_exception(current);
        } catch (const std::exception &e) {
            copyReason("uncaught exception: ", e.what());
            what = nullptr;
        } catch (...) {
            what = "an uncaught exception that is not a std::exception";
        }
    }
    if (what)
        copyReason("terminate: ", what);
    std::abort(); // SIGABRT writes the report with this reason
}

} // namespace

CrashReporter::CrashReporter(const QString &stateDir)
    : m_stateDir(stateDir)
{
    if (g_installed)
        return; // one reporter per process; a second one only reads
    QDir().mkpath(m_stateDir);
    const QByteArray path = QFile::encodeName(
        QDir(m_stateDir).filePath(QStringLiteral("crash-%1.txt").arg(::getpid())));
    std::snprintf(g_reportPath, sizeof g_reportPath, "%s", path.constData());
    std::snprintf(g_version, sizeof g_version, "%s", BuildInfo::version().toUtf8().constData());
    g_reason[0] = '\0';
    // backtrace() loads libgcc on its first call, which must not happen in a handler.
    void *warmUp[1];
    ::backtrace(warmUp, 1);
    // A stack overflow has no stack left for the handler: give it one of its own.
    static char alternateStack[64 * 1024];
    stack_t stack{};
    stack.ss_sp = alternateStack;
    stack.ss_size = sizeof alternateStack;
    ::sigaltstack(&stack, nullptr);
    for (size_t i = 0; i < std::size(fatalSignals); ++i) {
        struct sigaction action
        {};
        action.sa_handler = onFatalSignal;
        action.sa_flags = SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        ::sigaction(fatalSignals[i], &action, &g_previousActions[i]);
    }
    g_previousHandler = qInstallMessageHandler(onMessage);
    g_previousTerminate = std::set_terminate(onTerminate);
    g_installed = true;
}

CrashReporter::~CrashReporter()
{
    if (!g_installed)
        return;
    for (size_t i = 0; i < std::size(fatalSignals); ++i)
        ::sigaction(fatalSignals[i], &g_previousActions[i], nullptr);
    qInstallMessageHandler(g_previousHandler);
    std::set_terminate(g_previousTerminate);
    g_installed = false;
}

QString CrashReporter::defaultStateDir()
{
    QString base = qEnvironmentVariable("XDG_STATE_HOME");
    if (base.isEmpty())
        base = QDir::home().filePath(QStringLiteral(".local/state"));
    return QDir(base).filePath(QStringLiteral("converge"));
}

QStringList CrashReporter::takeUnannouncedReports()
{
    QStringList taken;
    const QDir dir(m_stateDir);
    static const QRegularExpression name(QStringLiteral("^crash-[0-9]+\\.txt$"));
    QFileInfoList files = dir.entryInfoList({QStringLiteral("crash-*.txt")}, QDir::Files);
    std::sort(files.begin(), files.end(), [](const QFileInfo &a, const QFileInfo &b) {
        return a.lastModified() < b.lastModified();
    });
    const QString own = QFileInfo(QFile::decodeName(g_reportPath)).fileName();
    for (const QFileInfo &file : std::as_const(files)) {
        if (!name.match(file.fileName()).hasMatch() || (g_installed && file.fileName() == own))
            continue;
        const QString announced =
            file.absoluteFilePath().chopped(4) + QStringLiteral(".reported.txt");
        QFile::remove(announced);
        if (QFile::rename(file.absoluteFilePath(), announced))
            taken.append(announced);
    }
    return taken;
}

QString CrashReporter::describe(const QString &reportPath)
{
    QFile file(reportPath);
    QString when;
    QString cause;
    if (file.open(QIODevice::ReadOnly)) {
        for (int i = 0; i < 8 && !file.atEnd(); ++i) {
            const QString line = QString::fromUtf8(file.readLine()).trimmed();
            if (line.startsWith(QLatin1String("time: ")))
                when = QDateTime::fromSecsSinceEpoch(line.mid(6).toLongLong())
                           .toLocalTime()
                           .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
            else if (line.startsWith(QLatin1String("signal: ")))
                cause = QStringLiteral("signal ") + line.mid(8);
            else if (line.startsWith(QLatin1String("reason: ")) && cause.isEmpty())
                cause = line.mid(8);
        }
    }
    return QStringLiteral("Converge crashed%1%2; the report is %3")
        .arg(when.isEmpty() ? QString() : QStringLiteral(" on ") + when,
             cause.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(cause), reportPath);
}

} // namespace converge

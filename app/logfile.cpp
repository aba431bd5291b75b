// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "logfile.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <memory>
#include <mutex>

namespace converge {

namespace {

struct State
{
    std::mutex mutex;
    std::unique_ptr<QFile> file;
    QString path;
    qint64 maxBytes = 0;
    QtMessageHandler previous = nullptr;
};

State &state()
{
    static State s;
    return s;
}

const char *levelName(QtMsgType type)
{
    switch (type) {
    case QtDebugMsg:
        return "debug";
    case QtInfoMsg:
        return "info";
    case QtWarningMsg:
        return "warning";
    case QtCriticalMsg:
        return "critical";
    case QtFatalMsg:
        return "fatal";
    }
    return "message";
}

// Under the state's mutex.
void rotateIfFull(State &s)
{
    if (!s.file || s.file->size() < s.maxBytes)
        return;
    s.file->close();
    const QString old = s.path + QStringLiteral(".1");
    QFile::remove(old);
    QFile::rename(s.path, old);
    s.file->setFileName(s.path);
    if (!s.file->open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Text))
        s.file.reset();
}

void onMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    State &s = state();
    {
        const std::lock_guard lock(s.mutex);
        if (s.file) {
            const QByteArray line = QDateTime::currentDateTimeUtc()
                                        .toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzzZ "))
                                        .toUtf8() +
                                    levelName(type) + ' ' +
                                    (context.category ? context.category : "default") + ": " +
                                    message.toUtf8() + '\n';
            s.file->write(line);
            s.file->flush(); // a crash right after must not lose the line
            rotateIfFull(s);
        }
    }
    if (s.previous)
        s.previous(type, context, message);
}

} // namespace

LogFile::LogFile(const QString &path, qint64 maxBytes)
    : m_path(path)
{
    State &s = state();
    const std::lock_guard lock(s.mutex);
    QDir().mkpath(QFileInfo(path).absolutePath());
    s.path = path;
    s.maxBytes = std::max<qint64>(maxBytes, 1024);
    s.file = std::make_unique<QFile>(path);
    if (!s.file->open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Text))
        s.file.reset();
    rotateIfFull(s);
    s.previous = qInstallMessageHandler(onMessage);
}

LogFile::~LogFile()
{
    State &s = state();
    qInstallMessageHandler(s.previous);
    const std::lock_guard lock(s.mutex);
    s.file.reset();
    s.previous = nullptr;
}

bool LogFile::isOpen() const
{
    State &s = state();
    const std::lock_guard lock(s.mutex);
    return s.file != nullptr;
}

} // namespace converge
